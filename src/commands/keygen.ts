// `platform-ext keygen --private-key <file> --public-key <file>` (D-13): a new Ed25519
// pair; the private key as PKCS#8 PEM with mode 0600; never overwrites either file.
import { existsSync, lstatSync, unlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { ParsedArgs } from './args.js';
import { base64Line, generateKeyPair } from '../node/ed25519-keys.js';
import { sha256Hex } from '../node/hashes.js';
import { createFileExclusive } from '../node/atomic-write.js';
import { UsageError } from '../node/usage-error.js';
import type { CommandIo } from './command-io.js';

export const KEYGEN_FLAGS = {
  'private-key': { type: 'string', valueName: '<file>', description: 'Where to write the private key (PKCS#8 PEM, mode 0600); must not exist' },
  'public-key': { type: 'string', valueName: '<file>', description: 'Where to write the public key (base64, one line); must not exist' },
  help: { type: 'boolean', description: 'Show this help', short: 'h' },
} as const;

function requireNew(path: string, flag: string): void {
  let exists = false;
  try {
    lstatSync(path);
    exists = true;
  } catch {
    // absent: good
  }
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

export function runKeygen(args: ParsedArgs, io: CommandIo): number {
  if (args.positionals.length > 0) throw new UsageError(`"keygen" takes no positional arguments (got "${args.positionals[0]}"): use --private-key <file> --public-key <file>`);
  const privatePath = args.flags['private-key'];
  const publicPath = args.flags['public-key'];
  if (typeof privatePath !== 'string' || typeof publicPath !== 'string') {
    throw new UsageError('"keygen" needs --private-key <file> and --public-key <file>');
  }
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
    unlinkSync(privatePath); // we created it a moment ago: leave nothing half done
    throw new UsageError(`Cannot create "${publicPath}": ${(error as Error).message}`);
  }
  const fingerprint = sha256Hex(pair.publicKey);
  io.out(
    [
      `Private key: ${privatePath} (keep it secret and out of every project and repository)`,
      `Public key:  ${publicPath}`,
      `Fingerprint: ${fingerprint}`,
      '',
      'Add the public key to the developer console, then sign releases with:',
      `  platform-ext package <dir> --out <out-dir> --private-key ${privatePath}`,
      '',
    ].join('\n'),
  );
  return 0;
}
