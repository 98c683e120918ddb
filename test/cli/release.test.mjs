// keygen, package, verify and platform-review end to end: determinism, atomic and
// non-destructive writes, every failure explained (Authentication 3 to 5; D-4, D-11 to D-16).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash, createPrivateKey, sign } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, REVIEW, ROOT, keygen, runCli, runReview as review, summarize, tempDir } from '../support/project.mjs';
import { signedPayload } from '../../build/validator/release.js';

const FILES = ['bundle.zip', 'manifest.json', 'publisher-public-key.txt', 'signature.txt', 'submission.json'];

function example(t) {
  const dir = join(tempDir(t), 'hello-world');
  cpSync(join(ROOT, 'examples/hello-world'), dir, { recursive: true });
  return dir;
}

function packageTo(t, project, key, out = join(tempDir(t), 'out')) {
  const r = runCli(['package', project, '--out', out, '--private-key', key.privateKey]);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  return out;
}


const read = (dir) => Object.fromEntries(FILES.map((f) => [f, readFileSync(join(dir, f))]));

test('keygen: PKCS#8 PEM with mode 0600, base64 public key, fingerprint = SHA-256 of the raw key (D-12, D-13)', (t) => {
  const key = keygen(tempDir(t));
  assert.equal(statSync(key.privateKey).mode & 0o777, 0o600);
  assert.match(readFileSync(key.privateKey, 'utf8'), /^-----BEGIN PRIVATE KEY-----\n/);
  const pub = readFileSync(key.publicKey, 'utf8');
  assert.match(pub, /^[A-Za-z0-9+/]{43}=\n$/);
  assert.equal(createHash('sha256').update(Buffer.from(pub.trim(), 'base64')).digest('hex'), key.fingerprint);
  const openssl = spawnSync('openssl', ['pkey', '-in', key.privateKey, '-noout', '-text'], { encoding: 'utf8' });
  if (openssl.error === undefined) assert.equal(openssl.status, 0, openssl.stderr);
});

test('keygen never overwrites, needs existing folders, and keeps keys out of projects', (t) => {
  const key = keygen(tempDir(t));
  const before = readFileSync(key.privateKey);
  const again = runCli(['keygen', '--private-key', key.privateKey, '--public-key', join(key.dir, 'other.pub')]);
  assert.equal(again.status, 2);
  assert.match(again.stderr, /already exists/);
  assert.deepEqual(readFileSync(key.privateKey), before);
  assert.equal(existsSync(join(key.dir, 'other.pub')), false, 'nothing half-written');
  const pubExists = runCli(['keygen', '--private-key', join(key.dir, 'new.pem'), '--public-key', key.publicKey]);
  assert.equal(pubExists.status, 2);
  assert.equal(existsSync(join(key.dir, 'new.pem')), false, 'the private key is not left behind when the public one is refused');
  const missing = runCli(['keygen', '--private-key', join(key.dir, 'no/such/dir/k.pem'), '--public-key', join(key.dir, 'k.pub')]);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /does not exist/);
  const project = example(t);
  const inside = runCli(['keygen', '--private-key', join(project, 'k.pem'), '--public-key', join(key.dir, 'k2.pub')]);
  assert.equal(inside.status, 2);
  assert.match(inside.stderr, /D-4/);
  assert.equal(runCli(['keygen', '--private-key', join(key.dir, 'a.pem')]).status, 2, 'both flags are required');
});

test('package then verify and platform-review: a clean release (exit 0, D-20 reports)', (t) => {
  const key = keygen(tempDir(t));
  const out = packageTo(t, example(t), key);
  // The five files and package's marker, its proof that they are its own (src/load/package-marker.ts).
  assert.deepEqual(readdirSync(out).sort(), ['.platform-ext-output', ...FILES]);
  const record = JSON.parse(readFileSync(join(out, 'submission.json'), 'utf8'));
  assert.deepEqual(Object.keys(record), ['format', 'namespace', 'version', 'artifact_path', 'manifest_sha256', 'artifact_sha256', 'publisher_public_key_id']);
  assert.equal(record.artifact_path, 'extensions/acme/hello-world/1.0.0/bundle.zip');
  assert.equal(record.publisher_public_key_id, key.fingerprint);
  assert.deepEqual(readFileSync(join(out, 'manifest.json')), readFileSync(join(ROOT, 'examples/hello-world/manifest.json')), 'exact manifest bytes');
  const v = runCli(['verify', out, '--json']);
  assert.equal(v.status, 0, v.stdout);
  const tool = { name: 'platform-ext', version: JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version };
  assert.deepEqual(
    { ...v.json, findings: v.json.findings.length },
    { format: 'platform-extension-report-v1', command: 'verify', target: out, ok: true, errors: 0, warnings: 0, findings: 0, tool, contract_version: 1 },
  );
  const text = runCli(['verify', out]);
  assert.match(text.stdout, /signature +valid/);
  const before = JSON.stringify(readdirSync(out).map((f) => [f, statSync(join(out, f)).mtimeMs, readFileSync(join(out, f)).toString('hex')]));
  const r = review([out, '--json', '--first-release']);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.equal(r.json.command, 'review');
  assert.equal(r.json.ok, true);
  assert.equal(JSON.stringify(readdirSync(out).map((f) => [f, statSync(join(out, f)).mtimeMs, readFileSync(join(out, f)).toString('hex')])), before, 'review changes nothing');
});

test('D-41: two 3,000,000-byte files of one repeated byte fit every limit: check passes, package writes, verify, unzip and zipfile accept', (t) => {
  const project = example(t);
  mkdirSync(join(project, 'runtime/fill'), { recursive: true });
  writeFileSync(join(project, 'runtime/fill/a.png'), Buffer.alloc(3_000_000, 0x61));
  writeFileSync(join(project, 'runtime/fill/b.png'), Buffer.alloc(3_000_000, 0x00));
  const checked = runCli(['check', project, '--format', 'json']);
  assert.equal(checked.status, 0, checked.stdout + checked.stderr);
  assert.deepEqual(JSON.parse(checked.stdout).findings.filter((f) => f.severity === 'error'), []);
  const key = keygen(tempDir(t));
  const out = packageTo(t, project, key);
  const archive = readFileSync(join(out, 'bundle.zip'));
  assert.ok(archive.length < 200_000, `${archive.length} bytes`);
  const verified = runCli(['verify', out]);
  assert.equal(verified.status, 0, verified.stdout + verified.stderr);
  assert.equal(review(['--json', '--first-release', out]).status, 0);
  // Independent readers: Info-ZIP's test and Python's zipfile extract the same bytes.
  const unzip = spawnSync('unzip', ['-t', join(out, 'bundle.zip')], { encoding: 'utf8' });
  if (unzip.error === undefined) assert.equal(unzip.status, 0, unzip.stdout + unzip.stderr);
  const script = [
    'import sys, zipfile',
    'z = zipfile.ZipFile(sys.argv[1])',
    'assert z.testzip() is None',
    "a = z.read('fill/a.png'); b = z.read('fill/b.png')",
    "assert a == b'a' * 3000000 and b == bytes(3000000), 'content'",
    "for i in z.infolist(): assert i.file_size <= 100 * i.compress_size, i.filename",
    "print('ok')",
  ].join('\n');
  const python = spawnSync('python3', ['-c', script, join(out, 'bundle.zip')], { encoding: 'utf8' });
  if (python.error === undefined) assert.equal(python.stdout.trim(), 'ok', python.stderr);
});

test('OpenSSL verifies the signature package made (pkeyutl -verify -rawin)', (t) => {
  const key = keygen(tempDir(t));
  const out = packageTo(t, example(t), key);
  const record = JSON.parse(readFileSync(join(out, 'submission.json'), 'utf8'));
  const dir = tempDir(t);
  const payload = `platform-extension-release-v1\nnamespace=${record.namespace}\nversion=${record.version}\nmanifest-sha256=${record.manifest_sha256}\nartifact-sha256=${record.artifact_sha256}\n`;
  writeFileSync(join(dir, 'payload'), payload);
  writeFileSync(join(dir, 'sig'), Buffer.from(readFileSync(join(out, 'signature.txt'), 'utf8').trim(), 'base64'));
  const pub = spawnSync('openssl', ['pkey', '-in', key.privateKey, '-pubout', '-out', join(dir, 'pub.pem')]);
  if (pub.error !== undefined) return t.skip('openssl is not installed');
  const r = spawnSync('openssl', ['pkeyutl', '-verify', '-pubin', '-inkey', join(dir, 'pub.pem'), '-rawin', '-in', join(dir, 'payload'), '-sigfile', join(dir, 'sig')], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /Signature Verified Successfully/);
});

test('determinism: same source and key give identical files whatever path, times, umask, TZ or creation order', (t) => {
  const key = keygen(tempDir(t));
  const a = example(t);
  const b = join(tempDir(t), 'elsewhere', 'deeper', 'copy');
  mkdirSync(join(b, 'runtime/lib'), { recursive: true });
  mkdirSync(join(b, 'runtime/images'), { recursive: true });
  // Reverse creation order, other times.
  for (const rel of ['runtime/styles.css', 'runtime/main.js', 'runtime/lib/format.js', 'runtime/index.html', 'runtime/images/logo.png', 'manifest.json']) {
    writeFileSync(join(b, rel), readFileSync(join(a, rel)));
    utimesSync(join(b, rel), new Date('2001-02-03T04:05:06Z'), new Date('2001-02-03T04:05:06Z'));
  }
  const outA = packageTo(t, a, key);
  const outB = join(tempDir(t), 'out');
  const r = spawnSync('sh', ['-c', `umask 077 && "${process.execPath}" "${CLI}" package "${b}" --out "${outB}" --private-key "${key.privateKey}"`], {
    encoding: 'utf8',
    env: { ...process.env, TZ: 'Pacific/Kiritimati' },
  });
  assert.equal(r.status, 0, r.stderr);
  const filesA = read(outA);
  const filesB = read(outB);
  for (const f of FILES) assert.deepEqual(filesA[f], filesB[f], f);
});

test('a project with errors: package writes nothing and exits 1', (t) => {
  const key = keygen(tempDir(t));
  const project = example(t);
  writeFileSync(join(project, 'runtime/notes.md'), '# not allowed');
  const out = join(tempDir(t), 'out');
  const r = runCli(['package', project, '--out', out, '--private-key', key.privateKey]);
  assert.equal(r.status, 1);
  assert.match(r.stdout, /bundle\/extension-not-allowed/);
  assert.equal(existsSync(out), false);
  assert.deepEqual(readdirSync(join(out, '..')).filter((n) => n.startsWith('.out')), [], 'no staging folder left');
});

test('out folder: absent, empty or an earlier set are fine; anything else is refused and untouched', (t) => {
  const key = keygen(tempDir(t));
  const project = example(t);
  const base = tempDir(t);
  const empty = join(base, 'empty');
  mkdirSync(empty);
  packageTo(t, project, key, empty);
  packageTo(t, project, key, empty); // an earlier set is replaced whole
  assert.deepEqual(readdirSync(empty).sort(), ['.platform-ext-output', ...FILES]);
  const foreign = join(base, 'foreign');
  mkdirSync(foreign);
  writeFileSync(join(foreign, 'notes.txt'), 'mine');
  const r = runCli(['package', project, '--out', foreign, '--private-key', key.privateKey]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /notes\.txt/);
  assert.deepEqual(readdirSync(foreign), ['notes.txt']);
  assert.equal(readFileSync(join(foreign, 'notes.txt'), 'utf8'), 'mine');
  const inRuntime = runCli(['package', project, '--out', join(project, 'runtime/out'), '--private-key', key.privateKey]);
  assert.equal(inRuntime.status, 2);
});

test('a private key inside the project is refused (D-4)', (t) => {
  const key = keygen(tempDir(t));
  const project = example(t);
  cpSync(key.privateKey, join(project, 'signing.pem'));
  const r = runCli(['package', project, '--out', join(tempDir(t), 'out'), '--private-key', join(project, 'signing.pem')]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /inside the project/);
  const check = runCli(['check', project, '--json']);
  assert.deepEqual(summarize(check.json), ['secret/private-key signing.pem']);
});

test('--dry-run lists files and the budget without a key and writes nothing', (t) => {
  const project = example(t);
  const r = runCli(['package', project, '--dry-run']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /index\.html/);
  assert.match(r.stdout, /files +5 of 200/);
  assert.match(r.stdout, /compressed .* of 5 MiB/);
  assert.deepEqual(readdirSync(project).sort(), ['manifest.json', 'runtime']);
});

/** Packages once, then applies `tamper` to a copy of the set and returns the verify report. */
function tampered(t, tamper) {
  const key = keygen(tempDir(t));
  const out = packageTo(t, example(t), key);
  tamper(out, key);
  const r = runCli(['verify', out, '--json']);
  const rv = review([out, '--json', '--first-release']);
  assert.equal(rv.status, r.status, 'review and verify agree');
  // The same findings; review adds its signer check (no --known-keys here) and words its hints for the operator.
  const withoutHint = (findings) => findings.map(({ hint: _hint, ...f }) => f);
  assert.deepEqual(withoutHint(rv.json.findings.filter((f) => f.rule !== 'release/signer-not-pinned')), withoutHint(r.json.findings), 'review and verify agree');
  return r;
}

test('a signature over the other reading of the payload (one more line break) has its own finding in verify and review (D-14)', (t) => {
  const key = keygen(tempDir(t));
  const out = packageTo(t, example(t), key);
  const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
  const sha = (f) => createHash('sha256').update(readFileSync(join(out, f))).digest('hex');
  const payload = signedPayload(manifest.namespace, manifest.version, sha('manifest.json'), sha('bundle.zip'));
  const privateKey = createPrivateKey(readFileSync(key.privateKey));
  const rows = [
    ["D-14's payload", payload, []],
    ['one more line break (an empty sixth line with its own)', `${payload}\n`, ['release/signature-extra-line-break signature.txt']],
    ['two more line breaks', `${payload}\n\n`, ['release/signature-invalid signature.txt']],
    ['no final line break', payload.slice(0, -1), ['release/signature-invalid signature.txt']],
    ['CRLF line endings', payload.replace(/\n/g, '\r\n'), ['release/signature-invalid signature.txt']],
    ['a leading line break', `\n${payload}`, ['release/signature-invalid signature.txt']],
  ];
  for (const [what, signed, expected] of rows) {
    const dir = join(tempDir(t), 'set');
    cpSync(out, dir, { recursive: true });
    writeFileSync(join(dir, 'signature.txt'), `${sign(null, Buffer.from(signed, 'latin1'), privateKey).toString('base64')}\n`);
    const v = runCli(['verify', dir, '--json']);
    const rv = review([dir, '--json', '--first-release']);
    const signatureFindings = (json) => summarize(json).filter((f) => f.startsWith('release/signature'));
    assert.deepEqual(signatureFindings(v.json), expected, `verify: ${what}`);
    assert.deepEqual(signatureFindings(rv.json), expected, `platform-review: ${what}`);
    assert.equal(v.status, expected.length === 0 ? 0 : 1, `verify exit: ${what}`);
    assert.notEqual(rv.status, expected.length === 0 ? 1 : 0, `review exit: ${what}`);
    if (expected[0]?.startsWith('release/signature-extra-line-break')) {
      const finding = v.json.findings.find((f) => f.rule === 'release/signature-extra-line-break');
      assert.equal(finding.severity, 'error');
      assert.match(finding.message, new RegExp(`${payload.length + 1} bytes ending in 0a 0a`), 'names the difference');
    }
  }
});

test('verify explains: manifest changed only in line endings', (t) => {
  const r = tampered(t, (out) => {
    const p = join(out, 'manifest.json');
    writeFileSync(p, readFileSync(p, 'utf8').replace(/\n/g, '\r\n'));
  });
  assert.equal(r.status, 1);
  const sig = r.json.findings.find((f) => f.rule === 'release/signature-invalid');
  assert.match(sig.message, /line endings or whitespace only/);
  assert.ok(summarize(r.json).includes('release/submission-mismatch submission.json /manifest_sha256'));
});

test('verify explains: manifest content changed', (t) => {
  const r = tampered(t, (out) => {
    const p = join(out, 'manifest.json');
    writeFileSync(p, readFileSync(p, 'utf8').replace('Hello World Product Strip', 'Hello World Product Strip 2'));
  });
  const sig = r.json.findings.find((f) => f.rule === 'release/signature-invalid');
  assert.match(sig.message, /manifest\.json changed after signing/);
  assert.doesNotMatch(sig.message, /whitespace/);
});

test('verify explains: manifest edited to another version', (t) => {
  const r = tampered(t, (out) => {
    const p = join(out, 'manifest.json');
    writeFileSync(p, readFileSync(p, 'utf8').replace('"1.0.0"', '"1.0.1"'));
  });
  const sig = r.json.findings.find((f) => f.rule === 'release/signature-invalid');
  assert.match(sig.message, /manifest\.json changed after signing/);
  assert.ok(summarize(r.json).includes('release/submission-mismatch submission.json /version'));
});

test('verify explains: bundle changed', (t) => {
  const r = tampered(t, (out) => {
    const p = join(out, 'bundle.zip');
    const b = readFileSync(p);
    b[b.length - 30] ^= 1; // inside the central directory: the archive may also break
    writeFileSync(p, b);
  });
  assert.equal(r.status, 1);
  const ids = summarize(r.json);
  assert.ok(ids.includes('release/submission-mismatch submission.json /artifact_sha256'), ids.join('\n'));
  const sig = r.json.findings.find((f) => f.rule === 'release/signature-invalid');
  assert.match(sig.message, /bundle\.zip changed after signing/);
});

test('verify explains: a different key', (t) => {
  const r = tampered(t, (out) => {
    const other = keygen(tempDir(t));
    writeFileSync(join(out, 'publisher-public-key.txt'), readFileSync(other.publicKey));
  });
  const ids = summarize(r.json);
  assert.ok(ids.includes('release/submission-mismatch submission.json /publisher_public_key_id'));
  assert.match(r.json.findings.find((f) => f.rule === 'release/signature-invalid').message, /different key/);
});

test('verify explains: a signature over another payload', (t) => {
  const r = tampered(t, (out) => {
    // A valid-looking signature that is not over this payload: one bit of it flipped.
    const bytes = Buffer.from(readFileSync(join(out, 'signature.txt'), 'utf8').trim(), 'base64');
    bytes[10] ^= 0x40;
    writeFileSync(join(out, 'signature.txt'), bytes.toString('base64') + '\n');
  });
  assert.deepEqual(summarize(r.json), ['release/signature-invalid signature.txt']);
  assert.match(r.json.findings[0].message, /different key or over another payload/);
});

test('verify: an edited submission record is named field by field', (t) => {
  const r = tampered(t, (out) => {
    const p = join(out, 'submission.json');
    const rec = JSON.parse(readFileSync(p, 'utf8'));
    rec.version = '1.0.1';
    rec.extra = 'x';
    writeFileSync(p, JSON.stringify(rec, null, 2) + '\n');
  });
  const ids = summarize(r.json);
  assert.ok(ids.includes('release/submission-field submission.json /extra'));
  assert.ok(ids.includes('release/submission-mismatch submission.json /version'));
  assert.ok(!ids.some((i) => i.startsWith('release/signature-invalid')), 'the signature itself is fine');
});

test('verify: missing, unexpected and key-bearing files', (t) => {
  const r = tampered(t, (out) => {
    rmSync(join(out, 'signature.txt'));
    writeFileSync(join(out, 'notes.txt'), 'hello');
    writeFileSync(join(out, 'key.pem'), `-----BEGIN ${'PRIVATE'} KEY-----\nabc\n`);
  });
  const ids = summarize(r.json);
  for (const id of ['release/missing-file signature.txt', 'release/unexpected-file notes.txt', 'release/unexpected-file key.pem', 'secret/private-key key.pem']) {
    assert.ok(ids.includes(id), `${id} in ${ids.join(', ')}`);
  }
});

test('verify and review: usage errors and unreadable folders are exit 2', (t) => {
  assert.equal(runCli(['verify']).status, 2);
  assert.equal(runCli(['verify', join(tempDir(t), 'none')]).status, 2);
  assert.equal(review([]).status, 2);
  assert.equal(review(['--bogus', '.']).status, 2);
  assert.equal(review([join(tempDir(t), 'none')]).status, 2);
  assert.equal(review(['--help']).status, 0);
});

test('dist/platform-review.mjs takes its validation only from ./validator.mjs (records from ./service.mjs) and node: built-ins', () => {
  const text = readFileSync(REVIEW, 'utf8');
  const specifiers = [...text.matchAll(/^\s*import\s[^;]*?from\s*["']([^"']+)["']/gm), ...text.matchAll(/\bimport\s*\(\s*["']([^"']+)["']/g)].map((m) => m[1]);
  assert.ok(specifiers.includes('./validator.mjs'), specifiers.join(', '));
  for (const s of specifiers) assert.ok(s === './validator.mjs' || s === './service.mjs' || s.startsWith('node:'), s);
  assert.doesNotMatch(text, /function readZip|function validateManifest|function checkEntrypointHtml/, 'no validator code is bundled into review');
});


test('verify: malformed key, signature and record files each get their own rule', (t) => {
  const r = tampered(t, (out) => {
    const key = readFileSync(join(out, 'publisher-public-key.txt'), 'utf8');
    writeFileSync(join(out, 'publisher-public-key.txt'), key.replace('\n', '\r\n'));
    const sig = readFileSync(join(out, 'signature.txt'), 'utf8');
    writeFileSync(join(out, 'signature.txt'), ` ${sig}`);
    writeFileSync(join(out, 'submission.json'), '{"format": "platform-extension-submission-v1",}');
  });
  const ids = summarize(r.json).map((s) => s.trim()); // the record's finding has pointer "" (the whole document)
  for (const id of ['release/public-key-format publisher-public-key.txt', 'release/signature-format signature.txt', 'release/submission-invalid submission.json']) {
    assert.ok(ids.includes(id), `${id} in ${ids.join(', ')}`);
  }
});

test('verify: a submission file larger than any valid one is refused unread', (t) => {
  const r = tampered(t, (out) => writeFileSync(join(out, 'signature.txt'), 'A'.repeat(5000)));
  assert.ok(summarize(r.json).includes('release/file-too-large signature.txt'));
});
