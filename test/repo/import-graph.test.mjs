// The shape of src/ (docs/architecture.md): the folders under src/ form no cycle, code outside the
// validator reaches it only through one of its two doors (src/validator/index.ts, the public
// API, and src/validator/internal.ts, the index plus the CLI's helpers), the programmatic API and
// the use cases (src/ops/) never reach the command-line layer (src/commands/), and the
// renderers (src/render/) reach neither and decide no pass, fail or exit status.
//
// The graph is read from the sources: every `import … from '…'` and `export … from '…'`
// statement (type-only ones too: a type import ties two folders as much as a value import
// does) and every `import('…')` with a literal relative specifier that names a file of
// src/. Statements are found at the start of a line, as the formatter writes them.
//
// Also: tests never import bench/, and every module of this project that a benchmark loads
// still exists (the suite runs no benchmark, so a rename in src/ would break one unseen).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = join(ROOT, 'src');

const STATIC = /^(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?(['"])([^'"\n]+)\2/gm;
const DYNAMIC = /\bimport\(\s*(['"])(\.{1,2}\/[^'"\n]+)\1\s*\)/g;

function listTs(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    if (e.isDirectory()) return listTs(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Every relative import of the .ts files under `srcDir`: { from, to, line, spec } with paths relative to srcDir ("/"-separated). */
export function importGraph(srcDir) {
  const edges = [];
  const unresolved = [];
  for (const file of listTs(srcDir)) {
    const from = relative(srcDir, file).split(sep).join('/');
    const text = readFileSync(file, 'utf8');
    const lineOf = (index) => text.slice(0, index).split('\n').length;
    const add = (spec, index, dynamic) => {
      if (!spec.startsWith('./') && !spec.startsWith('../')) return; // node: built-ins and packages
      const to = posix.normalize(posix.join(posix.dirname(from), spec)).replace(/\.js$/, '.ts');
      const exists = existsSync(join(srcDir, to));
      if (!exists) {
        // A literal import() in a string (an explanation's example) names no file of ours.
        if (!dynamic) unresolved.push(`${from}:${lineOf(index)} '${spec}'`);
        return;
      }
      edges.push({ from, to, line: lineOf(index), spec });
    };
    for (const m of text.matchAll(STATIC)) add(m[3], m.index, false);
    for (const m of text.matchAll(DYNAMIC)) add(m[2], m.index, true);
  }
  return { edges, unresolved };
}

/** The folder a file belongs to: its first segment under src/; a file at the top of src/ is its own node. */
function folderOf(path) {
  const slash = path.indexOf('/');
  return slash < 0 ? path : `${path.slice(0, slash)}/`;
}

/** The folder cycles (strongly connected components of two or more folders), each with the imports inside it. */
export function folderCycles(edges) {
  const graph = new Map();
  for (const e of edges) {
    const a = folderOf(e.from);
    const b = folderOf(e.to);
    if (a === b) continue;
    if (!graph.has(a)) graph.set(a, new Set());
    if (!graph.has(b)) graph.set(b, new Set());
    graph.get(a).add(b);
  }
  // Tarjan's algorithm.
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return components.map((members) => {
    const inside = new Set(members);
    const imports = edges
      .filter((e) => folderOf(e.from) !== folderOf(e.to) && inside.has(folderOf(e.from)) && inside.has(folderOf(e.to)))
      .map((e) => `${e.from}:${e.line} -> ${e.to}`);
    return `cycle {${members.join(', ')}}: ${imports.join('; ')}`;
  });
}

/** The validator's two doors: the public API and the internal entry (the API plus the CLI's helpers). */
const VALIDATOR_DOORS = new Set(['validator/index.ts', 'validator/internal.ts']);

/** Imports from outside src/validator/ of a validator file other than its two doors. */
export function validatorInternals(edges) {
  return edges
    .filter((e) => !e.from.startsWith('validator/') && e.to.startsWith('validator/') && !VALIDATOR_DOORS.has(e.to))
    .map((e) => `${e.from}:${e.line} imports ${e.to} (use validator/internal.ts)`);
}

/**
 * Paths from each file that `isStart` picks to a file that `isTarget` picks, direct or
 * through other files: "<start> reaches <target>: <file:line> -> ... -> <target>".
 */
function reaches(edges, isStart, isTarget) {
  const out = new Map();
  for (const e of edges) {
    if (!out.has(e.from)) out.set(e.from, []);
    out.get(e.from).push(e);
  }
  const starts = [...new Set(edges.map((e) => e.from))].filter(isStart).sort();
  const found = [];
  for (const start of starts) {
    const seen = new Map([[start, null]]);
    const queue = [start];
    while (queue.length > 0) {
      const file = queue.shift();
      for (const e of out.get(file) ?? []) {
        if (seen.has(e.to)) continue;
        seen.set(e.to, e);
        if (isTarget(e.to)) {
          const path = [];
          for (let step = e; step !== null; step = seen.get(step.from)) path.unshift(`${step.from}:${step.line}`);
          found.push(`${start} reaches ${e.to}: ${path.join(' -> ')} -> ${e.to}`);
        } else queue.push(e.to);
      }
    }
  }
  return found;
}

/** Paths from src/api.ts or a file of src/ops/ to a file of src/commands/, direct or through other files. */
export function commandReach(edges) {
  return reaches(edges, (f) => f === 'api.ts' || f.startsWith('ops/'), (f) => f.startsWith('commands/'));
}

/** Paths from a file of src/render/ to a file of src/ops/ or src/commands/, direct or through other files. */
export function renderReach(edges) {
  return reaches(edges, (f) => f.startsWith('render/'), (f) => f.startsWith('ops/') || f.startsWith('commands/'));
}

/**
 * What a renderer must not contain, because it would decide a run's outcome rather than
 * format it (src/pipeline/report.ts decides `ok`, `truncated` and the exit status):
 * - any use of `process.exit` or `process.exitCode`;
 * - a condition that yields an exit status (`? 0 : 1`, `? 1 : 0`, any of 0, 1, 2);
 * - an `exitCode` field (SARIF's) with any value but `exitStatusOf(…)`;
 * - the pass/fail field set (`ok:` in a literal, `.ok =`);
 * - a function or constant named for an exit or status decision (`exitStatus…`, `…Status`).
 * Comment lines are skipped (a comment may name the exit status it explains).
 */
const RENDER_DECISIONS = [
  [/\bprocess\s*\.\s*exit/, 'uses process.exit or process.exitCode'],
  [/\?\s*[012]\s*:\s*[012]\b/, 'maps a condition to an exit status'],
  [/\bexitCode\s*:(?!\s*exitStatusOf\()/, 'sets exitCode to something other than exitStatusOf(…)'],
  [/(?:^|[{,\s])ok\s*:|\.ok\s*=(?!=)/, 'sets the pass/fail field ok'],
  [/(?:function\s*\*?\s*|(?:const|let|var)\s+)\w*(?:[eE]xit|[sS]tatus)\w*/, 'names an exit or status decision'],
];

/** Each line of the .ts files under `renderDir` that decides a run's outcome: "render/<file>:<line> <what>". */
export function renderDecisions(renderDir) {
  const found = [];
  for (const file of listTs(renderDir)) {
    const name = relative(renderDir, file).split(sep).join('/');
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (/^\s*(?:\/\/|\*|\/\*)/.test(line)) return;
        for (const [pattern, what] of RENDER_DECISIONS) if (pattern.test(line)) found.push(`render/${name}:${i + 1} ${what}`);
      });
  }
  return found;
}

/** Imports of a file at the top of src/ (entry points only: nothing imports them). */
export function entryPointImports(edges) {
  return edges.filter((e) => !e.to.includes('/')).map((e) => `${e.from}:${e.line} imports the entry point ${e.to}`);
}

/** The file cycles among the files directly under `folder` (e.g. "preview/host-page/"): each as its sorted file list. */
export function fileCycles(edges, folder) {
  const inFolder = (path) => path.startsWith(folder) && !path.slice(folder.length).includes('/');
  const next = new Map();
  for (const e of edges) {
    if (!inFolder(e.from) || !inFolder(e.to)) continue;
    if (!next.has(e.from)) next.set(e.from, new Set());
    next.get(e.from).add(e.to);
  }
  // Two files share a cycle when each reaches the other.
  const reach = (start) => {
    const seen = new Set();
    const stack = [...(next.get(start) ?? [])];
    while (stack.length > 0) {
      const file = stack.pop();
      if (seen.has(file)) continue;
      seen.add(file);
      stack.push(...(next.get(file) ?? []));
    }
    return seen;
  };
  const reached = new Map([...next.keys()].map((file) => [file, reach(file)]));
  const cycles = new Set();
  for (const [file, seen] of reached) {
    if (!seen.has(file)) continue;
    const members = [...seen].filter((other) => reached.get(other)?.has(file)).sort();
    cycles.add(members.join(' <-> '));
  }
  return [...cycles].sort();
}

const graph = importGraph(SRC);

test('the import graph of src/ is read: every relative specifier names a file', () => {
  assert.ok(graph.edges.length > 300, `only ${graph.edges.length} imports found`);
  assert.deepEqual(graph.unresolved, []);
});

test('the folders under src/ form no cycle', () => {
  assert.deepEqual(folderCycles(graph.edges), []);
});

test('outside src/validator/, the validator is imported only through src/validator/index.ts or internal.ts', () => {
  assert.deepEqual(validatorInternals(graph.edges), []);
});

test('src/api.ts and src/ops/ never reach src/commands/', () => {
  assert.deepEqual(commandReach(graph.edges), []);
});

test('src/render/ reaches neither src/ops/ nor src/commands/', () => {
  assert.deepEqual(renderReach(graph.edges), []);
});

test('src/render/ decides no pass, fail or exit status (it formats what src/pipeline/report.ts decides)', () => {
  assert.deepEqual(renderDecisions(join(SRC, 'render')), []);
});

test('the render checks can fail (probe files with every decision, and an import of ops/)', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'render-probe-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'render'));
  mkdirSync(join(dir, 'ops'));
  mkdirSync(join(dir, 'pipeline'));
  writeFileSync(join(dir, 'ops/use.ts'), 'export const ok = true;\n');
  writeFileSync(join(dir, 'pipeline/step.ts'), "export { ok } from '../ops/use.js';\n");
  writeFileSync(
    join(dir, 'render/bad.ts'),
    [
      "import { ok } from '../pipeline/step.js';",
      '// process.exit(1) in a comment is fine',
      'if (!ok) process.exitCode = 1;',
      'const code = ok ? 0 : 1;',
      'const log = { exitCode: code, ok: false };',
      'function exitStatusFor(failed: boolean) { return failed; }',
      'const fine = { exitCode: exitStatusOf(report) };',
      '',
    ].join('\n'),
  );
  assert.deepEqual(renderReach(importGraph(dir).edges), ['render/bad.ts reaches ops/use.ts: render/bad.ts:1 -> pipeline/step.ts:1 -> ops/use.ts']);
  assert.deepEqual(renderDecisions(join(dir, 'render')), [
    'render/bad.ts:3 uses process.exit or process.exitCode',
    'render/bad.ts:4 maps a condition to an exit status',
    'render/bad.ts:5 sets exitCode to something other than exitStatusOf(…)',
    'render/bad.ts:5 sets the pass/fail field ok',
    'render/bad.ts:6 names an exit or status decision',
  ]);
});

test('src/api.ts imports only src/ops/', () => {
  assert.deepEqual(
    graph.edges.filter((e) => e.from === 'api.ts' && !e.to.startsWith('ops/')).map((e) => `api.ts:${e.line} imports ${e.to}`),
    [],
  );
});

test('the host page has no import cycle among its files', () => {
  assert.deepEqual(fileCycles(graph.edges, 'preview/host-page/'), []);
  const probe = [
    { from: 'p/a.ts', to: 'p/b.ts' },
    { from: 'p/b.ts', to: 'p/c.ts' },
    { from: 'p/c.ts', to: 'p/a.ts' },
    { from: 'p/c.ts', to: 'p/d.ts' },
    { from: 'p/d.ts', to: 'q/e.ts' },
  ];
  assert.deepEqual(fileCycles(probe, 'p/'), ['p/a.ts <-> p/b.ts <-> p/c.ts']);
});

test('the top of src/ holds entry points only: no file imports one', () => {
  assert.deepEqual(entryPointImports(graph.edges), []);
});

test('each check can fail (a probe tree with every violation)', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'import-graph-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const files = {
    'api.ts': "import { run } from './commands/run.js';\nexport { run };\n",
    'cli.ts': "import type { X } from './a/x.js';\nexport const y = 1 as unknown as X;\n",
    'ops/use.ts': "export {\n  helper,\n} from '../b/y.js';\n",
    'commands/run.ts': "export const run = () => import('./later.js');\n",
    'commands/later.ts': 'export {};\n',
    'a/x.ts': "import { y } from '../b/y.js';\nimport { limit } from '../validator/limits.js';\nimport { other } from '../validator/internal.js';\nexport type X = number;\nexport { y, limit, other };\n",
    'b/y.ts': "import type { X } from '../a/x.js';\nimport { run } from '../commands/run.js';\n// import { nope } from '../nowhere.js';\nconst text = \"import z from '../c/z.js'\";\nexport const helper = (x: X) => [x, run, text];\nexport const y = 2;\n",
    'validator/index.ts': "export * from './limits.js';\n",
    'validator/internal.ts': "export * from './index.js';\nexport const other = 2;\n",
    'validator/limits.ts': 'export const limit = 1;\n',
    'explain/example.ts': "export const before = 'const view = await import(`./views/${name}.js`); import(\\'./views/list.js\\')';\n",
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const probe = importGraph(dir);
  assert.deepEqual(probe.unresolved, []);
  assert.deepEqual(folderCycles(probe.edges), ['cycle {a/, b/}: a/x.ts:1 -> b/y.ts; b/y.ts:1 -> a/x.ts']);
  assert.deepEqual(validatorInternals(probe.edges), ['a/x.ts:2 imports validator/limits.ts (use validator/internal.ts)']);
  assert.deepEqual(commandReach(probe.edges), [
    'api.ts reaches commands/run.ts: api.ts:1 -> commands/run.ts',
    'ops/use.ts reaches commands/run.ts: ops/use.ts:1 -> b/y.ts:2 -> commands/run.ts',
  ]);
  assert.equal(probe.edges.filter((e) => e.to === 'commands/later.ts').length, 1, 'a literal import() of a file is an edge');
  writeFileSync(join(dir, 'b/bad.ts'), "import { gone } from './gone.js';\nexport { gone };\n");
  assert.deepEqual(importGraph(dir).unresolved, ["b/bad.ts:1 './gone.js'"]);
  writeFileSync(join(dir, 'b/entry.ts'), "import { y } from '../cli.js';\nexport { y };\n");
  assert.deepEqual(entryPointImports(importGraph(dir).edges), ['b/entry.ts:1 imports the entry point cli.ts']);
});

test('tests never import bench/ (bench/ may import test/support/, not the reverse)', () => {
  const list = (dir) =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      if (e.isDirectory()) return e.name === 'corpus' || e.name === 'fixtures' ? [] : list(join(dir, e.name));
      return e.name.endsWith('.mjs') ? [join(dir, e.name)] : [];
    });
  const found = [];
  for (const file of list(join(ROOT, 'test'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^(?:import|export)\s[^;]*?from\s+(['"])([^'"\n]+)\1/gm)) {
      const target = posix.normalize(posix.join(posix.dirname(relative(ROOT, file).split(sep).join('/')), m[2]));
      if (target.startsWith('bench/')) found.push(`${relative(ROOT, file)} imports ${target}`);
    }
  }
  assert.deepEqual(found, []);
});

/** Names the benchmarks write into the projects they generate, or load from them: not modules of this project. */
const BENCH_PROJECT_FILES = new Set(['./lib/a.js', './lazy.js', './missing.js', 'lazy.js', 'lib/a.js', 'main.js', 'js/v/index.js', './bench-host.js', '.js']);

/**
 * The modules of this project that the scripts in `benchDir` load, which the suite never
 * runs: each quoted name ending in .js (build/…, or a path a benchmark joins to
 * build/validator/) must be a file of `srcDir`, and each './src/….ts' that a benchmark
 * bundles must exist under `rootDir`. Returns what is missing, as "bench/<file>: '<name>'".
 */
function missingBenchModules(benchDir, srcDir, rootDir) {
  const missing = [];
  for (const name of readdirSync(benchDir).filter((n) => n.endsWith('.mjs'))) {
    const text = readFileSync(join(benchDir, name), 'utf8');
    for (const m of text.matchAll(/'([^'\s]*\.js)'/g)) {
      if (BENCH_PROJECT_FILES.has(m[1])) continue;
      // A dev dependency's file (a bench project built from a real package) is not ours.
      if (/^[a-z@]/.test(m[1]) && existsSync(join(rootDir, 'node_modules', m[1]))) continue;
      const path = m[1].replace(/^(?:\.\.\/)?build\//, '').replace(/\.js$/, '.ts');
      if (![path, `validator/${path}`].some((p) => existsSync(join(srcDir, p)))) missing.push(`bench/${name}: '${m[1]}'`);
    }
    for (const m of text.matchAll(/\.\/(src\/[\w/.-]+\.ts)/g)) {
      if (!existsSync(join(rootDir, m[1]))) missing.push(`bench/${name}: './${m[1]}'`);
    }
  }
  return missing;
}

test('every module of this project that bench/ loads exists (a file renamed in src/ is renamed there too)', () => {
  assert.deepEqual(missingBenchModules(join(ROOT, 'bench'), SRC, ROOT), []);
});

test('the bench module check can fail (a probe with a renamed module)', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'platform-ext-bench-probe-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'probe.mjs'), "await import(base + 'js/policy.js');\nawait import('../build/zip/deflate.js');\nconst s = \"export { x } from './src/gone.ts';\";\n");
  assert.deepEqual(missingBenchModules(dir, SRC, ROOT), ["bench/probe.mjs: 'js/policy.js'", "bench/probe.mjs: './src/gone.ts'"]);
});
