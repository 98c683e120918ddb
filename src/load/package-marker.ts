// The proof that a folder holds what `package` wrote: a marker listing SHA-256, size and name of each
// file. `package` replaces only bytes a marker lists; a malformed marker is a sixth file (D-38).
import { readFile } from '../node/file-open.js';
import { sha256Hex } from '../node/hashes.js';
import { SUBMISSION_FILE_MAX_BYTES, SUBMISSION_FILES, type SubmissionFile } from '../validator/internal.js';

export const PACKAGE_MARKER = '.platform-ext-output';
// Two lines per file (a replacement in progress) fit many times over.
export const PACKAGE_MARKER_MAX_BYTES = 2048;

const HEADER = 'platform-ext package output v1';
const LINE = /^([0-9a-f]{64}) (0|[1-9][0-9]{0,9}) ([a-z.-]+)$/;

export interface MarkedFile {
  readonly name: SubmissionFile;
  readonly sha256: string;
  readonly size: number;
}

// A name may appear twice while one set replaces another.
export function formatMarker(files: readonly MarkedFile[]): string {
  const order = (f: MarkedFile) => SUBMISSION_FILES.indexOf(f.name);
  const sorted = [...files].sort((a, b) => order(a) - order(b) || (a.sha256 < b.sha256 ? -1 : a.sha256 > b.sha256 ? 1 : 0));
  return `${HEADER}\n${sorted.map((f) => `${f.sha256} ${f.size} ${f.name}\n`).join('')}`;
}

export function markedFile(name: SubmissionFile, data: Uint8Array | string): MarkedFile {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  return { name, sha256: sha256Hex(bytes), size: bytes.length };
}

/** Null unless `bytes` is a marker exactly as formatMarker writes one. */
export function parseMarker(bytes: Uint8Array): MarkedFile[] | null {
  if (bytes.length > PACKAGE_MARKER_MAX_BYTES) return null;
  const text = Buffer.from(bytes).toString('latin1');
  if (!text.endsWith('\n')) return null;
  const lines = text.slice(0, -1).split('\n');
  if (lines[0] !== HEADER) return null;
  const files: MarkedFile[] = [];
  for (const line of lines.slice(1)) {
    const m = LINE.exec(line);
    if (m === null || !(SUBMISSION_FILES as readonly string[]).includes(m[3]!)) return null;
    const size = Number(m[2]);
    if (size > SUBMISSION_FILE_MAX_BYTES[m[3] as SubmissionFile]) return null;
    files.push({ name: m[3] as SubmissionFile, sha256: m[1]!, size });
  }
  if (SUBMISSION_FILES.some((name) => files.filter((f) => f.name === name).length > 2)) return null;
  return formatMarker(files) === text ? files : null;
}

export function readMarker(path: string): MarkedFile[] | null {
  const read = readFile(path, PACKAGE_MARKER_MAX_BYTES);
  return read.ok ? parseMarker(read.bytes) : null;
}

export function isMarked(marked: readonly MarkedFile[], name: SubmissionFile, data: Uint8Array): boolean {
  return marked.some((f) => f.name === name && f.size === data.length && f.sha256 === sha256Hex(data));
}
