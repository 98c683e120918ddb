// `platform-ext context`: one self-contained Markdown document, byte-identical
// on every run (whatever the folder, time zone or locale), at most 60 KB, with each
// section and the snapshot files it promises verbatim; `--out` writes it atomically and
// never over a file this tool did not write.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { snapshotFiles } from '../../build/contract/snapshot.js';
import { renderTemplates } from '../../build/contract/templates.js';
import { TYPECHECK_COMMAND } from '../../build/contract/context-document.js';
import { RULES } from '../../build/validator/rules.js';
import { CAPABILITIES } from '../../build/validator/capabilities.js';
import { BRIDGE_ERROR_CODE_LIST } from '../../build/validator/bridge/errors.js';
import * as L from '../../build/validator/limits.js';
import { ROOT, runCli } from '../support/project.mjs';
import { tempParent } from '../support/scaffold.mjs';

/** At most 60 KB, read strictly as 60,000 bytes. */
const MAX_BYTES = 60_000;

const SECTIONS = [
  '## A. What version 1 cannot do',
  '## B. Workflow',
  '## C. Recipes',
  '## D. The contract for a project',
  '## E. Tool decisions',
  '## F. API declarations',
  '## G. Rule catalogue',
  '## H. Reference extension',
];

/** The fenced blocks of a Markdown text: {lang, body}; throws on a fence left open. */
function fencedBlocks(markdown) {
  const blocks = [];
  let open = null;
  for (const line of markdown.split('\n')) {
    if (open === null) {
      const m = /^(`{3,})(\S*)$/.exec(line);
      if (m) open = { fence: m[1], lang: m[2], lines: [] };
    } else if (line === open.fence) {
      blocks.push({ lang: open.lang, body: open.lines.join('\n') + '\n' });
      open = null;
    } else {
      open.lines.push(line);
    }
  }
  assert.equal(open, null, 'every fence is closed');
  return blocks;
}

test('context is byte-identical across runs, folders, time zones and locales, and at most 60 KB', async (t) => {
  const parent = tempParent(t);
  const a = runCli(['context']);
  const b = runCli(['context'], { cwd: parent, env: { ...process.env, NO_COLOR: '1', TZ: 'Pacific/Kiritimati', LANG: 'de_DE.UTF-8', LC_ALL: 'de_DE.UTF-8' } });
  assert.equal(a.status, 0, a.stderr);
  assert.equal(b.status, 0, b.stderr);
  assert.equal(a.stdout, b.stdout);
  assert.equal(a.stderr, '');
  const bytes = Buffer.byteLength(a.stdout);
  assert.ok(bytes <= MAX_BYTES, `${bytes} bytes, at most ${MAX_BYTES}`);
  assert.ok(bytes > 10_000, 'not empty');
});

test('context has each section in order, the project sections of contract.md, the declarations, every rule and the reference extension', () => {
  const doc = runCli(['context']).stdout;
  let at = -1;
  for (const heading of SECTIONS) {
    const found = doc.indexOf(`\n${heading}\n`);
    assert.ok(found > at, `${heading} present, after the previous section`);
    at = found;
  }
  const section = (n) => doc.slice(doc.indexOf(`\n${SECTIONS[n - 1]}\n`), n < SECTIONS.length ? doc.indexOf(`\n${SECTIONS[n]}\n`) : doc.length);
  const snapshot = snapshotFiles();

  // D. The sections of contract.md that govern a project, verbatim (headings one level down),
  // release and signature included; the manifest's field table is replaced by the whole
  // schema (its descriptions are the table's words) and the limits table loses its source
  // column. Team, distribution and lifecycle rules and what is not specified stay in the snapshot.
  const contract = snapshot.get('contract.md');
  assert.ok(contract !== undefined, 'contract-snapshot/contract.md is part of the snapshot');
  const level2 = contract.split(/\n(?=## )/);
  const d = section(4);
  const strip = (text) => text.replace(/^#{1,6}(?=\s)/gm, '#');
  const verbatim = ['## 2. ', '## 4. ', '## 5. ', '## 7. '];
  const adapted = ['## 3. ', '## 11. '];
  for (const part of level2) {
    const heading = part.split('\n')[0];
    if (verbatim.some((k) => heading.startsWith(k))) assert.ok(strip(d).includes(strip(part.trimEnd())), `contract.md: ${heading}`);
    else if (adapted.some((k) => heading.startsWith(k))) assert.ok(d.includes(heading.replace(/^## /, '### ')), `contract.md: ${heading}`);
    else assert.ok(!d.includes(heading.replace(/^## /, '')), `contract.md: ${heading} is left to the snapshot`);
  }
  // The signing section: the payload lines and the D-14 test vector.
  for (const text of ['platform-extension-release-v1\nnamespace=<namespace>', 'Test vector (D-14)']) assert.ok(d.includes(text), text);
  // The manifest schema, whole: the JSON block of section 3 is the snapshot's schema.
  const manifestPart = d.slice(d.indexOf('### 3. '), d.indexOf('### 4. '));
  const schemaBlocks = fencedBlocks(manifestPart).filter((block) => block.lang === 'json');
  assert.equal(schemaBlocks.length, 1, 'one schema block in section 3');
  assert.deepEqual(JSON.parse(schemaBlocks[0].body), JSON.parse(snapshot.get('manifest.schema.json')));
  // Every other line of section 3 is there, in order, except the field table the schema replaces.
  const section3 = level2.find((part) => part.startsWith('## 3. ')).trimEnd().split('\n').filter((line) => !line.startsWith('|'));
  let from = 0;
  for (const line of section3.slice(1)) {
    const found = manifestPart.indexOf(line, from);
    assert.ok(found >= 0, `section 3: ${line}`);
    from = found;
  }
  // Every limit row keeps its name and value.
  const limitRows = level2.find((part) => part.startsWith('## 11. ')).split('\n').filter((line) => line.startsWith('| `'));
  for (const row of limitRows) {
    const [name, value] = row.slice(2, -2).split(' | ');
    assert.ok(d.includes(`| ${name} | ${value} |\n`), `limit ${name}`);
  }
  assert.ok(!doc.includes('Publisher teams'), 'team rules are not for extension code');
  const outside = d.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1$/gm, '');
  assert.deepEqual(outside.split('\n').filter((l) => /^#{1,2}\s/.test(l)), [SECTIONS[3]], 'no heading of level 1 or 2 inside part D');

  // E. Decisions, each marked as the tool's.
  const e = section(5);
  const decisions = e.split('\n').filter((l) => l.startsWith('- **D-'));
  assert.ok(decisions.length >= 10, 'the decisions that shape code');
  for (const line of decisions) assert.match(line, /^- \*\*D-\d+[a-z]? [^*]+\*\* \(tool decision\)\. /);
  for (const id of ['9', '22', '23', '26', '27', '34']) assert.ok(decisions.some((l) => l.startsWith(`- **D-${id} `)), `D-${id}`);
  // The decisions that shape code and that part D states in full are named, not repeated.
  for (const id of ['1', '2a', '4', '5', '6', '17']) assert.ok(e.includes(`D-${id} (`) && d.includes(`D-${id}`), `D-${id} named`);

  // F. The declarations, verbatim.
  const dts = snapshot.get('platform.d.ts');
  assert.ok(dts !== undefined, 'contract-snapshot/platform.d.ts is part of the snapshot');
  assert.equal(fencedBlocks(section(6))[0].body, dts);

  // G. Every rule id, by area.
  const g = section(7);
  for (const rule of RULES) {
    const [area, name] = rule.id.split('/');
    const line = g.split('\n').find((l) => l.startsWith(`- **${area}/**`));
    const entries = line?.slice(line.indexOf(': ') + 2).split(', ') ?? [];
    assert.ok(entries.includes(`${name}${rule.severity === 'warning' ? ' (W)' : ''}`), rule.id);
  }

  // H. The manifest and entrypoint of the scaffold, rendered for the sample namespace; the
  // module is described (every project holds it).
  const reference = renderTemplates({ namespace: 'acme/sample-extension', name: 'Sample extension' });
  const bodies = fencedBlocks(section(8)).map((block) => block.body);
  for (const path of ['manifest.json', 'runtime/index.html']) assert.ok(bodies.includes(reference.get(path)), path);
  assert.ok(section(8).includes('`runtime/main.js`'), 'the module is named');
  // The whole document's fences balance (a fence inside embedded text would break it).
  fencedBlocks(doc);
});

test('context: what v1 cannot do comes first; a recipe per capability; every error code and every limit extension code meets', () => {
  const doc = runCli(['context']).stdout;
  const cannot = doc.slice(doc.indexOf(SECTIONS[0]), doc.indexOf(SECTIONS[1]));
  for (const topic of ['network', 'cart', 'navigation', 'size']) assert.match(cannot, new RegExp(topic, 'i'), topic);
  assert.ok(doc.indexOf(SECTIONS[0]) < 2_000, 'near the top');
  const recipes = doc.slice(doc.indexOf(SECTIONS[2]), doc.indexOf(SECTIONS[3]));
  for (const c of CAPABILITIES) {
    assert.ok(recipes.includes(`Capability \`${c.key}\``), c.key);
    assert.ok(recipes.includes(c.method), c.method);
  }
  for (const code of BRIDGE_ERROR_CODE_LIST) assert.ok(recipes.includes(`| \`${code}\` |`), `${code}: what to do`);
  // Every limit on what extension code sends, receives or ships: its row of the limits table.
  const limits = doc.slice(doc.indexOf('### 11. Limits'), doc.indexOf(`\n${SECTIONS[4]}\n`));
  assert.ok(limits.length > 1_000 && !limits.includes('\n## '), 'the limits section alone');
  const outsideCode = ['invitation'];
  for (const limit of L.LIMITS) {
    if (outsideCode.some((skip) => limit.name.includes(skip))) continue;
    assert.ok(limits.includes(`| \`${limit.name}\` | `), limit.name);
  }
});

test('context --out writes the document, replaces only a context document, and refuses anything else', async (t) => {
  const parent = tempParent(t);
  const out = join(parent, 'CONTEXT.md');
  const expected = runCli(['context']).stdout;
  const first = runCli(['context', '--out', out]);
  assert.equal(first.status, 0, first.stderr);
  assert.equal(readFileSync(out, 'utf8'), expected);
  // A context document written earlier (even an older, edited one) is replaced.
  writeFileSync(out, `${expected.split('\n')[0]}\nold text\n`);
  assert.equal(runCli(['context', '--out', out]).status, 0);
  assert.equal(readFileSync(out, 'utf8'), expected);
  assert.deepEqual(readdirSync(parent), ['CONTEXT.md'], 'no temp file left');

  const mine = join(parent, 'notes.md');
  writeFileSync(mine, '# My notes\n');
  const folder = join(parent, 'folder');
  mkdirSync(folder);
  const rows = [
    ['a file it did not write', ['context', '--out', mine]],
    ['a folder', ['context', '--out', folder]],
    ['a missing parent folder', ['context', '--out', join(parent, 'missing', 'CONTEXT.md')]],
    ['a positional argument', ['context', 'CONTEXT.md']],
    ['--out without a value', ['context', '--out']],
  ];
  for (const [what, args] of rows) {
    const r = runCli(args, { cwd: parent });
    assert.equal(r.status, 2, `${what}: exit 2`);
    assert.ok(r.stderr.startsWith('platform-ext: '), what);
  }
  assert.equal(readFileSync(mine, 'utf8'), '# My notes\n', 'the foreign file is untouched');
  assert.deepEqual(readdirSync(parent).sort(), ['CONTEXT.md', 'folder', 'notes.md']);
  assert.deepEqual(readdirSync(folder), []);
});

/** Part B (the workflow) of a context document. */
const workflowOf = (doc) => doc.slice(doc.indexOf(`\n${SECTIONS[1]}\n`), doc.indexOf(`\n${SECTIONS[2]}\n`));

test('each template has its own context document: a Vite project edits src/ and never runtime/, within the same bound', (t) => {
  const plain = runCli(['context']).stdout;
  const vite = runCli(['context', '--template', 'vite']);
  assert.equal(vite.status, 0, vite.stderr);
  const doc = vite.stdout;
  assert.ok(Buffer.byteLength(doc) <= MAX_BYTES, `${Buffer.byteLength(doc)} bytes, at most ${MAX_BYTES}`);
  assert.match(doc.split('\n')[0], /context --template vite/);
  assert.equal(runCli(['context', '--template', 'vue']).status, 2);

  // The workflow: the Vite one never sends an agent into runtime/ or to jsconfig.json.
  const steps = workflowOf(doc);
  assert.match(steps, /Never edit `runtime\/`/);
  assert.doesNotMatch(steps, /files under `runtime\/`|jsconfig\.json/);
  assert.match(workflowOf(plain), /files under `runtime\/`/);
  assert.ok(workflowOf(plain).includes(TYPECHECK_COMMAND));

  // The reference extension: the Vite template's own files, rendered for the sample namespace.
  let at = -1;
  const reference = renderTemplates({ namespace: 'acme/sample-extension', name: 'Sample extension' }, 'vite');
  const bodies = fencedBlocks(doc.slice(doc.indexOf(`\n${SECTIONS[7]}\n`))).map((block) => block.body);
  for (const path of ['manifest.json', 'index.html']) {
    assert.ok(bodies.includes(reference.get(path)), path);
    const found = doc.indexOf(`\n### ${path}\n`);
    assert.ok(found > at, `${path} in order`);
    at = found;
  }
  // The module is named, not copied (the size bound); never the plain template's.
  assert.ok(doc.slice(doc.indexOf(`\n${SECTIONS[7]}\n`)).includes('`src/main.ts`'));
  assert.equal(doc.includes('runtime/main.js'), false);

  // A Vite project gets it as CONTEXT.md, which check then finds current.
  const project = join(tempParent(t), 'shelf');
  assert.equal(runCli(['init', project, '--namespace', 'acme/shelf', '--name', 'Shelf', '--template', 'vite']).status, 0);
  assert.equal(readFileSync(join(project, 'CONTEXT.md'), 'utf8'), doc);
  const check = JSON.parse(runCli(['check', project, '--json']).stdout);
  assert.deepEqual(check.findings.filter((f) => f.rule.startsWith('project/')), []);
  // init --refresh rewrites an edited copy with the Vite document, not the plain one.
  writeFileSync(join(project, 'CONTEXT.md'), `${doc.split('\n')[0]}\nedited\n`);
  assert.deepEqual(JSON.parse(runCli(['check', project, '--json']).stdout).findings.filter((f) => f.rule.startsWith('project/')).map((f) => f.rule), ['project/context-stale']);
  assert.equal(runCli(['init', '--refresh', project]).status, 0);
  assert.equal(readFileSync(join(project, 'CONTEXT.md'), 'utf8'), doc);
});

test('both context documents say how to work with the store: check --explain, who signs, acknowledged warnings, no events, images and fonts (D-44)', () => {
  for (const args of [['context'], ['context', '--template', 'vite']]) {
    const doc = runCli(args).stdout;
    const what = args.join(' ');
    const cannot = doc.slice(doc.indexOf(`\n${SECTIONS[0]}\n`), doc.indexOf(`\n${SECTIONS[1]}\n`));
    const steps = workflowOf(doc);
    assert.ok(steps.includes('check --explain <rule-id>'), `${what}: check --explain`);
    assert.match(steps, /Who does what/, what);
    assert.ok(steps.includes('`keygen`') && steps.includes('`package --out`'), `${what}: the publisher's steps`);
    assert.ok(steps.includes('platform-ext.config.json') && steps.includes('D-33'), `${what}: acknowledged warnings`);
    // Events: none in the contract; re-read the values; the preview's messages are its own.
    for (const needle of ['PLATFORM.capabilities()', 'PLATFORM.settings()', 'CAPABILITY_NOT_GRANTED', 'bridge-protocol.md', 'D-26']) {
      assert.ok(cannot.includes(needle), `${what}: part A names ${needle}`);
    }
    assert.ok(cannot.includes('D-44'), `${what}: images and fonts`);
    assert.ok(doc.includes('\n- **D-44 '), `${what}: D-44 in part E`);
  }
  // The protocol document marks the grants and settings messages as the preview's own.
  const protocol = snapshotFiles().get('bridge-protocol.md');
  const rows = protocol.split('\n').filter((l) => /"type":"platform\.(grants|settings)"/.test(l));
  assert.equal(rows.length, 2);
  for (const row of rows) assert.match(row, /the preview's own message/);
});
