// Writes a signed release folder from arbitrary files, the way a hostile publisher
// could: any manifest bytes, any bundle entries (the deterministic writer of build/,
// which takes any D-2 path), signed with the D-14 test key, the record consistent with
// them. `package` refuses projects with errors, so tests of what verify and review show
// for bad releases build them here.
import { createHash, createPrivateKey, sign } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeZip } from '../../build/zip/zip-writer.js';
import { artifactPath, signedPayload } from '../../build/validator/release.js';

export const D14_PEM = '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8g\n-----END PRIVATE KEY-----\n';

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
const bytesOf = (v) => (typeof v === 'string' ? Buffer.from(v, 'utf8') : v);

/** A valid manifest object for the forged releases (namespace acme/hostile, version 1.0.0). */
export function forgedManifest(overrides = {}) {
  return {
    schema_version: 1,
    namespace: 'acme/hostile',
    version: '1.0.0',
    name: 'Hostile',
    entrypoint: 'index.html',
    protocol_version: 1,
    capabilities: [],
    properties: {},
    ...overrides,
  };
}

/**
 * Writes the five files into `dir`. `manifest`: an object (serialised) or raw bytes/string;
 * `files`: bundle path -> content; `publicKey`/`signature`: raw bytes replacing the real
 * ones (the record then names the given key's fingerprint).
 */
export function forgeRelease(dir, { manifest = forgedManifest(), files = {}, publicKey, signature, namespace = 'acme/hostile', version = '1.0.0' } = {}) {
  mkdirSync(dir, { recursive: true });
  const manifestBytes = typeof manifest === 'object' && !(manifest instanceof Uint8Array) ? Buffer.from(JSON.stringify(manifest, null, 2) + '\n') : bytesOf(manifest);
  const zip = writeZip(Object.entries(files).map(([path, content]) => ({ path, content: bytesOf(content) })));
  const key = createPrivateKey(D14_PEM);
  const realPublic = Buffer.from(key.export({ format: 'jwk' }).x, 'base64url');
  const pub = publicKey ?? realPublic;
  const manifestSha = sha256(manifestBytes);
  const artifactSha = sha256(zip);
  const sig = signature ?? sign(null, Buffer.from(signedPayload(namespace, version, manifestSha, artifactSha)), key);
  const record = {
    format: 'platform-extension-submission-v1',
    namespace,
    version,
    artifact_path: artifactPath(namespace, version),
    manifest_sha256: manifestSha,
    artifact_sha256: artifactSha,
    publisher_public_key_id: sha256(pub),
  };
  writeFileSync(join(dir, 'bundle.zip'), zip);
  writeFileSync(join(dir, 'manifest.json'), manifestBytes);
  writeFileSync(join(dir, 'publisher-public-key.txt'), Buffer.from(pub).toString('base64') + '\n');
  writeFileSync(join(dir, 'signature.txt'), Buffer.from(sig).toString('base64') + '\n');
  writeFileSync(join(dir, 'submission.json'), JSON.stringify(record, null, 2) + '\n');
  return dir;
}
