// The contract snapshot: machine-readable files generated from the sources of truth (the
// validator's tables and the bridge types), never edited by hand. The same function feeds
// scripts/gen-snapshot.mjs (the committed contract-snapshot/ folder, checked by a test),
// `init` (a new project's copy) and `check` (which notices a project's stale copy).
import { BASE_URL_PLACEHOLDER, BRIDGE_PROTOCOL_DOC, LIMITS, RULES, RUNTIME_POLICY_TEMPLATE } from '../validator/index.js';

function json(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}

/** The snapshot's files, by name inside contract-snapshot/, in a fixed order. */
export function snapshotFiles(): ReadonlyMap<string, string> {
  const files = new Map<string, string>();
  files.set('rules.json', json({ format: 'platform-extension-rules-v1', contract: 1, rules: RULES }));
  files.set('limits.json', json({ format: 'platform-extension-limits-v1', contract: 1, limits: LIMITS }));
  files.set('runtime-policy.txt', `# Runtime content-security policy (D-17). ${BASE_URL_PLACEHOLDER} is the release base URL.\n${RUNTIME_POLICY_TEMPLATE}\n`);
  files.set('bridge-protocol.md', BRIDGE_PROTOCOL_DOC.endsWith('\n') ? BRIDGE_PROTOCOL_DOC : `${BRIDGE_PROTOCOL_DOC}\n`);
  return files;
}
