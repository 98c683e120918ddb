// `keygen` as a use case (D-13): a new Ed25519 pair in two new files (PKCS#8 PEM 0600, base64 line).
// Neither file is ever overwritten, and a private key never goes inside a project (D-4).
import { existsSync, lstatSync, unlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { base64Line, generateKeyPair } from '../node/ed25519-keys.js';
import { sha256Hex } from '../node/hashes.js';
import { createFileExclusive } from '../node/atomic-write.js';
import { UsageError } from '../node/usage-error.js';

export interface KeygenOptions {
  readonly privateKey: string;
  readonly publicKey: string;
}

export interface KeygenOutcome {
  /** SHA-256 of the public key, in hex: the key id the store shows. */
  readonly fingerprint: string;
}

/** Refuses a path that exists (as anything, even a dangling link) or whose folder does not. */
function requireNew(path: string, flag: string): void {
  let exists = false;
  try {
    lstatSync(path);
    exists = true;
  } catch {}
  if (exists) throw new UsageError(`"${path}" already exists; keygen never overwrites a key: choose another --${flag} path or move the old file away`);
  const folder = dirname(resolve(path));
  let isFolder = false;
  try {
    isFolder = lstatSync(folder).isDirectory();
  } catch {
    isFolder = false;
  }
  if (!isFolder) throw new UsageError(`The folder "${dirname(path)}" for --${flag} does not exist: create it first (mkdir -p "${dirname(path)}")`);
}

/** The nearest folder at or above `start` that holds a manifest.json, if any. */
function enclosingProject(start: string): string | undefined {
  let dir = resolve(start);
  for (;;) {
    if (existsSync(join(dir, 'manifest.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

export function createKeyPair(options: KeygenOptions): KeygenOutcome {
  const { privateKey: privatePath, publicKey: publicPath } = options;
  if (resolve(privatePath) === resolve(publicPath)) throw new UsageError('--private-key and --public-key must be different files');
  requireNew(privatePath, 'private-key');
  requireNew(publicPath, 'public-key');
  const project = enclosingProject(dirname(privatePath));
  if (project !== undefined) {
    throw new UsageError(
      `"${privatePath}" is inside the extension project "${project}": a private key never belongs in a project (D-4); keep it outside, for example in ~/.config/platform-ext/`,
    );
  }
  const pair = generateKeyPair();
  try {
    createFileExclusive(privatePath, pair.privatePem, 0o600);
  } catch (error) {
    throw new UsageError(`Cannot create "${privatePath}": ${(error as Error).message}`);
  }
  try {
    createFileExclusive(publicPath, base64Line(pair.publicKey), 0o644);
  } catch (error) {
    unlinkSync(privatePath); // created a moment ago by this call: leave nothing half done
    throw new UsageError(`Cannot create "${publicPath}": ${(error as Error).message}`);
  }
  return { fingerprint: sha256Hex(pair.publicKey) };
}
