// Reads a release folder into validator input: the five submission files (each read
// only up to its cap + 1 byte, never following a symbolic link) and the names of
// anything else. Node built-ins and the validator only: part of platform-review.
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { SUBMISSION_FILE_MAX_BYTES, SUBMISSION_FILES, type ReleaseFiles, type SubmissionFile } from '../validator/index.js';
import { scanFileForKeyMarker } from './key-scan.js';
import { readCapped } from '../fs/read-capped.js';

export class ReleaseFolderError extends Error {}

export interface LoadedRelease {
  readonly release: ReleaseFiles;
  /** Other regular files in the folder that hold private-key material (D-4). */
  readonly keyHits: readonly { file: string; marker: string }[];
}

export function loadRelease(dir: string): LoadedRelease {
  let names: string[];
  try {
    if (!lstatSync(dir).isDirectory()) throw new ReleaseFolderError(`"${dir}" is not a folder: pass the folder that holds the five submission files`);
    names = readdirSync(dir);
  } catch (error) {
    if (error instanceof ReleaseFolderError) throw error;
    throw new ReleaseFolderError(`The release folder "${dir}" cannot be read: pass the folder that holds the five submission files (bundle.zip, manifest.json, ...)`);
  }
  const files = {} as Record<SubmissionFile, Uint8Array | null>;
  for (const name of SUBMISSION_FILES) files[name] = readCapped(join(dir, name), SUBMISSION_FILE_MAX_BYTES[name]);
  const otherNames = names.filter((n) => !(SUBMISSION_FILES as readonly string[]).includes(n)).sort();
  const keyHits: { file: string; marker: string }[] = [];
  for (const name of otherNames) {
    const marker = scanFileForKeyMarker(join(dir, name));
    if (marker !== null) keyHits.push({ file: name, marker });
  }
  return { release: { files, otherNames }, keyHits };
}
