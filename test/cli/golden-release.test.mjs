// The golden release: a committed fixture project and the D-14 test key must give these
// exact bytes on every Node.js >= 20 and every CPU (D-15: the archive is a pure function
// of the source). scripts/node-matrix.mjs runs this file on Node 22 and 24 as well.
// A change here is a format break: never update the pins to make a test pass without
// knowing which encoder or writer change moved them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, runCli } from '../support/project.mjs';

// D-14's test key: the Ed25519 seed 0x01..0x20 as PKCS#8 PEM.
const D14_KEY = '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8g\n-----END PRIVATE KEY-----\n';

// assets/zeros.png (1,001 zero bytes, plain DEFLATE ratio 100.1) is deflated with a
// stored tail (D-41); the other entries are plain DEFLATE streams or stored.
const PINNED = {
  artifactSha256: 'acfbb3cfa0ac56b46cd092e60cd6c91fd796149d541dca1cea9a52a73bacd53f',
  manifestSha256: '9049ac3a21f92e2d517cd68f20aca474029f3d51785fc93b7cafefbeb7204fa1',
  signature: 'cQ3kXp42K/fiFW7qUzl4fXexn4B5gTL71AuMy7vmcNof1rqORfc/sCdW2/Aq48iAOItG/Zwbotz+RQyFbOIXCg==\n',
  publicKey: 'ebVWLo/mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmQ=\n',
};

test(`golden release on Node ${process.version}: pinned artifact SHA-256 and signature`, (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'platform-ext-golden-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const key = join(dir, 'd14.pem');
  writeFileSync(key, D14_KEY, { mode: 0o600 });
  const out = join(dir, 'out');
  const r = runCli(['package', join(ROOT, 'test/fixtures/golden-project'), '--out', out, '--private-key', key]);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const sha = (f) => createHash('sha256').update(readFileSync(join(out, f))).digest('hex');
  const actual = {
    artifactSha256: sha('bundle.zip'),
    manifestSha256: sha('manifest.json'),
    signature: readFileSync(join(out, 'signature.txt'), 'utf8'),
    publicKey: readFileSync(join(out, 'publisher-public-key.txt'), 'utf8'),
  };
  t.diagnostic(JSON.stringify(actual));
  assert.deepEqual(actual, PINNED);
  assert.equal(runCli(['verify', out]).status, 0);
});
