// The validator is a leaf (house principle 1): it imports only its own files, uses no
// Node.js or DOM API, and dist/validator.mjs is one self-contained module.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const validatorDir = join(root, 'src/validator');

function listTs(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listTs(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/**
 * Every module specifier a file's code imports, as esbuild's parser sees it (comments and
 * strings that only look like imports are not imports). Each import is marked external
 * by a plugin so nothing is resolved or bundled; only the specifiers are collected.
 */
async function importsOf(files) {
  const seen = [];
  await build({
    entryPoints: files,
    bundle: true,
    write: false,
    outdir: '/tmp/unused',
    platform: 'neutral',
    logLevel: 'silent',
    plugins: [
      {
        name: 'collect',
        setup(b) {
          b.onResolve({ filter: /.*/ }, (args) => {
            if (args.kind === 'entry-point') return undefined;
            seen.push({ importer: args.importer, spec: args.path });
            return { path: args.path, external: true };
          });
        },
      },
    ],
  });
  return seen;
}

function outside({ importer, spec }) {
  if (!spec.startsWith('./') && !spec.startsWith('../')) return true;
  return relative(validatorDir, resolve(dirname(importer), spec)).startsWith('..');
}

test('every src/validator file imports only files under src/validator', async () => {
  const files = listTs(validatorDir);
  assert.ok(files.length > 10, 'the validator has its files');
  const imports = await importsOf(files);
  assert.ok(imports.length > 20, 'imports were seen');
  assert.deepEqual(imports.filter(outside).map((i) => `${relative(root, i.importer)}: ${i.spec}`), []);
});

test('the import check catches what it must (it can fail)', async (t) => {
  const dir = mkdtempSync(join(validatorDir, '.probe-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const probe = join(dir, 'probe.ts');
  writeFileSync(
    probe,
    "import { readFileSync } from 'node:fs';\nexport * from 'esbuild';\nimport x from '../../project/load.js';\n" +
      "const m = await import('node:crypto');\n// import y from 'not-real';\nexport const s = \"import z from 'nope'\";\nexport { readFileSync, x, m };\n",
  );
  const found = (await importsOf([probe])).filter(outside).map((i) => i.spec).sort();
  assert.deepEqual(found, ['../../project/load.js', 'esbuild', 'node:crypto', 'node:fs']);
});

test('dist/validator.mjs is self-contained: no import of any kind', async () => {
  const file = join(root, 'dist/validator.mjs');
  assert.deepEqual((await importsOf([file])).map((i) => i.spec), []);
  assert.doesNotMatch(readFileSync(file, 'utf8'), /\brequire\s*\(\s*["'`]/);
});

test('the validator type-checks with the ES2022 library and no Node or DOM types', () => {
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', join(validatorDir, 'tsconfig.json'), '--noEmit'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});
