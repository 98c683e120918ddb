// The built files import nothing but themselves and Node.js: the tool keeps zero runtime
// dependencies. In particular no bundle reaches the PostgreSQL client `pg`, which only the
// example in examples/service-postgres/ depends on, from a package.json of its own.
//
// The specifiers are read from dist/ as esbuild writes them (minified or not): static
// `import … from"x"`, `import"x"`, `export … from"x"`, and `import("x")` / `require("x")`
// with a literal string.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DIST = join(ROOT, 'dist');

const STATIC = /(?:^|[;}\n])\s*(?:import|export)\s*(?:[\w$*{][^;"'`]*?from\s*)?["']([^"'\n]+)["']/g;
const DYNAMIC = /\b(?:import|require)\(\s*["']([^"'\n]+)["']\s*\)/g;
/** The PostgreSQL client and its own packages (pg-pool, pg-protocol, …). */
const PG = /^(?:pg|pg-[a-z0-9-]+|pg-native)(?:\/|$)/;

/** Every specifier that is neither relative nor a `node:` module: [specifier, file]. */
export function foreignImports(text) {
  const out = [];
  for (const re of [STATIC, DYNAMIC]) {
    for (const m of text.matchAll(re)) {
      const spec = m[1];
      if (spec.startsWith('./') || spec.startsWith('../') || spec.startsWith('node:')) continue;
      out.push(spec);
    }
  }
  return out;
}

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (/\.(?:mjs|js|cjs)$/.test(entry.name)) yield path;
  }
}

test('every bundle in dist/ imports only its own chunks and node: modules, never pg', () => {
  assert.ok(existsSync(join(DIST, 'platform-ext.mjs')), 'dist/ is built (node scripts/build.mjs)');
  const files = [...walk(DIST)];
  assert.ok(files.length > 5, 'the bundles were found');
  const found = [];
  const pg = [];
  for (const file of files) {
    for (const spec of foreignImports(readFileSync(file, 'utf8'))) {
      found.push(`${relative(ROOT, file)}: ${spec}`);
      if (PG.test(spec)) pg.push(`${relative(ROOT, file)}: ${spec}`);
    }
  }
  assert.deepEqual(pg, [], 'no bundle imports the PostgreSQL client');
  assert.deepEqual(found, []);
});

test('the scan sees each way esbuild writes an import of pg', () => {
  const forms = [
    'import pg from"pg";',
    'import{Pool as a}from"pg";',
    'import*as p from "pg"',
    'import"pg";',
    'var x=1;import{Client}from"pg-pool"',
    'export{Pool}from"pg";',
    'const p=await import("pg")',
    'const p=require("pg/lib/client")',
  ];
  for (const form of forms) {
    const specs = foreignImports(form);
    assert.equal(specs.length, 1, form);
    assert.ok(PG.test(specs[0]), form);
  }
  assert.deepEqual(foreignImports('import{a}from"./chunk-X.mjs";import"node:fs";const s="pg";'), []);
  assert.ok(!PG.test('pgp') && !PG.test('node:pg'));
});

test('the tool declares no runtime dependency; pg belongs to the example alone', () => {
  const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  assert.equal(root.dependencies, undefined);
  assert.ok(!root.files.some((f) => f.startsWith('examples')), 'the example is not packed');
  const example = JSON.parse(readFileSync(join(ROOT, 'examples/service-postgres/package.json'), 'utf8'));
  assert.equal(example.private, true);
  assert.ok(example.dependencies.pg, 'the example depends on pg');
  assert.ok(existsSync(join(ROOT, 'examples/service-postgres/package-lock.json')), 'the example locks its dependencies');
});
