// contract-snapshot/platform.d.ts: closed declarations of `window.PLATFORM` from the bridge's tables, so checkJs
// reports a misspelt method, capability or field before the bridge refuses it. A global script (no import or
// export): namespace `Platform`, `interface Window` and a global `PLATFORM`.
import {
  CAPABILITIES,
  BRIDGE_ERROR_CODES,
  BRIDGE_ERROR_CODE_LIST,
  THEME_FIELDS,
  ACTION_SPECS,
  groupDigits,
  type CapabilityDef,
  type ActionSpec,
  type FieldSpec,
} from '../validator/internal.js';
import {
  ACTION_TYPE_NAMES,
  CHOICE_TYPE_NAMES,
  METHOD_PARAMS,
  NESTED_TYPE_NAMES,
  REQUEST_TYPE_NAMES,
  RESPONSE_TYPE_NAMES,
  RESPONSE_TYPES,
  VARIANT_MAP_NAMES,
  type MethodParam,
} from './api-tables.js';
import { CAPABILITY_GRANTS } from './prose.js';
import { CONTRACT_VERSION, BRIDGE_PROTOCOL_VERSION } from './versions.js';

/** The namespace that holds every type of the declarations. */
export const TYPES_NAMESPACE = 'Platform';

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`internal: platform.d.ts has no ${what}`);
  return value;
}

/** A JSDoc block at `indent`, one line per entry. */
function doc(indent: string, lines: readonly string[]): string[] {
  if (lines.length === 1) return [`${indent}/** ${lines[0]} */`];
  return [`${indent}/**`, ...lines.map((l) => `${indent} * ${l}`), `${indent} */`];
}

/** The request schemas of one capability: every action has the same fields (checked). */
function specsOf(key: string): readonly ActionSpec[] {
  const specs = ACTION_SPECS.filter((s) => s.capability === key);
  if (specs.length === 0) throw new Error(`internal: no request schema for ${key}`);
  for (const s of specs) {
    if (JSON.stringify(s.fields) !== JSON.stringify(specs[0]!.fields)) throw new Error(`internal: ${key} actions differ in fields; platform.d.ts assumes one request type per capability`);
  }
  return specs;
}

/** One line on a field's bounds and default, with numbers from the table. */
export function describeField(spec: FieldSpec): string {
  let text: string;
  switch (spec.kind) {
    case 'string':
      text = spec.min !== undefined && spec.min > 0 ? `${spec.min} to ${groupDigits(spec.max!)} characters.` : `At most ${groupDigits(spec.max!)} characters.`;
      break;
    case 'integer':
      text = spec.max === Number.MAX_SAFE_INTEGER ? 'A positive integer.' : `An integer from ${groupDigits(spec.min!)} to ${groupDigits(spec.max!)}.`;
      break;
    case 'number':
      text = 'A finite number.';
      break;
    case 'boolean':
      text = 'true or false.';
      break;
    case 'date':
      text = 'A calendar date written YYYY-MM-DD.';
      break;
    case 'date-time':
      text = `An ISO 8601 date-time with an offset, such as 2030-01-31T14:30:00+01:00 or ...Z; at most ${spec.max} characters.`;
      break;
    case 'choice':
      text = `One of ${spec.choices!.map((c) => JSON.stringify(c)).join(', ')}.`;
      break;
    case 'object':
      text = 'A closed object: no other fields.';
      break;
  }
  if (!spec.required) text += ' Optional';
  if (spec.default !== undefined) text += `${spec.required ? ' Default' : ', default'} ${JSON.stringify(spec.default)}${spec.nullIsDefault === true ? ' (also when null)' : ''}`;
  if (!spec.required) text += '.';
  return text.replace(/\.\.$/, '.');
}

/** The TypeScript type of one field's value. */
function fieldType(key: string, spec: FieldSpec): string {
  switch (spec.kind) {
    case 'string':
    case 'date':
    case 'date-time':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'choice': {
      const name = CHOICE_TYPE_NAMES[`${key} ${spec.name}`];
      const nullable = spec.choices!.includes(null);
      if (name !== undefined) return nullable ? `${name} | null` : name;
      return spec.choices!.map((c) => JSON.stringify(c)).join(' | ');
    }
    case 'object':
      if (spec.variantOf !== undefined) throw new Error(`internal: ${key} ${spec.name} is a variant field`);
      return need(NESTED_TYPE_NAMES[`${key} ${spec.name}`], `type name for ${key} ${spec.name}`);
  }
}

/** Interface members for a closed list of fields. */
function members(key: string, fields: readonly FieldSpec[], indent: string, skip: readonly string[] = []): string[] {
  const out: string[] = [];
  for (const f of fields) {
    if (skip.includes(f.name)) continue;
    out.push(...doc(indent, [describeField(f)]), `${indent}${f.name}${f.required ? '' : '?'}: ${fieldType(key, f)};`);
  }
  return out;
}

function interfaceBlock(name: string, lines: readonly string[], body: readonly string[]): string[] {
  return [...doc('  ', lines), `  interface ${name} {`, ...body, '  }', ''];
}

/** Request types (one per capability), nested objects, form variants and choice aliases. */
function requestTypes(): string[] {
  const out: string[] = [];
  const choiceAliases = new Map<string, string>();
  for (const def of CAPABILITIES) {
    const spec = specsOf(def.key)[0]!;
    const name = need(REQUEST_TYPE_NAMES[def.key], `request type name for ${def.key}`);
    for (const f of spec.fields) {
      const alias = CHOICE_TYPE_NAMES[`${def.key} ${f.name}`];
      if (alias !== undefined) choiceAliases.set(alias, f.choices!.filter((c) => c !== null).map((c) => JSON.stringify(c)).join(' | '));
    }
    const variant = spec.fields.find((f) => f.variantOf !== undefined);
    const summary = `Payload of \`${def.key}\` (${def.actions.map((a) => `"${a}"`).join(', ')}); ${def.method}.`;
    if (spec.fields.length === 0) {
      out.push(...doc('  ', [summary, 'No fields: the payload is {} or absent.']), `  type ${name} = Record<string, never>;`, '');
    } else if (variant === undefined) {
      out.push(...interfaceBlock(name, [summary, 'Closed: unknown fields are INVALID_REQUEST.'], members(def.key, spec.fields, '    ')));
    } else {
      // The variant field's type follows the discriminator's value: a union of closed objects.
      const selector = need(
        spec.fields.find((f) => f.name === variant.variantOf),
        `discriminator ${variant.variantOf}`,
      );
      const mapName = need(VARIANT_MAP_NAMES[`${def.key} ${variant.name}`], `variant map name for ${def.key} ${variant.name}`);
      const variants = Object.entries(need(variant.variants, 'variants'));
      const mapBody: string[] = [];
      for (const [value, fields] of variants) {
        const typeName = need(NESTED_TYPE_NAMES[`${def.key} ${variant.name}=${value}`], `type name for ${def.key} ${variant.name}=${value}`);
        out.push(...interfaceBlock(typeName, [`\`${variant.name}\` when \`${selector.name}\` is "${value}". Closed: unknown fields are INVALID_REQUEST.`], members(def.key, fields, '    ')));
        mapBody.push(`    ${value}: ${typeName};`);
      }
      out.push(...interfaceBlock(mapName, [`The \`${variant.name}\` type for each \`${selector.name}\`.`], mapBody));
      const selectorAlias = need(CHOICE_TYPE_NAMES[`${def.key} ${selector.name}`], `alias for ${def.key} ${selector.name}`);
      const common = members(def.key, spec.fields, '      ', [selector.name, variant.name]);
      out.push(
        ...doc('  ', [summary, `A union on \`${selector.name}\`: each ${selector.name} has its own closed \`${variant.name}\`.`]),
        `  type ${name} = {`,
        `    [K in ${selectorAlias}]: {`,
        ...doc('      ', [describeField(selector)]),
        `      ${selector.name}: K;`,
        ...doc('      ', [describeField(variant)]),
        `      ${variant.name}: ${mapName}[K];`,
        ...common,
        '    };',
        `  }[${selectorAlias}];`,
        '',
      );
    }
    for (const f of spec.fields) {
      if (f.kind !== 'object' || f.fields === undefined) continue;
      const nested = need(NESTED_TYPE_NAMES[`${def.key} ${f.name}`], `type name for ${def.key} ${f.name}`);
      out.push(...interfaceBlock(nested, [`\`${f.name}\` of ${def.method}. Closed.`], members(def.key, f.fields, '    ')));
    }
    const actionAlias = ACTION_TYPE_NAMES[def.key];
    if (def.actions.length > 1) {
      out.push(...doc('  ', [`Actions of \`${def.key}\`.`]), `  type ${need(actionAlias, `action type name for ${def.key}`)} = ${def.actions.map((a) => JSON.stringify(a)).join(' | ')};`, '');
    }
  }
  for (const [alias, union] of choiceAliases) out.push(`  type ${alias} = ${union};`);
  out.push('');
  return out;
}

function responseTypes(): string[] {
  const out: string[] = [];
  for (const t of RESPONSE_TYPES) {
    if (t.alias !== undefined) {
      out.push(...doc('  ', [t.doc]), `  type ${t.name} = ${t.alias};`, '');
      continue;
    }
    const body: string[] = [];
    for (const m of need(t.members, `members of ${t.name}`)) body.push(...doc('    ', [m.doc]), `    readonly ${m.name}: ${m.type};`);
    out.push(...interfaceBlock(t.name, [t.doc], body));
  }
  out.push(...doc('  ', [`site.theme.read: the site's theme, ${THEME_FIELDS.length} strings, each a CSS value (never HTML).`]), '  interface Theme {');
  for (const f of THEME_FIELDS) out.push(`    readonly ${f}: string;`);
  out.push('  }', '');
  return out;
}

/** `Operations`: capability -> action -> request and response. */
function operations(): string[] {
  const out = [...doc('  ', ['Every capability, its actions, and each action\'s request and response: what `PLATFORM.request` accepts.']), '  interface Operations {'];
  for (const def of CAPABILITIES) {
    const request = REQUEST_TYPE_NAMES[def.key]!;
    const response = need(RESPONSE_TYPE_NAMES[def.key], `response type for ${def.key}`);
    const actions = specsOf(def.key).map((s) => `${JSON.stringify(s.action)}: { request: ${request}; response: ${response} }`);
    out.push(`    ${JSON.stringify(def.key)}: { ${actions.join('; ')} };`);
  }
  out.push('  }', '');
  out.push(
    '  type ActionOf<C extends CapabilityKey> = keyof Operations[C] & string;',
    '  type RequestOf<C extends CapabilityKey, A extends ActionOf<C>> = Operations[C][A] extends { request: infer R } ? R : never;',
    '  type ResponseOf<C extends CapabilityKey, A extends ActionOf<C>> = Operations[C][A] extends { response: infer R } ? R : never;',
    '  /** The payload argument: optional exactly when every field of the request is optional. */',
    '  type PayloadArgs<C extends CapabilityKey, A extends ActionOf<C>> = {} extends RequestOf<C, A> ? [payload?: RequestOf<C, A>] : [payload: RequestOf<C, A>];',
    '',
  );
  return out;
}

/** One named method's signature, from METHOD_PARAMS and the request schema. */
function methodSignature(def: CapabilityDef): string {
  const spec = specsOf(def.key)[0]!;
  const params = need(METHOD_PARAMS[def.key], `method parameters for ${def.key}`);
  const method = def.method.split('.').pop()!;
  const response = RESPONSE_TYPE_NAMES[def.key]!;
  const fieldOf = (p: MethodParam): FieldSpec | undefined => (p.source.kind === 'field' ? spec.fields.find((f) => f.name === (p.source as { field: string }).field) : undefined);
  // A variant field and its discriminator both taken as arguments: a generic signature.
  let generic = '';
  const parts: string[] = [];
  let optionalSeen = false;
  for (const p of params) {
    let type: string;
    let optional: boolean;
    if (p.source.kind === 'action') {
      type = def.actions.length > 1 ? need(ACTION_TYPE_NAMES[def.key], `action type for ${def.key}`) : JSON.stringify(def.actions[0]);
      optional = false;
    } else if (p.source.kind === 'payload') {
      type = REQUEST_TYPE_NAMES[def.key]!;
      optional = spec.fields.every((f) => !f.required);
    } else {
      const f = need(fieldOf(p), `field ${p.source.field} of ${def.key}`);
      optional = !f.required;
      if (f.variantOf !== undefined) {
        const selectorParam = params.find((q) => fieldOf(q)?.name === f.variantOf);
        if (selectorParam === undefined) throw new Error(`internal: ${def.method} takes ${f.name} without ${f.variantOf}`);
        type = `${need(VARIANT_MAP_NAMES[`${def.key} ${f.name}`], 'variant map')}[K]`;
      } else if (spec.fields.some((g) => g.variantOf === f.name)) {
        const alias = need(CHOICE_TYPE_NAMES[`${def.key} ${f.name}`], `alias for ${def.key} ${f.name}`);
        generic = `<K extends ${alias}>`;
        type = 'K';
      } else {
        type = fieldType(def.key, f);
      }
    }
    if (optionalSeen && !optional) throw new Error(`internal: ${def.method} has a required argument after an optional one`);
    optionalSeen ||= optional;
    parts.push(`${p.name}${optional ? '?' : ''}: ${type}`);
  }
  return `${method}${generic}(${parts.join(', ')}): Promise<${response}>;`;
}

function api(): string[] {
  const out = [
    ...doc('  ', [
      '`window.PLATFORM`: frozen; every method returns a promise that rejects with a BridgeError.',
      'Calls wait for the handshake; call them after `await PLATFORM.ready` to know the grants.',
    ]),
    '  interface Api {',
    ...doc('    ', ['Resolves once the host has opened the channel; rejects with INITIALIZATION_TIMEOUT otherwise.']),
    '    readonly ready: Promise<ReadyState>;',
    ...doc('    ', ['The capabilities granted now (declared in the manifest and approved by the store user); [] before ready.']),
    '    capabilities(): readonly CapabilityKey[];',
    ...doc('    ', ['The public settings configured in the builder now; {} before ready.']),
    '    settings(): Settings;',
    ...doc('    ', ['The low-level form of every named method: a capability, one of its actions, and its payload.']),
    '    request<C extends CapabilityKey, A extends ActionOf<C>>(capability: C, action: A, ...payload: PayloadArgs<C, A>): Promise<ResponseOf<C, A>>;',
  ];
  // Group the named methods by namespace, in the order the capability table meets them.
  const namespaces = new Map<string, CapabilityDef[]>();
  for (const def of CAPABILITIES) {
    const parts = def.method.split('.');
    if (parts.length !== 3 || parts[0] !== 'PLATFORM') throw new Error(`internal: unexpected method path ${def.method}`);
    const list = namespaces.get(parts[1]!) ?? [];
    list.push(def);
    namespaces.set(parts[1]!, list);
  }
  for (const [ns, defs] of namespaces) {
    out.push(`    readonly ${ns}: {`);
    for (const def of defs) {
      out.push(
        ...doc('      ', [
          `${need(CAPABILITY_GRANTS[def.key], `grant text for ${def.key}`)}`,
          `Needs \`${def.key}\` (${def.risk} risk) in the manifest and granted, else CAPABILITY_NOT_GRANTED.`,
        ]),
        `      ${methodSignature(def)}`,
      );
    }
    out.push('    };');
  }
  out.push('  }', '');
  return out;
}

/** The text of contract-snapshot/platform.d.ts. */
export function renderPlatformDts(): string {
  const lines = [
    `// platform.d.ts: types of window.PLATFORM for website extensions, contract version ${CONTRACT_VERSION}, bridge protocol ${BRIDGE_PROTOCOL_VERSION}.`,
    '// Generated by platform-ext from the tables its bridge and validator run on. Do not edit:',
    '// regenerate the snapshot with the platform-ext version your project uses.',
    '// Plain JavaScript gets these types through `checkJs` in jsconfig.json. The types are a first',
    '// line of defence: the frame and the host check every call again at run time.',
    '// "Characters" are UTF-16 code units, as String length counts them (D-10).',
    '',
    `declare namespace ${TYPES_NAMESPACE} {`,
    ...doc('  ', ['A value that can cross the bridge: plain JSON data.']),
    '  type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };',
    '',
    ...doc('  ', ['The capability keys of protocol version 1; the manifest lists those the extension needs.', ...CAPABILITIES.map((c) => `- \`${c.key}\` (${c.risk}): ${c.method}`)]),
    `  type CapabilityKey =\n${CAPABILITIES.map((c) => `    | ${JSON.stringify(c.key)}`).join('\n')};`,
    '',
    ...doc('  ', ['The stable `code` of a rejected call.', ...BRIDGE_ERROR_CODE_LIST.map((c) => `- ${c}: ${BRIDGE_ERROR_CODES[c]}.`)]),
    `  type BridgeErrorCode =\n${BRIDGE_ERROR_CODE_LIST.map((c) => `    | ${JSON.stringify(c)}`).join('\n')};`,
    '',
    ...interfaceBlock('BridgeError extends Error', ['What every method rejects with: an Error with a stable code. Never show `message` to visitors.'], ['    readonly code: BridgeErrorCode;']),
    ...doc('  ', ['A public setting value, as configured in the store builder.']),
    '  type SettingValue = boolean | number | string;',
    ...doc('  ', ['Settings by property name (the manifest\'s `properties`); deeply frozen.']),
    '  type Settings = { readonly [property: string]: SettingValue };',
    '',
    ...interfaceBlock('ReadyState', ['What PLATFORM.ready resolves to; deeply frozen.'], [
      ...doc('    ', ['The granted capabilities.']),
      '    readonly capabilities: readonly CapabilityKey[];',
      ...doc('    ', ['The public settings.']),
      '    readonly settings: Settings;',
    ]),
    ...requestTypes(),
    ...responseTypes(),
    ...operations(),
    ...api(),
    '}',
    '',
    'interface Window {',
    `  readonly PLATFORM: ${TYPES_NAMESPACE}.Api;`,
    '}',
    '',
    '/** The bridge object, also reachable as window.PLATFORM. */',
    `declare const PLATFORM: ${TYPES_NAMESPACE}.Api;`,
    '',
  ];
  return lines.join('\n');
}
