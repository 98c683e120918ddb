// The one release pipeline for `verify` and platform-review (so: Node built-ins and the validator only).
import { withKeyHits } from '../load/key-scan.js';
import { validateRelease, type Finding, type ReleaseResult } from '../validator/internal.js';
import { loadRelease, type LoadedRelease } from '../load/release-loader.js';
import { NODE_RELEASE_DEPS } from '../node/release-deps.js';

export interface ReleaseRun {
  readonly loaded: LoadedRelease;
  readonly result: ReleaseResult;
  readonly findings: Finding[];
}

export function runReleasePipeline(dir: string): ReleaseRun {
  const loaded = loadRelease(dir);
  // The summary hashes each entry and the preview serves them: keep the inflated bytes.
  const result = validateRelease(loaded.release, NODE_RELEASE_DEPS, { keepEntryBytes: true });
  return { loaded, result, findings: withKeyHits(result.findings, loaded.keyHits, loaded.keyMisses) };
}
