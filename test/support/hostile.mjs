// Hostile folders for test/cli/hostile-files.test.mjs and test/cli/fuzz-release-folder.test.mjs:
// a valid project and its signed release, the special files that used to hang or crash
// the tool (FIFOs, links to /dev/zero, folders and sparse files where a file belongs),
// archives built by the real tools (Info-ZIP's zip, Python's zipfile), and a re-signer so
// that an archive's own findings are the only ones. Every CLI run is watched: a hang is
// killed and fails its case; memory is capped with --max-old-space-size.
import { spawnSync } from 'node:child_process';
import { createHash, createPrivateKey, sign } from 'node:crypto';
import { closeSync, cpSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, writeFileSync, ftruncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BASE_HTML, BASE_MANIFEST, ROOT, writeFiles } from './project.mjs';

/** The built CLIs; HOSTILE_DIST points the suite at another build (an older one, to see its cases fail). */
const DIST = process.env.HOSTILE_DIST ?? join(ROOT, 'dist');
export const EXT = join(DIST, 'platform-ext.mjs');
export const REVIEW = join(DIST, 'platform-review.mjs');

/** A run that takes longer than this is a hang: killed, and its case fails. Generous: no timing is asserted. */
export const WATCHDOG_MS = 30_000;
/** The V8 heap cap of every run (MB). */
export const HEAP_MB = 200;
/** Size of the sparse files: 20 GB that take no disk space. */
export const SPARSE_BYTES = 20 * 1024 ** 3;

/** Runs `cli` with `args` under the watchdog and the heap cap; parses stdout as JSON when it is. */
export function run(cli, args, { env = {} } = {}) {
  const r = spawnSync(process.execPath, [`--max-old-space-size=${HEAP_MB}`, cli, ...args], {
    encoding: 'utf8',
    timeout: WATCHDOG_MS,
    killSignal: 'SIGKILL',
    env: { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: '', ...env },
    maxBuffer: 64 << 20,
  });
  let json;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    json = undefined;
  }
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, json, timedOut: r.error?.code === 'ETIMEDOUT' };
}

/** `rule file` strings of a JSON report. */
export function ruleFiles(json) {
  return (json?.findings ?? []).map((f) => `${f.rule} ${f.file ?? ''}`.trim());
}

export function fifo(path) {
  const r = spawnSync('mkfifo', [path]);
  if (r.status !== 0) throw new Error(`mkfifo ${path}: ${r.stderr}`);
}

export function sparse(path, bytes = SPARSE_BYTES) {
  const fd = openSync(path, 'w');
  try {
    ftruncateSync(fd, bytes);
  } finally {
    closeSync(fd);
  }
}

/** Replaces `path` with the special thing `kind` names. */
export function plant(path, kind) {
  rmSync(path, { recursive: true, force: true });
  mkdirSync(dirname(path), { recursive: true });
  switch (kind) {
    case 'fifo':
      return fifo(path);
    case 'dev-zero':
      return symlinkSync('/dev/zero', path);
    case 'dev-null':
      return symlinkSync('/dev/null', path);
    case 'dir':
      return mkdirSync(path);
    case 'sparse':
      return sparse(path);
    case 'dangling':
      return symlinkSync(join(dirname(path), 'no-such-target'), path);
    default:
      throw new Error(`unknown kind ${kind}`);
  }
}

export function hasTool(name, args = ['--version']) {
  return spawnSync(name, args, { stdio: 'ignore' }).status === 0;
}

/** Writes a project folder; `files` maps project-relative paths to text. */
export function writeProject(dir, files = {}) {
  const all = {
    'manifest.json': JSON.stringify(BASE_MANIFEST, null, 2),
    'runtime/index.html': BASE_HTML,
    'runtime/main.js': 'export {};\n',
    ...files,
  };
  return writeFiles(dir, all);
}

/**
 * A work folder with a key pair, a valid project and its signed release (made by the
 * built CLI). `fresh(name)` copies the project or release into a new folder to spoil.
 */
export function workspace() {
  const root = mkdtempSync(join(tmpdir(), 'platform-ext-hostile-'));
  const key = join(root, 'key.pem');
  const made = spawnSync(process.execPath, [join(ROOT, 'dist/platform-ext.mjs'), 'keygen', '--private-key', key, '--public-key', join(root, 'key.pub')], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`keygen: ${made.stderr}`);
  const project = writeProject(join(root, 'project'), { 'runtime/lib/util.js': 'export const x = 1;\n', 'runtime/main.js': "import { x } from './lib/util.js';\nexport { x };\n" });
  const release = join(root, 'release');
  const packed = spawnSync(process.execPath, [join(ROOT, 'dist/platform-ext.mjs'), 'package', project, '--out', release, '--private-key', key], { encoding: 'utf8' });
  if (packed.status !== 0) throw new Error(`package: ${packed.stderr}${packed.stdout}`);
  let n = 0;
  return {
    root,
    key,
    project,
    release,
    fresh(what) {
      const to = join(root, `case-${++n}`);
      cpSync(what === 'project' ? project : release, to, { recursive: true });
      return to;
    },
    cleanup() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * Re-signs a release folder after its bundle.zip was replaced: new hashes in
 * submission.json and a new signature (D-14), so that only the archive's own findings remain.
 */
export function resign(dir, keyPath) {
  const manifest = readFileSync(join(dir, 'manifest.json'));
  const bundle = readFileSync(join(dir, 'bundle.zip'));
  const record = JSON.parse(readFileSync(join(dir, 'submission.json'), 'utf8'));
  const m = createHash('sha256').update(manifest).digest('hex');
  const a = createHash('sha256').update(bundle).digest('hex');
  record.manifest_sha256 = m;
  record.artifact_sha256 = a;
  const payload = `platform-extension-release-v1\nnamespace=${record.namespace}\nversion=${record.version}\nmanifest-sha256=${m}\nartifact-sha256=${a}\n`;
  const signature = sign(null, Buffer.from(payload), createPrivateKey(readFileSync(keyPath)));
  writeFileSync(join(dir, 'submission.json'), `${JSON.stringify(record, null, 2)}\n`);
  writeFileSync(join(dir, 'signature.txt'), `${signature.toString('base64')}\n`);
}

/**
 * Builds `zipPath` with Python's zipfile from `entries`: [{ name, data, extra?, attr?, system?, stored? }].
 * `extra` is hex of the extra field (written in both headers), `attr` the external attributes.
 */
export function pythonZip(zipPath, entries) {
  const script = `
import json, sys, zipfile
spec = json.load(sys.stdin)
with zipfile.ZipFile(spec['out'], 'w') as z:
    for e in spec['entries']:
        zi = zipfile.ZipInfo(e['name'], date_time=(2024, 1, 1, 0, 0, 0))
        zi.compress_type = zipfile.ZIP_STORED if e.get('stored') else zipfile.ZIP_DEFLATED
        if 'extra' in e: zi.extra = bytes.fromhex(e['extra'])
        if 'system' in e: zi.create_system = e['system']
        if 'attr' in e: zi.external_attr = e['attr']
        z.writestr(zi, e['data'].encode())
`;
  const r = spawnSync('python3', ['-c', script], { input: JSON.stringify({ out: zipPath, entries }), encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`python zipfile: ${r.stderr}`);
}

/** The valid bundle's files (those of workspace()'s project), for archives built by other tools. */
export function bundleFiles() {
  return [
    { name: 'index.html', data: BASE_HTML },
    { name: 'lib/util.js', data: 'export const x = 1;\n' },
    { name: 'main.js', data: "import { x } from './lib/util.js';\nexport { x };\n" },
  ];
}
