// Mutation fuzzing of the HTML tokenizer and entrypoint policy (test/support/fuzz-html.mjs holds
// the case generator and invariants): 20,000 seeded cases must run without an exception
// or a broken invariant. No timing assertions (house rule): a hang or a quadratic path is
// caught by the test timeout, and bench/fuzz-html.mjs reports speed and the slowest case.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prng } from '../support/fuzz.mjs';
import { fuzzHtmlCase } from '../support/fuzz-html.mjs';

const CASES = 20_000;
const SEED = 0x48544d4c;
const HANG_GUARD = { timeout: 300_000 };

test(`fuzz-html: ${CASES} mutated documents, no exception, every invariant holds`, HANG_GUARD, (t) => {
  const rng = prng(SEED);
  let slowest = 0;
  for (let i = 0; i < CASES; i++) {
    const started = performance.now();
    try {
      fuzzHtmlCase(rng);
    } catch (error) {
      assert.fail(`case ${i} (seed ${SEED}): ${error.message}`);
    }
    slowest = Math.max(slowest, performance.now() - started);
  }
  t.diagnostic(`slowest case ${slowest.toFixed(1)} ms`);
});

test('fuzz-html: the invariants can fail (a broken tokenizer is caught)', async () => {
  // The same case generator over a tokenizer whose newline handling is sabotaged must throw.
  const { HtmlTokenizer } = await import('../../build/validator/html/html-tokenizer.js');
  const original = HtmlTokenizer.prototype.next;
  HtmlTokenizer.prototype.next = function sabotaged() {
    const t = original.call(this);
    if (t.type === 'character' && t.data.includes('\n')) return { ...t, data: t.data.replace(/\n/g, ' ') };
    return t;
  };
  try {
    const rng = prng(7);
    assert.throws(() => {
      for (let i = 0; i < 2000; i++) fuzzHtmlCase(rng);
    });
  } finally {
    HtmlTokenizer.prototype.next = original;
  }
});

// Each pathological shape, at 1 MiB, finishes in a fraction of a second when the scanner
// is linear and takes minutes (past the timeout) when some path rescans or backtracks.
const MIB = 1024 * 1024;

test('fuzz-html: 1 MiB pathological inputs finish (each would time out if a path were quadratic)', HANG_GUARD, async (t) => {
  const { checkEntrypointHtml } = await import('../../build/validator/html/html-policy.js');
  const { FindingList } = await import('../../build/validator/findings.js');
  const { bundleViewOf } = await import('../../build/validator/scan.js');
  const fill = (unit) => unit.repeat(Math.ceil(MIB / unit.length));
  const shapes = {
    'nested divs': fill('<div>'),
    'unmatched end tags over open spans': fill('<span>') + fill('</div>'),
    'deep SVG with stray end tags': '<svg>' + fill('<g>') + fill('</x>'),
    'foreignObject then end tags': '<svg><foreignObject>' + fill('<span>') + fill('</svg>'),
    'many attributes, all duplicates': '<div ' + fill('a ') + '>',
    'ampersands': fill('&'),
    'a long alphanumeric reference': '&' + fill('a'),
    'SVG styles, never closed': '<svg>' + fill('<style>'),
    'HTML styles after SVG': '<svg></svg>' + fill('<style>&amp;</style>'),
    'CDATA sections with ">"': '<svg>' + fill('<![CDATA[a>b]]>'),
    'unclosed CDATA in HTML after SVG': '<svg></svg>' + fill('<![CDATA['),
    'less-than signs': fill('<'),
    'end-tag openers in RAWTEXT': '<style>' + fill('</'),
    'escaped script data': '<script>' + fill('<!--<script>'),
    'nested tables': fill('<table><tr><td>'),
    'titles in select': '<select>' + fill('<title>'),
    'srcset candidates': '<img srcset="' + fill('a.png 1x,') + '">',
    'comments': fill('<!--x-->'),
  };
  for (const [name, html] of Object.entries(shapes)) {
    const bytes = new TextEncoder().encode(html);
    const t0 = performance.now();
    checkEntrypointHtml('index.html', bytes, bundleViewOf(['a.png']), new FindingList());
    t.diagnostic(`${name}: ${(performance.now() - t0).toFixed(0)} ms`);
  }
});
