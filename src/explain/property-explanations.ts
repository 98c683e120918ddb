// Long explanations of the property rules (src/validator/catalogue/property-rules.ts), joined into the
// table of src/explain/all-explanations.ts.
import { DEFAULTS_MAX_BYTES, HELP_MAX_BYTES, LABEL_MAX_BYTES, LABEL_MIN_BYTES, OPTION_TEXT_MAX_CHARS, OPTION_TEXT_MIN_CHARS, PROPERTY_NAME_MAX_CHARS, SELECT_OPTIONS_MAX, SELECT_OPTIONS_MIN, SETTINGS_MAX_BYTES, URL_PORT_MAX_DIGITS, VALUE_MAX_BYTES, groupDigits } from '../validator/internal.js';
import type { Explanation } from './explanation-kit.js';

export function propertyExplanations(): Record<string, Explanation> {
  return {
    'property/name': {
      text: `Property names are the keys of properties, of saved settings, and of the object PLATFORM.settings() returns: a lowercase letter first, then letters, digits and underscores, at most ${PROPERTY_NAME_MAX_CHARS} characters (contract "Manifest"). Hyphens, dots and spaces are refused, so every name is also a plain JavaScript identifier.`,
      example: { file: 'manifest.json', before: '"Headline-Color": {"type": "color", …}', after: '"headline_color": {"type": "color", …}' },
    },
    'property/wrong-type': {
      text: 'A definition and each option is an object; type, label, help and option texts are strings; required is a boolean; min and max are numbers; options is an array. Saved settings (preview, store) are one plain JSON object: a Map, a class instance or an object with another prototype is refused, since it would not be read as the store reads JSON. Values are never converted: "true" is not true.',
      example: {
        file: 'manifest.json',
        before: '"columns": {"type": "number", "label": "Columns", "required": "yes", "max": "6"}',
        after: '"columns": {"type": "number", "label": "Columns", "required": true, "max": 6, "default": 3}',
      },
    },
    'property/unknown-field': {
      text: 'Property definitions are closed like the manifest (contract rule 6): type, label, default, required, help, options, min and max; an option has only label and value. Fields that other builders know (placeholder, step, description) are refused.',
      example: {
        file: 'manifest.json',
        before: '"title": {"type": "text", "label": "Title", "placeholder": "Welcome"}',
        after: '"title": {"type": "text", "label": "Title", "help": "For example: Welcome"}',
      },
    },
    'property/missing-field': {
      text: 'Every definition needs a type and a label; every select option needs a label and a value. Without them the builder cannot show a control.',
      example: { file: 'manifest.json', before: '"accent": {"type": "color"}', after: '"accent": {"type": "color", "label": "Accent colour"}' },
    },
    'property/unknown-type': {
      text: 'type is one of the eight property types: boolean, color, image, number, select, text, textarea and url. Each maps to one builder control and one value rule.',
      example: { file: 'manifest.json', before: '"title": {"type": "string", "label": "Title"}', after: '"title": {"type": "text", "label": "Title"}' },
    },
    'property/label-length': {
      text: `The label shown next to the control is ${LABEL_MIN_BYTES} to ${LABEL_MAX_BYTES} bytes of UTF-8 (contract "Limits"; D-10 counts bytes).`,
      example: { file: 'manifest.json', before: '"accent": {"type": "color", "label": ""}', after: '"accent": {"type": "color", "label": "Accent colour"}' },
    },
    'property/help-length': {
      text: `The optional help text under the control is at most ${HELP_MAX_BYTES} bytes of UTF-8 (contract "Limits"; D-10). Keep it to a sentence; longer documentation belongs in the listing.`,
      example: {
        file: 'manifest.json',
        before: '"help": "This colour is used for the headline, the buttons, the borders … (several sentences)"',
        after: '"help": "Used for the headline and buttons"',
      },
    },
    'property/options-missing': {
      text: 'A select offers only its options, so it needs an options array (contract "Errors": a select lacks options). Without it no value could ever be valid.',
      example: {
        file: 'manifest.json',
        before: '"layout": {"type": "select", "label": "Layout"}',
        after: '"layout": {"type": "select", "label": "Layout", "default": "grid",\n  "options": [{"label": "Grid", "value": "grid"}, {"label": "List", "value": "list"}]}',
      },
    },
    'property/options-forbidden': {
      text: 'options belong to select only; on any other type the builder would ignore them and the value rule would not use them, so they are refused.',
      example: {
        file: 'manifest.json',
        before: '"size": {"type": "text", "label": "Size", "options": [{"label": "Small", "value": "s"}]}',
        after: '"size": {"type": "select", "label": "Size", "options": [{"label": "Small", "value": "s"}]}',
      },
    },
    'property/options-count': {
      text: `A select has ${SELECT_OPTIONS_MIN} to ${SELECT_OPTIONS_MAX} options (contract "Limits"). An empty list offers nothing; a longer list is better served by a text property.`,
      example: {
        file: 'manifest.json',
        before: '"size": {"type": "select", "label": "Size", "options": []}',
        after: '"size": {"type": "select", "label": "Size", "options": [{"label": "Small", "value": "s"}]}',
      },
    },
    'property/option-length': {
      text: `Each option label and value is a string of ${OPTION_TEXT_MIN_CHARS} to ${OPTION_TEXT_MAX_CHARS} characters, counted as UTF-16 code units (D-10). An empty value could not be told apart from no setting.`,
      example: { file: 'manifest.json', before: '{"label": "None", "value": ""}', after: '{"label": "None", "value": "none"}' },
    },
    'property/option-duplicate': {
      text: 'The options of a select are unique {label, value} objects (contract "Property definition"; D-40): the same label with the same value twice is an error, as it offers one choice twice. Labels may repeat under different values; a value repeated under another label is the warning property/option-value-repeated.',
      example: {
        file: 'manifest.json',
        before: '[{"label": "Small", "value": "s"}, {"label": "Small", "value": "s"}]',
        after: '[{"label": "Small", "value": "s"}]',
      },
    },
    'property/option-value-repeated': {
      text: 'Two options carry the same value under different labels. The contract asks only for unique {label, value} objects, so this is allowed, but a saved setting stores only the value: once saved, the store user cannot tell which of the labels was chosen (D-40). A warning; give each option its own value unless the labels are true synonyms.',
      example: {
        file: 'manifest.json',
        before: '[{"label": "Small", "value": "s"}, {"label": "Short", "value": "s"}]',
        after: '[{"label": "Small", "value": "small"}, {"label": "Short", "value": "short"}]',
      },
    },
    'property/range-forbidden': {
      text: 'min and max bound number properties only; on other types they would mean nothing, so they are refused.',
      example: {
        file: 'manifest.json',
        before: '"title": {"type": "text", "label": "Title", "max": 40}',
        after: '"title": {"type": "text", "label": "Title", "help": "Up to 40 characters"}',
      },
    },
    'property/range-inverted': {
      text: 'min must not be greater than max: with an inverted range no value, default or setting, could be valid.',
      example: { file: 'manifest.json', before: '"columns": {"type": "number", "label": "Columns", "min": 6, "max": 1}', after: '"columns": {"type": "number", "label": "Columns", "min": 1, "max": 6}' },
    },
    'property/value-type': {
      text: 'A default, and every saved setting, has its property\'s type: true or false for boolean, a finite number for number, a string for every other type (D-7; contract "Errors": a default does not match its type). Quoted numbers and booleans are strings. A saved string must also be Unicode text: one holding a lone surrogate is refused, as the manifest\'s reader refuses it in a default.',
      example: { file: 'manifest.json', before: '"columns": {"type": "number", "label": "Columns", "default": "3"}', after: '"columns": {"type": "number", "label": "Columns", "default": 3}' },
    },
    'property/value-too-large': {
      text: `String values have a UTF-8 byte limit per type (contract "Limits"; D-10): color ${VALUE_MAX_BYTES.color}, select ${VALUE_MAX_BYTES.select}, text ${VALUE_MAX_BYTES.text}, textarea ${VALUE_MAX_BYTES.textarea}, url ${VALUE_MAX_BYTES.url} and image ${VALUE_MAX_BYTES.image}. A longer text usually wants the textarea type; longer content belongs in the bundle.`,
      example: {
        file: 'manifest.json',
        before: '"intro": {"type": "text", "label": "Intro", "default": "Welcome to … (two paragraphs)"}',
        after: '"intro": {"type": "textarea", "label": "Intro", "default": "Welcome to … (two paragraphs)"}',
      },
    },
    'property/value-format': {
      text: `A color is "#" and six or eight hex digits (#rrggbb or #rrggbbaa; no names, #rgb or rgb()). A url or image (D-9) is empty, or site-relative (one leading "/", no whitespace, backslash or control characters), or an http or https URL whose host is a DNS name, an IPv4 address or a bracketed IPv6 address, with an optional port of 1 to ${URL_PORT_MAX_DIGITS} digits and no user:password@. The store builder and the frame then read every value the same way.`,
      example: {
        file: 'manifest.json',
        before: '"accent": {"type": "color", "label": "Accent", "default": "red"},\n"logo": {"type": "image", "label": "Logo", "default": "www.example.com/logo.png"}',
        after: '"accent": {"type": "color", "label": "Accent", "default": "#ff0000"},\n"logo": {"type": "image", "label": "Logo", "default": "https://www.example.com/logo.png"}',
      },
    },
    'property/value-not-option': {
      text: 'A select default or saved setting equals the value of one of its options exactly (D-7): the value, not the label, compared case-sensitively.',
      example: { file: 'manifest.json', before: '"default": "Grid",   (the option is {"label": "Grid", "value": "grid"})', after: '"default": "grid",' },
    },
    'property/value-out-of-range': {
      text: 'A number default or saved setting lies within min and max, both inclusive (D-7).',
      example: { file: 'manifest.json', before: '"columns": {"type": "number", "label": "Columns", "min": 1, "max": 6, "default": 0}', after: '"columns": {"type": "number", "label": "Columns", "min": 1, "max": 6, "default": 1}' },
    },
    'property/required-default': {
      text: 'required: true means the value is never empty, so the extension must work right after installation: a string-valued type (color, image, select, text, textarea, url) needs a default with at least one non-whitespace character, and a boolean or number needs a default at all (D-8; contract "Errors": a required string property has a blank default).',
      example: {
        file: 'manifest.json',
        before: '"title": {"type": "text", "label": "Title", "required": true, "default": " "}',
        after: '"title": {"type": "text", "label": "Title", "required": true, "default": "Book a lane"}',
      },
    },
    'property/defaults-too-large': {
      text: `All defaults together are at most ${groupDigits(DEFAULTS_MAX_BYTES)} bytes, measured as the UTF-8 length of JSON.stringify of the object that maps each property with a default to that default (D-6). Long texts belong in the bundle, not in defaults.`,
      example: {
        file: 'manifest.json',
        before: '"terms": {"type": "textarea", "label": "Terms", "default": "… (the full terms, 4 KB)"}, … (five of these)',
        after: '"terms_url": {"type": "url", "label": "Terms page", "default": "/pages/terms"}',
      },
    },
    'property/setting-unknown': {
      text: 'Saved settings may name only properties of the manifest; the store rejects unknown settings. This happens after a property was renamed or removed while settings (for example in preview) still use the old name.',
      example: { file: 'settings', before: '{"headline": "Hi", "old_title": "Welcome"}', after: '{"headline": "Hi"}' },
    },
    'property/settings-too-large': {
      text: `Saved settings are at most ${groupDigits(SETTINGS_MAX_BYTES)} bytes, measured like defaults: the UTF-8 length of JSON.stringify of the settings object (D-6).`,
      example: {
        file: 'settings',
        before: '{"intro": "… (a long text pasted into every textarea)", …}',
        after: '{"intro": "A short welcome", …}',
      },
    },
  };
}
