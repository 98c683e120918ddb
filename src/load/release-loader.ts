// Reads a release folder into validator input, each file through the safe opener (D-30). Node built-ins
// and the validator only: part of platform-review.
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { SUBMISSION_FILE_MAX_BYTES, SUBMISSION_FILES, type RefusedFile, type ReleaseFiles, type SubmissionFile } from '../validator/internal.js';
import { scanFileForKeyMarker, type KeyScanMiss } from './key-scan.js';
import { PACKAGE_MARKER, readMarker } from './package-marker.js';
import { readFile } from '../node/file-open.js';
import { UsageError } from '../node/usage-error.js';

export interface LoadedRelease {
  readonly release: ReleaseFiles;
  readonly keyHits: readonly { file: string; marker: string }[];
  readonly keyMisses: readonly KeyScanMiss[];
}

function isFolder(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

export function loadRelease(dir: string): LoadedRelease {
  let names: string[];
  try {
    if (!lstatSync(dir).isDirectory()) throw new UsageError(`"${dir}" is not a folder: pass the folder that holds the five submission files`);
    names = readdirSync(dir);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`The release folder "${dir}" cannot be read: pass the folder that holds the five submission files (bundle.zip, manifest.json, ...)`);
  }
  // A project folder instead of a set: one message saying what to pass, not a finding per file.
  if (!names.includes('bundle.zip') && names.includes('runtime') && isFolder(join(dir, 'runtime'))) {
    throw new UsageError(
      `"${dir}" is an extension project (it has runtime/), not a submission set: run "platform-ext package ${dir} --out <folder> --private-key <key>" first, ` +
        `then pass that <folder> (the --out folder, which holds bundle.zip, manifest.json, publisher-public-key.txt, signature.txt and submission.json); "platform-ext check ${dir}" checks the project itself`,
    );
  }
  const files = {} as Record<SubmissionFile, Uint8Array | null>;
  const refused: Partial<Record<SubmissionFile, RefusedFile>> = {};
  for (const name of SUBMISSION_FILES) {
    const read = readFile(join(dir, name), SUBMISSION_FILE_MAX_BYTES[name]);
    files[name] = read.ok ? read.bytes : null;
    if (!read.ok && read.problem !== 'missing') refused[name] = read.problem === 'too-large' ? { reason: 'too-large', size: read.size ?? 0 } : { reason: read.problem };
  }
  // package's marker is no sixth file (D-38): its grammar fits no key or secret. Its digests are not
  // compared: a set changed after package is the signature and hash rules' to report.
  const ownMarker = names.includes(PACKAGE_MARKER) && readMarker(join(dir, PACKAGE_MARKER)) !== null;
  const otherNames = names.filter((n) => !(SUBMISSION_FILES as readonly string[]).includes(n) && !(ownMarker && n === PACKAGE_MARKER)).sort();
  const keyHits: { file: string; marker: string }[] = [];
  const keyMisses: KeyScanMiss[] = [];
  for (const name of otherNames) {
    const scan = scanFileForKeyMarker(join(dir, name));
    if (scan.marker !== null) keyHits.push({ file: name, marker: scan.marker });
    if (scan.miss !== null) keyMisses.push({ file: name, reason: scan.miss });
  }
  return { release: { files, otherNames, ...(Object.keys(refused).length > 0 && { refused }) }, keyHits, keyMisses };
}
