#!/usr/bin/env node
// Build: (1) transpile every src/**/*.ts to build/ file by file (what the tests import);
// (2) bundle the CLI (dist/platform-ext.mjs, a launcher with a shebang, and dist/cli/, its
// chunks), dist/validator.mjs (the standalone validator the server side vendors) and
// dist/service.mjs (the service core) with esbuild; (3) emit their declarations.
// `--transpile-only` does step 1 alone (fast, tolerant: one broken file does not stop the rest).
import { build, transform } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, renameSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildBridge } from './build-bridge.mjs';
import { buildPage, pageDefines } from './build-page.mjs';
import { deflateWorkerDefines } from './build-deflate-worker.mjs';
import { validatorIsPure } from './esbuild-validator-pure.mjs';
import { templateDefines } from './build-templates.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const transpileOnly = process.argv.includes('--transpile-only');

function listTs(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listTs(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/**
 * Removes what an earlier build left in build/ for a source that is gone (a renamed or
 * deleted src/ file): a stale module would still answer the tests' imports and hide a
 * path that no longer exists. Only .js files and the folders they empty are removed.
 */
function removeStale(outDir, srcDir) {
  for (const entry of readdirSync(outDir, { withFileTypes: true })) {
    const out = join(outDir, entry.name);
    if (entry.isDirectory()) {
      removeStale(out, join(srcDir, entry.name));
      if (readdirSync(out).length === 0) rmSync(out, { recursive: true });
    } else if (entry.name.endsWith('.js') && !existsSync(join(srcDir, entry.name.replace(/\.js$/, '.ts')))) {
      rmSync(out);
    }
  }
}

async function transpileAll() {
  const outRoot = join(root, 'build');
  const files = listTs(join(root, 'src'));
  let failed = 0;
  await Promise.all(
    files.map(async (file) => {
      const rel = relative(join(root, 'src'), file);
      try {
        const result = await transform(readFileSync(file, 'utf8'), {
          loader: 'ts',
          format: 'esm',
          target: 'node20',
          sourcefile: rel,
          sourcemap: 'inline',
        });
        const out = join(outRoot, rel.replace(/\.ts$/, '.js'));
        mkdirSync(dirname(out), { recursive: true });
        writeFileSync(out, result.code);
      } catch (error) {
        failed++;
        process.stderr.write(`build: ${rel}: ${error.message}\n`);
      }
    }),
  );
  if (failed > 0) process.exitCode = 1;
  removeStale(outRoot, join(root, 'src'));
  return failed;
}

/**
 * An esbuild plugin for a CLI of one command: src/cli.ts's dynamic imports of the other
 * commands' modules resolve to an empty module. Static imports (argument parsing, colour)
 * stay. The launcher starts that CLI for `command` only.
 */
function onlyCommand(command) {
  return {
    name: 'only-command',
    setup(b) {
      b.onResolve({ filter: /^\.\/commands\/[a-z]+\.js$/ }, (args) => {
        if (args.importer !== join(root, 'src/cli.ts') || args.kind !== 'dynamic-import' || args.path === `./commands/${command}.js`) return undefined;
        return { path: args.path, namespace: 'left-out-command' };
      });
      b.onLoad({ filter: /.*/, namespace: 'left-out-command' }, () => ({ contents: 'export {};', loader: 'js' }));
    },
  };
}

/**
 * An esbuild plugin for the bundles built on dist/validator.mjs (platform-review and
 * platform-ext/validator/node): src/validator/index.ts becomes an import of the sibling
 * file ./validator.mjs, the exact module the server side vendors. The internal entry
 * (src/validator/internal.ts) is bundled for the helpers it adds, its public names staying
 * the sibling's. Any other import that reaches into src/validator/ from outside it fails
 * the build.
 */
function validatorAsSibling(bundle) {
  const validatorDir = join(root, 'src/validator') + '/';
  const validatorIndex = join(root, 'src/validator/index.ts');
  const validatorInternal = join(root, 'src/validator/internal.ts');
  const serviceIndex = join(root, 'src/service/index.ts');
  const serviceDir = join(root, 'src/service') + '/';
  return {
    name: 'validator-as-sibling',
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        const target = join(args.resolveDir, args.path).replace(/\.js$/, '.ts');
        if (target === validatorIndex) return { path: './validator.mjs', external: true };
        // The service core is the other leaf: its index is dist/service.mjs, nothing deeper.
        if (target === serviceIndex) return { path: './service.mjs', external: true };
        if (target.startsWith(serviceDir)) {
          return { errors: [{ text: `${bundle} may use the service core only through its index: ${args.importer} imports ${args.path}` }] };
        }
        // Validator modules do nothing when loaded (scripts/esbuild-validator-pure.mjs):
        // only the helpers the bundle uses are taken.
        if (target === validatorInternal) return { path: target, sideEffects: false };
        if (!target.startsWith(validatorDir)) return undefined;
        if (!args.importer.startsWith(validatorDir)) {
          return { errors: [{ text: `${bundle} may use the validator only through its index or internal entry: ${args.importer} imports ${args.path}` }] };
        }
        return { path: target, sideEffects: false };
      });
    },
  };
}

async function bundleAll(digests) {
  const dist = join(root, 'dist');
  mkdirSync(dist, { recursive: true });
  const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
  const common = {
    bundle: true,
    format: 'esm',
    target: 'node20',
    legalComments: 'none',
    logLevel: 'warning',
    define: { __PLATFORM_EXT_VERSION__: JSON.stringify(version) },
  };
  await build({
    ...common,
    entryPoints: [join(root, 'src/validator/index.ts')],
    platform: 'neutral',
    outfile: join(dist, 'validator.mjs'),
  });
  // The service core (src/service/), a leaf like the validator that bundles only the parts
  // of the validator it uses: one file a store's server vendors as it is.
  await build({
    ...common,
    entryPoints: [join(root, 'src/service/index.ts')],
    plugins: [validatorIsPure(root)],
    platform: 'neutral',
    outfile: join(dist, 'service.mjs'),
  });
  // Browser code (the frame's runtime and the preview's host page) is bundled for the
  // browser first and embedded in the CLI as strings, the way esbuild embeds its worker.
  const bridge = await buildBridge(root);
  const page = await buildPage(root);
  // The CLI: dist/cli/cli.mjs and its chunks, one per command and one per piece of code
  // that commands share (esbuild code splitting over src/cli.ts's dynamic imports), so a
  // command loads only what it runs. dist/platform-ext.mjs is the small launcher
  // (scripts/launcher.mjs) that answers --version before importing the CLI.
  const cliDir = join(dist, 'cli');
  const cliTmp = join(dist, 'cli.tmp');
  rmSync(cliTmp, { recursive: true, force: true });
  const cliOptions = {
    ...common,
    define: {
      ...common.define,
      __PLATFORM_GENERATED_DIGESTS__: JSON.stringify(JSON.stringify(digests)),
      ...pageDefines(page),
      ...(await deflateWorkerDefines(root)),
      ...templateDefines(root),
      __PLATFORM_RUNTIME_SOURCE__: JSON.stringify(bridge.runtime),
    },
    entryPoints: { cli: join(root, 'src/cli.ts') },
    plugins: [validatorIsPure(root)],
    platform: 'node',
    splitting: true,
    outdir: cliTmp,
    outExtension: { '.js': '.mjs' },
    chunkNames: '[name]-[hash]',
    minify: process.env.PLATFORM_EXT_NO_MINIFY !== '1',
  };
  await build(cliOptions);
  // `check` and `package`, the commands whose speed is bounded (bench/check.mjs,
  // bench/package.mjs), also as CLIs of their own in one file each (dist/cli/check.mjs,
  // dist/cli/package.mjs): the same src/cli.ts with every other command left out and no
  // splitting, so that each loads one module instead of a dozen chunks it shares with
  // other commands (Node's module loader has a cost per module, paid before any work).
  for (const command of ['check', 'package']) {
    await build({
      ...cliOptions,
      plugins: [onlyCommand(command), validatorIsPure(root)],
      splitting: false,
      outdir: undefined,
      outExtension: undefined,
      chunkNames: undefined,
      outfile: join(cliTmp, `${command}.mjs`),
    });
  }
  rmSync(cliDir, { recursive: true, force: true });
  renameSync(cliTmp, cliDir);
  const launcher = readFileSync(join(root, 'scripts/launcher.mjs'), 'utf8').replace('__PLATFORM_VERSION__', JSON.stringify(version));
  writeFileSync(join(dist, 'platform-ext.mjs.tmp'), launcher);
  renameSync(join(dist, 'platform-ext.mjs.tmp'), join(dist, 'platform-ext.mjs'));
  chmodSync(join(dist, 'platform-ext.mjs'), 0o755);
  // The operator's review: its validation comes only from dist/validator.mjs, imported at
  // run time as a sibling file (the exact module the server side vendors).
  await build({
    ...common,
    entryPoints: [join(root, 'src/review.ts')],
    platform: 'node',
    outfile: join(dist, 'platform-review.mjs'),
    banner: { js: '#!/usr/bin/env node' },
    plugins: [validatorAsSibling('platform-review')],
  });
  chmodSync(join(dist, 'platform-review.mjs'), 0o755);
  // platform-ext/validator/node and its worker's script, on the same sibling validator.
  for (const name of ['validator-node', 'validator-worker']) {
    await build({ ...common, entryPoints: [join(root, `src/${name}.ts`)], platform: 'node', outfile: join(dist, `${name}.mjs`), plugins: [validatorAsSibling(name)] });
  }
  // Declarations for the vendored validator: tsc emits per-file .d.ts under dist/types/,
  // and dist/validator.d.ts re-exports the public entry.
  const types = join(dist, 'types');
  rmSync(types, { recursive: true, force: true });
  execFileSync(
    process.execPath,
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'src/validator/tsconfig.json'), '--noEmit', 'false', '--declaration', '--emitDeclarationOnly', '--outDir', join(types, 'validator')],
    { stdio: 'inherit' },
  );
  const tmp = join(dist, 'validator.d.ts.tmp');
  writeFileSync(tmp, "export * from './types/validator/index.js';\n");
  renameSync(tmp, join(dist, 'validator.d.ts'));
  await serviceDeclarations(types);
  await nodeEntryDeclarations(types);
  await bundleApi(common, types, digests);
  await bundleTesting(common, types);
}

/**
 * dist/service.d.ts: tsc emits the service core's declarations (and again the validator's,
 * which it imports); only src/service/'s are kept, under dist/types/service/, beside the
 * validator's that dist/types/validator/ already holds.
 */
async function serviceDeclarations(types) {
  const dist = join(root, 'dist');
  const emitted = join(dist, 'types-service.tmp');
  rmSync(emitted, { recursive: true, force: true });
  execFileSync(
    process.execPath,
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'src/service/tsconfig.json'), '--noEmit', 'false', '--declaration', '--emitDeclarationOnly', '--rootDir', join(root, 'src'), '--outDir', emitted],
    { stdio: 'inherit' },
  );
  rmSync(join(types, 'service'), { recursive: true, force: true });
  mkdirSync(join(types, 'service'), { recursive: true });
  for (const name of readdirSync(join(emitted, 'service'))) writeFileSync(join(types, 'service', name), readFileSync(join(emitted, 'service', name)));
  rmSync(emitted, { recursive: true, force: true });
  const tmp = join(dist, 'service.d.ts.tmp');
  writeFileSync(tmp, "export * from './types/service/index.js';\n");
  renameSync(tmp, join(dist, 'service.d.ts'));
}

/**
 * dist/validator-node.d.ts: tsc emits the declarations src/validator-node.ts reaches; those
 * of src/node/ and the entry are kept under dist/types/ (the validator's are there already).
 */
async function nodeEntryDeclarations(types) {
  await emitReachableDeclarations('validator-node', types, { skip: 'validator/' });
}

/**
 * dist/<name>.d.ts for src/<name>.ts: tsc emits the declarations the entry reaches, and those
 * the entry's own declaration reaches through its imports are kept under dist/types/ (but for
 * the folder `skip`, already there); dist/<name>.d.ts re-exports them. `prepare(emitted)` may
 * add a file before the walk, `inspect(rel, text)` may refuse one.
 */
async function emitReachableDeclarations(name, types, { skip, prepare, inspect } = {}) {
  const dist = join(root, 'dist');
  const emitted = join(dist, `types-${name}.tmp`);
  rmSync(emitted, { recursive: true, force: true });
  execFileSync(
    process.execPath,
    [
      join(root, 'node_modules/typescript/bin/tsc'),
      '--ignoreConfig',
      join(root, `src/${name}.ts`),
      ...['--declaration', '--emitDeclarationOnly', '--outDir', emitted, '--rootDir', join(root, 'src')],
      ...['--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--lib', 'es2022', '--types', 'node'],
      ...['--strict', '--skipLibCheck', '--isolatedModules', '--verbatimModuleSyntax'],
    ],
    { stdio: 'inherit' },
  );
  if (prepare !== undefined) await prepare(emitted);
  const keep = new Set();
  const pending = [`${name}.d.ts`];
  while (pending.length > 0) {
    const rel = pending.pop();
    if (keep.has(rel)) continue;
    keep.add(rel);
    const text = readFileSync(join(emitted, rel), 'utf8');
    inspect?.(rel, text);
    for (const m of text.matchAll(/(?:from |import\()'(\.{1,2}\/[^']+)\.js'/g)) pending.push(join(dirname(rel), `${m[1]}.d.ts`));
  }
  for (const rel of keep) {
    if (skip !== undefined && rel.startsWith(skip)) continue;
    const target = join(types, rel);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, readFileSync(join(emitted, rel)));
  }
  rmSync(emitted, { recursive: true, force: true });
  const tmp = join(dist, `${name}.d.ts.tmp`);
  writeFileSync(tmp, `export * from './types/${name}.js';\n`);
  renameSync(tmp, join(dist, `${name}.d.ts`));
}

/**
 * The programmatic API (src/api.ts): dist/api.mjs, the package's main export, and its
 * declarations. tsc emits declarations for every file the API reaches; only those that
 * dist/api.d.ts reaches through its types are kept (report and validator types, no
 * node: types), beside the validator's under dist/types/.
 */
async function bundleApi(common, types, digests) {
  const dist = join(root, 'dist');
  await build({
    ...common,
    define: {
      ...common.define,
      __PLATFORM_GENERATED_DIGESTS__: JSON.stringify(JSON.stringify(digests)),
      ...(await deflateWorkerDefines(root)),
      ...templateDefines(root),
    },
    entryPoints: [join(root, 'src/api.ts')],
    plugins: [validatorIsPure(root)],
    platform: 'node',
    outfile: join(dist, 'api.mjs'),
  });
  await emitReachableDeclarations('api', types);
}

/**
 * platform-ext/testing (src/testing.ts): dist/testing.mjs and dist/testing.d.ts. As for the
 * API, tsc emits the declarations and only those testing.d.ts reaches are kept under
 * dist/types/. One file is not tsc's: mock-platform/platform-api.d.ts becomes the generated
 * types of window.PLATFORM (renderPlatformDts, the generator of
 * contract-snapshot/platform.d.ts) as a module, so publishers get the closed Platform.Api
 * without a global that would clash with their project's own snapshot.
 */
async function bundleTesting(common, types) {
  const dist = join(root, 'dist');
  await build({ ...common, entryPoints: [join(root, 'src/testing.ts')], plugins: [validatorIsPure(root)], platform: 'node', outfile: join(dist, 'testing.mjs') });
  await emitReachableDeclarations('testing', types, {
    prepare: async (emitted) => {
      const { renderPlatformDts, TYPES_NAMESPACE } = await import(pathToFileURL(join(root, 'build/contract/platform-dts.js')).href);
      const text = renderPlatformDts();
      const start = text.indexOf(`declare namespace ${TYPES_NAMESPACE} {`);
      const end = text.indexOf('\ninterface Window {');
      if (start < 0 || end < start) throw new Error('build: renderPlatformDts() no longer has the namespace followed by interface Window');
      writeFileSync(
        join(emitted, 'mock-platform/platform-api.d.ts'),
        [
          '// The types of window.PLATFORM (contract version 1) as a module: generated by scripts/build.mjs',
          '// from the generator of contract-snapshot/platform.d.ts. Do not edit.',
          '',
          `export ${text.slice(start, end).trimEnd()}`,
          '',
          '/** `window.PLATFORM` as the mock installs it. */',
          `export type MockPlatformApi = ${TYPES_NAMESPACE}.Api;`,
          '/** A capability key of protocol version 1. */',
          `export type MockCapabilityKey = ${TYPES_NAMESPACE}.CapabilityKey;`,
          '',
        ].join('\n'),
      );
    },
    inspect: (rel, text) => {
      if (/from 'node:|import\('node:/.test(text)) throw new Error(`build: ${rel} (a declaration of platform-ext/testing) needs Node's types`);
    },
  });
}

/**
 * What `check` compares a project's contract-snapshot/ and CONTEXT.md with
 * (src/contract/snapshot-drift.ts): size and SHA-256 of each generated file, rendered here
 * by the transpiled generators, so that `check` neither renders them at every run nor
 * loads the generators. The CLI bundle embeds them; build/ (the tests) reads them from
 * build/contract/generated-digests.json.
 */
async function writeGeneratedDigests() {
  const { generatedDigestSources } = await import(pathToFileURL(join(root, 'build/contract/scaffold.js')).href);
  const digests = {};
  for (const [path, content] of generatedDigestSources()) {
    const bytes = Buffer.from(content, 'utf8');
    digests[path] = [bytes.length, createHash('sha256').update(bytes).digest('hex')];
  }
  writeFileSync(join(root, 'build/contract/generated-digests.json'), JSON.stringify(digests));
  return digests;
}

const failed = await transpileAll();
if (failed === 0) {
  const digests = await writeGeneratedDigests();
  if (!transpileOnly) await bundleAll(digests);
}
