#!/usr/bin/env node
// Mutation fuzzing of the JavaScript lexer and module policy (src/validator/js/).
//   node bench/fuzz-js.mjs [count=1000000] [seed=1]
// Prints cases per second and the slowest case. test/validator/fuzz-js.test.mjs runs the same
// cases (SEEDS, DICTIONARY, fuzzCase) at a smaller count as part of `npm test`.
import { prng, pick, mutateText, mutateBytes } from './fuzz.mjs';
import { tokenizeJs, cookString, cookTemplate } from '../../build/validator/js/lexer.js';
import { checkJsModule } from '../../build/validator/js/js-policy.js';
import { FindingList } from '../../build/validator/findings.js';
import { bundleViewOf } from '../../build/validator/scan.js';

/** Realistic and tricky modules to mutate. */
export const SEEDS = [
  "import { a } from './lib/a.js';\nimport x, {b as c} from \"./lib/b.mjs\";\nexport * as ns from './lib/a.js';\n",
  "import './lib/a.js' with { type: 'json' };\nconst m = await import('./lazy.js', { with: { type: 'css' } });\n",
  'if (a) /re[/]x/g.test(b); x = {} / 2; y = function () {} / 3; class A {}\n/r/.exec(s);\n',
  'const t = `a${ {k: `b${c}d`} }e${ (() => { return /x/ })() }`;\n',
  "// import 'x'\n/* import 'y' */ const s = 'import \\'z\\''; const r = /import 'q'/;\n",
  "fetch('/a'); window.fetch(u); navigator.sendBeacon(u); new RTCPeerConnection(); eval('1');\n",
  "localStorage.x; document.cookie; window.open(u); top.location = u; location.href = '#a';\n",
  'for (const x of /a/g.exec(s)) { label: for (;;) { break label } }\nswitch (k) { case 1: {} /re/; default: }\n',
  '#!/usr/bin/env node\n\\u0069mport("x"); a?.b?.(c)?.[d]; 1_000n; 0x1F; .5e-3; a ??= b ||= c;\n',
  "class C extends (B) { static #p = 1; static { this.#p++ } get x() { return this.#p / 2 } async *g() { yield /x/ } }\n",
  "export { a as default, \"x y\" as z } from './lib/a.js';\nexport default async function () { return import(name) }\n",
  "const o = { fetch: 1, import() {}, get from() { return 1 }, 'a': `${1}` };\nx = a ? {} : {} / 2;\n",
  '"use strict"; var s = "a\\\nb\u2028c"; let re = /\\//u, d = 4 / 2 / 1; a++ / 2; ++/x/.lastIndex;\n',
];

/** Syntax that moves the lexer between its states. */
export const DICTIONARY = [
  '/', '//', '/*', '*/', '/=', '`', '${', '}', '{', '(', ')', '[', ']', "'", '"', '\\', '\n', '\r\n', '\u2028',
  ' ', ';', ',', ':', '?', '?.', '=>', '++', '.', '...', '#', '#!', '<!--', '-->', '0x', '_', '1n', '.5',
  'import', 'export', 'from', 'as', 'with', 'assert', 'default', '*', 'import(', 'import.meta', '\\u0069mport',
  'if (', 'while (', 'for (', 'for await (', ' of ', 'return ', 'typeof ', 'function ', 'class ', 'async ',
  "'./lib/a.js'", "'lodash'", "'https://x/y.js'", "'../../x.js'", "'./a.js?x'", "{ type: 'json' }",
  'fetch(', 'window.', 'navigator.sendBeacon', 'location.href =', 'document.cookie', 'eval(', 'new Function(',
  'setTimeout("x")', 'RTCPeerConnection', '/[/]/', '/\\//', '`${`', '\\u{', '\\x', '€', '\u00a0', '\ufeff', '\u0000',
];

const FILES = ['index.html', 'main.js', 'lib/a.js', 'lib/b.mjs', 'styles.css'];
const VIEW = bundleViewOf(FILES);

function isGap(c) {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0b || c === 0x0c || c === 0x2028 || c === 0x2029 || c === 0xa0 || c === 0xfeff || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x202f || c === 0x205f || c === 0x3000;
}

/**
 * Lexer invariants: tokens in order, non-empty, inside the text, only whitespace and line
 * terminators between them, error offsets inside the text; cooking never throws.
 */
export function checkTokenInvariants(text, tokens, errors) {
  let last = 0;
  for (const t of tokens) {
    if (!(t.start >= last && t.end > t.start && t.end <= text.length)) {
      throw new Error(`token out of order or empty: ${t.type} ${t.start}-${t.end} after ${last}`);
    }
    for (let i = last; i < t.start; i++) {
      if (!isGap(text.charCodeAt(i))) throw new Error(`non-space character skipped at ${i}: ${JSON.stringify(text[i])}`);
    }
    if (t.type === 'string') cookString(text, t);
    else if (t.type === 'template') cookTemplate(text, t);
    last = t.end;
  }
  for (let i = last; i < text.length; i++) {
    if (!isGap(text.charCodeAt(i))) throw new Error(`trailing character skipped at ${i}`);
  }
  for (const e of errors) {
    if (!(e.offset >= 0 && e.offset <= text.length)) throw new Error(`error offset out of range: ${e.kind}@${e.offset}`);
  }
}

/** One text case: the lexer invariants, then the policy on its UTF-8 bytes. Throws on any broken invariant. */
export function fuzzCase(text) {
  const { tokens, errors } = tokenizeJs(text);
  checkTokenInvariants(text, tokens, errors);
  fuzzBytes(new TextEncoder().encode(text));
}

/** The policy on raw bytes (valid or not): findings are js/* rules with a position. */
export function fuzzBytes(bytes) {
  const list = new FindingList();
  checkJsModule('lib/m.js', bytes, VIEW, list);
  for (const f of list.items) {
    if (!f.rule.startsWith('js/') || f.file !== 'lib/m.js' || !(f.line >= 1) || !(f.column >= 1)) {
      throw new Error(`malformed finding ${JSON.stringify(f)}`);
    }
  }
}

/** The i-th case of a run: mostly mutated seeds, some random dictionary soups, some byte mutations. */
export function makeCase(rng, i) {
  const seed = pick(rng, SEEDS);
  if (i % 10 === 9) return { bytes: mutateBytes(rng, new TextEncoder().encode(seed), 8) };
  if (i % 5 === 4) {
    const parts = [];
    const n = 1 + Math.floor(rng() * 80);
    for (let k = 0; k < n; k++) parts.push(pick(rng, DICTIONARY));
    return { text: parts.join('') };
  }
  return { text: mutateText(rng, seed, DICTIONARY, 8) };
}

export function runCase(c) {
  if (c.bytes !== undefined) fuzzBytes(c.bytes);
  else fuzzCase(c.text);
}

export function main() {
  const count = Number(process.argv[2] ?? 1_000_000);
  const seed = Number(process.argv[3] ?? 1);
  const rng = prng(seed);
  let slowest = { ms: -1, index: -1, input: '' };
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const c = makeCase(rng, i);
    const t0 = performance.now();
    try {
      runCase(c);
    } catch (error) {
      console.error(`case ${i} failed: ${error.message}\ninput: ${JSON.stringify(c.text ?? Array.from(c.bytes))}`);
      process.exitCode = 1;
      return;
    }
    const ms = performance.now() - t0;
    if (ms > slowest.ms) slowest = { ms, index: i, input: c.text ?? `bytes ${Array.from(c.bytes).join(',')}` };
    if (i > 0 && i % 100_000 === 0) console.log(`${i} cases...`);
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(`fuzz-js: ${count} cases in ${seconds.toFixed(1)} s, ${Math.round(count / seconds)} cases/s`);
  console.log(`slowest: case ${slowest.index}, ${slowest.ms.toFixed(2)} ms: ${JSON.stringify(slowest.input.slice(0, 300))}`);
}
