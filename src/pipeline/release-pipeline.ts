// The one release pipeline, for `verify` and the operator's review (platform-review): load
// the folder, validate the submission set, add the key scan of the other files. Node
// built-ins and the validator's index only: part of platform-review.
import { withKeyHits } from '../load/key-scan.js';
import { validateRelease, type Finding, type ReleaseResult } from '../validator/internal.js';
import { loadRelease, type LoadedRelease } from '../load/release-loader.js';
import { NODE_RELEASE_DEPS } from '../node/release-deps.js';

export interface ReleaseRun {
  /** The folder as read (the operator's review summarises its files). */
  readonly loaded: LoadedRelease;
  readonly result: ReleaseResult;
  /** The validator's findings with the key scan's. */
  readonly findings: Finding[];
}

/** Throws a UsageError when `dir` is not a readable folder. */
export function runReleasePipeline(dir: string): ReleaseRun {
  const loaded = loadRelease(dir);
  // The summary hashes each entry and the preview serves them: keep the inflated bytes.
  const result = validateRelease(loaded.release, NODE_RELEASE_DEPS, { keepEntryBytes: true });
  return { loaded, result, findings: withKeyHits(result.findings, loaded.keyHits, loaded.keyMisses) };
}
