// Long explanations of the baseline rules (src/validator/catalogue/baseline-rules.ts), joined into the
// table of src/explain/all-explanations.ts.
import { VALUE_MAX_BYTES } from '../validator/internal.js';
import type { Explanation } from './explanation-kit.js';

/** `check --baseline`: the release diff (src/validator/release-diff.ts; catalogue/baseline.ts says why each severity). */
export function baselineExplanations(): Record<string, Explanation> {
  return {
    'baseline/version-not-higher': {
      text: 'An approved version can never be reused, and any change after approval needs a higher version (contract "Versioning"). Versions compare by semantic-version precedence: numbers field by field, a pre-release (1.1.0-rc.1) below its release, pre-release identifiers left to right with numeric ones below words, and build metadata after "+" ignored, so 1.0.0+build.2 is not higher than 1.0.0. Only a submission that was never approved (rejected, withdrawn, failed validation) may be corrected under the same version.',
      example: { file: 'manifest.json', before: '"version": "1.2.0"   (baseline release: 1.2.0)', after: '"version": "1.2.1"' },
    },
    'baseline/namespace-changed': {
      text: 'A namespace is immutable once registered and unchanged across releases (contract "Manifest" and "Versioning"): it names the extension in every store and in the storage path extensions/{namespace}/{version}/bundle.zip. A release under another namespace is a different extension, not an upgrade of the baseline.',
      example: { file: 'manifest.json', before: '"namespace": "acme/lanes-widget"   (baseline: acme/lanes)', after: '"namespace": "acme/lanes"' },
    },
    'baseline/capability-added': {
      text: 'Declaring a capability does not grant it. When a later release adds one, every store that installed the extension gets a new permission review, and the capability stays off until a store user approves it (contract "States and transitions"). Until then its calls reject with CAPABILITY_NOT_GRANTED, so the new code must handle that error instead of failing.',
      example: { file: 'runtime/main.js', before: 'const theme = await PLATFORM.theme.read();', after: 'const theme = await PLATFORM.theme.read().catch((e) => (e.code === "CAPABILITY_NOT_GRANTED" ? null : Promise.reject(e)));' },
    },
    'baseline/capability-removed': {
      text: 'When a later release drops a capability, stores lose its grant automatically on upgrade (contract "States and transitions"), and adding it back in a still later release means another permission review. Any code left that calls it rejects with CAPABILITY_NOT_GRANTED.',
      example: { file: 'manifest.json', before: '"capabilities": ["catalog.products.read"]   (baseline also had "cart.manage"; main.js still calls PLATFORM.cart.manage)', after: '"capabilities": ["catalog.products.read", "cart.manage"]' },
    },
    'baseline/property-removed': {
      text: 'Saved settings persist through upgrades, and property names should be preserved across releases (contract "Versioning"). A setting that names no property of the manifest is refused (contract "Property definition"), so removing a property leaves every store that saved a value for it with a setting its new release rejects. The contract says names "should" be kept, so this is a warning (D-28) that `--strict` turns into a failure. Keep the definition and stop using it instead.',
      example: { file: 'manifest.json', before: '"properties": {}   (baseline had "heading")', after: '"properties": {"heading": {"type": "text", "label": "Heading (no longer shown)"}}' },
    },
    'baseline/property-retyped': {
      text: `Saved settings persist through upgrades, so a value saved under the old type is checked against the new one (contract "Versioning" and "Property definition"; D-7). A change is compatible only when every value of the old type is valid for the new one: url and image share one rule; text (${VALUE_MAX_BYTES.text} bytes) widens to textarea (${VALUE_MAX_BYTES.textarea} bytes); select and color widen to text or textarea. Anything else (text to number, textarea to text, text to select) breaks saved values. The contract says types "should" be kept, so this is a warning (D-28) that --strict turns into a failure.`,
      example: { file: 'manifest.json', before: '"count": {"type": "text", "label": "Count"}   (baseline type: text)\n"count": {"type": "number", "label": "Count"}', after: '"count": {"type": "text", "label": "Count"}\n"item_count": {"type": "number", "label": "Count"}' },
    },
    'baseline/property-narrowed': {
      text: 'The property keeps a compatible type but accepts fewer values than in the baseline release: a select lost option values, or a number gained a tighter min or max (D-7). Stores that saved one of the values now outside would hold a setting the new release refuses; the tool cannot see saved values, so this is a warning.',
      example: { file: 'manifest.json', before: '"options": [{"label": "Grid", "value": "grid"}]   (baseline also had "row")', after: '"options": [{"label": "Grid", "value": "grid"}, {"label": "Single row", "value": "row"}]' },
    },
  };
}
