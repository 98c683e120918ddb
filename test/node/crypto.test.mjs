// Keys, payload, fingerprint and strict base64 (D-11 to D-14), and Ed25519 verification
// against the public vector sets, through the same functions `verify` and `review` use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { decodeBase64Strict, encodeBase64 } from '../../build/validator/base64.js';
import { parseBase64File, signedPayload, artifactPath } from '../../build/validator/release.js';
import { verifyEd25519 } from '../../build/node/release-deps.js';
import { sha256Hex } from '../../build/node/hashes.js';
import { parsePrivateKey, publicKeyBytes, signEd25519, base64Line } from '../../build/node/ed25519-keys.js';

const corpus = (p) => new URL(`../corpus/${p}`, import.meta.url);
const hex = (h) => Uint8Array.from(Buffer.from(h, 'hex'));
const enc = (s) => new TextEncoder().encode(s);

test('D-14 test vector: seed 1..32, acme/hello-world 1.0.0, manifest "{}", empty bundle', () => {
  const pem = '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8g\n-----END PRIVATE KEY-----\n';
  const key = parsePrivateKey(pem, 'vector.pem');
  const publicKey = publicKeyBytes(key);
  assert.equal(encodeBase64(publicKey), 'ebVWLo/mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmQ=');
  assert.equal(sha256Hex(publicKey), '65b60673d6ed884bf01c2c222d82ada0740f29ac3355d6a925c81f17f47a27b8');
  const payload = signedPayload('acme/hello-world', '1.0.0', sha256Hex(enc('{}')), sha256Hex(new Uint8Array(0)));
  assert.equal(payload.split('\n').length, 6, 'five lines each ended by \\n: six parts, the last empty');
  assert.equal(payload.split('\n')[5], '');
  assert.ok(!payload.includes('\r'));
  const signature = signEd25519(key, enc(payload));
  assert.equal(encodeBase64(signature), 'Vv6pfDSSyPZvamr2ARK2syYBFBR7bY8Os5gOTP4uVYsUJfe7nOrk4oSLM4OiZ7zvaVmVWia6wY6NbIoqM2IpAA==');
  assert.equal(verifyEd25519(publicKey, enc(payload), signature), true);
  assert.equal(verifyEd25519(publicKey, enc(payload.replace(/\n/g, '\r\n')), signature), false, 'CRLF payload is another payload');
  assert.equal(base64Line(publicKey), 'ebVWLo/mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmQ=\n');
  assert.equal(artifactPath('acme/hello-world', '1.0.0'), 'extensions/acme/hello-world/1.0.0/bundle.zip');
});

test('D-11 key and signature files: exactly the base64, with or without one final newline', () => {
  const key = 'ebVWLo/mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmQ=';
  const ok = [key, `${key}\n`];
  const bad = [
    [`${key}\r\n`, 'CRLF'],
    [`${key}\n\n`, 'second newline'],
    [` ${key}`, 'leading space'],
    [`${key} `, 'trailing space'],
    [key.slice(0, 43), '43 characters'],
    [`${key}A`, '45 characters'],
    ['ebVWLo/mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmR=', 'non-canonical: unused bits set (decodes to the same bytes in lenient decoders)'],
    ['ebVWLo_mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmQ=', 'base64url alphabet'],
    ['ebVWLo/mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmQA', 'no padding'],
    ['ebVWLo/mVPlAeLES6KmLp5AfhTrmlb7X4OORC60Elm==', 'padding of the wrong length'],
  ];
  for (const text of ok) assert.equal(parseBase64File(enc(text), 32).ok, true, JSON.stringify(text));
  for (const [text, why] of bad) assert.equal(parseBase64File(enc(text), 32).ok, false, why);
  const lenient = Buffer.from('ebVWLo/mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmR=', 'base64');
  assert.equal(encodeBase64(lenient), key, 'Node decodes the non-canonical text to the same key: why strictness matters');
  const sig = 'Vv6pfDSSyPZvamr2ARK2syYBFBR7bY8Os5gOTP4uVYsUJfe7nOrk4oSLM4OiZ7zvaVmVWia6wY6NbIoqM2IpAA==';
  assert.equal(parseBase64File(enc(`${sig}\n`), 64).ok, true);
  assert.equal(parseBase64File(enc(`${key}\n`), 64).ok, false, 'a key is not a signature');
});

test('strict base64 round trip for every length 0..64', () => {
  for (let n = 0; n <= 64; n++) {
    const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 0xff);
    const text = encodeBase64(bytes);
    assert.equal(text, Buffer.from(bytes).toString('base64'));
    assert.deepEqual(decodeBase64Strict(text), bytes);
  }
});

test('Wycheproof Ed25519: 151 of 151 verdicts through verifyEd25519', () => {
  const suite = JSON.parse(readFileSync(corpus('wycheproof-ed25519/ed25519_test.json'), 'utf8'));
  let count = 0;
  for (const group of suite.testGroups) {
    const pk = hex(group.publicKey.pk);
    for (const t of group.tests) {
      const got = verifyEd25519(pk, hex(t.msg), hex(t.sig));
      assert.equal(got, t.result === 'valid', `tcId ${t.tcId} ${t.comment}`);
      count++;
    }
  }
  assert.equal(count, 151);
});

test('RFC 8032 section 7.1 vectors: our keys derive the public key and sign identically', () => {
  const { vectors } = JSON.parse(readFileSync(corpus('rfc8032-ed25519/vectors.json'), 'utf8'));
  assert.ok(vectors.length >= 4);
  for (const v of vectors) {
    const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(v.secretKey, 'hex')]);
    const key = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
    assert.equal(Buffer.from(publicKeyBytes(key)).toString('hex'), v.publicKey, v.name);
    assert.equal(Buffer.from(signEd25519(key, hex(v.message))).toString('hex'), v.signature, v.name);
    assert.equal(verifyEd25519(hex(v.publicKey), hex(v.message), hex(v.signature)), true, v.name);
  }
});

test('verifyEd25519 never throws: wrong lengths and non-points are just invalid', () => {
  assert.equal(verifyEd25519(new Uint8Array(31), enc('m'), new Uint8Array(64)), false);
  assert.equal(verifyEd25519(new Uint8Array(32).fill(0xff), enc('m'), new Uint8Array(64)), false);
  assert.equal(verifyEd25519(new Uint8Array(32), enc('m'), new Uint8Array(63)), false);
});

test('parsePrivateKey refuses what is not a PKCS#8 Ed25519 key, naming the file', () => {
  assert.throws(() => parsePrivateKey('hello', 'k.pem'), /"k\.pem"/);
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  assert.throws(() => parsePrivateKey(privateKey.export({ type: 'pkcs8', format: 'pem' }), 'ec.pem'), /Ed25519/);
});


// D-31: the eight points of small order, each as its canonical encoding, and encodings
// that are not canonical (y not reduced, or x = 0 with the sign bit set).
const SMALL_ORDER_POINTS = [
  ['0100000000000000000000000000000000000000000000000000000000000000', 'identity (order 1)'],
  ['ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', '(0, -1) (order 2)'],
  ['0000000000000000000000000000000000000000000000000000000000000000', '(sqrt(-1), 0) (order 4)'],
  ['0000000000000000000000000000000000000000000000000000000000000080', '(-sqrt(-1), 0) (order 4)'],
  ['26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05', 'order 8, x even'],
  ['26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85', 'order 8, x odd'],
  ['c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a', 'order 8, x even'],
  ['c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa', 'order 8, x odd'],
];
const NON_CANONICAL_KEYS = [
  ['0100000000000000000000000000000000000000000000000000000000000080', 'identity with the sign bit set'],
  ['ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff', '(0, -1) with the sign bit set'],
  ['edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', 'y = p (0 not reduced)'],
  ['eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', 'y = p + 1 (the identity not reduced)'],
  ['ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', 'y = 2^255 - 1'],
];

test('D-31: all eight small-order points and non-canonical encodings are weak keys; real keys are not', async () => {
  const { publicKeyWeakness } = await import('../../build/validator/ed25519.js');
  for (const [h, why] of SMALL_ORDER_POINTS) assert.equal(publicKeyWeakness(hex(h)), 'small-order', why);
  for (const [h, why] of NON_CANONICAL_KEYS) assert.equal(publicKeyWeakness(hex(h)), 'non-canonical', why);
  // y = 2 is not the y of any curve point.
  assert.equal(publicKeyWeakness(hex('02' + '00'.repeat(31))), 'not-on-curve');
  assert.equal(publicKeyWeakness(Buffer.from('ebVWLo/mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmQ=', 'base64')), undefined, 'the D-14 vector key');
  for (let i = 0; i < 8; i++) {
    const key = publicKeyBytes(generateKeyPairSync('ed25519').privateKey);
    assert.equal(publicKeyWeakness(key), undefined, encodeBase64(key));
  }
});

test('D-31: a signature scalar S is canonical below L only', async () => {
  const { signatureScalarCanonical } = await import('../../build/validator/ed25519.js');
  const L = (1n << 252n) + 27742317777372353535851937790883648493n;
  const withS = (s) => {
    const sig = new Uint8Array(64);
    for (let i = 0, v = s; i < 32; i++, v >>= 8n) sig[32 + i] = Number(v & 255n);
    return sig;
  };
  assert.equal(signatureScalarCanonical(withS(0n)), true);
  assert.equal(signatureScalarCanonical(withS(L - 1n)), true);
  assert.equal(signatureScalarCanonical(withS(L)), false);
  assert.equal(signatureScalarCanonical(withS(L + 1n)), false);
  assert.equal(signatureScalarCanonical(withS((1n << 256n) - 1n)), false);
});

test('D-31: validateRelease refuses a small-order key whose forged signature the platform verifier accepts', async () => {
  const { validateRelease } = await import('../../build/validator/release.js');
  const { NODE_RELEASE_DEPS } = await import('../../build/node/release-deps.js');
  const identity = hex(SMALL_ORDER_POINTS[0][0]);
  const forged = new Uint8Array(64);
  forged.set(identity, 0); // R = identity, S = 0
  assert.equal(verifyEd25519(identity, enc('any payload'), forged), true, 'the platform verifier alone accepts the forgery: why D-31 checks first');
  const release = (publicKey, signature) => ({
    files: {
      'bundle.zip': null,
      'manifest.json': null,
      'publisher-public-key.txt': enc(base64Line(publicKey)),
      'signature.txt': enc(base64Line(signature)),
      'submission.json': null,
    },
    otherNames: [],
  });
  const ids = (r) => r.findings.map((f) => f.rule);
  for (const [h, why] of [...SMALL_ORDER_POINTS, ...NON_CANONICAL_KEYS]) {
    const r = validateRelease(release(hex(h), forged), NODE_RELEASE_DEPS);
    assert.ok(ids(r).includes('release/weak-public-key'), why);
    assert.equal(r.signatureValid, false, why);
  }
  const good = publicKeyBytes(generateKeyPairSync('ed25519').privateKey);
  assert.ok(!ids(validateRelease(release(good, forged), NODE_RELEASE_DEPS)).includes('release/weak-public-key'));
  const L = (1n << 252n) + 27742317777372353535851937790883648493n;
  const highS = new Uint8Array(64);
  for (let i = 0, v = L; i < 32; i++, v >>= 8n) highS[32 + i] = Number(v & 255n);
  assert.ok(ids(validateRelease(release(good, highS), NODE_RELEASE_DEPS)).includes('release/signature-not-canonical'));
  assert.ok(!ids(validateRelease(release(good, forged), NODE_RELEASE_DEPS)).includes('release/signature-not-canonical'));
});

test('node/hashes.ts: SHA-256 of text and of its UTF-8 bytes agree; CRC-32 matches the check value and the validator', async () => {
  const { crc32, sha256Base64, createSha256 } = await import('../../build/node/hashes.js');
  const { crc32: crc32InJs } = await import('../../build/validator/zip/crc32.js');
  // FIPS 180-2 example "abc" and the CRC-32 check value of "123456789" (ISO-HDLC).
  assert.equal(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  assert.equal(sha256Hex(new TextEncoder().encode('abc')), sha256Hex('abc'));
  assert.equal(sha256Base64('abc'), Buffer.from(sha256Hex('abc'), 'hex').toString('base64'));
  assert.equal(createSha256().update('a').update('bc').digest('hex'), sha256Hex('abc'));
  const check = new TextEncoder().encode('123456789');
  assert.equal(crc32(check), 0xcbf43926);
  for (const bytes of [new Uint8Array(0), check, new Uint8Array(70_000).map((_, i) => (i * 31) & 0xff)]) assert.equal(crc32(bytes), crc32InJs(bytes));
});
