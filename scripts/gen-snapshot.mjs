#!/usr/bin/env node
// Generates the machine-readable contract snapshot from the validator's own tables (the
// source of truth), docs/decisions.md from the decisions' summaries, the rule list in
// docs/rules.md (between its rules-list markers) and the service core's refusal list in
// docs/service.md (between its refusals-list markers).
// Never edit the outputs by hand.
//   node scripts/gen-snapshot.mjs          write the files
//   node scripts/gen-snapshot.mjs --check  exit 1 and name the stale files (used by a test)
// Reads build/ (run `node scripts/build.mjs` first).
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { decisionAnchors, githubSlug, linkDecisions } from './docs-anchors.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const v = await import(pathToFileURL(join(root, 'build/validator/index.js')).href);
const snapshot = await import(pathToFileURL(join(root, 'build/contract/snapshot.js')).href);
const prose = await import(pathToFileURL(join(root, 'build/contract/prose.js')).href);
const service = await import(pathToFileURL(join(root, 'build/service/index.js')).href);

/** Headings of the rule list, by area; an area not named here is headed by its id. */
const AREA_TITLES = {
  manifest: 'Manifest',
  property: 'Properties',
  project: 'Project',
  bundle: 'Bundle',
  secret: 'Secrets',
  html: 'Entrypoint HTML',
  css: 'Stylesheets',
  js: 'JavaScript modules',
  release: 'Release folder',
  archive: 'Archive',
  baseline: 'Release diff',
  config: 'Project configuration',
  history: 'Publisher history (platform-review --history)',
};

/**
 * docs/rules.md with the list between its markers regenerated: one heading per rule (its
 * anchor is the id without the slash, e.g. #manifesttoo-large), grouped by area in
 * catalogue order, every decision it cites linked to docs/decisions.md.
 */
/** Catalogue text as Markdown: code spans kept, everything else shown literally. */
function markdownText(text) {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part
            .replace(/&/g, '&amp;')
            .replace(/</g, '&lt;')
            .replace(/>/g, '&gt;')
            .replace(/[\\*[\]]/g, '\\$&')
            // An underscore inside a word (schema_version) never starts emphasis.
            .replace(/(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, '\\_'),
    )
    .join('');
}

function rulesPage() {
  const page = readFileSync(join(root, 'docs/rules.md'), 'utf8');
  const anchors = decisionAnchors(decisionsPage());
  const start = '<!-- rules-list:start -->';
  const end = '<!-- rules-list:end -->';
  const a = page.indexOf(start);
  const b = page.indexOf(end);
  if (a < 0 || b < a) throw new Error('docs/rules.md lacks the rules-list markers');
  const areas = new Map();
  for (const rule of v.RULES) {
    const area = rule.id.slice(0, rule.id.indexOf('/'));
    if (!areas.has(area)) areas.set(area, []);
    areas.get(area).push(rule);
  }
  const md = (text) => linkDecisions(markdownText(text), anchors, 'decisions.md');
  const lines = [''];
  for (const [area, rules] of areas) {
    lines.push(`## ${AREA_TITLES[area] ?? area} (\`${area}/\`)`, '');
    for (const r of rules) {
      lines.push(`### \`${r.id}\``, '');
      lines.push(`${r.severity === 'error' ? 'Error' : 'Warning'} · ${md(r.title)} · Contract: ${md(r.ref)}`, '');
      lines.push(`Fix: ${md(r.hint)}`, '');
    }
  }
  return page.slice(0, a + start.length) + lines.join('\n') + page.slice(b);
}

/**
 * docs/service.md with its refusal list (between the refusals-list markers) regenerated
 * from the service core's catalogue: one row per code, decisions cited linked.
 */
function servicePage() {
  const page = readFileSync(join(root, 'docs/service.md'), 'utf8');
  const anchors = decisionAnchors(decisionsPage());
  const start = '<!-- refusals-list:start -->';
  const end = '<!-- refusals-list:end -->';
  const a = page.indexOf(start);
  const b = page.indexOf(end);
  if (a < 0 || b < a) throw new Error('docs/service.md lacks the refusals-list markers');
  const md = (text) => linkDecisions(markdownText(text), anchors, 'decisions.md').replace(/\|/g, '\\|');
  const lines = ['', '| Code | Refused when | Contract | What to do |', '| --- | --- | --- | --- |'];
  for (const r of service.REFUSALS) lines.push(`| \`${r.id}\` | ${md(r.title)} | ${md(r.ref)} | ${md(r.hint)} |`);
  lines.push('');
  return page.slice(0, a + start.length) + lines.join('\n') + page.slice(b);
}

/** One heading per decision in docs/decisions.md: `### D-2a: Title`. */
function decisionHeading(d) {
  return `D-${d.id}: ${d.title}`;
}

/**
 * docs/decisions.md, whole: every decision as the snapshot's contract.md summarises it
 * (src/contract/prose.ts, the one source), one heading each, then what the contract leaves
 * unspecified. Decision ids in the texts link to their headings.
 */
function decisionsPage() {
  const anchors = new Map(prose.DECISIONS.map((d) => [`D-${d.id}`, githubSlug(decisionHeading(d))]));
  const md = (text) => linkDecisions(text, anchors, '');
  const intro = [
    'The contract (version 1) leaves some details open: it says "not shown", offers a choice, or',
    'can be read two ways. Each decision below settles one of them, so that this tool, the store\'s',
    'validators and every reader of the contract read it the same way. Numbers are permanent: the',
    'rule list and the reports cite them as D-n. An entry with a letter (D-2a) amends the entry with',
    'the same number and wins where the two differ. The same summaries are section 13 of',
    '`contract-snapshot/contract.md`, which every project carries.',
  ].join('\n');
  const lines = ['# Decisions', '', '<!-- Generated from src/contract/prose.ts by scripts/gen-snapshot.mjs: edit the source, not this file. -->', '', md(intro), ''];
  for (const d of prose.DECISIONS) lines.push(`## ${decisionHeading(d)}`, '', md(d.text), '');
  lines.push('## What the contract does not specify', '', 'The tool enforces nothing about these beyond what the contract states; where it has to pick, the choice is marked as its own.', '');
  for (const n of prose.NOT_SPECIFIED) lines.push(`- ${md(n.topic)}. ${md(n.tool)}`);
  return `${lines.join('\n')}\n`;
}

export function snapshotFiles() {
  const files = new Map();
  for (const [name, content] of snapshot.snapshotFiles()) files.set(`contract-snapshot/${name}`, content);
  files.set('docs/decisions.md', decisionsPage());
  files.set('docs/rules.md', rulesPage());
  files.set('docs/service.md', servicePage());
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
