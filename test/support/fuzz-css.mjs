#!/usr/bin/env node
// Mutation fuzzing of the CSS scanner: the tokenizer (both ident modes), the policy over
// text (checkCss) and over bytes (checkStylesheet, with the lossy UTF-8 decoder).
// Usage: node bench/fuzz-css.mjs [count=1000000] [seed=1]
// Prints cases per second and the slowest case. test/validator/fuzz-css.test.mjs runs the same
// cases (fuzzCssCase) at a smaller count.
import { mutateBytes, mutateText, pick, prng } from './fuzz.mjs';
import { consumeToken, createTokenizer, tokenize } from '../../build/validator/css/css-tokenizer.js';
import { checkCss, checkStylesheet } from '../../build/validator/css/css-policy.js';
import { decodeUtf8Lossy } from '../../build/validator/css/lossy-utf8.js';
import { FileScan, bundleViewOf } from '../../build/validator/scan.js';
import { FindingList } from '../../build/validator/findings.js';

/** Small stylesheets that reach every policy branch; mutation starts from these. */
export const CSS_SEEDS = [
  'a{background:url(img/a.png) no-repeat}',
  'a{background:url("http://x.example/a.png")}',
  '@import "css/other.css";\n@import url(http://x.example/a.css) screen;',
  '@\\69mport "x.css"; @IMPORT url( "//y" );',
  '@font-face{font-family:F;src:url(fonts/f.woff2?#iefix) format("woff2"),url(data:font/woff2;base64,AA)}',
  'a{background:image-set("img/a.png" 1x, "http://x/b.png" type("image/png") 2x)}',
  '@namespace svg url(http://www.w3.org/2000/svg); svg|a{fill:red}',
  '/* url(http://x) */ a{content:"url(http://y)"; b: u\\72l(z)}',
  'a{background:url(a b)} b{c:url(a"b\\)c)}',
  '@media screen{@font-face{src:url("data:x")} .a{--v:src("/x")}}',
  '<!-- a{b:c} --> #id.cls[attr~="v"]{margin:-1.5e3px +.5% 10Q}',
  'a{b:"unterminated\nc:url(/root.png)}',
  'background:url(../up.png);color:red',
];

/** Interesting syntax to splice in. */
export const CSS_DICTIONARY = [
  'url(', 'URL(', 'u\\72l(', 'url( "', "url('", 'src(', 'image-set(', '-webkit-image-set(', 'image(',
  '@import ', '@\\69mport', '@font-face{', '@namespace ', '@media x{',
  'http://x/', '//h/', 'data:', '/', '../', '?#iefix', '#f',
  '"', "'", '\\', '\\\n', '\\0', '\\110000', '\\d800', '/*', '*/', '(', ')', '{', '}', '[', ']', ';', ':', ',',
  '\r\n', '\r', '\f', '\n', '\t', ' ', '\u0000', '\uD800', '\uDC00', '\u{1F600}', '\u00D7', '\uFEFF',
  '<!--', '-->', '#', '-', '--', '+', '.', 'e', 'E+', '%', '1', '0.5e-3',
];

const BUNDLE = bundleViewOf(['index.html', 'x.css', 'css/other.css', 'img/a.png', 'fonts/f.woff2']);

/**
 * Runs one mutated case; throws on an exception or a broken invariant. Returns nothing.
 * Invariants: comment-keeping tokens tile the input exactly (no gap, no overlap, no
 * empty token); reading CR/FF/NUL/surrogates on the fly gives the tokens a preprocessed
 * copy gives; findings have positions; the lossy decoder agrees with TextDecoder.
 */
export function fuzzCssCase(rng) {
  const seed = pick(rng, CSS_SEEDS);
  const text = mutateText(rng, seed, CSS_DICTIONARY);

  for (const strictIdentRanges of [false, true]) {
    const tokenizer = createTokenizer(text, { keepComments: true, strictIdentRanges });
    let at = 0;
    for (let t = consumeToken(tokenizer); t !== null; t = consumeToken(tokenizer)) {
      if (t.start !== at || t.end <= t.start) throw new Error(`token ${t.type} at ${t.start}-${t.end}, expected start ${at}`);
      at = t.end;
    }
    if (at !== text.length) throw new Error(`tokens end at ${at}, text length ${text.length}`);
  }

  // Preprocessing on the fly must equal preprocessing a copy first (spec 3.3): same
  // token types and decoded values, only the offsets differ.
  const copy = text.replace(/\r\n?|\f/g, '\n').replace(/\0/g, '\uFFFD').toWellFormed();
  const direct = tokenize(text).map(tokenSummary).join('\n');
  const viaCopy = tokenize(copy).map(tokenSummary).join('\n');
  if (direct !== viaCopy) throw new Error('on-the-fly preprocessing differs from preprocessing a copy');

  const findings = new FindingList();
  const mode = rng() < 0.5 ? 'stylesheet' : 'declarations';
  checkCss(new FileScan('x.css', text, BUNDLE, findings), { text, mode, baseDir: rng() < 0.5 ? '' : 'css', mapOffset: (o) => o });
  for (const f of findings.items) {
    if (!(f.line >= 1 && f.column >= 1)) throw new Error(`finding ${f.rule} without a position`);
  }

  const bytes = mutateBytes(rng, new TextEncoder().encode(text));
  const lossy = decodeUtf8Lossy(bytes);
  const expected = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  if (lossy.text !== expected) throw new Error('lossy decoder differs from TextDecoder');
  checkStylesheet('css/x.css', bytes, BUNDLE, new FindingList());
  return text;
}

function tokenSummary(t) {
  return `${t.type} ${JSON.stringify(t.value)} ${t.numeric} ${t.numberType} ${t.sign} ${JSON.stringify(t.unit)} ${t.hashType}`;
}

export function main() {
  const count = Number(process.argv[2] ?? 1_000_000);
  const seed = Number(process.argv[3] ?? 1);
  const rng = prng(seed);
  let slowest = 0;
  let slowestText = '';
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    let text;
    try {
      text = fuzzCssCase(rng);
    } catch (error) {
      console.error(`case ${i} (seed ${seed}) failed: ${error.stack}`);
      process.exit(1);
    }
    const took = performance.now() - t0;
    if (took > slowest) {
      slowest = took;
      slowestText = text;
    }
    if ((i + 1) % 100_000 === 0) console.error(`${i + 1} cases...`);
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(`fuzz-css: ${count} cases in ${seconds.toFixed(1)} s (${Math.round(count / seconds)} cases/s), seed ${seed}`);
  console.log(`slowest case: ${slowest.toFixed(2)} ms: ${JSON.stringify(slowestText.slice(0, 200))}`);
}
