// Publisher keys (D-11 to D-14): Ed25519; private key as PKCS#8 PEM (OpenSSL's), public key as 32 bytes in base64.
import type { KeyObject } from 'node:crypto';
import { closeSync, fstatSync, lstatSync } from 'node:fs';
import { nodeCrypto } from './builtins.js';
import { openRegularFile, readInto } from './file-open.js';
import { encodeBase64, formatSize, PRIVATE_KEY_MAX_BYTES } from '../validator/internal.js';
import { UsageError } from './usage-error.js';

export interface KeyPair {
  readonly privatePem: string;
  readonly publicKey: Uint8Array;
}

export function generateKeyPair(): KeyPair {
  const { privateKey, publicKey } = nodeCrypto().generateKeyPairSync('ed25519');
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: publicKeyBytes(publicKey),
  };
}

/** The 32 raw bytes of an Ed25519 public key (or of a private key's public half). */
export function publicKeyBytes(key: KeyObject): Uint8Array {
  const pub = key.type === 'private' ? nodeCrypto().createPublicKey(key) : key;
  const jwk = pub.export({ format: 'jwk' });
  return new Uint8Array(Buffer.from(String(jwk.x), 'base64url'));
}

function describeNonFile(path: string): string | undefined {
  let stats;
  try {
    stats = lstatSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'no such file' : `it cannot be read (${code ?? (error as Error).message})`;
  }
  if (stats.isSymbolicLink()) return 'it is a symbolic link (a key is read only from the file itself: pass the path of the file the link points to)';
  if (stats.isDirectory()) return 'it is a folder';
  if (stats.isFIFO()) return 'it is a named pipe, not a file';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'it is a device, not a file';
  if (stats.isSocket()) return 'it is a socket, not a file';
  return undefined;
}

// D-13, D-30, D-31: a capped regular file (no link), owner-only as OpenSSH requires (a key others can read is as good
// as published), read through one checked no-follow descriptor; anything else is a UsageError naming file and fix.
export function readPrivateKeyFile(path: string): string {
  // By path first for a precise message, never opening a FIFO or device; the fd is re-checked: a swap gains nothing.
  const before = describeNonFile(path);
  if (before !== undefined) throw new UsageError(`Cannot read the private key "${path}": ${before}`);
  const fd = openRegularFile(path);
  if (fd === null) throw new UsageError(`Cannot read the private key "${path}": ${describeNonFile(path) ?? 'it is not a regular file this user can read'}`);
  try {
    const stats = fstatSync(fd);
    if (stats.size > PRIVATE_KEY_MAX_BYTES) {
      throw new UsageError(`"${path}" is ${formatSize(stats.size)}, too large for a private key (at most ${formatSize(PRIVATE_KEY_MAX_BYTES)}): pass the PEM file keygen wrote`);
    }
    const permissions = stats.mode & 0o777;
    if (process.platform !== 'win32' && (permissions & 0o077) !== 0) {
      const octal = permissions.toString(8).padStart(4, '0');
      throw new UsageError(
        `Permissions ${octal} for the private key "${path}" are too open: a private key must not be readable or writable by other users. Fix: chmod 600 "${path}"`,
      );
    }
    const bytes = Buffer.allocUnsafe(PRIVATE_KEY_MAX_BYTES + 1);
    const filled = readInto(fd, bytes);
    if (filled > PRIVATE_KEY_MAX_BYTES) throw new UsageError(`"${path}" is too large for a private key (at most ${formatSize(PRIVATE_KEY_MAX_BYTES)}): pass the PEM file keygen wrote`);
    return bytes.subarray(0, filled).toString('utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`Cannot read the private key "${path}": ${(error as Error).message}`);
  } finally {
    closeSync(fd);
  }
}

// D-13: an unencrypted PKCS#8 PEM Ed25519 key; anything else is a UsageError naming the file.
export function parsePrivateKey(pem: string, file: string): KeyObject {
  if (pem.includes(['-----BEGIN', 'ENCRYPTED PRIVATE KEY-----'].join(' '))) {
    throw new UsageError(
      `"${file}" is an encrypted PKCS#8 private key (protected by a passphrase); package signs with an unencrypted key: write a decrypted copy readable only by you (umask 077; openssl pkcs8 -in "${file}" -out decrypted.pem) or create a key with "platform-ext keygen"`,
    );
  }
  if (!pem.includes(['-----BEGIN', 'PRIVATE KEY-----'].join(' '))) {
    throw new UsageError(`"${file}" is not a PKCS#8 PEM private key (it must start with "-----BEGIN ${'PRIVATE'} KEY-----"): create one with "platform-ext keygen"`);
  }
  let key: KeyObject;
  try {
    key = nodeCrypto().createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    throw new UsageError(`"${file}" cannot be read as a private key: create one with "platform-ext keygen"`);
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new UsageError(`"${file}" is a ${key.asymmetricKeyType ?? 'unknown'} key; releases are signed with Ed25519 keys: create one with "platform-ext keygen"`);
  }
  return key;
}

export function signEd25519(key: KeyObject, message: Uint8Array): Uint8Array {
  return new Uint8Array(nodeCrypto().sign(null, message, key));
}

/** D-11: the text of publisher-public-key.txt or signature.txt. */
export function base64Line(bytes: Uint8Array): string {
  return `${encodeBase64(bytes)}\n`;
}
