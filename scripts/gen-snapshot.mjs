#!/usr/bin/env node
// Generates the machine-readable contract snapshot from the validator's own tables (the
// source of truth) and the README's rules table. Never edit the outputs by hand.
//   node scripts/gen-snapshot.mjs          write the files
//   node scripts/gen-snapshot.mjs --check  exit 1 and name the stale files (used by a test)
// Reads build/ (run `node scripts/build.mjs` first).
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const v = await import(pathToFileURL(join(root, 'build/validator/index.js')).href);
const snapshot = await import(pathToFileURL(join(root, 'build/contract/snapshot.js')).href);

export function snapshotFiles() {
  const files = new Map();
  for (const [name, content] of snapshot.snapshotFiles()) files.set(`contract-snapshot/${name}`, content);
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const start = '<!-- rules-table:start -->';
  const end = '<!-- rules-table:end -->';
  const a = readme.indexOf(start);
  const b = readme.indexOf(end);
  if (a < 0 || b < a) throw new Error('README.md lacks the rules-table markers');
  const rows = v.RULES.map((r) => `| \`${r.id}\` | ${r.severity} | ${r.title.replace(/\|/g, '\\|')} | ${r.ref} |`);
  const table = ['', '| Rule | Severity | What it catches | Contract |', '| --- | --- | --- | --- |', ...rows, ''].join('\n');
  files.set('README.md', readme.slice(0, a + start.length) + table + readme.slice(b));
  return files;
}

const check = process.argv.includes('--check');
const stale = [];
for (const [rel, content] of snapshotFiles()) {
  const path = join(root, rel);
  let current = null;
  try {
    current = readFileSync(path, 'utf8');
  } catch {}
  if (current === content) continue;
  if (check) {
    stale.push(rel);
    continue;
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path + '.tmp', content);
  renameSync(path + '.tmp', path);
  console.log(`wrote ${rel}`);
}
// The folder is generated as a whole: a file the generator no longer writes is stale too.
const generated = new Set([...snapshotFiles().keys()]);
for (const name of readdirSync(join(root, 'contract-snapshot'))) {
  const rel = `contract-snapshot/${name}`;
  if (generated.has(rel)) continue;
  if (check) stale.push(`${rel} (not generated)`);
  else {
    rmSync(join(root, rel));
    console.log(`removed ${rel}`);
  }
}
if (check && stale.length > 0) {
  console.error(`Stale generated files: ${stale.join(', ')}. Run: node scripts/build.mjs && node scripts/gen-snapshot.mjs`);
  process.exit(1);
}
