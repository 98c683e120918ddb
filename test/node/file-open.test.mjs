// The safe opener (D-30, src/node/file-open.ts): regular files only, checked on the open
// descriptor; links never followed; FIFOs and devices never waited on; the size checked
// against the cap before a byte is read. Each case both sides of its boundary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openFile, readCapped, readFile, readHead } from '../../build/node/file-open.js';

const dir = mkdtempSync(join(tmpdir(), 'read-capped-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, 'ten'), '0123456789');
symlinkSync(join(dir, 'ten'), join(dir, 'link'));
symlinkSync('/dev/zero', join(dir, 'zero'));
symlinkSync(join(dir, 'nothing'), join(dir, 'dangling'));
mkdirSync(join(dir, 'folder'));
spawnSync('mkfifo', [join(dir, 'fifo')]);
const fd = openSync(join(dir, 'sparse'), 'w');
ftruncateSync(fd, 20 * 1024 ** 3);
closeSync(fd);

test('a regular file within the cap is read whole; at the cap too; one byte over is too-large, unread', () => {
  assert.deepEqual(Buffer.from(readFile(join(dir, 'ten'), 100).bytes).toString(), '0123456789');
  assert.equal(readFile(join(dir, 'ten'), 10).bytes.length, 10);
  assert.deepEqual(readFile(join(dir, 'ten'), 9), { ok: false, problem: 'too-large', size: 10 });
});

test('a 20 GB sparse file is refused by its size, never read', () => {
  assert.deepEqual(readFile(join(dir, 'sparse'), 5 << 20), { ok: false, problem: 'too-large', size: 20 * 1024 ** 3 });
  // readCapped answers cap + 1 zero bytes: "too large" to every size rule, nothing read.
  assert.equal(readCapped(join(dir, 'sparse'), 64).length, 65);
});

test('links (to a file, to /dev/zero, dangling), folders and FIFOs are refused without waiting', () => {
  assert.equal(readFile(join(dir, 'link'), 100).problem, 'symlink');
  assert.equal(readFile(join(dir, 'zero'), 100).problem, 'symlink');
  assert.equal(readFile(join(dir, 'dangling'), 100).problem, 'symlink');
  assert.equal(readFile(join(dir, 'folder'), 100).problem, 'directory');
  assert.equal(readFile(join(dir, 'fifo'), 100).problem, 'special');
  assert.equal(readFile(join(dir, 'missing'), 100).problem, 'missing');
  assert.equal(readCapped(join(dir, 'fifo'), 100), null);
  assert.equal(readHead(join(dir, 'fifo'), 4), null);
});

test('openFile hands back the descriptor it checked, and its size', () => {
  const opened = openFile(join(dir, 'ten'), 10);
  assert.equal(opened.ok, true);
  assert.equal(opened.size, 10);
  closeSync(opened.fd);
  assert.deepEqual(Buffer.from(readHead(join(dir, 'ten'), 4)).toString(), '0123');
});
