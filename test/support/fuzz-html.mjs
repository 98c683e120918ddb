#!/usr/bin/env node
// Mutation fuzzing of the entrypoint HTML scanner: the tokenizer (in every content state)
// and the policy over text and over bytes.
// Usage: node bench/fuzz-html.mjs [count=1000000] [seed=1]
// Prints cases per second and the slowest case. test/validator/fuzz-html.test.mjs runs the same
// cases (fuzzHtmlCase) at a smaller count.
import { mutateBytes, mutateText, pick, prng } from './fuzz.mjs';
import { HtmlTokenizer } from '../../build/validator/html/html-tokenizer.js';
import { checkEntrypointHtml } from '../../build/validator/html/html-policy.js';
import { bundleViewOf } from '../../build/validator/scan.js';
import { FindingList } from '../../build/validator/findings.js';

/** Small documents that reach every tokenizer state family and policy branch. */
export const HTML_SEEDS = [
  '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>T &amp; t</title>\n<link rel="stylesheet" href="styles.css">\n<script type="module" src="main.js"></script></head>\n<body><p class=a>Hi</p></body></html>',
  '<img src="images/logo.png" srcset="images/logo.png 1x, data:image/png;base64,AA 2x" alt=\'x\' onerror=go()>',
  '<a href="#top">top</a><a href="java&Tab;script:alert(1)">x</a><a href=&#106;avascript:x>y</a>',
  '<svg viewBox="0 0 1 1"><title>i</title><style>.a{fill:url(#g)}</style><![CDATA[x>y]]><use xlink:href="#a"/><a><set attributeName="href" to="javascript:x"/></a><foreignObject><p>t</p></foreignObject></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext><annotation-xml encoding="text/html"><svg></svg></annotation-xml></math>',
  '<script>if (a < b && c) { x = "<!--<script>"; }</script><script type=module src=main.js>\n</script>',
  '<textarea><script>x</script></textarea><title><b></title><noscript><p></noscript><xmp></xmp><plaintext><x>',
  '<!-- c --><!--><!---><!-- a --!><!-- <!-- x --> <? pi ?> <! bogus > </ x> <![CDATA[ y ]]>',
  '<table><tr><td><svg><foreignObject><tr><style>a{}</style></td></tr></table><select><title><x></title></select><template><col><title></title></template>',
  '<div style="background:url(https://x/a.png)" style=x onclick="a" data-on=1 a=1 b="2" c=\'3\' d e=&amp;>\r\n</div>',
  '<meta http-equiv="Content-Security-Policy" content="x"><meta http-equiv=refresh content=0><base href=/><iframe srcdoc="<b>"></iframe><object data=x></object><form action=x></form>',
  '<body background=x><video poster="data:image/png,AA"><source src=v.mp4></video><picture><source srcset="a.png 1x"></picture><input type=image src=data:x>',
];

/** Interesting syntax to splice in. */
export const HTML_DICTIONARY = [
  '<', '>', '</', '/>', '<!--', '-->', '--!>', '<!-->', '<!---', '<!', '<?', '<![CDATA[', ']]>', ']]', '<!DOCTYPE html>', '<!doctype x PUBLIC "a" "b">',
  '<script>', '</script>', '<script type=module src=main.js>', '<SCRIPT>', '<style>', '</style>', '<title>', '</title>', '<textarea>', '</textarea>',
  '<xmp>', '<plaintext>', '<noscript>', '<iframe>', '<svg>', '</svg>', '<math>', '</math>', '<mtext>', '<mi>', '<mglyph>', '<annotation-xml encoding=text/html>',
  '<foreignObject>', '<desc>', '<select>', '</select>', '<template>', '</template>', '<table>', '<tr>', '<td>', '</td>', '</table>', '<col>', '<p>', '</p>', '<br>', '</br>',
  '<font color=red>', '<a href="', '<img src=', '<link rel=stylesheet href=', '<meta charset=', '<base>', '<form>', '<animate attributeName=href values="',
  ' onclick=', ' ONERROR=', ' x:onload=', ' href=', ' src=', ' srcset="', ' style="', ' fill="url(', ' type=module', ' type=importmap', ' language=vbscript',
  'javascript:', 'JaVa\tScRiPt:', 'vbscript:', 'data:', 'https://x/', '//x/', '/root', '../', '#frag', '?q', '%2e',
  '&amp;', '&amp', '&#106;', '&#x6A', '&#0;', '&#x110000;', '&#128;', '&notin;', '&noti', '&Tab;', '&colon;', '&', '&#', '&#x',
  '"', "'", '`', '=', ' ', '\t', '\n', '\r', '\r\n', '\f', '\u0000', '\uFEFF', '\uD800', '\u{1F600}', '-', '--', '!', '/',
];

const BUNDLE = bundleViewOf(['index.html', 'main.js', 'styles.css', 'images/logo.png', 'a.png']);
const STATES = ['data', 'rcdata', 'rawtext', 'scriptData', 'plaintext', 'cdataSection'];

function fail(message, text) {
  const error = new Error(`${message}\ninput: ${JSON.stringify(text)}`);
  throw error;
}

/** Tokens as comparable values without offsets (for the preprocessing comparison). */
function summarize(tokens) {
  const out = [];
  let chars = '';
  for (const t of tokens) {
    if (t.type === 'character') {
      chars += t.data;
      continue;
    }
    if (chars !== '') out.push(`C:${chars}`);
    chars = '';
    if (t.type === 'startTag' || t.type === 'endTag') out.push(`${t.type}:${t.name}:${t.selfClosing}:${t.attributes.map((a) => `${a.name}=${a.value}`).join('\u0001')}`);
    else if (t.type === 'comment') out.push(`!:${t.data}`);
    else if (t.type === 'doctype') out.push(`D:${t.name}:${t.publicId}:${t.systemId}:${t.forceQuirks}`);
    else out.push(t.type);
  }
  if (chars !== '') out.push(`C:${chars}`);
  return out.join('\n');
}

/**
 * Tokenizes `text` in `state` and checks the invariants: it ends; offsets stay in bounds
 * and never go backwards; a literal character token is its input span (CR read as LF, NUL
 * as U+FFFD); an attribute without a value map is its input span verbatim, one with a map
 * maps every decoded offset into the file.
 */
function tokenizeChecked(text, state, allowCdata) {
  const tokenizer = new HtmlTokenizer(text, { initialState: state, lastStartTag: 'style' });
  tokenizer.allowCdata = allowCdata;
  const tokens = [];
  let last = 0;
  for (let guard = 0; ; guard++) {
    if (guard > text.length * 2 + 8) fail('the tokenizer does not end', text);
    const t = tokenizer.next();
    if (t.type === 'eof') break;
    tokens.push(t);
    if (t.start < last || t.end < t.start || t.end > text.length) fail(`token ${t.type} at ${t.start}-${t.end} after ${last}`, text);
    last = t.start;
    if (t.type === 'character' && t.literal) {
      if (t.data.length !== t.end - t.start) fail('a literal character token is not its span', text);
      for (let i = 0; i < t.data.length; i++) {
        const a = t.data[i];
        const b = text[t.start + i];
        if (a !== b && !(b === '\r' && a === '\n') && !(b === '\u0000' && a === '\uFFFD')) fail('a literal character token differs from its span', text);
      }
    }
    if (t.type === 'startTag' || t.type === 'endTag') {
      for (const a of [...t.attributes, ...t.duplicates]) {
        if (a.valueMap === null && a.value !== text.slice(a.valueStart, a.valueEnd)) fail(`attribute ${a.name} value is not its span`, text);
        if (a.valueMap !== null) {
          if (a.valueMap.length !== a.value.length) fail(`attribute ${a.name} map length`, text);
          for (let i = 0; i < a.value.length; i++) {
            const at = a.valueMap.map(i);
            if (at < a.valueStart || at >= Math.max(a.valueEnd, a.valueStart + 1)) fail(`attribute ${a.name} maps ${i} outside its value`, text);
          }
        }
        if (a.nameStart < t.start || a.nameEnd > t.end) fail(`attribute ${a.name} outside its tag`, text);
      }
    }
  }
  return tokens;
}

/** Runs one mutated case; throws on an exception or a broken invariant. */
export function fuzzHtmlCase(rng) {
  const seed = pick(rng, HTML_SEEDS);
  const text = mutateText(rng, seed, HTML_DICTIONARY, 6);

  const state = rng() < 0.7 ? 'data' : pick(rng, STATES);
  const allowCdata = rng() < 0.3;
  const direct = tokenizeChecked(text, state, allowCdata);
  // Preprocessing on the fly (CR, CR LF read as LF) must equal preprocessing a copy.
  if (text.includes('\r')) {
    const copy = text.replace(/\r\n?/g, '\n');
    if (summarize(direct) !== summarize(tokenizeChecked(copy, state, allowCdata))) fail('on-the-fly newline handling differs from a preprocessed copy', text);
  }

  const findings = new FindingList();
  const file = rng() < 0.8 ? 'index.html' : 'sub/index.html';
  checkEntrypointHtml(file, new TextEncoder().encode(text), BUNDLE, findings);
  for (const f of findings.items) {
    if (!(f.file === file && f.line >= 1 && f.column >= 1)) fail(`finding ${f.rule} without a position`, text);
  }

  const bytes = mutateBytes(rng, new TextEncoder().encode(text));
  const byteFindings = new FindingList();
  checkEntrypointHtml('index.html', bytes, BUNDLE, byteFindings);
  let valid = true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    valid = false;
  }
  const invalid = byteFindings.items.some((f) => f.rule === 'html/invalid-utf8');
  if (valid === invalid) fail(`UTF-8 verdict differs from TextDecoder (valid: ${valid})`, Array.from(bytes).join(','));
}

/** Runs `count` cases from `seed`; returns cases per second and the slowest case. */
export function runFuzz(count, seed = 1) {
  const rng = prng(seed);
  let slowest = { ms: 0, index: -1 };
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    fuzzHtmlCase(rng);
    const ms = performance.now() - t0;
    if (ms > slowest.ms) slowest = { ms, index: i };
  }
  const seconds = (performance.now() - start) / 1000;
  return { count, seconds, perSecond: count / seconds, slowest };
}

/** The long run: `node bench/fuzz-html.mjs [count] [seed]`. */
export function main() {
  const count = Number(process.argv[2] ?? 1_000_000);
  const seed = Number(process.argv[3] ?? 1);
  const report = runFuzz(count, seed);
  console.log(`fuzz-html: ${report.count} cases in ${report.seconds.toFixed(1)} s, ${Math.round(report.perSecond)} cases/s`);
  console.log(`slowest: case #${report.slowest.index}, ${report.slowest.ms.toFixed(2)} ms (rerun with the same seed to reproduce)`);
}
