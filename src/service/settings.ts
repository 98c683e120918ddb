// Saved settings, checked with the validator's own value rules: what a store saves, and what
// PLATFORM.ready's snapshot holds after an upgrade.
import { FindingList, validateSettings, type PropertyDef } from '../validator/index.js';
import { refuse } from './decide.js';

type Values = Record<string, boolean | number | string>;

export function checkSavedSettings(properties: readonly PropertyDef[], settings: Values, pointerBase = '/settings'): void {
  const findings = new FindingList();
  validateSettings(properties, settings, findings, pointerBase);
  const errors = findings.items.filter((f) => f.severity === 'error');
  const first = (rule: string) => errors.find((f) => f.rule === rule);
  const unknown = first('property/setting-unknown');
  if (unknown !== undefined) refuse('service/setting-unknown', unknown.message, unknown.pointer);
  const large = first('property/settings-too-large');
  if (large !== undefined) refuse('service/settings-too-large', large.message, large.pointer);
  const bad = errors[0];
  if (bad !== undefined) refuse('service/setting-invalid', `${bad.message} [${bad.rule}]`, bad.pointer);
}

/** The release's defaults, overlaid by each saved value its property still accepts (D-43). */
export function effectiveSettings(properties: readonly PropertyDef[], saved: Values): Values {
  const out: Values = {};
  for (const def of properties) {
    if (Object.hasOwn(saved, def.name)) {
      const findings = new FindingList();
      validateSettings([def], { [def.name]: saved[def.name]! }, findings);
      if (!findings.items.some((f) => f.severity === 'error')) {
        out[def.name] = saved[def.name]!;
        continue;
      }
    }
    if (def.default !== undefined) out[def.name] = def.default;
  }
  return out;
}
