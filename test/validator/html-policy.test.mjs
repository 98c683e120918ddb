// The entrypoint HTML policy (src/validator/html/html-policy.ts): contract "Bundle" entrypoint
// rules, D-17, D-18, D-19, D-22. Every row says what it proves and lists the exact
// findings (rule id, line, column); positions are given as a needle in the input (its
// first character; `nth` picks a later occurrence) so each row stays readable. Rows come
// in pairs across each boundary: allowed vs refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { checkEntrypointHtml } from '../../build/validator/html/html-policy.js';
import { HtmlTokenizer } from '../../build/validator/html/html-tokenizer.js';
import { TreeModel } from '../../build/validator/html/tree-model.js';
import { FindingList } from '../../build/validator/findings.js';
import { bundleViewOf } from '../../build/validator/scan.js';
import { RULES } from '../../build/validator/rules.js';

const FILES = ['index.html', 'main.js', 'lib/util.mjs', 'styles.css', 'images/logo.png', 'sub/page.html', 'sub/app.js'];

function findingsOf(input, { file = 'index.html', files = FILES } = {}) {
  const list = new FindingList();
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  checkEntrypointHtml(file, bytes, bundleViewOf(files), list);
  return list.items;
}

function byPosition(a, b) {
  return a[1] - b[1] || a[2] - b[2] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
}

/** Line and column (1-based, UTF-16 units) of the nth occurrence of `needle` in `text`. */
function at(text, needle, nth = 0) {
  let i = -1;
  for (let k = 0; k <= nth; k++) {
    i = text.indexOf(needle, i + 1);
    if (i < 0) throw new Error(`test bug: needle ${JSON.stringify(needle)} #${nth} not in ${JSON.stringify(text)}`);
  }
  const before = text.slice(0, i).split('\n');
  return [before.length, before[before.length - 1].length + 1];
}

function expectFindings(html, expected, options) {
  const actual = findingsOf(html, options).map((f) => [f.rule, f.line, f.column]).sort(byPosition);
  const wanted = expected
    .map((e) => (typeof e[1] === 'string' ? [e[0], ...at(html, e[1], e[2] ?? 0)] : e))
    .sort(byPosition);
  assert.deepEqual(actual, wanted, html);
}

function table(name, rows) {
  test(name, async (t) => {
    for (const [what, html, expected, options] of rows) {
      await t.test(what, () => expectFindings(html, expected, options));
    }
  });
}

// -------------------------------------------------------------------------------------

test('decoding (D-22): strict UTF-8, a BOM is allowed, NUL is refused', () => {
  assert.deepEqual(findingsOf('\ufeff<p>ok</p>'), [], 'a UTF-8 BOM is fine');
  const bad = new Uint8Array([0x3c, 0x70, 0x3e, 0x0a, 0x61, 0x62, 0xff, 0x0a]);
  const f1 = findingsOf(bad).map((f) => [f.rule, f.line, f.column]);
  assert.deepEqual(f1, [['html/invalid-utf8', 2, 3]], 'byte 0xFF: line 2, column 3');
  const overlong = new Uint8Array([0x61, 0xc0, 0xaf]);
  assert.deepEqual(findingsOf(overlong).map((f) => [f.rule, f.line, f.column]), [['html/invalid-utf8', 1, 2]], 'overlong "/"');
  const surrogate = new Uint8Array([0xed, 0xa0, 0x80]);
  assert.deepEqual(findingsOf(surrogate).map((f) => f.rule), ['html/invalid-utf8'], 'an encoded surrogate');
  const bomThenBad = new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0xfe]);
  assert.deepEqual(findingsOf(bomThenBad).map((f) => [f.rule, f.line, f.column]), [['html/invalid-utf8', 1, 2]], 'the BOM is not a column');
  expectFindings('<p>a\u0000b</p>', [['html/nul-character', '\u0000']]);
  expectFindings('<p>a\u0000b\u0000</p>', [['html/nul-character', '\u0000']]); // reported once
  expectFindings('\ufeff<script>x</script>', [['html/inline-script', 1, 1]]); // columns ignore the BOM
});

table('meta charset (D-22): only "utf-8"', [
  ['utf-8 is fine', '<meta charset="utf-8">', []],
  ['letter case and surrounding spaces are fine', '<meta charset=" UTF-8 ">', []],
  ['the "utf8" label is refused (the rule says utf-8)', '<meta charset="utf8">', [['html/meta-charset', 'utf8']]],
  ['another encoding is refused', "<meta charset='iso-8859-1'>", [['html/meta-charset', 'iso']]],
  ['http-equiv content-type with utf-8 is fine', '<meta http-equiv="Content-Type" content="text/html; charset=utf-8">', []],
  ['http-equiv content-type with another charset is refused', '<meta http-equiv="content-type" content="text/html; charset=windows-1252">', [['html/meta-charset', 'windows']]],
  ['quoted charset in content', `<meta http-equiv="content-type" content="text/html; charset='shift_jis'">`, [['html/meta-charset', 'shift']]],
]);

table('module scripts (D-18, D-22)', [
  ['a local module script is fine', '<script type="module" src="main.js"></script>', []],
  ['unquoted, ./ prefix', '<script type=module src=./main.js></script>', []],
  ['single-quoted, .mjs in a folder', "<script type='module' src='lib/util.mjs'></script>", []],
  ['type is ASCII case-insensitive and trimmed', '<script type=" Module " src="main.js"></script>', []],
  ['uppercase tag and attribute names', '<SCRIPT TYPE=MODULE SRC=main.js></SCRIPT>', []],
  ['a whitespace-only body is no body', '<script type="module" src="main.js">\n  </script>', []],
  ['a character reference in src is decoded', '<script type="module" src="m&#97;in.js"></script>', []],
  ['../ that stays inside the bundle', '<script type="module" src="../main.js"></script>', [], { file: 'sub/page.html' }],
  ['resolved against the entrypoint folder', '<script type="module" src="app.js"></script>', [], { file: 'sub/page.html' }],
  ['an inline classic script', '<p>x</p><script>alert(1)</script>', [['html/inline-script', '<script']]],
  ['a classic script with src', '<script src="main.js"></script>', [['html/classic-script', '<script']]],
  ['type text/javascript is classic', '<script type="text/javascript" src="main.js"></script>', [['html/classic-script', '<script']]],
  ['an empty type is classic', '<script type="" src="main.js"></script>', [['html/classic-script', '<script']]],
  // A classic script's src gets the module checks too: adding type="module" brings no new finding.
  ['a remote classic script: both findings at once', '<script src="https://cdn.example/x.js"></script>', [['html/classic-script', '<script'], ['html/remote-reference', 'https']]],
  ['a protocol-relative classic script', '<script type="text/javascript" src="//cdn.example/x.js"></script>', [['html/classic-script', '<script'], ['html/remote-reference', '//cdn']]],
  ['a classic script of a missing file', '<script src="missing.js"></script>', [['html/classic-script', '<script'], ['html/missing-reference', 'missing']]],
  ['a classic script of a stylesheet', '<script src="styles.css"></script>', [['html/classic-script', '<script'], ['html/module-src-not-javascript', 'styles']]],
  ['a classic script with a query string', '<script src="main.js?v=1"></script>', [['html/classic-script', '<script'], ['html/module-src-not-plain', 'main']]],
  ['a classic script javascript: src', '<script src="javascript:alert(1)"></script>', [['html/classic-script', '<script'], ['html/javascript-url', 'javascript:']]],
  ['a classic script with src and a body', '<script src="main.js">alert(1)</script>', [['html/classic-script', '<script'], ['html/script-body-with-src', 'alert']]],
  ['a classic script above the root', '<script src="../main.js"></script>', [['html/classic-script', '<script'], ['html/reference-outside-bundle', '../']]],
  ['language=javascript is classic', '<script language="JavaScript">x()</script>', [['html/inline-script', '<script']]],
  ['an inline module', "<script type=module>import './main.js'</script>", [['html/inline-script', '<script']]],
  ['src and a body', '<script type="module" src="main.js">alert(1)</script>', [['html/script-body-with-src', 'alert']]],
  ['importmap is a data block', '<script type="importmap">{"imports":{}}</script>', [['html/script-data-block', '<script']]],
  ['application/json is a data block', '<script type="application/json">{}</script>', [['html/script-data-block', '<script']]],
  ['speculationrules is a data block', '<script type="speculationrules">{}</script>', [['html/script-data-block', '<script']]],
  ['text/javascript with parameters is not JavaScript: a data block', '<script type="text/javascript; charset=utf-8">x</script>', [['html/script-data-block', '<script']]],
  ['remote src', '<script type="module" src="https://cdn.example/x.js"></script>', [['html/remote-reference', 'https']]],
  ['protocol-relative src', '<script type="module" src="//cdn.example/x.js"></script>', [['html/remote-reference', '//cdn']]],
  ['javascript: src', '<script type="module" src="javascript:alert(1)"></script>', [['html/javascript-url', 'javascript:']]],
  ['data: src', '<script type="module" src="data:text/javascript,alert(1)"></script>', [['html/data-url-not-image', 'data:']]],
  ['missing file', '<script type="module" src="missing.js"></script>', [['html/missing-reference', 'missing']]],
  ['wrong letter case', '<script type="module" src="Main.js"></script>', [['html/missing-reference', 'Main']]],
  ['a query string is not plain', '<script type="module" src="main.js?v=1"></script>', [['html/module-src-not-plain', 'main']]],
  ['a percent escape is not plain', '<script type="module" src="main%2ejs"></script>', [['html/module-src-not-plain', 'main']]],
  ['a fragment is not plain', '<script type="module" src="main.js#x"></script>', [['html/module-src-not-plain', 'main']]],
  ['a backslash is not plain', '<script type="module" src="lib\\util.mjs"></script>', [['html/module-src-not-plain', 'lib']]],
  ['an empty src', '<script type="module" src=""></script>', [['html/module-src-not-plain', 1, 28]]],
  ['a root-relative src leaves the bundle', '<script type="module" src="/main.js"></script>', [['html/reference-outside-bundle', '/main']]],
  ['../ above the root', '<script type="module" src="../main.js"></script>', [['html/reference-outside-bundle', '../']]],
  ['not a .js or .mjs file', '<script type="module" src="styles.css"></script>', [['html/module-src-not-javascript', 'styles']]],
  ['not JavaScript even when missing', '<script type="module" src="main.ts"></script>', [['html/module-src-not-javascript', 'main']]],
]);

table('parsing as a browser does: no script where a browser builds none', [
  ['a script inside a comment', '<!--<script>alert(1)</script>-->', []],
  ['"<!-->" closes the comment at once', '<!--><script>x</script>-->', [['html/inline-script', '<script']]],
  ['"<!--->" too', '<!---><script>x</script>', [['html/inline-script', '<script']]],
  ['"--!>" closes a comment', '<!-- a --!><script>x</script>', [['html/inline-script', '<script']]],
  ['a comment that only looks closed', '<!-- a -- ><script>x</script> -->', []],
  ['"<scr<script>ipt>" is an element named scr<script', '<scr<script>ipt>alert(1)</script>', []],
  ['script text in a textarea is text (RCDATA)', '<textarea><script>alert(1)</script></textarea>', []],
  ['script text in a title is text', '<title><script>alert(1)</script></title>', []],
  ['markup in an HTML <style> is text (RAWTEXT)', '<style><script>alert(1)</script></style>', []],
  ['the same <style> inside MathML is markup', '<math><style><script>alert(1)</script></style></math>', [['html/ambiguous-markup', '<script'], ['html/foreign-script', '<script']]],
  ['CDATA in SVG is text', '<svg><![CDATA[<script>alert(1)]]></svg>', []],
  ['CDATA in HTML is a bogus comment up to ">"', '<![CDATA[<script>]]>alert(1)</script>', []],
  ['a <script> end tag in script data ends it; a second one is stray', '<script type="module" src="main.js"></script></script>', []],
  ['an escaped "<!--<script>" does not end the script early', '<script>"<!--<script></script>";</script>', [['html/inline-script', '<script']]],
  ['an unclosed tag at end of input is dropped by browsers', '<p>ok</p><img src=x onerror=alert(1)', []],
  ['event handler text in content is text', '<p>onclick=alert(1)</p>', []],
  ['an event handler inside an attribute value is a value', '<img src="images/logo.png" alt="x onerror=alert(1)">', []],
  ['escaped markup is text', '<p>&lt;img src=x onerror=alert(1)&gt;</p>', []],
  ['a processing instruction is a comment', '<?xml-stylesheet href="javascript:alert(1)"?>', []],
]);

table('inline event handlers', [
  ['double-quoted', '<div onclick="go()"></div>', [['html/event-handler-attribute', 'onclick']]],
  ['single-quoted', "<div onclick='go()'></div>", [['html/event-handler-attribute', 'onclick']]],
  ['unquoted', '<div onclick=go()></div>', [['html/event-handler-attribute', 'onclick']]],
  ['no value at all', '<div onclick></div>', [['html/event-handler-attribute', 'onclick']]],
  ['uppercase name', '<BODY ONLOAD="go()">', [['html/event-handler-attribute', 'ONLOAD']]],
  ['on an SVG element', '<svg><rect onload="go()"/></svg>', [['html/event-handler-attribute', 'onload']]],
  ['on a MathML element', '<math><mi onclick="go()">x</mi></math>', [['html/event-handler-attribute', 'onclick']]],
  ['after a slash (read as an attribute)', '<img/onerror=go() src=images/logo.png>', [['html/event-handler-attribute', 'onerror']]],
  ['without whitespace after a quoted value', '<img src="images/logo.png"onerror=go()>', [['html/event-handler-attribute', 'onerror']]],
  ['a prefixed on* name is refused too', '<x:t x:ontimer="go()"></x:t>', [['html/event-handler-attribute', 'x:ontimer']]],
  ['data-on is not a handler', '<div data-onclick="x" data-on="y"></div>', []],
  ['an SVG animation of an event handler', '<svg><set attributeName="onclick" to="alert(1)"/></svg>', [['html/event-handler-attribute', 'onclick']]],
  ['a second <body> adds its attributes: still checked', '<body><p>x</p><body onload="go()">', [['html/event-handler-attribute', 'onload']]],
]);

table('javascript: URLs after decoding (D-22)', [
  ['plain', '<a href="javascript:alert(1)">x</a>', [['html/javascript-url', 'javascript']]],
  ['uppercase scheme', '<a href="JAVASCRIPT:alert(1)">x</a>', [['html/javascript-url', 'JAVASCRIPT']]],
  ['numeric reference &#106;', '<a href="&#106;avascript:alert(1)">x</a>', [['html/javascript-url', '&#106;']]],
  ['hex reference without semicolon', '<a href="&#x6A avascript:alert(1)">x</a>', [['html/navigation-link', '&#x6A']]],
  ['&Tab; inside the scheme', '<a href="java&Tab;script:alert(1)">x</a>', [['html/javascript-url', 'java']]],
  ['a newline inside the scheme', '<a href="java\nscript:alert(1)">x</a>', [['html/javascript-url', 'java']]],
  ['&colon; for the colon', '<a href="javascript&colon;alert(1)">x</a>', [['html/javascript-url', 'javascript']]],
  ['leading spaces and controls', '<a href=" \u0001javascript:alert(1)">x</a>', [['html/javascript-url', 'javascript']]],
  ['vbscript:', "<a href='vbscript:msgbox(1)'>x</a>", [['html/javascript-url', 'vbscript']]],
  ['in a form action (and the form warning)', '<form action="javascript:alert(1)"></form>', [['html/form-element', '<form'], ['html/javascript-url', 'javascript']]],
  ['in formaction', '<button formaction="javascript:alert(1)">x</button>', [['html/javascript-url', 'javascript']]],
  ['in an img src', '<img src="javascript:alert(1)">', [['html/javascript-url', 'javascript']]],
  ['in an SVG xlink:href', '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>', [['html/javascript-url', 'javascript']]],
  ['in SVG animation values', '<svg><a><animate attributeName="href" values="#a;javascript:alert(1)"/></a></svg>', [['html/javascript-url', 'javascript']]],
  ['in SVG set to', '<svg><a><set attributeName="xlink:href" to="javascript:alert(1)"/></a></svg>', [['html/javascript-url', 'javascript']]],
  ['in MathML href', '<math href="javascript:alert(1)"><mi>x</mi></math>', [['html/javascript-url', 'javascript']]],
  ['"javascript" as a relative path is a path', '<img src="javascript.png">', [['html/missing-reference', 'javascript']]],
]);

table('navigation (D-22)', [
  ['a #fragment link is fine', '<a href="#top">top</a>', []],
  ['a bare # is fine', '<a href="#">top</a>', []],
  ['an <a> without href is fine', '<a id="x">x</a>', []],
  ['a link to a bundle page navigates', '<a href="sub/page.html">x</a>', [['html/navigation-link', 'sub']]],
  ['a remote link navigates', '<a href="https://example.com/">x</a>', [['html/navigation-link', 'https']]],
  ['an empty href reloads', '<a href="">x</a>', [['html/navigation-link', 1, 10]]],
  ['mailto: navigates', '<a href="mailto:a@b.example">x</a>', [['html/navigation-link', 'mailto']]],
  ['<area href>', '<map name="m"><area href="sub/page.html"></map>', [['html/navigation-link', 'sub']]],
  ['SVG <a href>', '<svg><a href="sub/page.html"><text>x</text></a></svg>', [['html/navigation-link', 'sub']]],
  ['SVG <a xlink:href> #fragment is fine', '<svg><a xlink:href="#x"><text>x</text></a></svg>', []],
  ['href on an unknown element counts as a link', '<x-link href="sub/page.html"></x-link>', [['html/navigation-link', 'sub']]],
  ['an SVG animation of href to a page', '<svg><a><set attributeName="href" to="sub/page.html"/></a></svg>', [['html/animated-href', 'sub']]],
  ['an SVG animation of href between fragments is fine', '<svg><use><animate attributeName="href" values="#a; #b"/></use></svg>', []],
  ['meta refresh', '<meta http-equiv="refresh" content="0;url=sub/page.html">', [['html/meta-refresh', '<meta']]],
  ['a form is a warning', '<form><input name="q"></form>', [['html/form-element', '<form']]],
]);

table('resource references (D-19)', [
  ['a local image', '<img src="images/logo.png" alt="">', []],
  ['a local image with query and fragment', '<img src="images/logo.png?v=2#x">', []],
  ['a missing image', '<img src="images/nope.png">', [['html/missing-reference', 'images']]],
  ['letter case matters', '<img src="images/Logo.png">', [['html/missing-reference', 'images']]],
  ['a remote image', '<img src="https://cdn.example/a.png">', [['html/remote-reference', 'https']]],
  ['a protocol-relative image', '<img src="//cdn.example/a.png">', [['html/remote-reference', '//']]],
  ['a root-relative image', '<img src="/images/logo.png">', [['html/reference-outside-bundle', '/images']]],
  ['an empty src loads nothing', '<img src="" alt="">', []],
  ['srcset: every candidate', '<img srcset="images/logo.png 1x, https://cdn.example/b.png 2x">', [['html/remote-reference', 'https']]],
  ['srcset with a comma in a descriptor function', '<img srcset="images/logo.png (a,b) 1x, nope.png 2x">', [['html/missing-reference', 'nope']]],
  ['a data: image', '<img src="data:image/png;base64,AAAA">', []],
  ['a data: image in srcset', '<img srcset="data:image/png;base64,AAAA 1x">', []],
  ['a data: image in picture source', '<picture><source srcset="data:image/png;base64,AA"><img src="images/logo.png"></picture>', []],
  ['data: in a video source is not an image', '<video><source src="data:video/mp4;base64,AA"></video>', [['html/data-url-not-image', 'data']]],
  ['data: srcset on a source outside picture', '<video><source srcset="data:image/png,AA"></video>', [['html/data-url-not-image', 'data']]],
  ['input type=image may use data:', '<input type="image" src="data:image/png,AA">', []],
  ['input of another type may not', '<input type="text" src="data:image/png,AA">', [['html/data-url-not-image', 'data']]],
  ['video poster may use data:', '<video poster="data:image/png,AA"></video>', []],
  ['a remote video poster', '<video poster="https://cdn.example/p.png"></video>', [['html/remote-reference', 'https']]],
  ['SVG image may use data:', '<svg><image href="data:image/png,AA"/></svg>', []],
  ['SVG use may not', '<svg><use href="data:image/svg+xml,x"/></svg>', [['html/data-url-not-image', 'data']]],
  ['SVG use of a fragment', '<svg><use href="#icon"/></svg>', []],
  ['SVG use of a remote sprite', '<svg><use xlink:href="https://cdn.example/s.svg#i"/></svg>', [['html/remote-reference', 'https']]],
  ['a local stylesheet', '<link rel="stylesheet" href="styles.css">', []],
  ['a missing stylesheet', '<link rel="stylesheet" href="style.css">', [['html/missing-reference', 'style.css']]],
  ['a remote stylesheet', '<link rel="stylesheet" href="https://fonts.example/css">', [['html/remote-reference', 'https']]],
  ['preconnect to a remote host', '<link rel="preconnect" href="https://fonts.example">', [['html/remote-reference', 'https']]],
  ['modulepreload of a local module', '<link rel="modulepreload" href="lib/util.mjs">', []],
  ['a remote icon', '<link rel="icon" href="https://cdn.example/favicon.ico">', [['html/remote-reference', 'https']]],
  ['a data: icon is not in the image list', '<link rel="icon" href="data:image/png,AA">', [['html/data-url-not-image', 'data']]],
  ['a manifest is never in the bundle', '<link rel="manifest" href="app.webmanifest">', [['html/missing-reference', 'app']]],
  ['imagesrcset on a preload', '<link rel="preload" as="image" imagesrcset="https://cdn.example/a.png 1x">', [['html/remote-reference', 'https']]],
  ['background, poster-like legacy attributes', '<body background="https://cdn.example/bg.png">', [['html/remote-reference', 'https']]],
  ['lowsrc', '<img src="images/logo.png" lowsrc="https://cdn.example/l.png">', [['html/remote-reference', 'https']]],
  ['cite', '<blockquote cite="https://example.com/source">q</blockquote>', [['html/remote-reference', 'https']]],
  ['ping: each URL', '<a href="#x" ping="https://t.example/p">x</a>', [['html/remote-reference', 'https']]],
  ['a remote form action (and the form warning)', '<form action="https://example.com/post"></form>', [['html/form-element', '<form'], ['html/remote-reference', 'https']]],
  ['a local URL with a character reference', '<img src="images/logo&#46;png">', []],
]);

table('forbidden elements', [
  ['base', '<base href="#">', [['html/base-element', '<base']]],
  ['iframe', '<iframe></iframe>', [['html/frame-element', '<iframe']]],
  ['iframe srcdoc is not scanned again: the iframe is refused', '<iframe srcdoc="<script>alert(1)</script>"></iframe>', [['html/frame-element', '<iframe']]],
  ['frameset and frame', '<frameset><frame></frameset>', [['html/frame-element', '<frameset'], ['html/frame-element', '<frame>']]],
  ['portal', '<portal></portal>', [['html/frame-element', '<portal']]],
  ['fencedframe', '<fencedframe></fencedframe>', [['html/frame-element', '<fencedframe']]],
  ['object', '<object></object>', [['html/plugin-element', '<object']]],
  ['embed', '<embed>', [['html/plugin-element', '<embed']]],
  ['applet', '<applet></applet>', [['html/plugin-element', '<applet']]],
  ['noscript', '<noscript><p>x</p></noscript>', [['html/noscript', '<noscript']]],
  ['noscript hides its content (scripting is on): still refused', '<noscript><p title="</noscript><img src=x onerror=go()>"></noscript>', [
    ['html/noscript', '<noscript'], ['html/missing-reference', 'x onerror'], ['html/event-handler-attribute', 'onerror'],
  ]],
  ['xmp', '<xmp><b>x</b></xmp>', [['html/legacy-raw-text-element', '<xmp']]],
  ['noembed', '<noembed></noembed>', [['html/legacy-raw-text-element', '<noembed']]],
  ['noframes', '<noframes></noframes>', [['html/legacy-raw-text-element', '<noframes']]],
  ['plaintext', '<plaintext><script>x</script>', [['html/legacy-raw-text-element', '<plaintext']]],
  ['an authored CSP', '<meta http-equiv="Content-Security-Policy" content="default-src *">', [['html/authored-csp', '<meta']]],
  ['a report-only CSP', '<meta http-equiv=" content-security-policy-report-only " content="x">', [['html/authored-csp', '<meta']]],
  ['other http-equiv values are fine', '<meta http-equiv="X-UA-Compatible" content="IE=edge">', []],
]);

table('duplicate attributes: the first counts, copies are refused', [
  ['a duplicate src (the first is what loads)', '<img src="images/logo.png" src="https://cdn.example/x.png">', [['html/duplicate-attribute', 'src', 1]]],
  ['a duplicate type on a script: the first decides (classic)', '<script src="main.js" type="text/javascript" type="module"></script>', [
    ['html/classic-script', '<script'], ['html/duplicate-attribute', 'type', 1],
  ]],
  ['a duplicate href', '<a href="#a" HREF="sub/page.html">x</a>', [['html/duplicate-attribute', 'HREF']]],
  ['many attributes, one duplicate (set-based check)', '<div a b c d e f g h i j k a></div>', [['html/duplicate-attribute', 'a', 1]]],
]);

table('CSS in <style> and style="" goes to the CSS policy, with file positions', [
  ['a local url in a style attribute', '<div style="background: url(images/logo.png)"></div>', []],
  // The CSS policy reports a url() at its "url(" and a string at its opening quote.
  ['a remote url in a style attribute', '<div style="background: url(https://cdn.example/a.png)"></div>', [['css/remote-url', 'url(']]],
  ['a remote url after a character reference', '<div style="content:&quot;x&quot;; background: url(https://cdn.example/a.png)"></div>', [['css/remote-url', 'url(']]],
  ['a remote @import in <style>', '<style>\n@import url(https://cdn.example/a.css);\n</style>', [['css/import-remote', 'url(']]],
  ['a CR LF file keeps columns', '<p>\r\n<style>\r\n  @import "https://cdn.example/a.css";\r\n</style>', [['css/import-remote', 3, 11]]],
  ['an SVG presentation attribute url()', '<svg><rect fill="url(https://cdn.example/p.svg#a)"/></svg>', [['css/remote-url', 'url(']]],
  ['an SVG fill of a local gradient', '<svg><rect fill="url(#grad)"/></svg>', []],
  ['an SVG <style> with a decoded reference', '<svg><style>@import "&#104;ttps://cdn.example/a.css";</style></svg>', [
    // The decoded (SVG) reading is remote; the raw-text reading names a missing file.
    ['css/import-remote', '"&#104;'], ['css/missing-reference', '"&#104;'],
  ]],
]);

table('foreign content: SVG and MathML', [
  ['an icon SVG is fine', '<svg viewBox="0 0 10 10"><title>Icon</title><desc>d</desc><path d="M0 0h10"/><style>.a{fill:red}</style></svg>', []],
  ['an SVG script', '<svg><script>alert(1)</script></svg>', [['html/foreign-script', '<script']]],
  ['a self-closing SVG script: an HTML reading would run script data to the end', '<svg><script href="main.js"/></svg>', [
    ['html/foreign-script', '<script'], ['html/ambiguous-markup', '</svg>'],
  ]],
  ['a MathML script is refused as well', '<math><script>x</script></math>', [['html/foreign-script', '<script']]],
  ['<svg><style> content is markup: an img breaks out', '<svg><style><img src=x onerror=go()></style></svg>', [
    ['html/ambiguous-markup', '<img'], ['html/missing-reference', 'x onerror'], ['html/event-handler-attribute', 'onerror'],
  ]],
  ['foreignObject is HTML: its <style> is raw text, and ambiguous', '<svg><foreignObject><style><a title="</style><img src=x onerror=go()>"></style></foreignObject></svg>', [
    ['html/ambiguous-markup', '<a title'], ['html/missing-reference', 'x onerror'], ['html/event-handler-attribute', 'onerror'],
  ]],
  ['annotation-xml encoding=text/html is HTML', '<math><annotation-xml encoding="TEXT/HTML"><style><i></style></annotation-xml></math>', [['html/ambiguous-markup', '<i>']]],
  ['after </svg>, a <style> is HTML again, and checked for ambiguity', '<svg></svg><style><a></style>', [['html/ambiguous-markup', '<a>']]],
  ['a <p> breaks out of SVG: the <style> is raw text in HTML', '<svg><p><style><!--</style><img src=x onerror=go()>--></style>', [
    ['html/ambiguous-markup', '<!--'], ['html/missing-reference', 'x onerror'], ['html/event-handler-attribute', 'onerror'],
  ]],
  ['mXSS: math mtext table mglyph style', '<math><mtext><table><mglyph><style><img src=x onerror=go()>', [['html/ambiguous-markup', '<img']]],
  ['CDATA whose ">" comes before "]]>" hides markup in one reading', '<svg><![CDATA[><script>alert(1)</script>]]></svg>', [['html/ambiguous-markup', '<script']]],
  ['CDATA read as a comment in HTML (after </svg>) that hides a script from the CDATA reading', '<svg></svg><![CDATA[><!--]]><script>alert(1)</script>-->', [['html/ambiguous-markup', '<!--']]],
  ['CDATA with no ">" inside is fine', '<svg><style><![CDATA[.a{fill:red}]]></style></svg>', []],
]);

table('ambiguous markup (D-22): contexts where parsers disagree', [
  ['<title> with markup in an HTML-only document is text', '<title><b>x</b></title>', []],
  ['after <svg>, markup in <title> is refused', '<svg></svg><title><b>x</b></title>', [['html/ambiguous-markup', '<b>']]],
  ['after <svg>, a plain <title> is fine', '<svg></svg><title>a < b</title>', []],
  ['<select> makes <title> ambiguous (older engines ignore it there)', '<select><title><script>alert(1)</script></title></select>', [['html/ambiguous-markup', '<script']]],
  ['<template><col> ignores <title>: its text may be markup', '<template><col><title></template><script>alert(1)</script></title>', [['html/ambiguous-markup', '</template']]],
  ['textarea after <math>', '<math></math><textarea><script>alert(1)</script></textarea>', [['html/ambiguous-markup', '<script']]],
]);

test('every html/* rule is catalogued with a hint and a reference, and every one is exercised here', () => {
  const ids = RULES.filter((r) => r.id.startsWith('html/')).map((r) => r.id);
  assert.ok(ids.length >= 25);
  const source = readFileSync(new URL(import.meta.url), 'utf8');
  for (const id of ids) assert.ok(source.includes(`'${id}'`), `${id} has a test row`);
  for (const r of RULES.filter((x) => x.id.startsWith('html/'))) {
    assert.ok(r.hint.length > 0 && r.ref.length > 0, r.id);
    assert.ok(!r.title.endsWith('.'), r.id);
  }
  assert.equal(RULES.find((r) => r.id === 'html/form-element').severity, 'warning');
});

test('the example entrypoint passes', () => {
  const html = readFileSync(new URL('../../examples/hello-world/runtime/index.html', import.meta.url), 'utf8');
  assert.deepEqual(findingsOf(html, { files: ['index.html', 'main.js', 'styles.css', 'images/logo.png', 'lib/format.js'] }), []);
});

// -------------------------------------------------------------------------------------
// The tree model against html5lib tree-construction expectations (test/corpus): for
// every whole-document case (no fragment context, scripting on), the number of elements
// the model creates in the SVG and MathML namespaces, per name, must match the expected
// DOM. The listed exceptions all contain <frameset>, which replaces the body (and is
// refused by html/frame-element anyway).

const TREE_EXPECTED = { documents: 1573, agree: 1561 };

test('tree model: foreign-element namespaces match the html5lib tree-construction corpus', () => {
  const dir = new URL('../corpus/html5lib-tree-construction/', import.meta.url);
  let documents = 0;
  let agree = 0;
  const disagreements = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.dat')).sort()) {
    for (const block of readFileSync(new URL(file, dir), 'utf8').split(/\n(?=#data\n)/)) {
      const m = /^#data\n([\s\S]*?)\n#errors\n[\s\S]*?#document\n([\s\S]*?)(?:\n\n|\n?$)/.exec(block);
      if (m === null || /#document-fragment/.test(block) || /#script-off/.test(block)) continue;
      const [, input, doc] = m;
      const expected = new Map();
      for (const line of doc.split('\n')) {
        const e = /^\| *<(svg|math) ([^>\s]+)>$/.exec(line);
        if (e) expected.set(`${e[1]} ${e[2].toLowerCase()}`, (expected.get(`${e[1]} ${e[2].toLowerCase()}`) ?? 0) + 1);
      }
      const actual = new Map();
      const tokenizer = new HtmlTokenizer(input);
      const model = new TreeModel();
      for (;;) {
        tokenizer.allowCdata = model.inForeignContent;
        const t = tokenizer.next();
        if (t.type === 'eof') break;
        if (t.type === 'startTag') {
          const r = model.startTag(t);
          if (r.contentState !== null) tokenizer.switchTo(r.contentState);
          if (r.namespace === 'svg' || r.namespace === 'math') actual.set(`${r.namespace} ${t.name}`, (actual.get(`${r.namespace} ${t.name}`) ?? 0) + 1);
        } else if (t.type === 'endTag') {
          model.endTag(t);
        }
      }
      documents++;
      const keys = new Set([...expected.keys(), ...actual.keys()]);
      if ([...keys].every((k) => (expected.get(k) ?? 0) === (actual.get(k) ?? 0))) agree++;
      else disagreements.push(`${file}: ${JSON.stringify(input)}`);
    }
  }
  assert.equal(documents, TREE_EXPECTED.documents);
  assert.equal(agree, TREE_EXPECTED.agree, disagreements.join('\n'));
  for (const d of disagreements) assert.match(d, /frameset/i, d);
});

// -------------------------------------------------------------------------------------
// XSS corpora (test/corpus, data only): every payload is scanned without throwing; every
// payload that a conservative, independent check says carries a script vector (an on*=
// attribute, a javascript:/vbscript: URL, or "<script", after decoding numeric references,
// &colon; &Tab; &NewLine;) must get an error, except the listed ones, each inert in a
// browser for the reason given.

function decodeForOracle(text) {
  return text
    .replace(/&#x([0-9a-f]+);?/gi, (_, h) => String.fromCodePoint(Math.min(parseInt(h, 16), 0x10ffff)))
    .replace(/&#(\d+);?/g, (_, d) => String.fromCodePoint(Math.min(Number(d), 0x10ffff)))
    .replace(/&colon;/gi, ':')
    .replace(/&(tab|newline);/gi, '')
    .replace(/[\t\n\r]/g, '');
}

function hasScriptVector(payload) {
  const d = decodeForOracle(payload);
  return /\bon[a-z]+\s*=/i.test(d) || /(java|vb)script:/i.test(d) || /<script/i.test(d);
}

function hasError(payload) {
  return findingsOf(payload, { files: [] }).some((f) => f.severity === 'error');
}

/** DOMPurify payloads (by index) with a vector-looking string that no browser runs. */
const DOMPURIFY_INERT = {
  34: 'the markup is escaped (&lt;img ...&gt;): text',
  36: 'the img is inside a comment',
  41: 'the img is inside a <style> in HTML content: raw text',
  44: 'the img is inside a <style> that runs to the end of input: raw text',
  45: 'the same, <style////> does not close a <style>',
  75: '<?xml-stylesheet ...?> is a bogus comment',
  82: '<set ... to=...> on an HTML element: IE "time2" behaviours only',
  85: '-o-link CSS: Opera Presto only',
  93: 'folder="javascript:..." is IE-only',
  117: '"<script" is an attribute name of <b>',
  118: '"<script<b>" is one tag name, not a script',
  121: 'every img is inside an attribute value or a bogus comment (IE conditional tricks)',
  133: '"<script<{alert(75)}/>" is one tag name, not a script',
  141: 'XML Events (ev:handler) are not implemented by browsers',
  166: 'IE time2 behaviours (t:set) only',
  180: 'an SVG in a data: URL used as a CSS filter is a resource document: scripts never run',
  183: 'the img is inside a comment (--!> closes it)',
};

test('DOMPurify payloads: no throw; every script vector is rejected (listed inert ones aside)', () => {
  const items = JSON.parse(readFileSync(new URL('../corpus/dompurify-fixtures/expect.json', import.meta.url), 'utf8'));
  assert.equal(items.length, 223);
  let rejected = 0;
  let vectors = 0;
  const missed = [];
  for (const [i, item] of items.entries()) {
    const error = hasError(item.payload);
    if (error) rejected++;
    if (hasScriptVector(item.payload)) {
      vectors++;
      if (!error && !(i in DOMPURIFY_INERT)) missed.push(`${i}: ${item.title}: ${item.payload.slice(0, 160)}`);
      if (error && i in DOMPURIFY_INERT) missed.push(`${i} is listed as inert but is rejected: update the list`);
    }
  }
  assert.deepEqual(missed, []);
  assert.equal(vectors, 132);
  assert.equal(rejected, 154);
});

/** Snippets of the mXSS cheatsheet: inline `code` (each side of a "→") and fenced blocks. */
function mxssSnippets() {
  const yaml = readFileSync(new URL('../corpus/mxss-cheatsheet/data.yml', import.meta.url), 'utf8');
  const snippets = [];
  const fence = /^[ \t]*```[ \w]*\n([\s\S]*?)^[ \t]*```[ \t]*$/gm;
  for (const m of yaml.matchAll(fence)) snippets.push(m[1]);
  const rest = yaml.replace(fence, '');
  for (const m of rest.matchAll(/`([^`\n]+)`/g)) {
    for (const part of m[1].split('→')) if (part.includes('<')) snippets.push(part.trim());
  }
  return snippets;
}

test('mXSS cheatsheet snippets: no throw; every script vector is rejected', () => {
  const snippets = mxssSnippets();
  assert.ok(snippets.length >= 60, `${snippets.length} snippets`);
  let rejected = 0;
  const missed = [];
  for (const s of snippets) {
    const error = hasError(s);
    if (error) rejected++;
    if (hasScriptVector(s) && !error) missed.push(s);
  }
  assert.deepEqual(missed, []);
  assert.equal(rejected, MXSS_REJECTED);
});

const MXSS_REJECTED = 13;
