// `platform-review --known-keys`: the publisher's active keys (contract "Authentication" 5), one base64
// key or D-12 fingerprint a line. Read per D-30 and never echoed back (a line may hold anything).
import { readCapped } from '../node/file-open.js';
import { decodeBase64Strict, KNOWN_KEYS_FILE_MAX_BYTES } from '../validator/internal.js';
import { UsageError } from '../node/usage-error.js';
import { sha256Hex } from '../node/hashes.js';

// D-11.
const PUBLIC_KEY_BYTES = 32;
const FINGERPRINT = /^[0-9a-fA-F]{64}$/;

export interface KnownKeys {
  readonly file: string;
  /** Lowercase (D-12), in file order, each once. */
  readonly fingerprints: readonly string[];
}

export function knownKeyFingerprint(entry: string): string | null {
  if (FINGERPRINT.test(entry)) return entry.toLowerCase();
  const key = decodeBase64Strict(entry);
  return key !== null && key.length === PUBLIC_KEY_BYTES ? sha256Hex(key) : null;
}

export function parseKnownKeys(text: string, file: string): KnownKeys {
  const fingerprints: string[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const hash = lines[i]!.indexOf('#');
    const entry = (hash < 0 ? lines[i]! : lines[i]!.slice(0, hash)).replace(/^[ \t\r]+|[ \t\r]+$/g, '');
    if (entry === '') continue;
    const fingerprint = knownKeyFingerprint(entry);
    if (fingerprint === null) {
      throw new UsageError(
        `"${file}" line ${i + 1} is neither a public key (the 44 base64 characters of publisher-public-key.txt) nor a fingerprint (64 hex digits): put one key a line, comments after "#"`,
      );
    }
    if (!fingerprints.includes(fingerprint)) fingerprints.push(fingerprint);
  }
  if (fingerprints.length === 0) {
    throw new UsageError(`"${file}" lists no key: put the publisher's active public keys or fingerprints in it, one a line`);
  }
  return { file, fingerprints };
}

export function readKnownKeys(file: string): KnownKeys {
  const bytes = readCapped(file, KNOWN_KEYS_FILE_MAX_BYTES);
  if (bytes === null) throw new UsageError(`The known-keys file "${file}" cannot be read (missing, a symbolic link, or not a regular file): pass a file of public keys or fingerprints, one a line`);
  if (bytes.length > KNOWN_KEYS_FILE_MAX_BYTES) throw new UsageError(`The known-keys file "${file}" is larger than ${KNOWN_KEYS_FILE_MAX_BYTES} bytes: it lists keys, one a line`);
  return parseKnownKeys(new TextDecoder('utf-8').decode(bytes), file);
}
