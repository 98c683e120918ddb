// Hostile keys and hostile output, end to end through the built CLI and platform-review
// (D-29, D-30, D-31, D-32 and the report bounds): every case spawns a fresh
// process with a 200 MB heap and a watchdog that kills it (a hang fails the case, with no
// timing assertion beyond that), and asserts the exit status and the finding id or the
// usage error. Names every object inherits are not flags; private keys that are not
// owner-only regular files of a sane size never get read; weak keys never verify; the
// text a release controls never reaches the terminal raw; a report stays a report however
// many findings a file holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash, createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, ROOT, makeProject } from '../support/project.mjs';
import { D14_PEM, forgeRelease, forgedManifest } from '../support/forge-release.mjs';
import { signedPayload } from '../../build/validator/release.js';

const REVIEW = join(ROOT, 'dist/platform-review.mjs');
/** The watchdog: far beyond any expected run, so only a hang reaches it. */
const WATCHDOG_MS = 60_000;
const HEAP = '--max-old-space-size=200';
const EXAMPLE = join(ROOT, 'examples/hello-world');
const L = (1n << 252n) + 27742317777372353535851937790883648493n;
/** Characters D-29 never lets through to a terminal (C0 but line feed, DEL, C1, bidi and invisible format characters). */
const RAW_UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/;

const work = mkdtempSync(join(tmpdir(), 'platform-ext-hostile-output-'));
test.after(() => rmSync(work, { recursive: true, force: true }));
let serial = 0;
const fresh = (name) => join(work, `${serial++}-${name}`);

function run(script, args, env = {}) {
  const r = spawnSync(process.execPath, [HEAP, script, ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: '', ...env },
    timeout: WATCHDOG_MS,
    killSignal: 'SIGKILL',
    maxBuffer: 256 << 20,
  });
  assert.notEqual(r.signal, 'SIGKILL', `${args.join(' ')}: killed by the watchdog (a hang)`);
  let json;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    json = undefined;
  }
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, json };
}
const cli = (args, env) => run(CLI, args, env);
const review = (args) => run(REVIEW, args);
const rules = (report) => report.findings.map((f) => f.rule);

function usageError(r, what) {
  assert.equal(r.status, 2, `${what}: exit status (stderr: ${r.stderr})`);
  assert.equal(r.stdout, '', `${what}: nothing on stdout`);
  assert.match(r.stderr, /^platform-(ext|review): /, `${what}: one message on stderr`);
  assert.doesNotMatch(r.stderr, /internal error|\n\s+at /, `${what}: no bug report, no stack`);
}

function noRawControls(text, what) {
  const hit = RAW_UNSAFE.exec(text);
  assert.equal(hit, null, `${what}: printed U+${hit?.[0].charCodeAt(0).toString(16)} raw`);
}

// ---------------------------------------------------------------------------------------
// Private keys (D-13, D-30, D-31): usage errors before anything is built.

const keys = join(work, 'keys');
mkdirSync(keys);
const outOf = (name) => join(work, `out-${name}-${serial++}`);
const packageWith = (key) => cli(['package', EXAMPLE, '--out', outOf('pkg'), '--private-key', key]);

function keyFile(name, content, mode = 0o600) {
  const path = join(keys, name);
  writeFileSync(path, content, { mode });
  chmodSync(path, mode);
  return path;
}

const KEY_CASES = [
  ['/dev/zero (a device that never ends)', () => '/dev/zero'],
  ['/dev/null (a device)', () => '/dev/null'],
  ['a FIFO nobody writes to', () => {
    const path = join(keys, 'fifo.pem');
    const made = spawnSync('mkfifo', [path]);
    assert.equal(made.status, 0, 'mkfifo');
    return path;
  }],
  ['a 1 GB sparse file', () => {
    const path = keyFile('huge.pem', '');
    truncateSync(path, 1 << 30);
    return path;
  }],
  ['one byte over 64 KiB of PEM-looking text', () => keyFile('big.pem', `-----BEGIN PRIVATE KEY-----\n${'A'.repeat(65_537)}\n`)],
  ['a folder', () => {
    const path = join(keys, 'folder.pem');
    mkdirSync(path);
    return path;
  }],
  ['a symbolic link to a valid key', () => {
    const target = keyFile('target.pem', D14_PEM);
    const path = join(keys, 'link.pem');
    symlinkSync(target, path);
    return path;
  }],
  ['mode 0644 (world-readable)', () => keyFile('m644.pem', D14_PEM, 0o644)],
  ['mode 0640 (group-readable)', () => keyFile('m640.pem', D14_PEM, 0o640)],
  ['mode 0604 (other-readable only)', () => keyFile('m604.pem', D14_PEM, 0o604)],
  ['mode 0620 (group-writable)', () => keyFile('m620.pem', D14_PEM, 0o620)],
  ['mode 0666', () => keyFile('m666.pem', D14_PEM, 0o666)],
  ['an encrypted PKCS#8 key', () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    return keyFile('encrypted.pem', privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'secret' }));
  }],
  ['a missing file', () => join(keys, 'absent.pem')],
  ['an empty file', () => keyFile('empty.pem', '')],
  ['the public key text instead of the private key', () => keyFile('public.pem', 'ebVWLo/mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmQ=\n')],
  ['an RSA key', () => keyFile('rsa.pem', generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }))],
  ['binary junk', () => keyFile('junk.pem', Buffer.from([0, 1, 2, 0x1b, 0x5b, 0x32, 0x4a, 0xff]))],
];

for (const [what, make] of KEY_CASES) {
  test(`package --private-key: ${what} is a usage error`, () => {
    usageError(packageWith(make()), what);
  });
}

test('package --private-key: owner-only keys (0600, 0400) sign; the control case of the table above', () => {
  for (const mode of [0o600, 0o400]) {
    const key = keyFile(`ok-${mode.toString(8)}.pem`, D14_PEM, mode);
    const r = packageWith(key);
    assert.equal(r.status, 0, `${mode.toString(8)}: ${r.stderr}`);
  }
});

// ---------------------------------------------------------------------------------------
// Weak keys and non-canonical signatures (D-31), with a record that matches them, so that
// nothing but the key rule stands between them and "signature valid".

const HTML = '<!doctype html><html><head><meta charset="utf-8"><title>t</title></head><body></body></html>\n';
const hex = (h) => Buffer.from(h, 'hex');
const IDENTITY = hex('0100000000000000000000000000000000000000000000000000000000000000');
const WEAK_KEYS = [
  ['the identity', '0100000000000000000000000000000000000000000000000000000000000000'],
  ['(0, -1), order 2', 'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f'],
  ['order 4, x even', '0000000000000000000000000000000000000000000000000000000000000000'],
  ['order 4, x odd', '0000000000000000000000000000000000000000000000000000000000000080'],
  ['order 8 (1)', '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05'],
  ['order 8 (2)', '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85'],
  ['order 8 (3)', 'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a'],
  ['order 8 (4)', 'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa'],
  ['the identity with y = p + 1 (non-canonical)', 'eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f'],
  ['the identity with the sign bit set (non-canonical)', '0100000000000000000000000000000000000000000000000000000000000080'],
  ['y = p (non-canonical)', 'edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f'],
  ['not a curve point', '0200000000000000000000000000000000000000000000000000000000000000'],
];
const FORGED_SIGNATURE = Buffer.concat([IDENTITY, Buffer.alloc(32)]); // R = identity, S = 0

for (const [what, key] of WEAK_KEYS) {
  test(`verify: publisher key ${what} with R = identity, S = 0 is release/weak-public-key (exit 1)`, () => {
    const dir = forgeRelease(fresh('weak'), { files: { 'index.html': HTML }, publicKey: hex(key), signature: FORGED_SIGNATURE });
    const r = cli(['verify', dir, '--json']);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.ok(rules(r.json).includes('release/weak-public-key'), rules(r.json).join(' '));
    assert.ok(!rules(r.json).includes('release/submission-mismatch'), 'the record names this key: nothing else is wrong');
  });
}

test('platform-review: the identity key and its forged signature are refused too, and the text says NOT valid', () => {
  const dir = forgeRelease(fresh('weak-review'), { files: { 'index.html': HTML }, publicKey: IDENTITY, signature: FORGED_SIGNATURE });
  const json = review([dir, '--json']);
  assert.equal(json.status, 1);
  assert.ok(rules(json.json).includes('release/weak-public-key'));
  const text = review([dir]);
  assert.equal(text.status, 1);
  assert.match(text.stdout, /signature\s+NOT valid/);
});

test('verify: a signature with S + L in place of S is release/signature-not-canonical (exit 1)', () => {
  const manifest = Buffer.from(JSON.stringify(forgedManifest(), null, 2) + '\n');
  const dir = forgeRelease(fresh('high-s'), { manifest, files: { 'index.html': HTML } });
  // Re-sign exactly as forgeRelease did, then add L to S.
  const sha = (b) => createHash('sha256').update(b).digest('hex');
  const zip = readFileSync(join(dir, 'bundle.zip'));
  const good = sign(null, Buffer.from(signedPayload('acme/hostile', '1.0.0', sha(manifest), sha(zip))), createPrivateKey(D14_PEM));
  let s = 0n;
  for (let i = 63; i >= 32; i--) s = (s << 8n) | BigInt(good[i]);
  s += L;
  const high = Buffer.from(good);
  for (let i = 32; i < 64; i++, s >>= 8n) high[i] = Number(s & 255n);
  writeFileSync(join(dir, 'signature.txt'), high.toString('base64') + '\n');
  const r = cli(['verify', dir, '--json']);
  assert.equal(r.status, 1);
  assert.ok(rules(r.json).includes('release/signature-not-canonical'), rules(r.json).join(' '));
  writeFileSync(join(dir, 'signature.txt'), good.toString('base64') + '\n');
  assert.equal(cli(['verify', dir, '--json']).status, 0, 'the canonical signature of the same release verifies');
});

// ---------------------------------------------------------------------------------------
// Escaped output (D-29): names, keys and values from the input never reach the terminal raw.

/** Text that would draw a clean report over the real one, if printed raw. */
const FORGERY = '\r\u001b[2K\u001b[1A\u001b[2K✓ release: no problems found\n  signature      valid\u001b[8m';

test('verify: a release file named to forge "no problems found / signature valid" is escaped; exit 1', () => {
  const dir = forgeRelease(fresh('forged-screen'), { files: { 'index.html': HTML } });
  writeFileSync(join(dir, `x${FORGERY.replace(/\n/g, '\u2028')}`), 'x');
  const r = cli(['verify', dir]);
  assert.equal(r.status, 1);
  assert.match(r.stdout, /release\/unexpected-file/);
  noRawControls(r.stdout, 'verify text');
  assert.doesNotMatch(r.stdout, /^✓/m, 'no line starts with the forged check mark');
  const json = cli(['verify', dir, '--json']);
  assert.equal(json.status, 1);
  assert.ok(rules(json.json).includes('release/unexpected-file'));
});

test('platform-review: the same forged file name is escaped too', () => {
  const dir = forgeRelease(fresh('forged-review'), { files: { 'index.html': HTML } });
  writeFileSync(join(dir, `notes${FORGERY.replace(/\n/g, '')}`), 'x');
  const r = review([dir]);
  assert.equal(r.status, 1);
  assert.match(r.stdout, /release\/unexpected-file/);
  noRawControls(r.stdout, 'review text');
});

const UNSAFE_NAMES = [
  ['ESC (CSI)', 'a\u001b[31mb'],
  ['BEL', 'a\u0007b'],
  ['backspace', 'a\u0008b'],
  ['carriage return', 'a\rb'],
  ['DEL', 'a\u007fb'],
  ['C1 CSI U+009B', 'a\u009b2Jb'],
  ['right-to-left override U+202E', 'a\u202egnp.b'],
  ['first strong isolate U+2068', 'a\u2068b'],
  ['zero-width space U+200B', 'a\u200bb'],
  ['byte order mark U+FEFF', 'a\ufeffb'],
  ['Arabic letter mark U+061C', 'a\u061cb'],
];

for (const [what, name] of UNSAFE_NAMES) {
  test(`verify: an extra release file whose name holds ${what} is release/unexpected-file, printed escaped`, () => {
    const dir = forgeRelease(fresh('name'), { files: { 'index.html': HTML } });
    writeFileSync(join(dir, name), 'x');
    const r = cli(['verify', dir]);
    assert.equal(r.status, 1);
    assert.match(r.stdout, /release\/unexpected-file/);
    noRawControls(r.stdout, what);
  });
}

test('check: a project file whose name holds terminal escapes is bundle/path-invalid, printed escaped (text and GitHub annotations)', (t) => {
  const dir = makeProject(t, { files: { 'runtime/\u001b[2J\u001b[Hx\u202e.png': 'x', 'runtime/y\n::error::injected.png': 'x' } });
  const json = cli(['check', dir, '--json']);
  assert.equal(json.status, 1);
  assert.ok(rules(json.json).includes('bundle/path-invalid'));
  const text = cli(['check', dir]);
  assert.equal(text.status, 1);
  noRawControls(text.stdout, 'check text');
  const annotated = cli(['check', dir], { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: dir });
  assert.equal(annotated.status, 1);
  const commands = annotated.stdout.split('\n').filter((line) => line.startsWith('::'));
  assert.equal(commands.length, json.json.findings.length, 'one workflow command per finding, none injected');
  for (const line of commands) noRawControls(line, 'annotation');
});

test('check: a manifest key made of terminal escapes is manifest/unknown-field, printed escaped', (t) => {
  const dir = makeProject(t, { manifest: { [`${FORGERY}`]: 1 } });
  const r = cli(['check', dir]);
  assert.equal(r.status, 1);
  assert.match(r.stdout, /manifest\/unknown-field/);
  noRawControls(r.stdout, 'unknown field');
});

test('check: a property name made of terminal escapes is refused, printed escaped', (t) => {
  const dir = makeProject(t, { manifest: { properties: { [`p\u001b]0;title\u0007`]: { type: 'text', label: 'L' } } } });
  const r = cli(['check', dir, '--json']);
  assert.equal(r.status, 1);
  assert.ok(rules(r.json).includes('property/name'), rules(r.json).join(' '));
  noRawControls(cli(['check', dir]).stdout, 'property name');
});

test('check: a target folder whose own name holds escapes is printed escaped in the summary', () => {
  const dir = fresh('target\u001b[32m\u202e');
  mkdirSync(dir);
  const r = cli(['check', dir]);
  assert.equal(r.status, 1, 'no manifest');
  assert.match(r.stdout, /project\/manifest-missing/);
  noRawControls(r.stdout, 'report naming the folder');
  const project = fresh('project\u001b[2J');
  spawnSync('cp', ['-r', EXAMPLE, project]);
  const ok = cli(['check', project]);
  assert.equal(ok.status, 0);
  noRawControls(ok.stdout, 'summary naming the folder');
});

test('verify: a usage error naming a hostile path is escaped on stderr', () => {
  usageError(cli(['verify', join(work, 'none\u001b[31m\u202e')]), 'missing release folder');
  noRawControls(cli(['verify', join(work, 'none\u001b[31m\u202e')]).stderr, 'stderr');
});

// The manifest string rule (D-29) in check, verify and review.
const STRING_CASES = [
  ['name with an OSC title sequence', { name: '\u001b]0;owned\u0007Hello' }, '/name'],
  ['description with a right-to-left override', { description: 'safe \u202eexe.txt' }, '/description'],
  ['label with a line break', { properties: { p: { type: 'text', label: 'a\nb' } } }, '/properties/p/label'],
  ['help with a C1 control', { properties: { p: { type: 'text', label: 'L', help: 'x\u0085y' } } }, '/properties/p/help'],
  ['text default with a line break', { properties: { p: { type: 'text', label: 'L', default: 'a\nb' } } }, '/properties/p/default'],
  ['option label with a pop directional isolate', { properties: { p: { type: 'select', label: 'L', options: [{ label: 'a\u2069', value: 'a' }], default: 'a' } } }, '/properties/p/options/0/label'],
];

for (const [what, fields, pointer] of STRING_CASES) {
  test(`manifest/control-character: ${what}, in check, verify and review (exit 1)`, (t) => {
    const dir = makeProject(t, { manifest: fields });
    const checked = cli(['check', dir, '--json']);
    assert.equal(checked.status, 1);
    assert.ok(checked.json.findings.some((f) => f.rule === 'manifest/control-character' && f.pointer === pointer), JSON.stringify(checked.json.findings));
    const release = forgeRelease(fresh('strings'), { manifest: forgedManifest(fields), files: { 'index.html': HTML } });
    for (const r of [cli(['verify', release, '--json']), review([release, '--json'])]) {
      assert.equal(r.status, 1);
      assert.ok(r.json.findings.some((f) => f.rule === 'manifest/control-character' && f.pointer === pointer));
    }
    noRawControls(cli(['verify', release]).stdout, what);
  });
}

test('manifest/control-character: line breaks in a textarea default, RLM and joiners in a label are no error (exit 0; D-29a warns of the invisible ones)', (t) => {
  const dir = makeProject(t, { manifest: { properties: { p: { type: 'textarea', label: 'Lane \u200f\u200d', default: 'one\ntwo\r\nthree' } } } });
  const r = cli(['check', dir, '--json']);
  assert.equal(r.status, 0, JSON.stringify(r.json?.findings));
  assert.deepEqual(r.json.findings.map((f) => `${f.rule} ${f.pointer}`), ['manifest/invisible-character /properties/p/label']);
});

// ---------------------------------------------------------------------------------------
// D-29a: every character no reader sees, in every output format.

/** What D-29a never prints as it is (a line feed aside, which separates lines), outside the sequences it keeps. */
const RAW_UNSEEN = /(?!\n)[\u2028\u2029\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\p{Cs}]/u;
function noRawUnseen(text, what) {
  const hit = RAW_UNSEEN.exec(text);
  assert.equal(hit, null, `${what}: printed U+${hit?.[0].codePointAt(0).toString(16)} raw at ${hit?.index}`);
}
/** "IGNORE" in tag characters: invisible, but a program reading the text takes it in. */
const HIDDEN_WORD = [...'IGNORE'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
const UNSEEN_FIELDS = {
  name: `Lanes${HIDDEN_WORD}`,
  description: 'C1\u0085, override \u202e, zero-width\u200bspace, soft\u00adhyphen, filler\u3164',
  properties: { p: { type: 'text', label: 'Colour\u2060', help: 'line\u2028separator', default: 'x' } },
};
const UNSEEN_EXPECTED = [
  'manifest/control-character /description',
  'manifest/invisible-character /description',
  'manifest/invisible-character /properties/p/help',
  'manifest/invisible-character /properties/p/label',
  'manifest/tag-character /name',
];
const manifestPairs = (report) => report.findings.filter((f) => f.rule.startsWith('manifest/')).map((f) => `${f.rule} ${f.pointer}`).sort();

test('D-29a: platform-review prints no invisible character from manifest strings in JSON, text or Markdown; JSON keeps the values as \\u escapes', () => {
  const release = forgeRelease(fresh('unseen'), { manifest: forgedManifest(UNSEEN_FIELDS), files: { 'index.html': HTML } });
  const json = review([release, '--json']);
  assert.equal(json.status, 1);
  noRawUnseen(json.stdout, 'review --json');
  assert.equal(json.json.summary.name, UNSEEN_FIELDS.name, 'a parser reads the same value');
  assert.equal(json.json.summary.description, UNSEEN_FIELDS.description);
  assert.match(json.stdout, /Lanes\\udb40\\udc49\\udb40\\udc47/);
  assert.deepEqual(manifestPairs(json.json), UNSEEN_EXPECTED);
  for (const format of ['text', 'markdown']) {
    const r = review([release, '--format', format]);
    assert.equal(r.status, 1, r.stderr);
    noRawUnseen(r.stdout, `review --format ${format}`);
    assert.ok(r.stdout.includes('Lanes\\u{e0049}\\u{e0047}\\u{e004e}'), `${format}: the hidden word is shown as escapes`);
  }
  const verified = cli(['verify', release, '--json']);
  noRawUnseen(verified.stdout, 'verify --json');
  assert.deepEqual(manifestPairs(verified.json), UNSEEN_EXPECTED);
});

test('D-29a: check prints no invisible character in text, JSON, SARIF or GitHub annotations; the invisible ones are warnings', (t) => {
  const dir = makeProject(t, { manifest: UNSEEN_FIELDS });
  const json = cli(['check', dir, '--json']);
  assert.equal(json.status, 1);
  noRawUnseen(json.stdout, 'check --json');
  assert.deepEqual(manifestPairs(json.json), UNSEEN_EXPECTED);
  assert.deepEqual([...new Set(json.json.findings.filter((f) => f.rule === 'manifest/invisible-character').map((f) => f.severity))], ['warning']);
  for (const [args, env] of [[['--format', 'sarif'], {}], [[], {}], [[], { GITHUB_ACTIONS: 'true' }]]) {
    const r = cli(['check', dir, ...args], env);
    assert.equal(r.status, 1, r.stderr);
    noRawUnseen(r.stdout, `check ${args.join(' ')} ${JSON.stringify(env)}`);
  }
});

test('D-29a: a complete emoji tag sequence, an emoji ZWJ sequence and a Persian ZWNJ are left as they are (no finding, printed raw)', () => {
  const scotland = '\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}';
  const fields = { name: `Lanes ${scotland}`, description: 'Team \u{1F468}\u200d\u{1F469} \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645' };
  const release = forgeRelease(fresh('kept'), { manifest: forgedManifest(fields), files: { 'index.html': HTML } });
  const r = review([release, '--json']);
  assert.deepEqual(manifestPairs(r.json), []);
  assert.ok(r.stdout.includes(scotland), 'the flag is printed as it is');
  assert.ok(review([release]).stdout.includes(`Lanes ${scotland}`));
});

// ---------------------------------------------------------------------------------------
// Bounded reports: findings capped per rule and file when collected.

/** A stylesheet of `count` url()s naming files the bundle does not have (varied, so it deflates within the ratio limit). */
function missingUrls(count) {
  let seed = 7;
  const parts = ['a{b:'];
  for (let i = 0; i < count; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    parts.push(`url(${String.fromCharCode(97 + ((seed >> 8) % 26))})`);
  }
  parts.push('}');
  return parts.join('');
}
const STYLED = (sheets) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>t</title>${sheets.map((s) => `<link rel="stylesheet" href="${s}">`).join('')}</head><body></body></html>\n`;

const many = forgeRelease(join(work, 'many-urls'), { files: { 'index.html': STYLED(['s.css']), 's.css': missingUrls(150_000) } });

test('verify: 150,000 missing url()s give a text report, not a crash (exit 1)', () => {
  const r = cli(['verify', many]);
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stdout, /css\/missing-reference/);
  assert.doesNotMatch(r.stdout + r.stderr, /Maximum call stack|internal error/);
});

test('verify --json: 150,000 missing url()s list at most the cap and count the rest per rule', async () => {
  const { MAX_FINDINGS_PER_RULE_AND_FILE } = await import('../../build/validator/limits.js');
  const r = cli(['verify', many, '--json']);
  assert.equal(r.status, 1);
  const listed = r.json.findings.filter((f) => f.rule === 'css/missing-reference').length;
  assert.equal(listed, MAX_FINDINGS_PER_RULE_AND_FILE);
  assert.equal(r.json.truncated['css/missing-reference'], 150_000 - MAX_FINDINGS_PER_RULE_AND_FILE);
});

test('platform-review: 150,000 missing url()s give a report (exit 1)', () => {
  const r = review([many]);
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stdout, /css\/missing-reference/);
});

test('check --format sarif and --json: the same stylesheet in a project carries the truncated count', (t) => {
  const dir = makeProject(t, { files: { 'runtime/index.html': STYLED(['s.css']), 'runtime/s.css': missingUrls(150_000) } });
  const sarif = cli(['check', dir, '--format', 'sarif']);
  assert.equal(sarif.status, 1, sarif.stderr);
  assert.equal(sarif.json.runs[0].properties.truncated['css/missing-reference'] > 0, true);
  const json = cli(['check', dir, '--json']);
  assert.equal(json.status, 1);
  assert.ok(json.json.truncated['css/missing-reference'] > 0);
  const annotated = cli(['check', dir], { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: dir });
  assert.equal(annotated.status, 1);
});

test('verify: 1.2 million missing url()s in two stylesheets stay within a 200 MB heap (exit 1)', () => {
  const dir = forgeRelease(fresh('million'), { files: { 'index.html': STYLED(['a.css', 'b.css']), 'a.css': missingUrls(600_000), 'b.css': missingUrls(600_000) } });
  const r = cli(['verify', dir, '--json']);
  assert.equal(r.status, 1, r.stderr.slice(0, 500));
  assert.ok(r.json.truncated['css/missing-reference'] > 1_000_000);
});

// ---------------------------------------------------------------------------------------
// Flags are own keys (argument table).

const FLAG_CASES = [
  ['check', '--__proto__', 'x'],
  ['check', '--toString', 'x'],
  ['check', '--constructor'],
  ['verify', '--hasOwnProperty', 'x'],
  ['package', '--valueOf', 'x'],
  ['keygen', '--__proto__=x'],
  ['toString'],
  ['__proto__'],
];
for (const argv of FLAG_CASES) {
  test(`usage error: platform-ext ${argv.join(' ')}`, () => usageError(cli(argv), argv.join(' ')));
}
test('usage error: platform-review --__proto__ x / --toString', () => {
  usageError(review(['--__proto__', 'x', '.']), '--__proto__');
  usageError(review(['--toString', '.']), '--toString');
});
