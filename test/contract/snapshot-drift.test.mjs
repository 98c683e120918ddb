// `check` and a project's generated copy of the contract (contract "Versioning": a scaffold
// is regenerated to adopt a newer contract; the snapshot inside a project is never edited
// by hand). Both sides: an identical snapshot and CONTEXT.md give no warning; one byte
// changed, a file missing or one left over gives project/snapshot-stale (or
// project/context-stale) on that file, a warning (exit 0) that names the refresh command.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { snapshotFiles } from '../../build/contract/snapshot.js';
import { generatedDrift } from '../../build/contract/snapshot-drift.js';
import { ROOT, runCli } from '../support/project.mjs';
import { initScaffold } from '../support/scaffold.mjs';

/** `rule file` of each finding. */
function rules(report) {
  return report.findings.map((f) => `${f.rule} ${f.file}`);
}

/** Flips the last byte of a file (a different byte, same length). */
function flipLastByte(path) {
  const bytes = readFileSync(path);
  bytes[bytes.length - 1] ^= 0x01;
  writeFileSync(path, bytes);
}

test('an identical snapshot and CONTEXT.md: no warning; one byte changed in any generated file: a warning on that file', async (t) => {
  const { dir } = initScaffold(t);
  const clean = runCli(['check', dir, '--json']);
  assert.deepEqual(rules(clean.json), []);
  assert.deepEqual(generatedDrift(dir), []);
  const files = [...[...snapshotFiles().keys()].map((f) => `contract-snapshot/${f}`), 'CONTEXT.md'];
  assert.ok(files.length >= 5);
  for (const file of files) {
    const path = join(dir, file);
    const original = readFileSync(path);
    flipLastByte(path);
    const r = runCli(['check', dir, '--json']);
    const rule = file === 'CONTEXT.md' ? 'project/context-stale' : 'project/snapshot-stale';
    assert.equal(r.status, 0, `${file}: a warning, not an error (exit 0)`);
    assert.deepEqual(rules(r.json), [`${rule} ${file}`], file);
    assert.equal(r.json.findings[0].severity, 'warning');
    assert.ok(r.json.findings[0].message.includes(`platform-ext init --refresh ${dir}`), `${file}: names the command that regenerates it`);
    writeFileSync(path, original);
    assert.deepEqual(rules(runCli(['check', dir, '--json']).json), [], `${file} restored: no warning`);
  }
});

test('a missing file, a file left from another contract, and a folder in its place are stale too; run inside the folder the command has no path', async (t) => {
  const { dir } = initScaffold(t);
  const [first] = snapshotFiles().keys();
  rmSync(join(dir, 'contract-snapshot', first));
  writeFileSync(join(dir, 'contract-snapshot/errors-v0.json'), '{}\n');
  mkdirSync(join(dir, 'contract-snapshot', 'nested'));
  const r = runCli(['check', '--json'], { cwd: dir });
  assert.equal(r.status, 0);
  assert.deepEqual(
    rules(r.json),
    [`contract-snapshot/${first}`, 'contract-snapshot/errors-v0.json', 'contract-snapshot/nested'].sort().map((f) => `project/snapshot-stale ${f}`),
  );
  for (const finding of r.json.findings) assert.ok(finding.message.includes('"platform-ext init --refresh"'), 'the command as run in the folder');
  const expected = [
    [`contract-snapshot/${first}`, 'missing'],
    ['contract-snapshot/errors-v0.json', 'unexpected'],
    ['contract-snapshot/nested', 'unexpected'],
  ].sort(([a], [b]) => (a < b ? -1 : 1));
  assert.deepEqual(
    generatedDrift(dir).map((d) => [d.file, d.kind]),
    expected,
  );

  // The whole folder replaced by a file.
  rmSync(join(dir, 'contract-snapshot'), { recursive: true });
  writeFileSync(join(dir, 'contract-snapshot'), 'not a folder\n');
  assert.deepEqual(rules(runCli(['check', dir, '--json']).json), ['project/snapshot-stale contract-snapshot']);
});

test('projects that are not scaffolds get no warning: no contract-snapshot/, or a CONTEXT.md of their own', async (t) => {
  const { dir } = initScaffold(t);
  rmSync(join(dir, 'contract-snapshot'), { recursive: true });
  writeFileSync(join(dir, 'CONTEXT.md'), '# Our own notes for agents\n');
  const r = runCli(['check', dir, '--json']);
  assert.equal(r.status, 0);
  assert.deepEqual(rules(r.json), []);
  // The other side: the same folder with a context document this tool wrote, edited.
  const generated = runCli(['context']).stdout;
  writeFileSync(join(dir, 'CONTEXT.md'), generated.replace('## B. Workflow', '## B. Steps'));
  assert.notEqual(generated.replace('## B. Workflow', '## B. Steps'), generated, 'the edit changes the document');
  assert.deepEqual(rules(runCli(['check', dir, '--json']).json), ['project/context-stale CONTEXT.md']);
  // The bundled example has neither file.
  assert.deepEqual(rules(runCli(['check', join(ROOT, 'examples/hello-world'), '--json']).json), []);
});

test('the text report shows the warning with the rule id and exit 0', async (t) => {
  const { dir } = initScaffold(t);
  flipLastByte(join(dir, 'contract-snapshot', [...snapshotFiles().keys()][0]));
  const r = runCli(['check', dir]);
  assert.equal(r.status, 0);
  assert.ok(r.stdout.includes('project/snapshot-stale'));
});
