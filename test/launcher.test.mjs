// The launcher (scripts/launcher.mjs -> dist/platform-ext.mjs): the V8 code cache is an
// optimisation only. Output is the same with and without it, a corrupt cache is replaced,
// and PLATFORM_EXT_NO_CODE_CACHE=1 writes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, runCli } from './support/project.mjs';

function withCache(t) {
  const dir = mkdtempSync(join(tmpdir(), 'platform-ext-cache-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return { dir, env: { ...process.env, NO_COLOR: '1', XDG_CACHE_HOME: dir } };
}

test('first run writes a per-command cache; later runs give identical output', (t) => {
  const { dir, env } = withCache(t);
  const example = join(ROOT, 'examples/hello-world');
  const first = runCli(['check', example, '--json'], { env });
  const files = readdirSync(join(dir, 'platform-ext'));
  assert.equal(files.length, 1);
  assert.match(files[0], /-check\.v8$/);
  const second = runCli(['check', example, '--json'], { env });
  assert.equal(second.status, first.status);
  assert.equal(second.stdout, first.stdout);
});

test('a corrupt cache is rejected by V8 and rewritten; output unchanged', (t) => {
  const { dir, env } = withCache(t);
  const clean = runCli(['--help'], { env });
  const [file] = readdirSync(join(dir, 'platform-ext'));
  writeFileSync(join(dir, 'platform-ext', file), Buffer.alloc(4096, 0x5a));
  const again = runCli(['--help'], { env });
  assert.equal(again.stdout, clean.stdout);
  assert.equal(again.status, clean.status);
  const rewritten = runCli(['--help'], { env });
  assert.equal(rewritten.stdout, clean.stdout);
});

test('PLATFORM_EXT_NO_CODE_CACHE=1 writes no cache', (t) => {
  const { dir, env } = withCache(t);
  const r = runCli(['--help'], { env: { ...env, PLATFORM_EXT_NO_CODE_CACHE: '1' } });
  assert.equal(r.status, 0);
  assert.deepEqual(readdirSync(dir), []);
});
