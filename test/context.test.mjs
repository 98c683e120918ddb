// `platform-ext context` (issue 5): one self-contained Markdown document, byte-identical
// on every run (whatever the folder, time zone or locale), at most 80 KB, with each
// section and the snapshot files it promises verbatim; `--out` writes it atomically and
// never over a file this tool did not write.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { snapshotFiles } from '../build/contract/snapshot.js';
import { renderTemplates } from '../build/contract/templates.js';
import { RULES } from '../build/validator/rules.js';
import Ajv2020 from 'ajv/dist/2020.js';
import { ROOT, runCli } from './support/project.mjs';
import { tempParent } from './support/scaffold.mjs';

/** Issue 5: "at most 80 KB", read strictly as 80,000 bytes. */
const MAX_BYTES = 80_000;

const SECTIONS = [
  '## A. Workflow for agents',
  '## B. The contract',
  '## C. Manifest schema',
  '## D. API declarations',
  '## E. Rule catalogue',
  '## F. Reference extension',
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

test('context is byte-identical across runs, folders, time zones and locales, and at most 80 KB', async (t) => {
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

test('context has each section in order, the snapshot files verbatim, every rule and the reference extension', () => {
  const doc = runCli(['context']).stdout;
  let at = -1;
  for (const heading of SECTIONS) {
    const found = doc.indexOf(`\n${heading}\n`);
    assert.ok(found > at, `${heading} present, after the previous section`);
    at = found;
  }
  const section = (n) => doc.slice(doc.indexOf(`\n${SECTIONS[n - 1]}\n`), n < SECTIONS.length ? doc.indexOf(`\n${SECTIONS[n]}\n`) : doc.length);
  const snapshot = snapshotFiles();

  // B. The contract: contract.md in full (headings two levels down), except its own list of
  // rules (the level-2 section that names every rule id), which E replaces.
  const contract = snapshot.get('contract.md');
  assert.ok(contract !== undefined, 'contract-snapshot/contract.md is part of the snapshot');
  const level2 = contract.split(/\n(?=## )/);
  const ruleList = level2.filter((part) => RULES.every((r) => part.includes(`\`${r.id}\``)));
  assert.equal(ruleList.length, 1, 'contract.md has one section listing the rules');
  const b = section(2);
  const strip = (text) => text.replace(/^#{1,6}(?=\s)/gm, '#');
  for (const part of level2) {
    if (part === ruleList[0]) {
      const heading = part.split('\n')[0].replace(/^## /, '#### ');
      assert.ok(b.includes(`${heading}\n\nThe rules are listed once, in part E`), 'the rule list becomes a pointer');
      assert.ok(!b.includes(RULES[0].title), 'and is not repeated');
    } else {
      assert.ok(strip(b).includes(strip(part.trimEnd())), `contract.md: ${part.split('\n')[0]}`);
    }
  }
  const outside = b.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1$/gm, '');
  assert.deepEqual(outside.split('\n').filter((l) => /^#{1,2}\s/.test(l)), [SECTIONS[1]], 'no heading of level 1 or 2 inside part B');

  // C. The schema, compact, without annotations: it validates exactly as the snapshot's.
  const compact = JSON.parse(fencedBlocks(section(3))[0].body);
  const full = JSON.parse(snapshot.get('manifest.schema.json'));
  assert.ok(!JSON.stringify(compact).includes('"description":"'), 'annotations removed');
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const [validateFull, validateCompact] = [ajv.compile(full), ajv.compile({ ...compact, $id: `${compact.$id}-compact` })];
  const base = JSON.parse(readFileSync(join(ROOT, 'examples/hello-world/manifest.json'), 'utf8'));
  const manifests = [
    base,
    { ...base, $schema: 'x' },
    { ...base, description: 'd'.repeat(10) },
    { ...base, description: 7 },
    { ...base, namespace: 'Acme/x' },
    { ...base, capabilities: ['cart.mange'] },
    { ...base, properties: { a: { type: 'select', label: 'A', options: [] } } },
    { ...base, properties: { a: { type: 'text', label: 'A', default: 'x', description: 'not a field' } } },
    { ...base, properties: { a: { type: 'number', label: 'A', min: 1, max: 2, default: 3 } } },
  ];
  for (const m of manifests) assert.equal(validateCompact(m), validateFull(m), JSON.stringify(m).slice(0, 120));
  assert.equal(validateCompact(base), true);

  // D. The declarations, verbatim.
  const dts = snapshot.get('platform.d.ts');
  assert.ok(dts !== undefined, 'contract-snapshot/platform.d.ts is part of the snapshot');
  assert.equal(fencedBlocks(section(4))[0].body, dts);

  // E. Every rule id, by area.
  const e = section(5);
  for (const rule of RULES) {
    const [area, name] = rule.id.split('/');
    const line = e.split('\n').find((l) => l.startsWith(`- **${area}/**`));
    assert.ok(line?.includes(`\`${name}\`${rule.severity === 'warning' ? ' (W)' : ''}`), rule.id);
  }

  // F. The manifest and runtime files of the scaffold, rendered for the sample namespace.
  const reference = renderTemplates({ namespace: 'acme/sample-extension', name: 'Sample extension' });
  const bodies = fencedBlocks(section(6)).map((block) => block.body);
  for (const path of ['manifest.json', 'runtime/index.html', 'runtime/main.js', 'runtime/styles.css']) {
    assert.ok(bodies.includes(reference.get(path)), path);
  }
  // The whole document's fences balance (a fence inside embedded text would break it).
  fencedBlocks(doc);
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
