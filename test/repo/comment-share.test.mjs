// Comments say what and why, not what the code already says: in every src/ folder at most
// 12% of the non-blank lines are comment lines (scripts/comment-share.mjs prints the shares).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commentShares, countLines } from '../../scripts/comment-share.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAX = 0.12;

function over(rows) {
  return rows
    .filter((row) => row.share > MAX)
    .map((row) => `${row.folder}: ${(row.share * 100).toFixed(1)}% (${row.comment} of ${row.total} lines)`);
}

test('a comment line is one in //, in /* */, or a * continuation; blank lines do not count', () => {
  const text = [
    '// one',
    'const a = 1; // code with a trailing comment',
    '',
    '/**',
    ' * two',
    ' */',
    '/* one line */',
    'const b = `',
    '  * not code, but starts with a star`;',
    '/* open',
    'still inside',
    'closed */',
    'const c = 3;',
  ].join('\n');
  assert.deepEqual(countLines(text), { comment: 9, total: 12 });
});

test('every src/ folder has at most 12% comment lines', () => {
  const rows = commentShares(ROOT);
  assert.ok(rows.length > 10, `only ${rows.length} folders found`);
  assert.deepEqual(over(rows), []);
});

test('the share check can fail (a probe tree over the limit)', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'comment-share-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'src', 'a'), { recursive: true });
  writeFileSync(join(dir, 'src', 'a', 'x.ts'), '// why\nconst a = 1;\nconst b = 2;\n');
  writeFileSync(join(dir, 'src', 'top.ts'), 'export const c = 3;\n');
  const rows = commentShares(dir);
  assert.deepEqual(rows.map((r) => [r.folder, r.comment, r.total]), [['src', 0, 1], ['src/a', 1, 3]]);
  assert.deepEqual(over(rows), ['src/a: 33.3% (1 of 3 lines)']);
});
