// The options of platform-ext/testing: a set-up mistake fails at once, naming the option or manifest pointer (an
// ignored typo would let a test pass for the wrong reason); manifest and settings go through the validator.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFile } from '../node/file-open.js';
import {
  CAPABILITIES,
  CAPABILITY_KEYS,
  isCapabilityKey,
  BRIDGE_ERROR_CODE_LIST,
  isBridgeErrorCode,
  THEME_FIELDS,
  FindingList,
  isPropertyName,
  INITIALIZATION_TIMEOUT_MS,
  MANIFEST_MAX_BYTES,
  MAX_PROPERTIES,
  PROPERTY_NAME_MAX_CHARS,
  REQUEST_TIMEOUT_MS,
  SETTINGS_MAX_BYTES,
  validateManifest,
  validateSettings,
  capabilityKeyHint,
  utf8ByteLength,
  type BridgeErrorCode,
  type SettingValue,
  type Finding,
  type PropertyDef,
} from '../validator/internal.js';
import type { CatalogProduct, Theme } from '../bridge/adapters.js';
import { priceCents } from '../preview/mock-store.js';
import type { MockCapabilityKey } from './platform-api.js';

export type MockPlatformErrorCode = 'ERR_INVALID_OPTION' | 'ERR_INVALID_MANIFEST' | 'ERR_ALREADY_INSTALLED';

/** A code `fail` can give a call: any but INITIALIZATION_TIMEOUT, which is the handshake's (option `handshake: false`). */
export type MockFailCode = Exclude<BridgeErrorCode, 'INITIALIZATION_TIMEOUT'>;

/** A set-up mistake: a bad option, a manifest the validator refuses (with findings), or a second install. */
export class MockPlatformError extends Error {
  readonly code: MockPlatformErrorCode;
  /** For ERR_INVALID_MANIFEST and invalid settings: the validator's error findings (rule ids and pointers). */
  readonly findings: readonly Finding[];

  constructor(code: MockPlatformErrorCode, message: string, findings: readonly Finding[] = []) {
    super(`platform-ext/testing: ${message}`);
    this.name = 'MockPlatformError';
    this.code = code;
    this.findings = findings;
  }
}

/** What a test may set about the store's data; every field is optional. */
export interface MockData {
  /** The catalogue, instead of the preview's 64 sample products (contract "Catalog product" shape; `price` must hold an amount such as "$12.50"). */
  readonly products?: readonly CatalogProduct[];
  /** No products at all, as `preview --empty-catalog`. */
  readonly emptyCatalog?: boolean;
  /** Lines in the cart at the start, added through the cart adapter (so sold-out and unknown products are refused). */
  readonly cart?: readonly { readonly productId: number; readonly quantity?: number }[];
  /** Theme fields to change from the sample theme; each a plain CSS value. */
  readonly theme?: Partial<Theme>;
  /** Settings over the manifest's defaults, checked with the contract's value rules. */
  readonly settings?: Readonly<Record<string, SettingValue>>;
  /** The visitor's analytics consent (default true); without it `analytics.track` answers `{tracked: false}`. */
  readonly consent?: boolean;
  /** Whether the store has a text-message number (default true); without it `communications.text` fails with ADAPTER_UNAVAILABLE. */
  readonly smsAvailable?: boolean;
}

export interface MockPlatformOptions {
  /** The manifest object, or the path or file `URL` of manifest.json or its folder; without it all nine capabilities are declared. */
  readonly manifest?: string | object;
  /** The capabilities the store user granted. Default: every declared capability. */
  readonly grants?: readonly MockCapabilityKey[];
  /** Capabilities taken out of the grants, as `preview --deny`. */
  readonly deny?: readonly MockCapabilityKey[];
  /** Calls that fail after every check: capability key or method name -> error code, or `true` for REQUEST_FAILED. */
  readonly fail?: Readonly<Record<string, MockFailCode | true>>;
  readonly data?: MockData;
  /** False: the host never opens the channel, so `PLATFORM.ready` and every call reject with INITIALIZATION_TIMEOUT. Default true. */
  readonly handshake?: boolean;
  /** True: a contact form without every text field is INVALID_REQUEST, as `preview --strict-host` (D-26). */
  readonly strictHost?: boolean;
  /** The frame's call timeout, 1 to 10,000 ms (default 10,000, the contract's). */
  readonly requestTimeoutMs?: number;
  /** The frame's handshake timeout, 1 to 10,000 ms (default 10,000, the contract's). */
  readonly initializationTimeoutMs?: number;
}

export interface ManifestFacts {
  readonly declared: readonly string[];
  readonly properties: readonly PropertyDef[];
  readonly namespace: string;
  readonly version: string;
}

const OPTION_KEYS = ['manifest', 'grants', 'deny', 'fail', 'data', 'handshake', 'strictHost', 'requestTimeoutMs', 'initializationTimeoutMs'];
const DATA_KEYS = ['products', 'emptyCatalog', 'cart', 'theme', 'settings', 'consent', 'smsAvailable'];
const PRODUCT_FIELDS: readonly (readonly [keyof CatalogProduct, string])[] = [
  ['id', 'integer'],
  ['name', 'string'],
  ['url', 'string'],
  ['image', 'string'],
  ['price', 'string'],
  ['inStock', 'boolean'],
];
/** Without a manifest: a namespace and version for the base URL, which nothing else reads. */
const DEFAULT_NAMESPACE = 'test/extension';
const DEFAULT_VERSION = '0.0.0';

export function invalidOption(where: string, what: string): MockPlatformError {
  return new MockPlatformError('ERR_INVALID_OPTION', `${where}: ${what}`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

/** Refuses keys that are not options: a misspelt option must not be ignored. */
export function checkKeys(where: string, value: Record<string, unknown>, allowed: readonly string[]): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) throw invalidOption(`${where}.${key}`, `not an option (options: ${allowed.join(', ')})`);
  }
}

export function checkOptions(options: unknown): MockPlatformOptions {
  if (options === undefined) return {};
  if (!isPlainObject(options)) throw invalidOption('options', `must be an object, not ${shown(options)}`);
  checkKeys('options', options, OPTION_KEYS);
  if (options['data'] !== undefined) {
    if (!isPlainObject(options['data'])) throw invalidOption('options.data', `must be an object, not ${shown(options['data'])}`);
    checkKeys('options.data', options['data'], DATA_KEYS);
  }
  if (options['handshake'] !== undefined && typeof options['handshake'] !== 'boolean') throw invalidOption('options.handshake', `must be true or false, not ${shown(options['handshake'])}`);
  return options as MockPlatformOptions;
}

function manifestPath(input: string | URL): string {
  const path = input instanceof URL ? fileURLToPath(input) : input;
  try {
    if (statSync(path).isDirectory()) return join(path, 'manifest.json');
  } catch {
    // Not there: readFileSync below says so.
  }
  return path;
}

function describeFinding(finding: Finding, fromFile: boolean): string {
  const at = finding.pointer === undefined || finding.pointer === '' ? '(the whole manifest)' : finding.pointer;
  const place = fromFile && finding.line !== undefined ? ` (line ${finding.line}, column ${finding.column ?? 1})` : '';
  return `  ${at}${place}: ${finding.message} [${finding.rule}]`;
}

/** Checks the manifest as `check` does; errors throw ERR_INVALID_MANIFEST with every finding, warnings pass. */
export function readManifest(input: MockPlatformOptions['manifest']): ManifestFacts {
  if (input === undefined) return { declared: CAPABILITY_KEYS, properties: [], namespace: DEFAULT_NAMESPACE, version: DEFAULT_VERSION };
  let bytes: Uint8Array;
  let label: string;
  const fromFile = typeof input === 'string' || input instanceof URL;
  if (typeof input === 'string' || input instanceof URL) {
    const path = manifestPath(input);
    label = path;
    // The safe opener (D-30): a FIFO or device is never waited on, a link never followed,
    // and a file over the manifest limit is not read (its size rule speaks).
    const read = readFile(path, MANIFEST_MAX_BYTES);
    if (read.ok) bytes = read.bytes;
    else if (read.problem === 'too-large') bytes = new Uint8Array(MANIFEST_MAX_BYTES + 1);
    else {
      const reason = read.problem === 'missing' || read.problem === 'unreadable' ? (read.code ?? read.problem) : `not a regular file: ${read.problem === 'special' ? 'a FIFO, device or socket' : read.problem === 'symlink' ? 'a symbolic link' : 'a folder'}`;
      throw new MockPlatformError('ERR_INVALID_MANIFEST', `cannot read the manifest ${path} (${reason}): pass the path of manifest.json or of the project folder, or the manifest object`);
    }
  } else if (isPlainObject(input)) {
    label = 'options.manifest';
    let text: string | undefined;
    try {
      text = JSON.stringify(input);
    } catch {
      text = undefined;
    }
    if (text === undefined) throw invalidOption('options.manifest', 'cannot be written as JSON (a cycle or a BigInt?)');
    bytes = new TextEncoder().encode(text);
  } else {
    throw invalidOption('options.manifest', `must be a path, a file URL or the manifest object, not ${shown(input)}`);
  }
  const findings = new FindingList();
  const info = validateManifest(bytes, findings, 'manifest.json');
  const errors = findings.items.filter((f) => f.severity === 'error');
  if (info === null || errors.length > 0) {
    throw new MockPlatformError(
      'ERR_INVALID_MANIFEST',
      `the manifest (${label}) has ${errors.length} error${errors.length === 1 ? '' : 's'}; fix ${errors.length === 1 ? 'it' : 'them'} as \`platform-ext check\` explains:\n${errors.map((f) => describeFinding(f, fromFile)).join('\n')}`,
      errors,
    );
  }
  return { declared: info.capabilities, properties: info.properties, namespace: info.namespace ?? DEFAULT_NAMESPACE, version: info.version ?? DEFAULT_VERSION };
}

export function capabilityList(where: string, value: unknown): string[] {
  if (!Array.isArray(value)) throw invalidOption(where, `must be an array of capability keys, not ${shown(value)}`);
  const out: string[] = [];
  value.forEach((key: unknown, index) => {
    if (typeof key !== 'string' || !isCapabilityKey(key)) throw invalidOption(`${where}[${index}]`, `${shown(key)} is not a capability key (${closestKey(key)})`);
    if (!out.includes(key)) out.push(key);
  });
  return out;
}

/** "did you mean" a key close to a misspelt one, else the list of keys. */
function closestKey(key: unknown): string {
  return typeof key === 'string' ? capabilityKeyHint(key) : `the keys are ${CAPABILITY_KEYS.join(', ')}`;
}

/** A store user can only approve what the manifest requests (contract "Authentication" 1). */
export function checkGrantsDeclared(where: string, grants: readonly string[], declared: readonly string[]): void {
  grants.forEach((key, index) => {
    if (!declared.includes(key)) {
      throw invalidOption(`${where}[${index}]`, `"${key}" is not declared in the manifest's capabilities, so no store can grant it; add it to "capabilities" or leave it out (an undeclared call rejects with CAPABILITY_NOT_GRANTED either way)`);
    }
  });
}

/** The capability a fail key names: a key, or a method with or without `PLATFORM.`. */
export function failTarget(where: string, key: string): string {
  if (isCapabilityKey(key)) return key;
  const method = key.startsWith('PLATFORM.') ? key : `PLATFORM.${key}`;
  const def = CAPABILITIES.find((c) => c.method === method);
  if (def === undefined) {
    throw invalidOption(where, `${JSON.stringify(key)} is not a capability key or method (keys: ${CAPABILITY_KEYS.join(', ')}; methods: ${CAPABILITIES.map((c) => c.method.slice('PLATFORM.'.length)).join(', ')})`);
  }
  return def.key;
}

/** A fail code: one of the contract's codes; `true` means REQUEST_FAILED. */
export function failCode(where: string, code: unknown): BridgeErrorCode {
  if (code === true) return 'REQUEST_FAILED';
  if (code === 'INITIALIZATION_TIMEOUT') throw invalidOption(where, 'INITIALIZATION_TIMEOUT is the handshake\'s code, not a call\'s: use the option handshake: false');
  if (!isBridgeErrorCode(code)) throw invalidOption(where, `${shown(code)} is not an error code (codes: ${BRIDGE_ERROR_CODE_LIST.filter((c) => c !== 'INITIALIZATION_TIMEOUT').join(', ')}; or true for REQUEST_FAILED)`);
  return code;
}

export function failMap(value: unknown): Map<string, BridgeErrorCode> {
  const out = new Map<string, BridgeErrorCode>();
  if (value === undefined) return out;
  if (!isPlainObject(value)) throw invalidOption('options.fail', `must be an object of capability or method -> error code, not ${shown(value)}`);
  for (const [key, code] of Object.entries(value)) {
    out.set(failTarget(`options.fail[${JSON.stringify(key)}]`, key), failCode(`options.fail[${JSON.stringify(key)}]`, code));
  }
  return out;
}

export function timeout(where: string, value: unknown, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) throw invalidOption(where, `must be an integer from 1 to ${max} (ms), not ${shown(value)}`);
  return value;
}

export const TIMEOUT_MAXIMA = { requestTimeoutMs: REQUEST_TIMEOUT_MS, initializationTimeoutMs: INITIALIZATION_TIMEOUT_MS } as const;

export function defaultSettings(properties: readonly PropertyDef[]): Record<string, SettingValue> {
  const out: Record<string, SettingValue> = {};
  for (const def of properties) if (def.default !== undefined) out[def.name] = def.default;
  return out;
}

// The defaults with `values` over them, checked as saved settings: with a manifest by the validator (D-6, D-7)
// and D-8 (a required text is not blank); without one, only what can cross the bridge.
export function checkSettings(where: string, properties: readonly PropertyDef[] | null, values: unknown): Record<string, SettingValue> {
  if (values !== undefined && !isPlainObject(values)) throw invalidOption(where, `must be an object of property name -> value, not ${shown(values)}`);
  const given = (values ?? {}) as Record<string, unknown>;
  if (properties === null) {
    const keys = Object.keys(given);
    if (keys.length > MAX_PROPERTIES) throw invalidOption(where, `has ${keys.length} settings; a manifest has at most ${MAX_PROPERTIES} properties`);
    for (const key of keys) {
      const value = given[key];
      if (!isPropertyName(key)) throw invalidOption(`${where}.${key}`, `is not a property name (a lowercase letter, then letters, digits and underscores; at most ${PROPERTY_NAME_MAX_CHARS} characters)`);
      if (!(typeof value === 'boolean' || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)))) {
        throw invalidOption(`${where}.${key}`, `must be a boolean, a finite number or a string, not ${shown(value)}`);
      }
    }
    const bytes = utf8ByteLength(JSON.stringify(given));
    if (bytes > SETTINGS_MAX_BYTES) throw invalidOption(where, `the settings are ${bytes} bytes of JSON; the limit is ${SETTINGS_MAX_BYTES}`);
    return { ...(given as Record<string, SettingValue>) };
  }
  const merged: Record<string, unknown> = { ...defaultSettings(properties), ...given };
  const findings = new FindingList();
  validateSettings(properties, merged, findings);
  const problems = findings.items.filter((f) => f.severity === 'error').map((f) => `  ${where}${f.pointer ?? ''}: ${f.message} [${f.rule}]`);
  for (const def of properties) {
    const value = merged[def.name];
    if (def.required && typeof value === 'string' && value.trim() === '') problems.push(`  ${where}/${def.name}: the property is required, so the setting needs a non-blank value (D-8)`);
  }
  if (problems.length > 0) {
    throw new MockPlatformError('ERR_INVALID_OPTION', `${where}: the settings break the manifest's property rules:\n${problems.join('\n')}`, findings.items);
  }
  return merged as Record<string, SettingValue>;
}

/** A closed product of the contract's shape whose price the mock cart can add up. */
export function checkProducts(value: unknown): CatalogProduct[] {
  if (!Array.isArray(value)) throw invalidOption('options.data.products', `must be an array of products, not ${shown(value)}`);
  const ids = new Set<number>();
  return value.map((product: unknown, index) => {
    const where = `options.data.products[${index}]`;
    if (!isPlainObject(product)) throw invalidOption(where, `must be an object {id, name, url, image, price, inStock}, not ${shown(product)}`);
    checkKeys(where, product, PRODUCT_FIELDS.map(([name]) => name));
    for (const [name, kind] of PRODUCT_FIELDS) {
      const field = product[name];
      const ok = kind === 'integer' ? typeof field === 'number' && Number.isSafeInteger(field) && field >= 1 : typeof field === kind;
      if (!ok) throw invalidOption(`${where}.${name}`, `must be ${kind === 'integer' ? 'a positive integer' : `a ${kind}`}, not ${shown(field)}`);
    }
    const id = product['id'] as number;
    if (ids.has(id)) throw invalidOption(`${where}.id`, `${id} is the id of an earlier product; ids must be unique`);
    ids.add(id);
    if (priceCents(product['price'] as string) === null) throw invalidOption(`${where}.price`, `${shown(product['price'])} holds no amount the mock cart can add up; write it like "$12.50"`);
    return product as unknown as CatalogProduct;
  });
}

export function checkTheme(value: unknown): [keyof Theme, string][] {
  if (value === undefined) return [];
  if (!isPlainObject(value)) throw invalidOption('options.data.theme', `must be an object of theme fields, not ${shown(value)}`);
  return Object.entries(value).map(([field, css]) => {
    if (!(THEME_FIELDS as readonly string[]).includes(field)) throw invalidOption(`options.data.theme.${field}`, `not a theme field (fields: ${THEME_FIELDS.join(', ')})`);
    if (typeof css !== 'string') throw invalidOption(`options.data.theme.${field}`, `must be a string (a CSS value), not ${shown(css)}`);
    return [field as keyof Theme, css];
  });
}

export function checkCartLines(value: unknown): { productId: number; quantity?: number }[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw invalidOption('options.data.cart', `must be an array of {productId, quantity}, not ${shown(value)}`);
  return value.map((line: unknown, index) => {
    const where = `options.data.cart[${index}]`;
    if (!isPlainObject(line)) throw invalidOption(where, `must be an object {productId, quantity}, not ${shown(line)}`);
    checkKeys(where, line, ['productId', 'quantity']);
    return line as { productId: number; quantity?: number };
  });
}

export function checkBoolean(where: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw invalidOption(where, `must be true or false, not ${shown(value)}`);
  return value;
}

