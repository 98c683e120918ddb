// The operator's review end to end (platform-review and reviewRelease()), in three
// scenarios: a clean first release; an update that adds a capability, retypes a property
// and is signed by a new key (without --known-keys, with the old key only, with both); and
// a hostile release (its findings, and a summary that is still printed, escaped). Every
// JSON report validates against docs/schemas/review-report.schema.json; the markdown is
// checked as tables. Also: --known-keys parsing, usage errors, operator hints.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createPrivateKey, sign } from 'node:crypto';
import { cpSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import AjvModule from 'ajv';
import { spawnSync } from 'node:child_process';
import { REVIEW, ROOT, keygen, runCli, runReview as review, tempDir } from '../support/project.mjs';
import { craftZip } from '../support/fuzz-zip.mjs';
import { checkProject, reviewRelease, verifyRelease, PlatformExtError } from '../../dist/api.mjs';
import { RULES } from '../../build/validator/rules.js';
import { BUNDLE_MAX_FILES, CAPABILITIES, KNOWN_KEYS_FILE_MAX_BYTES } from '../../build/validator/internal.js';
import { operatorHint } from '../../build/explain/operator-hints.js';
import { parseKnownKeys } from '../../build/load/known-keys.js';
import { markdownCell } from '../../build/render/review-render.js';
import { escapeTerminal as escapeText } from '../../build/validator/text.js';

const Ajv = AjvModule.default ?? AjvModule;
const schema = JSON.parse(readFileSync(join(ROOT, 'docs/schemas/review-report.schema.json'), 'utf8'));
const validateSchema = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema);
const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;

/** D-29: what must never reach the terminal raw. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/u;


function assertSchema(report, what) {
  const ok = validateSchema(report);
  assert.ok(ok, `${what}: ${JSON.stringify(validateSchema.errors, null, 2)}`);
}

const rules = (report) => report.findings.map((f) => f.rule).sort();

/** Markdown tables of a document: each a header row, a separator and rows with as many cells as the header. */
function markdownTables(text) {
  const tables = [];
  const lines = text.split('\n');
  // A cell boundary is a "|" not escaped by a backslash.
  const cells = (line) => line.slice(1, -1).split(/(?<!\\)\|/).map((c) => c.trim());
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].startsWith('|') || !/^\|( --- \|)+$/.test(lines[i + 1] ?? '')) continue;
    const head = cells(lines[i]);
    const rows = [];
    let j = i + 2;
    for (; j < lines.length && lines[j].startsWith('|'); j++) rows.push(cells(lines[j]));
    tables.push({ title: lines.slice(0, i).reverse().find((l) => l.startsWith('#')) ?? '', head, rows });
    i = j;
  }
  return tables;
}

function assertTablesWellFormed(markdown, what) {
  const tables = markdownTables(markdown);
  assert.ok(tables.length >= 5, `${what}: ${tables.length} tables`);
  for (const t of tables) {
    for (const row of t.rows) assert.equal(row.length, t.head.length, `${what}: ${t.title}: ${JSON.stringify(row)}`);
    assert.equal(markdown.split('\n').find((l) => l.startsWith('|') && !l.endsWith('|')), undefined, `${what}: every table line ends with a pipe`);
  }
  return tables;
}

function example(dir, name = 'project') {
  const project = join(dir, name);
  cpSync(join(ROOT, 'examples/hello-world'), project, { recursive: true });
  return project;
}

function editManifest(project, edit) {
  const path = join(project, 'manifest.json');
  const manifest = JSON.parse(readFileSync(path, 'utf8'));
  edit(manifest);
  writeFileSync(path, JSON.stringify(manifest, null, 2) + '\n');
}

function packageTo(project, key, out) {
  const r = runCli(['package', project, '--out', out, '--private-key', key.privateKey]);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  return out;
}

/** Two releases of the example: 1.0.0 signed by `old`, 1.1.0 (adds forms.submit, heading text -> number, main.js changed) signed by `fresh`. */
function releases(t) {
  const dir = tempDir(t);
  const old = keygen(dir, 'old');
  const fresh = keygen(dir, 'fresh');
  const project = example(dir);
  const first = packageTo(project, old, join(dir, 'r1'));
  editManifest(project, (m) => {
    m.version = '1.1.0';
    m.capabilities.push('forms.submit');
    m.properties.heading = { type: 'number', label: 'Heading' };
  });
  writeFileSync(join(project, 'runtime/main.js'), readFileSync(join(project, 'runtime/main.js'), 'utf8') + '\n// 1.1.0\n');
  writeFileSync(join(project, 'runtime/extra.css'), '.x { color: red; }\n');
  const second = packageTo(project, fresh, join(dir, 'r2'));
  return { dir, old, fresh, first, second };
}

test('a clean first release without pinning: the summary, one warning (signer not pinned), cannot decide, exit 1; text, JSON, markdown and the API agree', async (t) => {
  const { dir, old, first } = releases(t);
  const before = JSON.stringify(readdirSync(first).map((f) => [f, statSync(join(first, f)).mtimeMs]));
  const r = review([first, '--json']);
  assert.equal(r.status, 1, r.stderr);
  assertSchema(r.json, 'clean');
  assert.deepEqual(rules(r.json), ['release/signer-not-pinned']);
  assert.equal(r.json.ok, false);
  assert.equal(r.json.verdict.decision, 'cannot-decide');
  assert.equal(r.json.risk.signer, 'not-pinned');
  assert.deepEqual(r.json.tool, { name: 'platform-ext', version: VERSION });
  assert.equal(r.json.contract_version, 1);
  const s = r.json.summary;
  assert.deepEqual([s.namespace, s.version, s.name, s.entrypoint], ['acme/hello-world', '1.0.0', 'Hello World Product Strip', 'index.html']);
  assert.equal(s.manifest_sha256, createHash('sha256').update(readFileSync(join(first, 'manifest.json'))).digest('hex'));
  assert.equal(s.artifact_sha256, createHash('sha256').update(readFileSync(join(first, 'bundle.zip'))).digest('hex'));
  assert.deepEqual(s.signer, { fingerprint: old.fingerprint, signature_valid: true, pinning: 'not-pinned' });
  // Capabilities with the contract table's risk and method.
  for (const c of s.capabilities) {
    const def = CAPABILITIES.find((d) => d.key === c.key);
    assert.deepEqual([c.risk, c.method, c.actions], [def.risk, def.method, [...def.actions]], c.key);
  }
  assert.deepEqual(s.capabilities.map((c) => c.key), ['catalog.products.read', 'cart.manage', 'site.theme.read', 'analytics.events.write']);
  const { help: _h1, ...heading } = s.properties.find((p) => p.name === 'heading');
  const { help: _h2, ...count } = s.properties.find((p) => p.name === 'product_count');
  assert.deepEqual(heading, { name: 'heading', type: 'text', label: 'Heading', required: true, default: 'Featured this week' });
  assert.deepEqual(count, { name: 'product_count', type: 'number', label: 'Products to show', required: false, default: 4 });
  assert.deepEqual(s.properties.find((p) => p.name === 'layout').option_labels.length > 0, true, 'option labels in the summary');
  // Every file, with what the archive says of it and its content hash.
  const main = s.files.find((f) => f.path === 'main.js');
  assert.equal(main.size, readFileSync(join(ROOT, 'examples/hello-world/runtime/main.js')).length);
  assert.equal(main.sha256, createHash('sha256').update(readFileSync(join(ROOT, 'examples/hello-world/runtime/main.js'))).digest('hex'));
  assert.equal(main.method, 'deflate');
  assert.equal(main.ratio, Math.round((main.size / main.compressed_size) * 100) / 100);
  assert.deepEqual(s.files.map((f) => f.path).sort(), ['images/logo.png', 'index.html', 'lib/format.js', 'main.js', 'styles.css']);
  const totals = Object.fromEntries(s.totals.map((x) => [x.limit, x]));
  assert.equal(totals['bundle.files'].used, 5);
  assert.equal(totals['bundle.files'].max, BUNDLE_MAX_FILES);
  assert.equal(totals['bundle.files'].share, 5 / BUNDLE_MAX_FILES);
  assert.equal(totals['bundle.compressedBytes'].used, statSync(join(first, 'bundle.zip')).size);
  assert.deepEqual(Object.keys(totals).sort(), [
    'bundle.archiveRatio', 'bundle.compressedBytes', 'bundle.expandedBytes', 'bundle.files', 'bundle.highestFileRatio', 'bundle.largestFileBytes',
    'manifest.bytes', 'manifest.capabilities', 'manifest.properties',
  ]);
  assert.equal(r.json.diff, undefined);

  // Text: the verdict and risk first, findings after, the summary, the verdict again last.
  const text = review([first]);
  assert.equal(text.status, 1);
  const lines = text.stdout.trimEnd().split('\n');
  assert.match(lines[0], /^✖ cannot decide: the signer is not pinned \(give --known-keys, --history, --baseline or --first-release\)/);
  const at = (re) => lines.findIndex((l) => re.test(l));
  assert.ok(at(/release\/signer-not-pinned/) < at(/^Capabilities \(4\)$/) && at(/^Capabilities \(4\)$/) < at(/^Files \(5\)$/), text.stdout);
  assert.equal(at(/^Limits$/), -1, 'the limits only with --verbose');
  const verbose = review([first, '--verbose']).stdout.split('\n');
  assert.ok(verbose.includes('Limits') && verbose.some((l) => /^ {2}.* main\.js$/.test(l)), 'limits and files with --verbose');
  assert.match(lines.at(-1), /^✖ .*: cannot decide: the signer is not pinned .*\(0 errors, 1 warning\)$/);
  assert.ok(lines.some((l) => l.includes('cart.manage') && l.includes('medium') && l.includes('PLATFORM.cart.manage')));
  assert.ok(lines.some((l) => l.includes(old.fingerprint)));
  assert.ok(lines.some((l) => /signer not pinned/.test(l)));

  // Markdown: the same review as tables.
  const md = review([first, '--format', 'markdown']);
  assert.equal(md.status, 1);
  const tables = assertTablesWellFormed(md.stdout, 'clean');
  const byTitle = (re) => tables.find((x) => re.test(x.title));
  assert.deepEqual(byTitle(/Capabilities/).head, ['Capability', 'Risk', 'Method', 'Actions']);
  assert.deepEqual(byTitle(/Capabilities/).rows.map((row) => [row[0], row[1]]), s.capabilities.map((c) => [c.key, c.risk]));
  assert.deepEqual(byTitle(/Files/).head, ['Path', 'Size', 'Compressed', 'Method', 'Ratio', 'SHA-256']);
  assert.equal(byTitle(/Files/).rows.length, 5);
  assert.deepEqual(byTitle(/Properties/).rows.map((row) => row[0].replaceAll('\\_', '_')), s.properties.map((p) => p.name));
  assert.deepEqual(byTitle(/Findings/).rows.map((row) => row[1]), ['release/signer-not-pinned']);
  assert.match(md.stdout, /\*\*Verdict:\*\* cannot decide/);

  // The API returns the same report; the folder is unchanged.
  assert.deepEqual(await reviewRelease(first), r.json);
  assert.equal(JSON.stringify(readdirSync(first).map((f) => [f, statSync(join(first, f)).mtimeMs])), before, 'review changes nothing');

  // Pinned to its own key (as a fingerprint or as the public key): no finding at all.
  writeFileSync(join(dir, 'keys'), `# acme's active keys\n${old.fingerprint.toUpperCase()}   # laptop\n\n`);
  const pinned = review([first, '--json', '--known-keys', join(dir, 'keys')]);
  assert.equal(pinned.status, 0);
  assert.deepEqual(pinned.json.findings, []);
  assert.equal(pinned.json.summary.signer.pinning, 'pinned');
  writeFileSync(join(dir, 'keys2'), `${old.publicText}\n`);
  assert.deepEqual((await reviewRelease(first, { knownKeys: join(dir, 'keys2') })).findings, []);
  assert.match(review([first, '--known-keys', join(dir, 'keys')]).stdout.trimEnd().split('\n').at(-1), /approve: nothing to read/);
  // A stated first release: the signer is new, nothing else to read.
  const firstRelease = review([first, '--json', '--first-release']);
  assert.equal(firstRelease.status, 0);
  assertSchema(firstRelease.json, 'first release');
  assert.deepEqual([firstRelease.json.verdict.decision, firstRelease.json.risk.signer, firstRelease.json.findings], ['approve', 'new', []]);
});

test('an update that adds a capability, retypes a property and is signed by a new key: without --known-keys', async (t) => {
  const { old, fresh, first, second } = releases(t);
  const r = review([second, '--baseline', first, '--json']);
  assert.equal(r.status, 1, r.stderr);
  assertSchema(r.json, 'update');
  // The update declares forms.submit, which no module calls yet: D-34's warning.
  // The baseline pins the signer: its change is the error, not a missing pinning.
  assert.deepEqual(rules(r.json), ['baseline/capability-added', 'baseline/property-retyped', 'baseline/signer-changed', 'js/capability-unused']);
  assert.deepEqual([r.json.verdict.decision, r.json.risk.signer, r.json.risk.capabilities.new, r.json.risk.files], ['reject', 'unknown', ['forms.submit'], { added: 1, removed: 0, changed: 1 }]);
  const changed = r.json.findings.find((f) => f.rule === 'baseline/signer-changed');
  assert.ok(changed.message.includes(old.fingerprint) && changed.message.includes(fresh.fingerprint), 'names both fingerprints');
  assert.equal(r.json.findings.find((f) => f.rule === 'baseline/capability-added').pointer, '/capabilities/4');
  assert.equal(r.json.findings.find((f) => f.rule === 'baseline/property-retyped').pointer, '/properties/heading/type');
  const d = r.json.diff;
  assert.equal(d.baseline, first);
  assert.deepEqual(d.version, { from: '1.0.0', to: '1.1.0', higher: true });
  assert.deepEqual(d.signer, { from: old.fingerprint, to: fresh.fingerprint, changed: true });
  assert.deepEqual(d.capabilities, { added: [{ key: 'forms.submit', risk: 'medium', note: 'needs a new permission review; off until approved' }], removed: [] });
  assert.deepEqual(d.properties, { added: [], removed: [], retyped: [{ name: 'heading', from: 'text', to: 'number', saved_values_carry_over: false }] });
  assert.deepEqual(d.files.added, [{ path: 'extra.css', size: 19 }]);
  assert.deepEqual(d.files.removed, []);
  assert.deepEqual(d.files.changed.map((f) => [f.path, f.size_after - f.size_before]), [['main.js', '\n// 1.1.0\n'.length]]);
  assert.deepEqual(await reviewRelease(second, { baseline: first }), r.json, 'the API returns the same report');

  const text = review([second, '--baseline', first]);
  assert.equal(text.status, 1);
  const lines = text.stdout.trimEnd().split('\n');
  const diffAt = lines.findIndex((l) => l.startsWith('Changes since the baseline'));
  assert.ok(diffAt > lines.findIndex((l) => l.includes('baseline/capability-added')), 'the findings come before the diff');
  assert.ok(lines.some((l) => /^ {2}\+ capability +forms\.submit \(medium\): needs a new permission review; off until approved$/.test(l)), text.stdout);
  assert.ok(lines.some((l) => /^ {2}~ property +heading: text -> number/.test(l)));
  assert.ok(lines.some((l) => /^ {2}\+ file +extra\.css \(19 B\)$/.test(l)));
  const signerAt = lines.findIndex((l) => /^ {2}signer +changed from /.test(l));
  assert.ok(lines[signerAt].endsWith(old.fingerprint) && lines[signerAt + 1].trim() === `to ${fresh.fingerprint}`, text.stdout);
  // The summary fits a terminal: no line of it (before the findings) is wider than 100 columns.
  // The review fits a terminal: no line is wider than 100 columns (messages and hints wrap).
  assert.deepEqual(lines.filter((l) => [...l].length > 100), []);
  // Each finding: where, severity and rule id, the message, then what the operator should do.
  const retyped = lines.findIndex((l) => /^ {2}warning baseline\/property-retyped  manifest\.json 18:15 \/properties\/heading\/type$/.test(l)); // D-28
  assert.ok(retyped > 0, text.stdout);
  assert.match(lines[retyped + 1], /^ {4}The property "heading" is a "number"/);
  assert.ok(lines.slice(retyped + 1, retyped + 8).some((l) => /^ {4}What to do: Ask the publisher/.test(l)));
  assert.match(lines.at(-1), /^✖ .*: reject: \d+ items? to resolve \(\d+ errors?, \d+ warnings?\)$/);

  const md = review([second, '--baseline', first, '--format', 'markdown']);
  const tables = assertTablesWellFormed(md.stdout, 'update');
  const diff = tables.find((x) => /Changes since the baseline/.test(x.title));
  assert.deepEqual(diff.head, ['What', 'Change', 'Before', 'After', 'Note']);
  assert.deepEqual(
    diff.rows.map((row) => `${row[0]} ${row[1]}`),
    ['version ', 'signer changed', 'capability added', 'property retyped', 'file added', 'file changed'],
  );
  assert.match(md.stdout, /\*\*Verdict:\*\* reject/);
});

test('the same update with --known-keys: the old key only is release/unknown-signing-key; both keys vouch for the rotation', async (t) => {
  const { dir, old, fresh, first, second } = releases(t);
  const oldOnly = join(dir, 'old-only.keys');
  writeFileSync(oldOnly, `# acme\n${old.publicText}\n`);
  const r = review([second, '--baseline', first, '--known-keys', oldOnly, '--json']);
  assert.equal(r.status, 1);
  assertSchema(r.json, 'unknown key');
  assert.deepEqual(rules(r.json), ['baseline/capability-added', 'baseline/property-retyped', 'js/capability-unused', 'release/unknown-signing-key']);
  const unknown = r.json.findings.find((f) => f.rule === 'release/unknown-signing-key');
  assert.ok(unknown.message.includes(old.fingerprint) && unknown.message.includes(fresh.fingerprint), 'names both fingerprints');
  assert.equal(unknown.file, 'publisher-public-key.txt');
  assert.equal(r.json.summary.signer.pinning, 'unknown');
  // Without a baseline too: any release signed by another key.
  const alone = await reviewRelease(second, { knownKeys: oldOnly });
  assert.deepEqual(rules(alone), ['js/capability-unused', 'release/unknown-signing-key']);
  assert.equal(alone.ok, false);

  const both = join(dir, 'both.keys');
  writeFileSync(both, `${old.fingerprint}\n${fresh.fingerprint} # rotated\n`);
  const rotated = review([second, '--baseline', first, '--known-keys', both, '--json']);
  assertSchema(rotated.json, 'rotated');
  assert.deepEqual(rules(rotated.json), ['baseline/capability-added', 'baseline/property-retyped', 'js/capability-unused']);
  assert.equal(rotated.json.summary.signer.pinning, 'pinned');
  assert.equal(rotated.json.diff.signer.changed, true, 'the diff still shows the rotation');
  assert.deepEqual(await reviewRelease(second, { baseline: first, knownKeys: both }), rotated.json);
});

test('a version that is not higher than the baseline, and a removed capability, are in the diff', async (t) => {
  const dir = tempDir(t);
  const key = keygen(dir, 'k');
  const project = example(dir);
  const first = packageTo(project, key, join(dir, 'r1'));
  editManifest(project, (m) => {
    m.capabilities = m.capabilities.filter((c) => c !== 'site.theme.read');
  });
  // The code stops reading the theme too: a call to an undeclared capability is an error (D-34).
  const main = join(project, 'runtime/main.js');
  const code = readFileSync(main, 'utf8');
  writeFileSync(main, code.replace('applyTheme(await PLATFORM.theme.read());', 'applyTheme({});'));
  const second = packageTo(project, key, join(dir, 'r2'));
  const report = await reviewRelease(second, { baseline: first });
  assertSchema(report, 'same version');
  assert.deepEqual(rules(report), ['baseline/capability-removed', 'baseline/version-not-higher']);
  assert.equal(report.risk.signer, 'pinned', 'the baseline\'s own signer');
  assert.deepEqual(report.diff.version, { from: '1.0.0', to: '1.0.0', higher: false });
  assert.deepEqual(report.diff.capabilities.removed, [{ key: 'site.theme.read', risk: 'low', note: 'grant removed automatically' }]);
  assert.deepEqual(report.diff.signer, { from: key.fingerprint, to: key.fingerprint, changed: false });
  assert.deepEqual([report.diff.files.added, report.diff.files.removed, report.diff.files.changed.map((f) => f.path)], [[], [], ['main.js']]);
  const text = review([second, '--baseline', first]).stdout;
  assert.match(text, /^ {2}version +1\.0\.0 -> 1\.0\.0 \(NOT higher\)$/m);
  assert.match(text, /^ {2}- capability +site\.theme\.read \(low\): grant removed automatically$/m);
});

/** A release whose contents are hostile but whose signature is valid: the operator still sees what it is. */
function hostileRelease(t) {
  const dir = tempDir(t);
  const key = keygen(dir, 'k');
  const out = join(dir, 'hostile');
  packageTo(example(dir), key, out);
  const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
  manifest.name = 'Totally safe \u202egnp.exe';
  manifest.description = 'Red \u001b[31malert\u001b[0m and a bell \u0007';
  manifest.properties.heading.label = 'Head\u200bing | *bold* <b>';
  const manifestBytes = Buffer.from(JSON.stringify(manifest, null, 2) + '\n');
  const zip = craftZip([
    { name: 'index.html', data: readFileSync(join(ROOT, 'examples/hello-world/runtime/index.html')) },
    { name: 'main.js', data: readFileSync(join(ROOT, 'examples/hello-world/runtime/main.js')) },
    { name: 'x|y`*z.js', data: Buffer.from('export {};\n'), method: 0 },
    { name: 'bomb.css', data: Buffer.alloc(300_000, 0x20) },
  ]);
  const manifestSha = createHash('sha256').update(manifestBytes).digest('hex');
  const artifactSha = createHash('sha256').update(zip).digest('hex');
  const payload = `platform-extension-release-v1\nnamespace=${manifest.namespace}\nversion=${manifest.version}\nmanifest-sha256=${manifestSha}\nartifact-sha256=${artifactSha}\n`;
  const signature = sign(null, Buffer.from(payload), createPrivateKey(readFileSync(key.privateKey)));
  const record = JSON.parse(readFileSync(join(out, 'submission.json'), 'utf8'));
  writeFileSync(join(out, 'submission.json'), JSON.stringify({ ...record, manifest_sha256: manifestSha, artifact_sha256: artifactSha }, null, 2) + '\n');
  writeFileSync(join(out, 'manifest.json'), manifestBytes);
  writeFileSync(join(out, 'bundle.zip'), zip);
  writeFileSync(join(out, 'signature.txt'), signature.toString('base64') + '\n');
  writeFileSync(join(out, 'notes\u202etxt.sh'), 'hello\n');
  return { out, key };
}

test('a hostile release: its findings, and a summary that is still printed with every control and bidi character escaped', async (t) => {
  const { out, key } = hostileRelease(t);
  const r = review([out, '--json']);
  assert.equal(r.status, 1, r.stderr);
  assertSchema(r.json, 'hostile');
  const ids = new Set(rules(r.json));
  for (const id of ['release/unexpected-file', 'archive/compression-ratio', 'release/signer-not-pinned']) assert.ok(ids.has(id), `${id} in ${[...ids].join(', ')}`);
  assert.equal(ids.has('release/signature-invalid'), false, 'the signature itself is valid');
  const s = r.json.summary;
  assert.equal(s.name, 'Totally safe \u202egnp.exe', 'JSON keeps the value (JSON consumers escape for themselves)');
  assert.equal(s.signer.fingerprint, key.fingerprint);
  assert.equal(s.signer.signature_valid, true);
  assert.deepEqual(s.files.map((f) => f.path), ['index.html', 'main.js', 'x|y`*z.js', 'bomb.css']);
  const bomb = s.files.find((f) => f.path === 'bomb.css');
  assert.ok(bomb.ratio > 100 && bomb.sha256 === null, 'over the ratio limit: listed, not inflated');
  assert.ok(s.totals.find((x) => x.limit === 'bundle.highestFileRatio').share > 1);

  const text = review([out]);
  assert.equal(text.status, 1);
  assert.doesNotMatch(text.stdout, UNSAFE, 'nothing from the release controls the terminal');
  assert.match(text.stdout, /^ {2}name +Totally safe \\u\{202e\}gnp\.exe$/m);
  assert.match(text.stdout, /^ {2}description +Red \\u\{1b\}\[31malert\\u\{1b\}\[0m and a bell \\u\{7\}$/m);
  assert.match(text.stdout, /notes\\u\{202e\}txt\.sh/, 'finding messages and files are escaped too');
  assert.match(text.stdout.trimEnd().split('\n').at(-1), /^✖ /);
  assert.ok(text.stdout.indexOf('Capabilities (') > text.stdout.indexOf('archive/compression-ratio'), 'the verdict and findings come first');
  assert.match(text.stdout.split('\n')[0], /^✖ reject: /);

  const md = review([out, '--format', 'markdown']);
  assert.doesNotMatch(md.stdout, UNSAFE);
  const tables = assertTablesWellFormed(md.stdout, 'hostile');
  const props = tables.find((x) => /Properties/.test(x.title));
  assert.equal(props.rows.find((row) => row[0] === 'heading')[3], 'Head\\u{200b}ing \\| \\*bold\\* &lt;b&gt;');
  const files = tables.find((x) => /Files/.test(x.title));
  assert.deepEqual(files.rows.map((row) => row[0]), ['index.html', 'main.js', 'x\\|y\\`\\*z.js', 'bomb.css'], 'a pipe in a name stays inside its cell');

  assert.deepEqual(await reviewRelease(out), r.json);
});

test('a release folder that is not a submission at all still gets a summary of what could be read', async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'manifest.json'), '{"namespace": 1}');
  const report = await reviewRelease(dir);
  assertSchema(report, 'broken');
  assert.equal(report.ok, false);
  assert.ok(rules(report).includes('release/missing-file'));
  assert.equal(report.summary.files, null);
  assert.deepEqual(report.summary.signer, { fingerprint: null, signature_valid: false, pinning: 'not-pinned' });
  assert.doesNotMatch(review([dir]).stdout, /undefined|NaN/);
  const md = review([dir, '--format', 'markdown']);
  assertTablesWellFormed(md.stdout, 'broken');
});

test('--known-keys: comments, blank lines, keys and fingerprints; anything else is a usage error naming the line', (t) => {
  const dir = tempDir(t);
  const key = keygen(dir, 'k');
  const parsed = parseKnownKeys(`# team keys\n\n  ${key.publicText}  # ci\r\n${key.fingerprint}\n${'ab'.repeat(32).toUpperCase()}\n`, 'keys');
  assert.deepEqual(parsed.fingerprints, [key.fingerprint, 'ab'.repeat(32)], 'each once, lowercase');
  const bad = [
    ['not-a-key', 'line 2'],
    [key.publicText.slice(0, -2), 'line 2'], // truncated base64
    ['ab'.repeat(31), 'line 2'], // 62 hex digits
    [`${key.publicText} ${key.fingerprint}`, 'line 2'], // two on one line
    [Buffer.from('x'.repeat(31)).toString('base64'), 'line 2'], // 31 bytes
  ];
  for (const [line, where] of bad) {
    assert.throws(() => parseKnownKeys(`# c\n${line}\n`, 'keys'), (e) => e.message.includes(where) && !e.message.includes(line), line);
  }
  assert.throws(() => parseKnownKeys('# only comments\n\n', 'keys'), /lists no key/);

  // The CLI: usage errors (exit 2) before any review; a link is not followed; the file is size-capped.
  const release = join(dir, 'none');
  writeFileSync(join(dir, 'bad.keys'), 'hello\n');
  const r = review([release, '--known-keys', join(dir, 'bad.keys')]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /line 1 is neither a public key/);
  writeFileSync(join(dir, 'good.keys'), key.fingerprint + '\n');
  symlinkSync(join(dir, 'good.keys'), join(dir, 'link.keys'));
  assert.equal(review([release, '--known-keys', join(dir, 'link.keys')]).status, 2);
  // The cap, on both sides: a file of exactly KNOWN_KEYS_FILE_MAX_BYTES is read (the review then stops at the missing release folder).
  const atCap = `${key.fingerprint}\n#${'x'.repeat(KNOWN_KEYS_FILE_MAX_BYTES - key.fingerprint.length - 3)}\n`;
  assert.equal(Buffer.byteLength(atCap), KNOWN_KEYS_FILE_MAX_BYTES);
  writeFileSync(join(dir, 'cap.keys'), atCap);
  const cap = review([release, '--known-keys', join(dir, 'cap.keys')]);
  assert.equal(cap.status, 2);
  assert.match(cap.stderr, /The release folder .* cannot be read/);
  writeFileSync(join(dir, 'big.keys'), `${atCap}#`);
  const big = review([release, '--known-keys', join(dir, 'big.keys')]);
  assert.equal(big.status, 2);
  assert.match(big.stderr, /known-keys file .* is larger than/);
  assert.equal(review([release, '--known-keys', join(dir, 'missing.keys')]).status, 2);
});

test('platform-review usage: formats, a baseline that is not a submission set, unknown options', async (t) => {
  const { dir, first } = releases(t);
  assert.equal(review([first, '--format', 'yaml']).status, 2);
  assert.match(review([first, '--format', 'mardown']).stderr, /did you mean "markdown"/);
  assert.equal(review([first, '--json', '--format', 'markdown']).status, 2);
  assert.equal(review([first, '--format', 'json']).json.command, 'review');
  const notRelease = join(dir, 'empty');
  rmSync(notRelease, { recursive: true, force: true });
  const base = review([first, '--baseline', notRelease]);
  assert.equal(base.status, 2);
  assert.match(base.stderr, /baseline/);
  assert.match(review(['--help']).stdout, /--known-keys <file>/);
  await assert.rejects(reviewRelease(first, { knownKeys: 3 }), (e) => e instanceof PlatformExtError && e.code === 'ERR_INVALID_ARGUMENT');
  await assert.rejects(reviewRelease(first, { known: 'x' }), (e) => e instanceof PlatformExtError && e.code === 'ERR_INVALID_ARGUMENT');
  await assert.rejects(reviewRelease(first, { baseline: notRelease }), (e) => e instanceof PlatformExtError && e.code === 'ERR_USAGE');
});

test('operator words: every rule has a hint for the operator, which says what to decide or ask for, never what to type', () => {
  const DECISIONS = /^(Reject|Do not approve|Before approving|Review|Ask the publisher|No action needed|Not blocking)/;
  for (const rule of RULES) {
    const hint = operatorHint(rule);
    assert.match(hint, DECISIONS, `${rule.id}: ${hint}`);
    assert.doesNotMatch(hint, /\b(package again|run platform-ext|raise "version"|put the baseline|add it to|remove the file)\b/i, `${rule.id}: ${hint}`);
    if (rule.severity === 'error' && !rule.id.startsWith('baseline/property-')) assert.match(hint, /^(Reject|Do not approve)/, `${rule.id}: an error is a reason to reject`);
  }
});

test('operator words: every warning a review can show has its own hint for this release, not the generic one', () => {
  // Reported on a project folder only (snapshot drift, platform-ext.config.json): never in a review.
  const PROJECT_ONLY = new Set(['project/snapshot-stale', 'project/context-stale', 'config/unused-acknowledgement']);
  const generic = operatorHint({ id: 'zz/not-a-rule', severity: 'warning', title: '', ref: '', hint: '' });
  const owners = new Map();
  for (const rule of RULES.filter((r) => r.severity === 'warning')) {
    const hint = operatorHint(rule);
    if (PROJECT_ONLY.has(rule.id)) {
      assert.equal(hint, generic, `${rule.id}: outside the review, the generic hint`);
      continue;
    }
    assert.notEqual(hint, generic, `${rule.id} can appear in a review and has only the generic hint`);
    owners.set(hint, [...(owners.get(hint) ?? []), rule.id]);
  }
  // One text is shared only by the property changes, which mean the same for saved settings.
  for (const [hint, ids] of owners) if (ids.length > 1) assert.ok(ids.every((id) => /^baseline\/property-/.test(id)), `${ids.join(', ')} share: ${hint}`);
  for (const id of ['js/input-flows-to-sink', 'js/eval-blocked', 'js/navigation']) assert.match(operatorHint(RULES.find((r) => r.id === id)), /^(Reject unless the publisher explains|Ask the publisher)/, id);
});

test('escaping (D-29) and Markdown cells', () => {
  assert.equal(escapeText('a\u001bb\u202ec\u200bd\ufeffe\u0085f\u061cg\u2066h'), 'a\\u{1b}b\\u{202e}c\\u{200b}d\\u{feff}e\\u{85}f\\u{61c}g\\u{2066}h');
  assert.equal(escapeText('plain ünïcode ✓ 😀'), 'plain ünïcode ✓ 😀');
  assert.equal(escapeText('lone \ud800 surrogate'), 'lone \\u{d800} surrogate');
  assert.equal(markdownCell('a|b`c*d_e<f>g&h\\i'), 'a\\|b\\`c\\*d\\_e&lt;f&gt;g&amp;h\\\\i');
  assert.equal(markdownCell('line\nbreak'), 'line\\u{a}break');
  assert.equal(markdownCell('a\u202eb'), 'a\\u{202e}b');
});

test('D-20a: verify, check and their API twins name the tool and the contract version; each finding carries its rule\'s hint', async (t) => {
  const { first, dir } = releases(t);
  writeFileSync(join(first, 'manifest.json'), readFileSync(join(first, 'manifest.json'), 'utf8').replace(/\n/g, '\r\n'));
  const v = runCli(['verify', first, '--json']);
  assert.equal(v.status, 1);
  for (const report of [v.json, await verifyRelease(first), await checkProject(join(dir, 'project'))]) {
    assert.deepEqual(report.tool, { name: 'platform-ext', version: VERSION });
    assert.equal(report.contract_version, 1);
    for (const f of report.findings) assert.equal(f.hint, RULES.find((r) => r.id === f.rule).hint, f.rule);
  }
  assert.ok(v.json.findings.some((f) => f.rule === 'release/signature-invalid'));
  // The review words the same findings for the operator.
  const r = await reviewRelease(first);
  const sig = r.findings.find((f) => f.rule === 'release/signature-invalid');
  assert.equal(sig.hint, operatorHint(RULES.find((x) => x.id === 'release/signature-invalid')));
  assert.notEqual(sig.hint, RULES.find((x) => x.id === 'release/signature-invalid').hint);
});

test('an archive listing more files than a release may hold: JSON lists them all, text and markdown the first ones and a count', async (t) => {
  const dir = tempDir(t);
  const count = BUNDLE_MAX_FILES + 7;
  const zip = craftZip(Array.from({ length: count }, (_, i) => ({ name: `f${String(i).padStart(3, '0')}.js`, data: Buffer.from('export {};\n'), method: 0 })));
  writeFileSync(join(dir, 'bundle.zip'), zip);
  const report = await reviewRelease(dir);
  assertSchema(report, 'many files');
  assert.ok(rules(report).includes('bundle/too-many-files'));
  assert.equal(report.summary.files.length, count);
  assert.equal(report.summary.totals.find((x) => x.limit === 'bundle.files').share, Math.round((count / BUNDLE_MAX_FILES) * 10000) / 10000);
  const text = review([dir, '--verbose']).stdout;
  assert.equal(text.split('\n').filter((l) => / f\d{3}\.js$/.test(l)).length, BUNDLE_MAX_FILES);
  assert.match(text, new RegExp(`^ {2}\\.\\.\\. and 7 more \\(a valid release has at most ${BUNDLE_MAX_FILES}\\)$`, 'm'));
  const md = review([dir, '--format', 'markdown']).stdout;
  const files = assertTablesWellFormed(md, 'many files').find((x) => /Files/.test(x.title));
  assert.equal(files.rows.length, BUNDLE_MAX_FILES);
  assert.match(md, /\.\.\. and 7 more/);
});

test('the summary shows the manifest\'s strings as written, valid or not; text and markdown cut a very long one', async (t) => {
  const dir = tempDir(t);
  const long = 'N'.repeat(3000);
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ namespace: 'Not A Namespace', version: '01.2', name: long, description: 7, entrypoint: '../x.html' }));
  const report = await reviewRelease(dir);
  assertSchema(report, 'invalid strings');
  const ids = rules(report);
  for (const id of ['manifest/namespace', 'manifest/version', 'manifest/name-length']) assert.ok(ids.includes(id), `${id} in ${ids.join(', ')}`);
  assert.deepEqual(
    [report.summary.namespace, report.summary.version, report.summary.name, report.summary.description, report.summary.entrypoint],
    ['Not A Namespace', '01.2', long, null, '../x.html'],
  );
  const text = review([dir]).stdout;
  assert.match(text, /^ {2}release +Not A Namespace 01\.2$/m);
  assert.match(text, /^ {2}name +N+\.\.\. \(3000 characters in all\)$/m);
  assert.ok(text.split('\n').every((l) => l.length < 1000), 'no line carries the whole name');
  const md = review([dir, '--format', 'markdown']).stdout;
  assert.match(md, /\| Name \| N+\.\.\. \(3000 characters in all\) \|/);
});

test('an archive of 58,000 badly named entries gives a short review in bounded memory: a rule is listed for at most 200 files, the rest counted', async (t) => {
  const { forgeRelease } = await import('../support/forge-release.mjs');
  const { MAX_FILES_PER_RULE } = await import('../../build/validator/limits.js');
  const dir = tempDir(t);
  const files = { 'index.html': '<!doctype html><title>x</title>' };
  // Empty entries with no extension: names of at most four characters keep the archive within 5 MiB.
  for (let i = 0; i < 58_000; i++) files[i.toString(36)] = '';
  forgeRelease(dir, { files });
  assert.ok(statSync(join(dir, 'bundle.zip')).size <= 5 * 1024 * 1024, 'the archive itself is within the size limit');

  const json = review([dir, '--json']);
  assert.equal(json.status, 1);
  const report = JSON.parse(json.stdout);
  const listed = report.findings.filter((f) => f.rule === 'bundle/extension-not-allowed');
  assert.equal(listed.length, MAX_FILES_PER_RULE);
  assert.equal(report.truncated['bundle/extension-not-allowed'], 58_000 - MAX_FILES_PER_RULE);
  assert.equal(listed.at(-1).truncated, 58_000 - MAX_FILES_PER_RULE, 'the last one listed carries the count');
  assert.ok(report.findings.some((f) => f.rule === 'bundle/too-many-files'));

  // The text review: lines counted, peak memory from /usr/bin/time (GNU time's %M, in KiB).
  const timed = spawnSync('/usr/bin/time', ['-f', 'max-rss-kib=%M', process.execPath, REVIEW, dir], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (timed.error !== undefined) return t.skip('/usr/bin/time is not installed');
  assert.equal(timed.status, 1, timed.stderr);
  const lines = timed.stdout.split('\n').length;
  assert.ok(lines < 10_000, `${lines} lines`);
  const verdictLine = timed.stdout.trimEnd().split('\n').at(-1);
  assert.match(verdictLine, /reject: \d+ items to resolve \(\d+ errors, 1 warning, and 57800 more not listed\)/);
  const kib = Number(/max-rss-kib=(\d+)/.exec(timed.stderr)?.[1]);
  assert.ok(kib > 0 && kib < 200 * 1024, `peak resident memory ${kib} KiB`);
});
