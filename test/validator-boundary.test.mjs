// The validator is a leaf (house principle 1): it imports only its own files, uses no
// Node.js or DOM API, and dist/validator.mjs is one self-contained module.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const validatorDir = join(root, 'src/validator');

function listTs(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listTs(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

// Static `import ... from '...'`, `export ... from '...'`, bare `import '...'` and `import('...')`.
const IMPORT = /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]/gm;

export function outsideImports(file, text) {
  const found = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (!spec.startsWith('./') && !spec.startsWith('../')) {
      found.push(spec);
      continue;
    }
    const target = resolve(dirname(file), spec);
    if (relative(validatorDir, target).startsWith('..')) found.push(spec);
  }
  return found;
}

test('every src/validator file imports only files under src/validator', () => {
  const files = listTs(validatorDir);
  assert.ok(files.length > 10, 'the validator has its files');
  for (const file of files) {
    assert.deepEqual(outsideImports(file, readFileSync(file, 'utf8')), [], relative(root, file));
  }
});

test('the import check catches what it must (it can fail)', () => {
  const f = join(validatorDir, 'x.ts');
  assert.deepEqual(outsideImports(f, "import { readFileSync } from 'node:fs';"), ['node:fs']);
  assert.deepEqual(outsideImports(f, "import x from '../project/load.js';"), ['../project/load.js']);
  assert.deepEqual(outsideImports(f, "export * from 'esbuild';"), ['esbuild']);
  assert.deepEqual(outsideImports(f, "const m = await import('node:crypto');"), ['node:crypto']);
  assert.deepEqual(outsideImports(f, "import './a.js';\nimport { b } from './html/b.js';"), []);
});

test('dist/validator.mjs is self-contained: no import statements at all', () => {
  const text = readFileSync(join(root, 'dist/validator.mjs'), 'utf8');
  assert.doesNotMatch(text, /^\s*import\s/m);
  assert.doesNotMatch(text, /\bimport\s*\(/);
  assert.doesNotMatch(text, /\brequire\s*\(/);
});

test('the validator type-checks with the ES2022 library and no Node or DOM types', () => {
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', join(validatorDir, 'tsconfig.json'), '--noEmit'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});
