// The contract snapshot, generated from the validator's tables and this folder's prose; the same function feeds
// scripts/gen-snapshot.mjs (the committed copy), `init` (a project's copy) and `check` (a stale copy).
import { sha256Hex } from '../node/hashes.js';
import {
  BRIDGE_ERROR_CODES,
  BRIDGE_ERROR_CODE_LIST,
  ACTION_SPECS,
  CAPABILITIES,
  LIMITS,
  BASE_URL_PLACEHOLDER,
  RUNTIME_POLICY_TEMPLATE,
} from '../validator/internal.js';
import { REFUSALS } from '../service/index.js';
import { REQUEST_TYPE_NAMES, RESPONSE_SUMMARIES, RESPONSE_TYPE_NAMES } from './api-tables.js';
import { renderContractMd } from './contract-text.js';
import { renderProtocolDoc } from './protocol-doc.js';
import { renderPlatformDts } from './platform-dts.js';
import { CAPABILITY_GRANTS, ERROR_DETAILS } from './prose.js';
import { rulesDocument } from './rules-document.js';
import { manifestSchema } from './schema.js';
import { BRIDGE_PROTOCOL_VERSION, CONTRACT_VERSION, MANIFEST_SCHEMA_VERSION } from './versions.js';

/** The folder name inside a project (and this repository). */
export const SNAPSHOT_DIR = 'contract-snapshot';
/** The file that names the contract version and hashes the others. */
export const SNAPSHOT_VERSION_FILE = 'version.json';

function json(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}


function errorsJson(): string {
  return json({
    format: 'platform-extension-errors-v1',
    contract: CONTRACT_VERSION,
    errors: BRIDGE_ERROR_CODE_LIST.map((code) => ({ code, meaning: BRIDGE_ERROR_CODES[code], when: ERROR_DETAILS[code].when, handle: ERROR_DETAILS[code].handle })),
  });
}

function capabilitiesJson(): string {
  return json({
    format: 'platform-extension-capabilities-v1',
    contract: CONTRACT_VERSION,
    capabilities: CAPABILITIES.map((c) => {
      const spec = ACTION_SPECS.find((s) => s.capability === c.key)!;
      return {
        key: c.key,
        risk: c.risk,
        grants: CAPABILITY_GRANTS[c.key],
        method: c.method,
        actions: c.actions,
        unlocks: [c.method, ...c.actions.map((a) => `PLATFORM.request(${JSON.stringify(c.key)}, ${JSON.stringify(a)}, payload)`)],
        requestType: `Platform.${REQUEST_TYPE_NAMES[c.key]}`,
        responseType: `Platform.${RESPONSE_TYPE_NAMES[c.key]}`,
        response: RESPONSE_SUMMARIES[c.key],
        request: spec.fields,
      };
    }),
  });
}

// version.json: the contract version and each file's SHA-256; `sha256` hashes the lines `<hash>  <name>\n` in
// the order of `files`, so `sha256sum <files...> | sha256sum` in the folder reproduces it.
function versionJson(files: ReadonlyMap<string, string>): string {
  const hashes: Record<string, string> = {};
  let list = '';
  for (const [name, content] of files) {
    const hash = sha256Hex(content);
    hashes[name] = hash;
    list += `${hash}  ${name}\n`;
  }
  return json({
    format: 'platform-extension-contract-snapshot-v1',
    contract: CONTRACT_VERSION,
    manifestSchema: MANIFEST_SCHEMA_VERSION,
    protocol: BRIDGE_PROTOCOL_VERSION,
    sha256: sha256Hex(list),
    hashInput: 'one line "<sha256>  <name>" per file, in the order of "files" (sha256sum output)',
    files: hashes,
  });
}

let cached: readonly (readonly [string, string])[] | undefined;

function build(): readonly (readonly [string, string])[] {
  const files = new Map<string, string>();
  files.set('contract.md', renderContractMd());
  files.set('manifest.schema.json', json(manifestSchema()));
  files.set('platform.d.ts', renderPlatformDts());
  files.set('rules.json', json(rulesDocument()));
  files.set('limits.json', json({ format: 'platform-extension-limits-v1', contract: CONTRACT_VERSION, limits: LIMITS }));
  files.set('errors.json', errorsJson());
  files.set('capabilities.json', capabilitiesJson());
  files.set('runtime-policy.txt', `# Runtime content-security policy (D-17). ${BASE_URL_PLACEHOLDER} is the release base URL.\n${RUNTIME_POLICY_TEMPLATE}\n`);
  const protocolDoc = renderProtocolDoc();
  files.set('bridge-protocol.md', protocolDoc.endsWith('\n') ? protocolDoc : `${protocolDoc}\n`);
  // The codes platform-ext/service refuses with, as a publisher or an operator meets them.
  files.set('service-refusals.json', json({ format: 'platform-extension-service-refusals-v1', contract: CONTRACT_VERSION, refusals: REFUSALS.map((r) => ({ id: r.id, title: r.title, ref: r.ref, hint: r.hint })) }));
  files.set(SNAPSHOT_VERSION_FILE, versionJson(files));
  return [...files];
}

/** The snapshot's files by name, version.json last; built once per process (a pure function of the tables). */
export function snapshotFiles(): ReadonlyMap<string, string> {
  cached ??= build();
  return new Map(cached);
}
