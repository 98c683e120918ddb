// Publisher keys (D-11 to D-14): Ed25519, the private key as PKCS#8 PEM (what OpenSSL
// writes and reads), the public key as 32 raw bytes written in strict base64.
import type { KeyObject } from 'node:crypto';
import { nodeCrypto } from '../builtins.js';
import { encodeBase64 } from '../validator/base64.js';
import { UsageError } from '../usage-error.js';

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

/** Reads a PKCS#8 PEM Ed25519 private key (D-13); anything else is a clear UsageError naming the file. */
export function parsePrivateKey(pem: string, file: string): KeyObject {
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
