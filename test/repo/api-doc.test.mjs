// The validator's public API is the list in docs/api.md: every name dist/validator.d.ts and
// dist/validator-node.d.ts export has one line there (and every line names an export), the
// public validator exports at most 80 names, and the runtime modules export nothing their
// declarations do not. The internal entry (src/validator/internal.ts) re-exports every
// public name, so the rest of src/ can import from one place.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../support/project.mjs';

const MAX_PUBLIC_NAMES = 80;
const VALIDATOR_HEADING = '## The validator: `platform-ext/validator`';
const NODE_HEADING = '## The validator on Node.js: `platform-ext/validator/node`';

/**
 * The names a declaration file exports, from its `export { … } from`, `export * as x from`
 * and `export declare …` statements. A bare `export * from` is reported as `*` (its names
 * would escape the list).
 */
export function declaredNames(text) {
  const names = new Set();
  for (const m of text.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}/gm)) {
    for (const part of m[1].split(',')) {
      const name = part.trim().replace(/^type\s+/, '').split(/\s+as\s+/).pop().trim();
      if (name !== '') names.add(name);
    }
  }
  for (const m of text.matchAll(/^export\s+\*\s+as\s+([\w$]+)/gm)) names.add(m[1]);
  for (const m of text.matchAll(/^export\s+\*\s+from/gm)) names.add('*');
  for (const m of text.matchAll(/^export\s+declare\s+(?:const|function|class|type|interface|enum|let|abstract\s+class)\s+([\w$]+)/gm)) names.add(m[1]);
  for (const m of text.matchAll(/^export\s+(?:type|interface)\s+([\w$]+)/gm)) names.add(m[1]);
  return names;
}

/** The names listed under `heading` in a Markdown text: lines "- `name`: ..." up to the next `## ` heading. */
export function documentedNames(markdown, heading) {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) return null;
  const rest = markdown.slice(start + heading.length + 2);
  const end = rest.search(/^## /m);
  const section = end < 0 ? rest : rest.slice(0, end);
  const names = [];
  for (const m of section.matchAll(/^- `([\w$]+)`: \S/gm)) names.push(m[1]);
  return names;
}

/** What is wrong between the exports and the doc: missing lines, lines for no export, duplicates. */
export function apiDocProblems(exported, documented) {
  const problems = [];
  for (const name of [...exported].sort()) if (!documented.includes(name)) problems.push(`${name} is exported but has no line in docs/api.md`);
  for (const name of documented) if (!exported.has(name)) problems.push(`docs/api.md lists ${name}, which is not exported`);
  const seen = new Set();
  for (const name of documented) {
    if (seen.has(name)) problems.push(`docs/api.md lists ${name} twice`);
    seen.add(name);
  }
  return problems;
}

const doc = readFileSync(join(ROOT, 'docs/api.md'), 'utf8');
const dts = (rel) => readFileSync(join(ROOT, 'dist', rel), 'utf8');

test('dist/validator.d.ts exports at most 80 names, each with one line in docs/api.md', async () => {
  assert.equal(dts('validator.d.ts').trim(), "export * from './types/validator/index.js';");
  const names = declaredNames(dts('types/validator/index.d.ts'));
  assert.ok(!names.has('*'), 'the public index re-exports a whole module (export * from)');
  assert.ok(names.size <= MAX_PUBLIC_NAMES, `${names.size} public names; at most ${MAX_PUBLIC_NAMES}`);
  assert.ok(names.has('validateRelease') && names.has('FindingList') && names.has('limits'));
  const documented = documentedNames(doc, VALIDATOR_HEADING);
  assert.notEqual(documented, null, `docs/api.md has the heading ${VALIDATOR_HEADING}`);
  assert.deepEqual(apiDocProblems(names, documented), []);
  // The module exports at run time no value its declarations leave out.
  const runtime = Object.keys(await import(join(ROOT, 'dist/validator.mjs')));
  assert.deepEqual(runtime.filter((n) => !names.has(n)), []);
});

test('dist/validator-node.d.ts: every name has one line in docs/api.md', async () => {
  assert.equal(dts('validator-node.d.ts').trim(), "export * from './types/validator-node.js';");
  const names = declaredNames(dts('types/validator-node.d.ts'));
  assert.ok(!names.has('*'));
  const documented = documentedNames(doc, NODE_HEADING);
  assert.notEqual(documented, null, `docs/api.md has the heading ${NODE_HEADING}`);
  assert.deepEqual(apiDocProblems(names, documented), []);
  const runtime = Object.keys(await import(join(ROOT, 'dist/validator-node.mjs')));
  assert.deepEqual(runtime.filter((n) => !names.has(n)), []);
  // The Node entry takes its validator from the sibling file, never a copy of its own.
  const code = dts('../dist/validator-node.mjs');
  assert.match(code, /from "\.\/validator\.mjs"/);
  assert.doesNotMatch(code, /function validateRelease\b/);
});

test('the internal entry re-exports every public name of the index', async () => {
  const index = await import(join(ROOT, 'build/validator/index.js'));
  const internal = await import(join(ROOT, 'build/validator/internal.js'));
  assert.deepEqual(Object.keys(index).filter((n) => internal[n] !== index[n]), []);
});

test('the checks can fail: an undocumented export, a stale line, a star export, a missing section', () => {
  const text = "export { a, type B } from './a.js';\nexport * as ns from './n.js';\nexport declare function c(): void;\nexport * from './all.js';\n";
  assert.deepEqual([...declaredNames(text)].sort(), ['*', 'B', 'a', 'c', 'ns']);
  const md = '# API\n\n## Part\n\n- `a`: one.\n- `gone`: two.\n- `a`: again.\n\n## Next\n\n- `B`: elsewhere.\n';
  assert.deepEqual(apiDocProblems(new Set(['a', 'B']), documentedNames(md, '## Part')), [
    'B is exported but has no line in docs/api.md',
    'docs/api.md lists gone, which is not exported',
    'docs/api.md lists a twice',
  ]);
  assert.equal(documentedNames(md, '## Missing'), null);
});
