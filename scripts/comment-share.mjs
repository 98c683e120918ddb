#!/usr/bin/env node
// Prints the share of comment lines in each src/ folder. A comment line is a
// non-blank line whose trimmed text starts with //, /*, * or */, or that lies
// inside a block comment; the share is comment lines over non-blank lines.
// `--max N` exits 1 when any folder's share exceeds N percent.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE = /\.(ts|mts|js|mjs|css|html)$/;

export function countLines(text) {
  let comment = 0;
  let code = 0;
  let inBlock = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    if (inBlock) {
      comment += 1;
      if (line.includes('*/')) inBlock = false;
      continue;
    }
    if (line.startsWith('//') || line.startsWith('*/') || line.startsWith('*')) {
      comment += 1;
      continue;
    }
    if (line.startsWith('/*')) {
      comment += 1;
      if (!line.includes('*/', 2)) inBlock = true;
      continue;
    }
    code += 1;
  }
  return { comment, total: comment + code };
}

function walk(dir, out) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else if (SOURCE.test(entry.name)) out.push(path);
  }
  return out;
}

// Shares per folder: each folder directly holding source files counts only
// those files; `src` itself counts the files at its top level.
export function commentShares(root) {
  const src = join(root, 'src');
  const byFolder = new Map();
  for (const file of walk(src, [])) {
    const folder = relative(root, dirname(file)).split('\\').join('/');
    const counts = countLines(readFileSync(file, 'utf8'));
    const sum = byFolder.get(folder) ?? { comment: 0, total: 0 };
    sum.comment += counts.comment;
    sum.total += counts.total;
    byFolder.set(folder, sum);
  }
  return [...byFolder.entries()]
    .map(([folder, { comment, total }]) => ({ folder, comment, total, share: total === 0 ? 0 : comment / total }))
    .sort((a, b) => a.folder.localeCompare(b.folder));
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const maxIndex = process.argv.indexOf('--max');
  const max = maxIndex > 0 ? Number(process.argv[maxIndex + 1]) : Infinity;
  const rows = commentShares(root);
  let all = { comment: 0, total: 0 };
  let over = false;
  for (const row of rows) {
    all.comment += row.comment;
    all.total += row.total;
    const pct = row.share * 100;
    if (pct > max) over = true;
    console.log(`${pct.toFixed(1).padStart(5)}%  ${String(row.comment).padStart(5)}/${String(row.total).padEnd(6)} ${row.folder}${pct > max ? '  (over)' : ''}`);
  }
  console.log(`${((all.comment / all.total) * 100).toFixed(1).padStart(5)}%  ${String(all.comment).padStart(5)}/${String(all.total).padEnd(6)} all of src/`);
  if (over) process.exitCode = 1;
}
