// The file side of the effects: a submission's working files (private until a decision) and
// a write-once folder standing in for immutable object storage.
//
// Copying a bundle is idempotent and never overwrites: the bytes go to a staging file first,
// are checked against the submission's artifact SHA-256, and are then hard-linked to their
// final name, which fails when the name exists. So a crash at any point leaves either no
// bundle or the whole bundle at `extensions/{namespace}/{version}/bundle.zip`, and running
// the copy again is a no-op when the same bytes are there and an error when other bytes are.
import { createHash } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The storage path the contract gives: extensions/{namespace}/{version}/bundle.zip, nothing else. */
const STORAGE_PATH = /^extensions\/[a-z0-9][a-z0-9-]*\/[a-z0-9][a-z0-9-]*\/[0-9A-Za-z.+-]+\/bundle\.zip$/;
/** Record ids as the core reads them. */
const ID = /^[A-Za-z0-9][A-Za-z0-9._:@+-]*$/;

export class StorageConflict extends Error {}

function sha256(bytes) {
  return createHash('sha256').update(bytes).digest('hex');
}

function syncDir(path) {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * The folders: `working` (one folder per submission id), `storage` (write-once) and
 * `staging` (the copy's scratch space, on the same file system as `storage`).
 */
export function files(dirs) {
  const { working, storage, staging } = dirs;
  for (const dir of [working, storage, staging]) mkdirSync(dir, { recursive: true });

  function workingFolder(submissionId) {
    if (!ID.test(submissionId) || submissionId.includes('..')) throw new Error(`not a submission id: ${JSON.stringify(submissionId)}`);
    return join(working, submissionId);
  }

  return {
    dirs,
    workingFolder,

    /** Stores the uploaded files of a submission (the console does this before `submit`). */
    receive(submissionId, filesByName) {
      const folder = workingFolder(submissionId);
      mkdirSync(folder, { recursive: true });
      for (const [name, bytes] of Object.entries(filesByName)) {
        const fd = openSync(join(folder, name), 'wx');
        try {
          writeSync(fd, bytes);
          fsyncSync(fd);
        } finally {
          closeSync(fd);
        }
      }
    },

    /**
     * Copies the submission's bundle to `path` in storage. `expectedSha256` is the record's
     * artifact hash: the bytes copied must have it. `at(point)` is a test hook called at
     * 'copy-started', 'copy-half-written' and 'copy-linked'.
     */
    copyBundle(submissionId, path, expectedSha256, at = () => {}) {
      if (!STORAGE_PATH.test(path) || path.split('/').includes('..')) throw new Error(`not a storage path: ${JSON.stringify(path)}`);
      const target = join(storage, path);
      const source = join(workingFolder(submissionId), 'bundle.zip');
      at('copy-started');
      if (existsSync(target)) {
        // Copied before (a crash came before the outbox entry was marked done), or a conflict.
        if (sha256(readFileSync(target)) !== expectedSha256) throw new StorageConflict(`${path} already holds other bytes; storage is write-once`);
        return 'already-there';
      }
      if (!existsSync(source)) throw new Error(`the working bundle of ${submissionId} is gone and ${path} was never written`);
      const bytes = readFileSync(source);
      if (sha256(bytes) !== expectedSha256) throw new Error(`the working bundle of ${submissionId} does not have the submitted SHA-256`);
      const scratch = join(staging, `${submissionId}.bundle.zip`);
      rmSync(scratch, { force: true });
      const fd = openSync(scratch, 'wx');
      try {
        const half = Math.floor(bytes.length / 2);
        writeSync(fd, bytes, 0, half);
        at('copy-half-written');
        writeSync(fd, bytes, half, bytes.length - half);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      mkdirSync(dirname(target), { recursive: true });
      try {
        linkSync(scratch, target);
      } catch (error) {
        if (error.code !== 'EEXIST') throw error;
        if (sha256(readFileSync(target)) !== expectedSha256) throw new StorageConflict(`${path} already holds other bytes; storage is write-once`);
      }
      syncDir(dirname(target));
      at('copy-linked');
      unlinkSync(scratch);
      return 'copied';
    },

    /** Deletes a submission's working files; a no-op when they are gone. */
    deleteWorkingFiles(submissionId) {
      rmSync(workingFolder(submissionId), { recursive: true, force: true });
    },

    /** Removes what a killed copy left in staging (only the worker writes there). */
    clearStaging() {
      for (const name of readdirSync(staging)) rmSync(join(staging, name), { force: true, recursive: true });
    },
  };
}
