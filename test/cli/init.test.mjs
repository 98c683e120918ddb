// `platform-ext init`: argument errors (exit 2, D-21, nothing written), folders
// it refuses, the files it writes against the template listing (templates/scaffold/, the
// snapshot, CONTEXT.md), a fresh scaffold that passes `check` with no findings at all, and
// `init --refresh`, which rewrites contract-snapshot/ and CONTEXT.md and nothing else (also
// in an existing app, the documented adopt path); a Vite project from a copy in npx's cache
// names no platform-ext and says what to do.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { snapshotFiles } from '../../build/contract/snapshot.js';
import { nameProblem, namespaceProblem } from '../../build/contract/scaffold.js';
import { isContextDocument } from '../../build/contract/context-document.js';
import { ROOT, runCli } from '../support/project.mjs';
import { TEMPLATES_DIR, initScaffold, listTree, readTree, tempParent } from '../support/scaffold.mjs';

const NS = 'acme/test-shelf';

/** Where a template lands: a leading "_" of a path segment stands for "." (templates/scaffold/ keeps no dot-files). */
function projectPath(templatePath) {
  return templatePath
    .split('/')
    .map((s) => (s.startsWith('_') ? `.${s.slice(1)}` : s))
    .join('/');
}

/** The test's own rendering of a template: JSON string content in .json, HTML text in .html, as is elsewhere. */
function render(path, text, namespace, name) {
  const encode = path.endsWith('.json')
    ? (s) => JSON.stringify(s).slice(1, -1)
    : path.endsWith('.html')
      ? (s) => s.replace(/&/g, '&#38;').replace(/</g, '&#60;').replace(/>/g, '&#62;').replace(/"/g, '&#34;').replace(/'/g, '&#39;')
      : (s) => s;
  const values = { namespace, name, publisher: namespace.split('/')[0] };
  return text.replace(/\{\{([a-z]+)\}\}/g, (whole, key) => {
    assert.ok(key in values, `unknown placeholder ${whole} in ${path}`);
    return encode(values[key]);
  });
}

test('the namespace grammar of init, both sides of each rule (contract "Manifest")', () => {
  const rows = [
    ['a/b', true],
    ['acme/product-strip', true],
    ['a1-b2/c3-d4', true],
    ['acme', false],
    ['acme/', false],
    ['/shop', false],
    ['acme/shop/extra', false],
    ['Acme/shop', false],
    ['acme/Shop', false],
    ['1acme/shop', false],
    ['acme/-shop', false],
    ['acme/shop-', false],
    ['acme/sh--op', false],
    ['acme_co/shop', false],
    ['acme.shop', false],
    ['', false],
  ];
  for (const [ns, ok] of rows) assert.equal(namespaceProblem(ns) === null, ok, JSON.stringify(ns));
});

test('the name rule of init: 1 to 120 UTF-8 bytes, one line, no control characters (contract "Manifest"; D-10)', () => {
  const rows = [
    ['x', true],
    ['x'.repeat(120), true],
    ['x'.repeat(121), false],
    ['é'.repeat(60), true], // 120 bytes
    ['é'.repeat(60) + 'x', false], // 121 bytes
    ['My Shelf & <Co> "quoted" \'single\'', true],
    ['', false],
    ['   ', false],
    ['two\nlines', false],
    ['tab\there', false],
    ['del\u007f', false],
    ['c1\u0085', false],
    ['line\u2028separator', false],
    ['lone\ud800surrogate', false],
    ['pair 😀 ok', true],
  ];
  for (const [name, ok] of rows) assert.equal(nameProblem(name) === null, ok, JSON.stringify(name));
});

test('argument errors exit 2 with a message and write nothing', async (t) => {
  const parent = tempParent(t);
  const dir = join(parent, 'p');
  const rows = [
    ['no folder', ['init', '--namespace', NS, '--name', 'X']],
    ['two folders', ['init', dir, join(parent, 'q'), '--namespace', NS, '--name', 'X']],
    ['no --namespace', ['init', dir, '--name', 'X']],
    ['no --name', ['init', dir, '--namespace', NS]],
    ['a namespace without a slash', ['init', dir, '--namespace', 'acme', '--name', 'X']],
    ['an upper-case namespace', ['init', dir, '--namespace', 'Acme/Shop', '--name', 'X']],
    ['an empty name', ['init', dir, '--namespace', NS, '--name', '']],
    ['a name of 121 bytes', ['init', dir, '--namespace', NS, '--name', 'x'.repeat(121)]],
    ['a name with a line break', ['init', dir, '--namespace', NS, '--name', 'a\nb']],
    ['an unknown option', ['init', dir, '--namespace', NS, '--name', 'X', '--force']],
    ['--refresh with --namespace', ['init', '--refresh', dir, '--namespace', NS]],
    ['--refresh with two folders', ['init', '--refresh', dir, join(parent, 'q')]],
  ];
  for (const [what, args] of rows) {
    const r = runCli(args, { cwd: parent });
    assert.equal(r.status, 2, `${what}: exit 2`);
    assert.ok(r.stderr.startsWith('platform-ext: '), `${what}: a message on stderr`);
    assert.ok(!r.stderr.includes('    at '), `${what}: no stack trace`);
    assert.deepEqual(readdirSync(parent), [], `${what}: nothing written`);
  }
  // The other side of the boundaries: exactly 120 bytes and the shortest namespace are accepted.
  const ok = runCli(['init', dir, '--namespace', 'a/b', '--name', 'é'.repeat(60)]);
  assert.equal(ok.status, 0, ok.stderr);
  assert.equal(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')).name, 'é'.repeat(60));
});

test('init refuses a folder that is not empty, a file, a link and a missing parent, and changes nothing', async (t) => {
  const parent = tempParent(t);
  const full = join(parent, 'full');
  mkdirSync(full);
  writeFileSync(join(full, 'notes.txt'), 'mine\n');
  const file = join(parent, 'file');
  writeFileSync(file, 'a file\n');
  const empty = join(parent, 'empty');
  mkdirSync(empty);
  const link = join(parent, 'link');
  symlinkSync(empty, link);
  const rows = [
    ['a folder with a file', full],
    ['a regular file', file],
    ['a symbolic link to an empty folder', link],
    ['a folder whose parent is missing', join(parent, 'missing', 'p')],
  ];
  const before = readTree(parent);
  for (const [what, target] of rows) {
    const r = runCli(['init', target, '--namespace', NS, '--name', 'X']);
    assert.equal(r.status, 2, `${what}: exit 2 (${r.stderr})`);
    assert.deepEqual(readTree(parent), before, `${what}: nothing changed`);
    assert.deepEqual(readdirSync(parent).sort(), ['empty', 'file', 'full', 'link'], `${what}: no temp folder left`);
  }
  // The other side: a folder name as long as the file system allows, and an empty folder.
  const long = join(parent, 'n'.repeat(255));
  const made = runCli(['init', long, '--namespace', NS, '--name', 'X']);
  assert.equal(made.status, 0, made.stderr);
  rmSync(long, { recursive: true });
  const r = runCli(['init', empty, '--namespace', NS, '--name', 'X']);
  assert.equal(r.status, 0, r.stderr);
  assert.ok(existsSync(join(empty, 'manifest.json')));
  assert.deepEqual(readdirSync(parent).sort(), ['empty', 'file', 'full', 'link'], 'no temp folder left');
});

test('init . in an empty folder fills that same folder (a shell inside it keeps working) and prints no cd', async (t) => {
  const parent = tempParent(t);
  const here = join(parent, 'here');
  mkdirSync(here);
  const inode = statSync(here).ino;
  const r = runCli(['init', '.', '--namespace', NS, '--name', 'Here'], { cwd: here });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(statSync(here).ino, inode, 'the same folder');
  assert.ok(existsSync(join(here, 'manifest.json')));
  assert.deepEqual(readdirSync(here).filter((n) => n.endsWith('.tmp')), [], 'no temp folder left');
  assert.ok(!r.stdout.split('\n').some((l) => l.trim().startsWith('cd ')), 'no cd step');
  assert.equal(runCli(['check', '--json'], { cwd: here }).json.findings.length, 0);
});

test('the files init writes equal the template listing, rendered, plus the snapshot and CONTEXT.md', async (t) => {
  const name = 'Shelf & <Co> "best" \'ever\' é😀';
  const { dir, result } = initScaffold(t, { namespace: NS, name });
  const templates = listTree(TEMPLATES_DIR);
  assert.ok(templates.length >= 10, 'the template listing is read');
  const expected = new Map();
  for (const path of templates) expected.set(projectPath(path), render(path, readFileSync(join(TEMPLATES_DIR, path), 'utf8'), NS, name));
  const snapshot = snapshotFiles();
  for (const [file, content] of snapshot) expected.set(`contract-snapshot/${file}`, content);
  expected.set('CONTEXT.md', runCli(['context']).stdout);
  const written = readTree(dir);
  assert.deepEqual([...written.keys()], [...expected.keys()].sort(), 'the same paths');
  for (const [path, content] of expected) assert.equal(written.get(path), content, path);
  for (const [path, content] of written) assert.ok(!/\{\{[a-z]+\}\}/.test(content), `${path}: no placeholder left`);
  assert.ok(isContextDocument(written.get('CONTEXT.md')));
  // The list of files, by name.
  for (const path of ['manifest.json', 'runtime/index.html', 'runtime/main.js', 'runtime/styles.css', 'jsconfig.json', '.vscode/settings.json', '.editorconfig', '.gitignore', 'AGENTS.md', 'README.md', 'CONTEXT.md']) {
    assert.ok(written.has(path), path);
  }
  assert.match(result.stdout, /files\./, 'a summary line');
  const manifest = JSON.parse(written.get('manifest.json'));
  assert.equal(manifest.namespace, NS);
  assert.equal(manifest.name, name);
  assert.equal('$schema' in manifest, false, 'no $schema: the manifest is closed');
  const types = new Set(Object.values(manifest.properties).map((p) => p.type));
  assert.ok(types.size >= 4, `properties of several types: ${[...types]}`);
  for (const [key, p] of Object.entries(manifest.properties)) assert.ok('default' in p, `${key} has a default`);
  // The editor wiring points at the snapshot's files.
  const jsconfig = JSON.parse(written.get('jsconfig.json'));
  assert.equal(jsconfig.compilerOptions.checkJs, true);
  assert.equal(jsconfig.compilerOptions.strict, true);
  assert.ok(jsconfig.include.includes('contract-snapshot/platform.d.ts'));
  const vscode = JSON.parse(written.get('.vscode/settings.json'));
  assert.deepEqual(vscode['json.schemas'], [{ fileMatch: ['/manifest.json'], url: './contract-snapshot/manifest.schema.json' }]);
  // D-4: keys never in the project.
  const ignored = written.get('.gitignore').split('\n');
  for (const pattern of ['*.pem', '*.key', '/release/']) assert.ok(ignored.includes(pattern), `.gitignore has ${pattern}`);
});

test('the printed next steps name every step, with the key outside the project (D-4)', async (t) => {
  const { dir, result } = initScaffold(t, { namespace: 'acme/next-steps', folder: 'my shelf' });
  const lines = result.stdout.split('\n').map((l) => l.trim().replace(/\s+#.*$/, ''));
  assert.ok(lines.includes(`cd '${dir}'`), 'cd, quoted for the shell');
  for (const step of [
    'platform-ext preview',
    'platform-ext check',
    'mkdir -p ~/.config/platform-ext',
    'platform-ext keygen --private-key ~/.config/platform-ext/acme.pem --public-key ~/.config/platform-ext/acme.pub',
    'platform-ext package . --out release --private-key ~/.config/platform-ext/acme.pem',
    'platform-ext verify release',
  ]) {
    assert.ok(lines.includes(step), step);
  }
});

test('a fresh scaffold passes check with no findings at all', async (t) => {
  for (const name of ['Test shelf', 'Shelf & <Co> "best" é😀']) {
    const { dir } = initScaffold(t, { name });
    const r = runCli(['check', dir, '--json']);
    assert.equal(r.status, 0, r.stdout);
    assert.deepEqual(r.json.findings, [], name);
    assert.equal(r.json.warnings, 0);
    // And from inside the folder, as the next steps say.
    const here = runCli(['check', '--json'], { cwd: dir });
    assert.equal(here.status, 0);
    assert.deepEqual(here.json.findings, []);
  }
});

test('init --refresh rewrites contract-snapshot/ and CONTEXT.md and nothing else', async (t) => {
  const { dir } = initScaffold(t);
  const fresh = readTree(dir);
  const snapshotNames = [...snapshotFiles().keys()];
  // The publisher's own edits, which must survive.
  writeFileSync(join(dir, 'runtime/main.js'), `${fresh.get('runtime/main.js')}// my change\n`);
  writeFileSync(join(dir, 'README.md'), '# Mine\n');
  writeFileSync(join(dir, 'notes.txt'), 'notes\n');
  // Drift of every kind: one byte changed, a file missing, a file an older contract had, CONTEXT.md edited.
  const first = `contract-snapshot/${snapshotNames[0]}`;
  writeFileSync(join(dir, first), fresh.get(first).replace(/.$/s, '!'));
  rmSync(join(dir, `contract-snapshot/${snapshotNames[1]}`));
  writeFileSync(join(dir, 'contract-snapshot/old-file.json'), '{}\n');
  writeFileSync(join(dir, 'CONTEXT.md'), `${fresh.get('CONTEXT.md')}edited\n`);
  const edited = readTree(dir);

  const r = runCli(['init', '--refresh', dir]);
  assert.equal(r.status, 0, r.stderr);
  const after = readTree(dir);
  for (const [path, content] of after) {
    if (path.startsWith('contract-snapshot/') || path === 'CONTEXT.md') assert.equal(content, fresh.get(path), `${path} regenerated`);
    else assert.equal(content, edited.get(path), `${path} untouched`);
  }
  assert.deepEqual([...after.keys()], [...fresh.keys(), 'notes.txt'].sort(), 'old-file.json removed, nothing added');
  assert.deepEqual(readdirSync(dir).filter((n) => n.endsWith('.tmp') || n.endsWith('.old')), [], 'no temp folder left');
  assert.equal(runCli(['check', dir, '--json']).json.warnings, 0);

  // Current already: nothing is written, exit 0, from inside the folder too.
  const again = runCli(['init', '--refresh'], { cwd: dir });
  assert.equal(again.status, 0, again.stderr);
  assert.deepEqual(readTree(dir), after);
});

test('init --refresh creates the generated files in a project that has none, and refuses what is not its own', async (t) => {
  const parent = tempParent(t);
  const example = join(parent, 'example');
  cpSync(join(ROOT, 'examples/hello-world'), example, { recursive: true });
  const before = readTree(example);
  const r = runCli(['init', '--refresh', example]);
  assert.equal(r.status, 0, r.stderr);
  const after = readTree(example);
  for (const file of snapshotFiles().keys()) assert.ok(after.has(`contract-snapshot/${file}`), file);
  assert.ok(isContextDocument(after.get('CONTEXT.md')));
  for (const [path, content] of before) assert.equal(after.get(path), content, `${path} untouched`);

  // Refusals, each leaving the folder exactly as it was.
  const noManifest = join(parent, 'no-manifest');
  mkdirSync(noManifest);
  const refusals = [
    ['a folder without manifest.json', noManifest, () => {}],
    ['a hand-written CONTEXT.md', example, (d) => writeFileSync(join(d, 'CONTEXT.md'), '# My own context\n')],
    ['a folder inside contract-snapshot/', example, (d) => mkdirSync(join(d, 'contract-snapshot/mine'))],
    ['contract-snapshot as a file', example, (d) => (rmSync(join(d, 'contract-snapshot'), { recursive: true }), writeFileSync(join(d, 'contract-snapshot'), 'x'))],
  ];
  for (const [what, target, prepare] of refusals) {
    if (target === example) {
      rmSync(example, { recursive: true });
      cpSync(join(ROOT, 'examples/hello-world'), example, { recursive: true });
      runCli(['init', '--refresh', example]);
      writeFileSync(join(example, 'contract-snapshot', [...snapshotFiles().keys()][0]), 'stale\n');
    }
    prepare(target);
    const state = readTree(target);
    const refused = runCli(['init', '--refresh', target]);
    assert.equal(refused.status, 2, `${what}: exit 2`);
    assert.ok(!refused.stderr.includes('    at '), `${what}: no stack trace`);
    assert.deepEqual(readTree(target), state, `${what}: nothing changed`);
  }
});

test('an existing app adopts the contract with manifest.json and init --refresh (docs/bundlers.md): its own files stay as they are', (t) => {
  const app = join(tempParent(t), 'app');
  mkdirSync(join(app, 'src'), { recursive: true });
  const own = { 'package.json': '{"name":"app","type":"module"}\n', 'vite.config.js': 'export default {};\n', 'src/main.ts': 'export {};\n', 'README.md': '# App\n' };
  for (const [path, text] of Object.entries(own)) writeFileSync(join(app, path), text);
  const scratch = join(tempParent(t), 'scratch');
  assert.equal(runCli(['init', scratch, '--namespace', NS, '--name', 'Scratch', '--template', 'vite']).status, 0);
  cpSync(join(scratch, 'manifest.json'), join(app, 'manifest.json'));

  const r = runCli(['init', '--refresh'], { cwd: app });
  assert.equal(r.status, 0, r.stderr);
  for (const [path, text] of Object.entries(own)) assert.equal(readFileSync(join(app, path), 'utf8'), text, `${path} untouched`);
  assert.deepEqual(readdirSync(join(app, 'contract-snapshot')).sort(), [...snapshotFiles().keys()].sort());
  // The Vite variant of the context document, as the scratch project has it.
  assert.equal(readFileSync(join(app, 'CONTEXT.md'), 'utf8'), readFileSync(join(scratch, 'CONTEXT.md'), 'utf8'));
});

test('init --template vite run from npx\'s cache links nothing and says what to do', (t) => {
  // A copy of the built tool where npx keeps packages it downloads.
  const copy = join(tempParent(t), '_npx', '0123abcd', 'node_modules', 'platform-ext');
  cpSync(join(ROOT, 'dist'), join(copy, 'dist'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(copy, 'package.json'));
  const project = join(tempParent(t), 'shelf');
  const r = spawnSync(process.execPath, [join(copy, 'dist/platform-ext.mjs'), 'init', project, '--namespace', NS, '--name', 'Shelf', '--template', 'vite'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
  assert.equal(pkg.devDependencies['platform-ext'], undefined, 'no registry version, no link into a cache');
  assert.match(r.stdout, /does not name platform-ext/);
  assert.match(r.stdout, /npm install --global/);
});
