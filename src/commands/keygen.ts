// `platform-ext keygen --private-key <file> --public-key <file>` (D-13): checks its
// arguments, creates the pair (ops/keygen.ts) and prints where it went and its fingerprint.
import type { ParsedArgs } from './args.js';
import { createKeyPair } from '../ops/keygen.js';
import { UsageError } from '../node/usage-error.js';
import type { CommandIo } from './command-io.js';
import type { CommandSpec } from './command-spec.js';

function runKeygen(args: ParsedArgs, io: CommandIo): number {
  if (args.positionals.length > 0) throw new UsageError(`"keygen" takes no positional arguments (got "${args.positionals[0]}"): use --private-key <file> --public-key <file>`);
  const privatePath = args.flags['private-key'];
  const publicPath = args.flags['public-key'];
  if (typeof privatePath !== 'string' || typeof publicPath !== 'string') {
    throw new UsageError('"keygen" needs --private-key <file> and --public-key <file>');
  }
  const { fingerprint } = createKeyPair({ privateKey: privatePath, publicKey: publicPath });
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

export const command: CommandSpec = {
  name: 'keygen',
  usage: 'platform-ext keygen --private-key <file> --public-key <file>',
  summary: 'Create an Ed25519 key pair for signing releases',
  details:
    'Writes the private key as PKCS#8 PEM (mode 0600) and the public key as one line of base64,\n' +
    'and prints the key fingerprint (SHA-256 of the public key). Never overwrites a file, and refuses\n' +
    'to put a private key inside an extension project.\n\n' +
    'Exit status: 0 both keys written, 2 usage error, a file that exists, or a folder that cannot be written.',
  flags: {
    'private-key': { type: 'string', valueName: '<file>', description: 'Where to write the private key (PKCS#8 PEM, mode 0600); must not exist' },
    'public-key': { type: 'string', valueName: '<file>', description: 'Where to write the public key (base64, one line); must not exist' },
    help: { type: 'boolean', description: 'Show this help', short: 'h' },
  },
  run: runKeygen,
};
