// Seeded spoilers for release folders (test/cli/fuzz-release-folder.test.mjs): random bytes
// over, into or instead of a submission file, truncations, and special files (FIFOs,
// links to /dev/zero, folders, sparse files) planted at a submission name or beside the
// five. The same seed gives the same folder.
import { lstatSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pick } from './fuzz.mjs';
import { plant } from './hostile.mjs';

const NAMES = ['bundle.zip', 'manifest.json', 'publisher-public-key.txt', 'signature.txt', 'submission.json'];
const EXTRA_NAMES = ['extra', '.DS_Store', 'key.pem', 'bundle.zip.bak', 'x'];
const KINDS = ['fifo', 'dev-zero', 'dev-null', 'dir', 'sparse', 'dangling'];

function randomBytes(rng, n) {
  const out = Buffer.alloc(n);
  for (let i = 0; i < n; i++) out[i] = Math.floor(rng() * 256);
  return out;
}

/** Applies one to three random spoilers to the release folder `dir`; returns what was done. */
export function spoilRelease(rng, dir) {
  const done = [];
  const count = 1 + Math.floor(rng() * 3);
  for (let k = 0; k < count; k++) {
    const name = pick(rng, NAMES);
    const path = join(dir, name);
    const what = pick(rng, ['flip', 'splice', 'truncate', 'replace', 'special', 'extra']);
    try {
      if (what === 'special') {
        const kind = pick(rng, KINDS);
        plant(path, kind);
        done.push(`${name}=${kind}`);
      } else if (what === 'extra') {
        const extra = pick(rng, EXTRA_NAMES);
        const kind = pick(rng, [...KINDS, 'bytes']);
        if (kind === 'bytes') writeFileSync(join(dir, extra), randomBytes(rng, Math.floor(rng() * 4096)));
        else plant(join(dir, extra), kind);
        done.push(`+${extra}=${kind}`);
      } else if (!lstatSync(path, { throwIfNoEntry: false })?.isFile()) {
        // Already special (reading a FIFO here would wait forever) or gone: leave it so.
        done.push(`${name}:kept`);
      } else {
        const bytes = Buffer.from(readFileSync(path));
        if (what === 'flip' && bytes.length > 0) {
          for (let i = 0; i < 1 + Math.floor(rng() * 8); i++) bytes[Math.floor(rng() * bytes.length)] = Math.floor(rng() * 256);
          writeFileSync(path, bytes);
        } else if (what === 'splice') {
          const at = Math.floor(rng() * (bytes.length + 1));
          writeFileSync(path, Buffer.concat([bytes.subarray(0, at), randomBytes(rng, 1 + Math.floor(rng() * 256)), bytes.subarray(at)]));
        } else if (what === 'truncate') {
          writeFileSync(path, bytes.subarray(0, Math.floor(rng() * bytes.length)));
        } else {
          writeFileSync(path, randomBytes(rng, Math.floor(rng() * 2048)));
        }
        done.push(`${name}~${what}`);
      }
    } catch (error) {
      // A special file where the next spoiler wanted a regular one: leave it so.
      if (!['EISDIR', 'ELOOP', 'ENOENT', 'EEXIST'].includes(error.code)) throw error;
      done.push(`${name}:kept`);
    }
  }
  return done;
}
