// The documentation a newcomer reads: README.md and docs/*.md. Every relative link and
// #anchor resolves (anchors as GitHub generates them from headings), every rule id named is
// in the catalogue, every decision cited is explained in docs/decisions.md and linked there,
// the generated rule list is current, and the README stays short.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RULES } from '../../build/validator/index.js';
import { DECISIONS } from '../../build/contract/prose.js';
import { DECISION_ID, decisionAnchors, githubSlug, headingAnchors } from '../../scripts/docs-anchors.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DOCS = ['README.md', ...readdirSync(join(root, 'docs')).filter((n) => n.endsWith('.md')).sort().map((n) => `docs/${n}`)];
const text = (rel) => readFileSync(join(root, rel), 'utf8');

/** The text outside fenced code blocks and code spans (each replaced by a space). */
function prose(markdown) {
  const out = [];
  let fence = null;
  for (const line of markdown.split('\n')) {
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (open !== null) {
      if (fence === null) fence = open[1];
      else if (open[1][0] === fence[0] && open[1].length >= fence.length && line.trim() === open[1]) fence = null;
      out.push('');
      continue;
    }
    out.push(fence === null ? line.replace(/(`+)[^`]*?\1/g, ' ') : '');
  }
  return out.join('\n');
}

/** Inline links `[text](target)` outside code, with their line numbers. */
function links(markdown) {
  const found = [];
  prose(markdown)
    .split('\n')
    .forEach((line, i) => {
      for (const m of line.matchAll(/\[((?:[^\]\\]|\\.)*)\]\(([^)\s]+)\)/g)) found.push({ text: m[1], target: m[2], line: i + 1 });
    });
  return found;
}

const anchorCache = new Map();
function anchorsOf(rel) {
  if (!anchorCache.has(rel)) anchorCache.set(rel, headingAnchors(text(rel)));
  return anchorCache.get(rel);
}

/** What is wrong with one link from document `from`, or null. */
function brokenLink(from, target) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null; // absolute URL: not checked here
  const hash = target.indexOf('#');
  const path = hash < 0 ? target : target.slice(0, hash);
  const anchor = hash < 0 ? null : decodeURIComponent(target.slice(hash + 1));
  const file = path === '' ? from : relative(root, join(root, dirname(from), path));
  if (file.startsWith('..')) return `${target} leaves the repository`;
  if (!existsSync(join(root, file))) return `${target}: ${file} does not exist`;
  if (anchor === null) return null;
  if (!file.endsWith('.md') || !statSync(join(root, file)).isFile()) return `${target}: an anchor into something that is not a Markdown file`;
  return anchorsOf(file).has(anchor) ? null : `${target}: ${file} has no heading with the anchor #${anchor}`;
}

test('the anchor function gives GitHub\'s anchors', () => {
  assert.equal(githubSlug('`manifest/too-large`'), 'manifesttoo-large');
  assert.equal(githubSlug('D-2a: Path length and file-folder clashes'), 'd-2a-path-length-and-file-folder-clashes');
  assert.equal(githubSlug('Release diff (`baseline/`)'), 'release-diff-baseline');
  assert.equal(githubSlug('Code that reads window.PLATFORM when it loads'), 'code-that-reads-windowplatform-when-it-loads');
  assert.deepEqual([...headingAnchors('# A\n## A\n```\n# not a heading\n```\n### A\n')], ['a', 'a-1', 'a-2']);
});

test('every relative link and #anchor in README.md and docs/ resolves', () => {
  const broken = [];
  let count = 0;
  for (const rel of DOCS) {
    for (const { target, line } of links(text(rel))) {
      count++;
      const problem = brokenLink(rel, target);
      if (problem !== null) broken.push(`${rel}:${line}: ${problem}`);
    }
  }
  assert.deepEqual(broken, []);
  assert.ok(count > 100, `only ${count} links found: the link scanner is broken`);
});

test('the link check can fail: a missing file, a missing anchor, a path out of the repository', () => {
  assert.match(brokenLink('README.md', 'docs/nothing.md'), /does not exist/);
  assert.match(brokenLink('README.md', 'docs/rules.md#no-such-rule'), /no heading/);
  assert.match(brokenLink('docs/ci.md', '../../outside/DECISIONS.md'), /leaves the repository/);
  assert.equal(brokenLink('docs/ci.md', 'rules.md#htmlinline-script'), null);
  assert.equal(brokenLink('docs/ci.md', '#sarif'), null);
});

test('nothing in README.md or docs/ points outside the repository', () => {
  for (const rel of DOCS) assert.doesNotMatch(text(rel), /\.\.\/shared|\/work\//, rel);
});

test('every rule id named in README.md and docs/ is in the catalogue', () => {
  const ids = new Set(RULES.map((r) => r.id));
  const areas = [...new Set(RULES.map((r) => r.id.slice(0, r.id.indexOf('/'))))];
  // An area, a slash and a kebab name, not part of a longer path (src/validator/html/html-policy.ts)
  // or file name; code blocks and spans included, since commands name rules there too.
  const mention = new RegExp(`(?<![\\w./-])(?:${areas.join('|')})/[a-z0-9]+(?:-[a-z0-9]+)*(?![\\w/-]|\\.\\w)`, 'g');
  const unknown = [];
  let count = 0;
  for (const rel of DOCS) {
    for (const m of text(rel).matchAll(mention)) {
      count++;
      if (!ids.has(m[0])) unknown.push(`${rel}: ${m[0]}`);
    }
  }
  assert.deepEqual(unknown, []);
  assert.ok(count >= RULES.length, `only ${count} rule ids found: docs/rules.md alone names every rule`);
});

test('the rule list in docs/rules.md is generated from the current catalogue', () => {
  const r = spawnSync(process.execPath, [join(root, 'scripts/gen-snapshot.mjs'), '--check'], { encoding: 'utf8' });
  assert.doesNotMatch(r.stderr, /docs\/rules\.md/, 'run: node scripts/build.mjs && node scripts/gen-snapshot.mjs');
  const page = text('docs/rules.md');
  for (const rule of RULES) assert.ok(anchorsOf('docs/rules.md').has(githubSlug(`\`${rule.id}\``)), rule.id);
  assert.ok(page.includes('<!-- rules-list:start -->') && page.includes('<!-- rules-list:end -->'));
});

test('README.md is at most 300 lines', () => {
  const lines = text('README.md').split('\n');
  if (lines.at(-1) === '') lines.pop();
  assert.ok(lines.length <= 300, `README.md has ${lines.length} lines`);
});

test('the quick start holds exactly the two commands', () => {
  const readme = text('README.md');
  const section = readme.slice(readme.indexOf('\n## Quick start\n'), readme.indexOf('\n## ', readme.indexOf('\n## Quick start\n') + 1));
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1].trim().split('\n'));
  assert.deepEqual(blocks, [['npm ci && npm run example', 'npm test']]);
});

test('docs/decisions.md explains every decision, with the titles the snapshot uses', () => {
  const anchors = decisionAnchors(text('docs/decisions.md'));
  const expected = [];
  for (let n = 1; n <= 38; n++) {
    expected.push(`D-${n}`);
    if ([2, 16, 20, 29].includes(n)) expected.push(`D-${n}a`);
  }
  expected.push('D-43');
  assert.deepEqual([...anchors.keys()].sort(), expected.sort());
  // contract-snapshot/contract.md summarises decisions from src/contract/prose.ts: same titles.
  for (const d of DECISIONS) assert.equal(anchors.get(`D-${d.id}`), githubSlug(`D-${d.id}: ${d.title}`), `D-${d.id}`);
});

test('every decision cited in README.md and docs/ is a link to its entry in docs/decisions.md', () => {
  const anchors = decisionAnchors(text('docs/decisions.md'));
  const problems = [];
  for (const rel of DOCS) {
    const markdown = text(rel);
    const base = rel === 'README.md' ? 'docs/decisions.md' : 'decisions.md';
    // Link texts that are a decision id, and where they point.
    for (const { text: label, target, line } of links(markdown)) {
      if (!/^D-\d+[a-z]?$/.test(label)) continue;
      const own = rel === 'docs/decisions.md' && target.startsWith('#');
      const want = `#${anchors.get(label)}`;
      if (!anchors.has(label)) problems.push(`${rel}:${line}: ${label} is not in docs/decisions.md`);
      else if (target !== (own ? want : `${base}${want}`)) problems.push(`${rel}:${line}: [${label}](${target}) should point at ${base}${want}`);
    }
    // Every other mention outside code must be one of those links (headings of decisions.md excepted).
    const bare = prose(markdown)
      .split('\n')
      .map((line, i) => ({ line: i + 1, rest: line.replace(/\[D-\d+[a-z]?\]\([^)]*\)/g, '') }))
      .filter(({ rest }) => !(rel === 'docs/decisions.md' && /^#{1,6} D-\d+[a-z]?:/.test(rest)));
    for (const { line, rest } of bare) for (const m of rest.matchAll(DECISION_ID)) problems.push(`${rel}:${line}: ${m[0]} is not a link`);
  }
  assert.deepEqual(problems, []);
});

test('the unit-testing example in docs/testing.md is the one the tests run', () => {
  const page = text('docs/testing.md');
  // The block's first line names the file; the rest is the file.
  const block = /```js\n\/\/ test\/shelf\.test\.mjs[^\n]*\n([\s\S]*?)```/.exec(page);
  assert.ok(block !== null, 'docs/testing.md shows test/shelf.test.mjs');
  assert.equal(block[1], text('test/fixtures/testing/readme-example/test/shelf.test.mjs'));
});
