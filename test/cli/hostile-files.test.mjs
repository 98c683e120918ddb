// Hostile release folders and projects (D-2a, D-16a, D-30): every case spawns the built
// CLI (platform-ext verify/check/package, platform-review) under a watchdog that kills a
// hang (the case then fails) and with the V8 heap capped, and asserts the exit status and
// the rule id with the file it names (--json). FIFOs, links to /dev/zero, folders and
// 20 GB sparse files where a file belongs, special files beside the expected ones, long
// paths, file/folder prefix conflicts, and archives built by Info-ZIP's zip and Python's
// zipfile. No timing is asserted: the watchdog is generous, and a hang is what it catches.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleFiles, EXT, hasTool, plant, pythonZip, resign, REVIEW, ruleFiles, run, sparse, workspace } from '../support/hostile.mjs';
import { ROOT } from '../support/project.mjs';

/** Runs check with a pause after the runtime/ listing (the use case's onListed seam). */
const PAUSED_RUN = join(ROOT, 'test/support/paused-run.mjs');

const ws = workspace();
process.on('exit', () => ws.cleanup());

const SUBMISSION = ['bundle.zip', 'manifest.json', 'publisher-public-key.txt', 'signature.txt', 'submission.json'];
const SPECIAL = ['fifo', 'dev-zero', 'dir', 'dangling'];
const hasPython = hasTool('python3');
const hasZip = hasTool('zip', ['-v']);

/** Asserts a run: not killed by the watchdog, the exit status, and each expected `rule file` among the findings. */
function expectRun(r, { status, rules = [], absent = [] }) {
  assert.equal(r.timedOut, false, `the run hung and was killed (stderr: ${r.stderr})`);
  assert.equal(r.signal, null, `the run died of ${r.signal}`);
  assert.equal(r.status, status, `exit status ${r.status}, expected ${status}\n${r.stderr}\n${r.stdout.slice(0, 2000)}`);
  assert.ok(r.json !== undefined, `no JSON report: ${r.stderr}`);
  const found = ruleFiles(r.json);
  for (const rule of rules) assert.ok(found.includes(rule), `expected "${rule}" in ${JSON.stringify(found)}`);
  // platform-review always says when the signer is not pinned (no --known-keys): a warning about the operator's set-up, not the release.
  const judged = found.filter((f) => !f.startsWith('release/signer-not-pinned '));
  for (const rule of absent) assert.ok(!judged.some((f) => f.startsWith(rule)), `did not expect "${rule}" in ${JSON.stringify(found)}`);
}

// ---------------------------------------------------------------------------------------
// Release folders: verify and platform-review, same cases, same answers.
// ---------------------------------------------------------------------------------------

/** Cases as [name, spoil(dir), expectation]. */
const releaseCases = [];

for (const name of SUBMISSION) {
  for (const kind of SPECIAL) {
    // A link is refused as a link whether or not its target exists.
    const rule = name === 'manifest.json' ? 'project/manifest-not-regular-file manifest.json' : `release/not-regular-file ${name}`;
    releaseCases.push([`${name} is ${kind}`, (dir) => plant(join(dir, name), kind), { status: 1, rules: [rule] }]);
  }
  const tooLarge = name === 'bundle.zip' ? 'archive/compressed-too-large bundle.zip' : `release/file-too-large ${name}`;
  releaseCases.push([`${name} is a 20 GB sparse file`, (dir) => plant(join(dir, name), 'sparse'), { status: 1, rules: [tooLarge] }]);
}
releaseCases.push(['manifest.json is a 20 GB sparse file (manifest rule)', (dir) => plant(join(dir, 'manifest.json'), 'sparse'), { status: 1, rules: ['manifest/too-large manifest.json'] }]);
releaseCases.push(['bundle.zip is a link to a valid copy', (dir) => {
  spawnSync('mv', [join(dir, 'bundle.zip'), join(dir, '..', `${dir.split('/').pop()}-bundle.zip`)]);
  symlinkSync(join(dir, '..', `${dir.split('/').pop()}-bundle.zip`), join(dir, 'bundle.zip'));
}, { status: 1, rules: ['release/not-regular-file bundle.zip'] }]);

for (const kind of ['fifo', 'dev-zero', 'dir', 'dangling', 'sparse']) {
  const notScanned = kind === 'fifo' || kind === 'sparse' ? ['secret/not-scanned extra'] : [];
  releaseCases.push([`an extra ${kind} beside the five files`, (dir) => plant(join(dir, 'extra'), kind), { status: 1, rules: ['release/unexpected-file extra', ...notScanned] }]);
}
releaseCases.push(['an extra FIFO named like a key', (dir) => plant(join(dir, 'signing.pem'), 'fifo'), { status: 1, rules: ['release/unexpected-file signing.pem', 'secret/not-scanned signing.pem'] }]);
releaseCases.push(['several FIFOs at once', (dir) => {
  for (const n of ['a', 'b', 'c']) plant(join(dir, n), 'fifo');
  plant(join(dir, 'bundle.zip'), 'fifo');
}, { status: 1, rules: ['release/unexpected-file a', 'release/unexpected-file c', 'release/not-regular-file bundle.zip'] }]);

// Archives: rebuilt, then re-signed, so that the archive's findings are the only errors.
function withArchive(build, expectation) {
  return [(dir) => {
    rmSync(join(dir, 'bundle.zip'));
    build(join(dir, 'bundle.zip'));
    resign(dir, ws.key);
  }, expectation];
}
const OK = { status: 0, absent: ['archive/', 'bundle/', 'release/'] };
const UT = '555405000100000000';
const UX_LOCAL = '75780b000104e803000004e8030000';
const NTFS = `0a002000000000000100180000${'00'.repeat(23)}`;
const files = bundleFiles();
const py = (entries) => (zip) => pythonZip(zip, entries);
const withEach = (fields) => files.map((f) => ({ ...f, ...fields }));
const archiveCases = [
  ['python zipfile, deflated', py(files), OK],
  ['python zipfile, stored', py(withEach({ stored: true })), OK],
  ['extended timestamp 0x5455', py(withEach({ extra: UT })), OK],
  ['Unix owner 0x7875', py(withEach({ extra: UX_LOCAL })), OK],
  ['empty Unix owner 0x7875 (Info-ZIP central form)', py(withEach({ extra: '75780000' })), OK],
  ['NTFS times 0x000a', py(withEach({ extra: NTFS })), OK],
  ['timestamp, owner and NTFS together', py(withEach({ extra: UT + UX_LOCAL + NTFS })), OK],
  ['Unix regular file 0100644', py(withEach({ system: 3, attr: 0o100644 * 65536 })), OK],
  ['Unix permission bits only 0644', py(withEach({ system: 3, attr: 0o644 * 65536 })), OK],
  ['Unix mode with the MS-DOS archive bit', py(withEach({ system: 3, attr: 0o100644 * 65536 + 0x20 })), OK],
  ['MS-DOS read-only and archive', py(withEach({ system: 0, attr: 0x21 })), OK],
  ['Unicode path field 0x7075', py(withEach({ extra: '7570050001000000' + '00' })), { status: 1, rules: ['archive/extra-field bundle.zip'] }],
  ['Unicode comment field 0x6375', py(withEach({ extra: '637505000100000000' })), { status: 1, rules: ['archive/extra-field bundle.zip'] }],
  ['field 0x0017', py(withEach({ extra: '170004000000000000'.slice(0, 16) })), { status: 1, rules: ['archive/extra-field bundle.zip'] }],
  ['timestamp twice', py(withEach({ extra: UT + UT })), { status: 1, rules: ['archive/extra-field bundle.zip'] }],
  ['timestamp with a short body', py(withEach({ extra: '555402000100' })), { status: 1, rules: ['archive/extra-field bundle.zip'] }],
  ['timestamp with reserved flag bits', py(withEach({ extra: '5554050081000000' + '00' })), { status: 1, rules: ['archive/extra-field bundle.zip'] }],
  ['Unix owner of version 2', py(withEach({ extra: '75780b000204e803000004e8030000' })), { status: 1, rules: ['archive/extra-field bundle.zip'] }],
  ['NTFS times with a wrong tag', py(withEach({ extra: `0a002000000000000200180000${'00'.repeat(23)}` })), { status: 1, rules: ['archive/extra-field bundle.zip'] }],
  ['stray bytes after a field', py(withEach({ extra: `${UT}ab` })), { status: 1, rules: ['archive/extra-field bundle.zip'] }],
  ['ZIP64 extra field', py(withEach({ extra: `01000800${'00'.repeat(8)}` })), { status: 1, rules: ['archive/zip64 bundle.zip'] }],
  ['Unix symbolic link', py(withEach({ system: 3, attr: 0o120777 * 65536 })), { status: 1, rules: ['archive/bad-attributes bundle.zip'] }],
  ['Unix setuid file', py(withEach({ system: 3, attr: 0o104755 * 65536 })), { status: 1, rules: ['archive/bad-attributes bundle.zip'] }],
  ['Unix FIFO', py(withEach({ system: 3, attr: 0o010644 * 65536 })), { status: 1, rules: ['archive/bad-attributes bundle.zip'] }],
  ['MS-DOS hidden', py(withEach({ system: 0, attr: 0x02 })), { status: 1, rules: ['archive/bad-attributes bundle.zip'] }],
  ['MS-DOS system', py(withEach({ system: 0, attr: 0x04 })), { status: 1, rules: ['archive/bad-attributes bundle.zip'] }],
  ['lib beside lib/x.js', py([...files, { name: 'lib', data: 'x' }]), { status: 1, rules: ['bundle/path-prefix-conflict bundle.zip/lib'] }],
  ['Lib.js beside lib.js/x.js (letter case)', py([...files, { name: 'Lib.js', data: 'export {};' }, { name: 'lib.js/x.js', data: 'export {};' }]), { status: 1, rules: ['bundle/path-prefix-conflict bundle.zip/Lib.js'] }],
  ['a 256-byte path', py([...files, { name: `${'a'.repeat(200)}/${'b'.repeat(52)}.js`, data: 'export {};' }]), { status: 1, rules: [`bundle/path-too-long bundle.zip/${'a'.repeat(200)}/${'b'.repeat(52)}.js`] }],
  ['a 255-byte path (at the limit)', py([...files, { name: `${'a'.repeat(200)}/${'b'.repeat(51)}.js`, data: 'export {};' }]), { status: 0, absent: ['bundle/path-too-long'] }],
  ['a 65,000-byte path', py([...files, { name: `${'d/'.repeat(32_498)}x.js`, data: 'export {};' }]), { status: 1, rules: [`bundle/path-too-long bundle.zip/${'d/'.repeat(32_498)}x.js`] }],
];
if (hasPython) for (const [name, build, expectation] of archiveCases) releaseCases.push([`archive: ${name}`, ...withArchive(build, expectation)]);

if (hasZip) {
  const zipR = (flags) => (zip) => {
    const r = spawnSync('zip', ['-q', ...flags, zip, '.'], { cwd: join(ws.project, 'runtime') });
    assert.equal(r.status, 0, String(r.stderr));
  };
  releaseCases.push(['archive: zip -r -D (Info-ZIP, no folder entries)', ...withArchive(zipR(['-r', '-D']), OK)]);
  releaseCases.push(['archive: zip -r -X -D', ...withArchive(zipR(['-r', '-X', '-D']), OK)]);
  releaseCases.push(['archive: zip -r -0 -D (stored)', ...withArchive(zipR(['-r', '-0', '-D']), OK)]);
  // Folder entries stay refused (D-16): zip -r without -D writes "lib/".
  releaseCases.push(['archive: zip -r with folder entries', ...withArchive(zipR(['-r']), { status: 1, rules: ['archive/directory-entry bundle.zip'] })]);
}

for (const [cli, label] of [[EXT, 'verify'], [REVIEW, 'platform-review']]) {
  for (const [name, spoil, expectation] of releaseCases) {
    test(`${label}: ${name}`, () => {
      const dir = ws.fresh('release');
      spoil(dir);
      const r = run(cli, cli === EXT ? ['verify', dir, '--json'] : [dir, '--json', '--first-release']);
      expectRun(r, expectation);
    });
  }
}

// ---------------------------------------------------------------------------------------
// Projects: check --json and package --dry-run --json... (package has no --json: its
// findings are checked through check; package's own answer is its exit status and that it
// returns at all).
// ---------------------------------------------------------------------------------------

const projectCases = [];
for (const kind of ['fifo', 'dev-zero', 'dir']) {
  projectCases.push([`manifest.json is ${kind}`, (dir) => plant(join(dir, 'manifest.json'), kind), { status: 1, rules: ['project/manifest-not-regular-file manifest.json'] }]);
}
projectCases.push(['manifest.json links to a valid manifest', (dir) => {
  spawnSync('mv', [join(dir, 'manifest.json'), join(dir, 'real-manifest.json')]);
  symlinkSync('real-manifest.json', join(dir, 'manifest.json'));
}, { status: 1, rules: ['project/manifest-not-regular-file manifest.json'] }]);
projectCases.push(['manifest.json is a 20 GB sparse file', (dir) => plant(join(dir, 'manifest.json'), 'sparse'), { status: 1, rules: ['manifest/too-large manifest.json'] }]);
projectCases.push(['manifest.json is a dangling link', (dir) => plant(join(dir, 'manifest.json'), 'dangling'), { status: 1, rules: ['project/manifest-not-regular-file manifest.json'] }]);
projectCases.push(['runtime/extra.js is a FIFO', (dir) => plant(join(dir, 'runtime/extra.js'), 'fifo'), { status: 1, rules: ['bundle/not-regular-file runtime/extra.js'] }]);
projectCases.push(['runtime/extra.js links to /dev/zero', (dir) => plant(join(dir, 'runtime/extra.js'), 'dev-zero'), { status: 1, rules: ['bundle/symlink runtime/extra.js'] }]);
projectCases.push(['runtime/big.png is a 20 GB sparse file', (dir) => plant(join(dir, 'runtime/big.png'), 'sparse'), { status: 1, rules: ['bundle/file-too-large runtime/big.png'] }]);
projectCases.push(['runtime/main.js is a 20 GB sparse file', (dir) => plant(join(dir, 'runtime/main.js'), 'sparse'), { status: 1, rules: ['bundle/file-too-large runtime/main.js'] }]);
projectCases.push(['a 20 GB sparse file outside runtime/', (dir) => sparse(join(dir, 'recording.bin')), { status: 0, rules: ['secret/not-scanned recording.bin'] }]);
projectCases.push(['a 20 GB sparse file in a nested folder', (dir) => plant(join(dir, 'design/raw/video.mov'), 'sparse'), { status: 0, rules: ['secret/not-scanned design/raw/video.mov'] }]);
projectCases.push(['a FIFO outside runtime/', (dir) => plant(join(dir, 'debug.fifo'), 'fifo'), { status: 0, rules: ['secret/not-scanned debug.fifo'] }]);
projectCases.push(['a FIFO named like a key outside runtime/', (dir) => plant(join(dir, 'signing.pem'), 'fifo'), { status: 0, rules: ['secret/not-scanned signing.pem'] }]);
projectCases.push(['a link to /dev/zero outside runtime/', (dir) => plant(join(dir, 'zero'), 'dev-zero'), { status: 0, absent: ['secret/'] }]);
projectCases.push(['a sparse file and a FIFO in node_modules/', (dir) => {
  plant(join(dir, 'node_modules/x/big.bin'), 'sparse');
  plant(join(dir, 'node_modules/x/pipe'), 'fifo');
}, { status: 0, absent: ['secret/'] }]);
projectCases.push(['runtime/ is a FIFO', (dir) => plant(join(dir, 'runtime'), 'fifo'), { status: 1, rules: ['bundle/missing-runtime runtime/'] }]);
projectCases.push(['runtime/ links to a folder', (dir) => {
  spawnSync('mv', [join(dir, 'runtime'), join(dir, 'real-runtime')]);
  symlinkSync('real-runtime', join(dir, 'runtime'));
}, { status: 1, rules: ['bundle/missing-runtime runtime/'] }]);
projectCases.push(['a 256-byte runtime path', (dir) => {
  mkdirSync(join(dir, 'runtime', 'a'.repeat(200)), { recursive: true });
  writeFileSync(join(dir, 'runtime', 'a'.repeat(200), `${'b'.repeat(52)}.png`), 'x');
}, { status: 1, rules: [`bundle/path-too-long runtime/${'a'.repeat(200)}/${'b'.repeat(52)}.png`] }]);
projectCases.push(['a 255-byte runtime path (at the limit)', (dir) => {
  mkdirSync(join(dir, 'runtime', 'a'.repeat(200)), { recursive: true });
  writeFileSync(join(dir, 'runtime', 'a'.repeat(200), `${'b'.repeat(50)}.png`), 'x');
}, { status: 0, absent: ['bundle/path-too-long'] }]);
projectCases.push(['a deep runtime path over 255 bytes', (dir) => {
  const deep = join(dir, 'runtime', ...Array.from({ length: 40 }, () => 'deeper'));
  mkdirSync(deep, { recursive: true });
  writeFileSync(join(deep, 'x.png'), 'x');
}, { status: 1, rules: [`bundle/path-too-long runtime/${Array.from({ length: 40 }, () => 'deeper').join('/')}/x.png`] }]);
projectCases.push(['A.js beside a.js/b.js', (dir) => {
  writeFileSync(join(dir, 'runtime/A.js'), 'export {};\n');
  mkdirSync(join(dir, 'runtime/a.js'));
  writeFileSync(join(dir, 'runtime/a.js/b.js'), 'export {};\n');
}, { status: 1, rules: ['bundle/path-prefix-conflict runtime/A.js'] }]);
projectCases.push(['a private key outside runtime/', (dir) => writeFileSync(join(dir, 'notes.txt'), `-----BEGIN ${'PRIVATE'} KEY-----\nx\n`), { status: 1, rules: ['secret/private-key notes.txt'] }]);

for (const [name, spoil, expectation] of projectCases) {
  test(`check: ${name}`, () => {
    const dir = ws.fresh('project');
    spoil(dir);
    expectRun(run(EXT, ['check', dir, '--json']), expectation);
  });
  test(`package --dry-run: ${name}`, () => {
    const dir = ws.fresh('project');
    spoil(dir);
    const r = run(EXT, ['package', dir, '--dry-run']);
    assert.equal(r.timedOut, false, 'package hung and was killed');
    assert.equal(r.signal, null);
    assert.equal(r.status, expectation.status, `${r.stderr}\n${r.stdout.slice(0, 2000)}`);
    assert.doesNotMatch(r.stderr, /internal error/);
  });
}

// ---------------------------------------------------------------------------------------
// Listed, then swapped: a file of runtime/ replaced after the listing and before it is
// opened (test/support/paused-run.mjs stops check there through its onListed seam; the
// test swaps the file, then lets it go on). The file is opened once, without following links or waiting.
// ---------------------------------------------------------------------------------------

/** Runs check paused after the runtime/ listing; `swap(dir)` runs at the pause. */
function checkWithSwap(dir, swap) {
  const resume = join(dir, '..', `${dir.split('/').pop()}.resume`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--max-old-space-size=200', PAUSED_RUN, 'check', dir, resume]);
    let stdout = '';
    let stderr = '';
    let swapped = false;
    const watchdog = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => {
      stderr += c;
      if (!swapped && stderr.includes('paused at runtime-listed')) {
        swapped = true;
        swap(dir);
        writeFileSync(resume, '');
      }
    });
    child.on('exit', (status, signal) => {
      clearTimeout(watchdog);
      if (!swapped) return reject(new Error(`check never paused after listing runtime/ (${status ?? signal}): ${stderr}`));
      let json;
      try {
        json = JSON.parse(stdout);
      } catch {
        return reject(new Error(`no JSON report (${status ?? signal}): ${stderr}`));
      }
      resolve({ status, signal, json });
    });
  });
}

test('check: a runtime file swapped for a link to a key after the listing is refused as a link, not read', async () => {
  const dir = ws.fresh('project');
  writeFileSync(join(dir, '..', 'outside.js'), `// -----BEGIN ${'PRIVATE'} KEY-----\n`);
  const r = await checkWithSwap(dir, (d) => {
    rmSync(join(d, 'runtime/main.js'));
    symlinkSync(join(d, '..', 'outside.js'), join(d, 'runtime/main.js'));
  });
  assert.equal(r.status, 1);
  const found = ruleFiles(r.json);
  assert.ok(found.includes('bundle/symlink runtime/main.js'), JSON.stringify(found));
  assert.ok(!found.includes('secret/private-key runtime/main.js'), 'the link was followed');
});

test('check: a runtime file swapped for a FIFO after the listing is refused at once', async () => {
  const dir = ws.fresh('project');
  const r = await checkWithSwap(dir, (d) => plant(join(d, 'runtime/main.js'), 'fifo'));
  assert.equal(r.signal, null, 'check hung on the FIFO and was killed');
  assert.equal(r.status, 1);
  assert.ok(ruleFiles(r.json).includes('bundle/not-regular-file runtime/main.js'), JSON.stringify(ruleFiles(r.json)));
});

test('the suite holds at least 100 cases', () => {
  assert.ok(releaseCases.length * 2 + projectCases.length * 2 >= 100, `${releaseCases.length * 2 + projectCases.length * 2} cases`);
});
