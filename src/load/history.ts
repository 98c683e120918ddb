// `platform-review --history <file>`: the publisher's record as the service core exports it
// (docs/schemas/publisher-history.schema.json): the publisher record and their release
// submission records, each read by the service core's own readers, so that the file has
// exactly the shape the core stores. Read without following links, within a cap.
import { readCapped } from '../node/file-open.js';
import { UsageError } from '../node/usage-error.js';
import { Malformed, readPublisher, readSubmission, type PublisherRecord, type SubmissionRecord } from '../service/index.js';

/** The largest history file read: the project's own cap (a publisher's record with thousands of releases fits). */
export const HISTORY_FILE_MAX_BYTES = 16 * 1024 * 1024;
export const HISTORY_FORMAT = 'platform-publisher-history-v1';

export interface PublisherHistory {
  readonly file: string;
  readonly publisher: PublisherRecord;
  readonly submissions: readonly SubmissionRecord[];
}

function bad(file: string, pointer: string, what: string): never {
  throw new UsageError(`The history file "${file}" is not a ${HISTORY_FORMAT} export: ${pointer === '' ? '' : `at ${pointer}, `}${what}`);
}

/** Parses the text of a history export; anything else is a UsageError naming the pointer. */
export function parseHistory(text: string, file: string): PublisherHistory {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    bad(file, '', 'it is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) bad(file, '', 'it is not a JSON object');
  const o = value as Record<string, unknown>;
  for (const key of Object.keys(o)) if (!['format', 'publisher', 'submissions'].includes(key)) bad(file, `/${key}`, 'an unknown field');
  if (o['format'] !== HISTORY_FORMAT) bad(file, '/format', `expected "${HISTORY_FORMAT}"`);
  if (!Array.isArray(o['submissions'])) bad(file, '/submissions', 'expected an array of release-submission records');
  const publisher = within(file, '/publisher', () => readPublisher(o['publisher'], ''));
  const submissions = (o['submissions'] as unknown[]).map((s, i) => within(file, `/submissions/${i}`, () => readSubmission(s, '')));
  submissions.forEach((s, i) => {
    if (s.publisherId !== publisher.id) bad(file, `/submissions/${i}/publisherId`, `"${s.publisherId}" is not the publisher "${publisher.id}"`);
  });
  return { file, publisher, submissions };
}

/** Runs a service-core reader; its refusal becomes a usage error at `root` + its pointer. */
function within<T>(file: string, root: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof Malformed) bad(file, root + error.pointer, error.message);
    throw error;
  }
}

/** Reads and parses a history file: never through a symbolic link, never more than the cap. */
export function readHistory(file: string): PublisherHistory {
  const bytes = readCapped(file, HISTORY_FILE_MAX_BYTES);
  if (bytes === null) throw new UsageError(`The history file "${file}" cannot be read (missing, a symbolic link, or not a regular file): pass the publisher's record exported by the service`);
  if (bytes.length > HISTORY_FILE_MAX_BYTES) throw new UsageError(`The history file "${file}" is larger than ${HISTORY_FILE_MAX_BYTES} bytes`);
  return parseHistory(new TextDecoder('utf-8', { fatal: false }).decode(bytes), file);
}
