// The one wording of each bridge request's fields, from the validator's request tables: bridge-protocol.md and
// contract.md both print requestSections(), so the two documents cannot describe a field differently.
import { ACTION_SPECS, CAPABILITIES, FORM_FIELDS, groupDigits, type ActionSpec, type FieldSpec } from '../validator/internal.js';

/** A field's type, bounds and default, in words. */
export function fieldRule(spec: FieldSpec): string {
  let rule: string;
  switch (spec.kind) {
    case 'string':
      rule = spec.min !== undefined && spec.min > 0 ? `string, ${spec.min} to ${groupDigits(spec.max!)} characters` : `string, at most ${groupDigits(spec.max!)} characters`;
      break;
    case 'integer':
      rule = spec.max === Number.MAX_SAFE_INTEGER ? `positive integer (1 to ${Number.MAX_SAFE_INTEGER})` : `integer, ${groupDigits(spec.min!)} to ${groupDigits(spec.max!)}`;
      break;
    case 'number':
      rule = 'finite number';
      break;
    case 'boolean':
      rule = 'boolean';
      break;
    case 'date':
      rule = 'string `YYYY-MM-DD`, a real calendar date';
      break;
    case 'date-time':
      rule = `string, at most ${spec.max} characters, a date-time with an offset: \`YYYY-MM-DDTHH:MM\`, optional \`:SS\` and \`.fraction\`, then \`Z\`, \`±HH:MM\`, \`±HHMM\` or \`±HH\` (D-27)`;
      break;
    case 'choice':
      rule = `one of ${spec.choices!.map((c) => `\`${JSON.stringify(c)}\``).join(', ')}`;
      break;
    case 'object':
      rule = spec.variantOf !== undefined ? `object, closed; its fields depend on \`${spec.variantOf}\` (below)` : 'object, closed';
      break;
  }
  return spec.default === undefined ? rule : `${rule}; default \`${JSON.stringify(spec.default)}\`${spec.nullIsDefault === true ? ' (also for `null`)' : ''}`;
}

function fieldRows(spec: FieldSpec, prefix: string): string[] {
  const rows = [`| \`${prefix}${spec.name}\` | ${spec.required ? 'required' : 'optional'} | ${fieldRule(spec)} |`];
  if (spec.fields !== undefined) for (const inner of spec.fields) rows.push(...fieldRows(inner, `${prefix}${spec.name}.`));
  return rows;
}

function fieldTable(fields: readonly FieldSpec[], prefix = ''): string {
  return ['| Field | Presence | Rule |', '| --- | --- | --- |', ...fields.flatMap((f) => fieldRows(f, prefix))].join('\n');
}

/** One request: a heading at `level` naming capability, action and method, then its fields. */
export function requestSection(spec: ActionSpec, level: number): string {
  const def = CAPABILITIES.find((c) => c.key === spec.capability)!;
  const body = spec.fields.length === 0 ? 'Payload: `{}` (no fields; an absent payload is `{}`).' : fieldTable(spec.fields);
  return `${'#'.repeat(level)} \`${spec.capability}\`, action \`${spec.action}\` (${def.method})\n\n${body}\n`;
}

/** Each form's fields (`forms.submit`, field `fields`) under a heading at `level`. */
export function formFieldsSection(level: number): string {
  const forms = Object.entries(FORM_FIELDS).map(([form, fields]) => `\`form: "${form}"\`:\n\n${fieldTable(fields, 'fields.')}\n`);
  return `${'#'.repeat(level)} Form fields (\`forms.submit\`, field \`fields\`)\n\n${forms.join('\n')}`;
}

/** Every request's section in ACTION_SPECS order, then the form fields and the readings the tool takes. */
export function requestSections(level: number): string {
  return `Characters are UTF-16 code units (what JavaScript's \`length\` counts, D-10). A payload is a closed
object: a field not listed is \`INVALID_REQUEST\`. The host hands the adapters the normalized payload:
defaults applied, fields in this order.

${ACTION_SPECS.map((spec) => requestSection(spec, level)).join('\n')}
${formFieldsSection(level)}
Every contact field is optional, as the contract does not say which are mandatory (D-26); an empty
string is accepted, and whether the site takes it is the site's answer (\`{ok: false}\`). \`preview
--strict-host\` requires every text field, a tool choice. \`startsAt\`/\`endsAt\` must carry an offset, as
the contract says the host uses them as date-times (D-27). \`properties\` of \`analytics.track\` is
\`{}\` when absent.
`;
}
