// validateSubmission (platform-ext/validator/node): an upload's files through the release check, Node.js adapter.
import { SUBMISSION_FILES, validateRelease, type ReleaseOptions, type ReleaseResult, type SubmissionFile } from '../validator/index.js';
import { NODE_RELEASE_DEPS } from './release-deps.js';

/** The files of one upload by name; a submission file left out is missing. */
export type SubmissionFiles = Readonly<Record<string, Uint8Array | null | undefined>>;

/** Options of validateSubmission: those of validateRelease (knownKeys, keepEntryBytes). */
export type SubmissionOptions = ReleaseOptions;

/** Validates the five files by name (any other name is an unexpected file); findings never throw. */
export function validateSubmission(files: SubmissionFiles, options: SubmissionOptions = {}): ReleaseResult {
  const known = new Set<string>(SUBMISSION_FILES);
  const set = {} as Record<SubmissionFile, Uint8Array | null>;
  for (const name of SUBMISSION_FILES) {
    const bytes = Object.hasOwn(files, name) ? files[name] : undefined;
    set[name] = bytes instanceof Uint8Array ? bytes : null;
  }
  const otherNames = Object.keys(files).filter((name) => !known.has(name)).sort();
  return validateRelease({ files: set, otherNames }, NODE_RELEASE_DEPS, options);
}
