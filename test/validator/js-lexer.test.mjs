// The ECMAScript lexer (src/validator/js/lexer.ts): tables of tricky lexing cases. Each
// row says what it proves; the expected side is written out token by token.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JsLexer, JsWords, JS_TOKEN_TYPES, PUNCTUATORS, Punct, Ring, Token, TokenFlag, Word, tokenizeJs, cookString, cookTemplate } from '../../build/validator/js/lexer.js';

/** Every token as "type text" (comments included). */
function all(src) {
  return tokenizeJs(src).tokens.map((t) => `${t.type} ${src.slice(t.start, t.end)}`);
}

/** Significant tokens as "type text". */
function sig(src) {
  return tokenizeJs(src)
    .tokens.filter((t) => !t.type.endsWith('comment') && t.type !== 'hashbang')
    .map((t) => `${t.type} ${src.slice(t.start, t.end)}`);
}

/** Only what a `/` became: "regex <text>" or "div <op>". */
function slashes(src) {
  return tokenizeJs(src)
    .tokens.filter((t) => t.type === 'regex' || (t.type === 'punctuator' && (t.value === '/' || t.value === '/=')))
    .map((t) => (t.type === 'regex' ? `regex ${src.slice(t.start, t.end)}` : `div ${t.value}`));
}

function errors(src) {
  return tokenizeJs(src).errors.map((e) => `${e.kind}@${e.offset}`);
}

test('regular expression or division: decided by the previous significant token', () => {
  const rows = [
    ['start of input: regex', '/re/.test(s)', ['regex /re/']],
    ['after an identifier: division', 'a / b / c', ['div /', 'div /']],
    ['ASI does not apply before "/": a = b LF /re/g.test(c) divides twice', 'a = b\n/re/g.test(c)', ['div /', 'div /']],
    ['after "=": regex', 'x = /re/g', ['regex /re/g']],
    ['after a number: division', '4 / 2', ['div /']],
    ['after a string: division', '"a" / 2', ['div /']],
    ['after a regex: division', '/a/ / 2', ['regex /a/', 'div /']],
    ['after ")" of a call: division', 'f(x) / 2 / 3', ['div /', 'div /']],
    ['after ")" of if (...): regex', 'if (x) /re/.test(y)', ['regex /re/']],
    ['after ")" of while (...): regex', 'while (x) /re/.exec(y)', ['regex /re/']],
    ['after ")" of for (;;): regex', 'for (;;) /re/.exec(y)', ['regex /re/']],
    ['after ")" of for await (...): regex', 'for await (const x of y) /re/.exec(x)', ['regex /re/']],
    ['after ")" of with (...): regex', 'with (o) /re/', ['regex /re/']],
    ['nested parens inside if (...) do not confuse it', 'if (f(a) / 2) /re/', ['div /', 'regex /re/']],
    ['after "]": division', 'a[0] / b', ['div /']],
    ['after "[": regex', '[/re/]', ['regex /re/']],
    ['after "}" of a function declaration: regex', 'function f() {}\n/re/.test(s)', ['regex /re/']],
    ['after "}" of a function expression: division', 'x = function () {} / 2', ['div /']],
    ['after "}" of an async function expression: division', 'x = async function () {} / 2', ['div /']],
    ['after "}" of a named generator expression: division', 'x = function* g() {} / 2', ['div /']],
    ['after "}" of an object literal: division', 'x = {} / 2', ['div /']],
    ['after "}" of a nested object literal: division', 'x = { a: { b: 1 } } / 2', ['div /']],
    ['after "}" of a block statement: regex', '{}\n/re/.test(s)', ['regex /re/']],
    ['after "}" of an if block: regex', 'if (a) { b }\n/re/.test(s)', ['regex /re/']],
    ['after "}" of an arrow body: regex (ASI)', 'x = () => {}\n/re/.test(s)', ['regex /re/']],
    ['after "}" of a class declaration: regex', 'class A {}\n/re/', ['regex /re/']],
    ['after "}" of a class expression: division', 'x = class {} / 4', ['div /']],
    ['after "}" of a class with heritage call: division', 'x = class extends f({}) {} / 4', ['div /']],
    ['after "}" of a case block: regex', 'switch (x) { case 1: {}\n/re/ }', ['regex /re/']],
    ['after "}" of an object in a conditional branch: division', 'x = a ? {} : {} / 2', ['div /']],
    ['after "}" of an object after a label-free colon in parens: division', 'f(a ? b : {} / 2)', ['div /']],
    ['after "}" of a template substitution object: division', 'x = `${ {} / 2 }`', ['div /']],
    ['after "}" of a method body in an object: the next key follows', '({ m() {}, n: /re/ })', ['regex /re/']],
    ['after return: regex', 'function f() { return /x/ }', ['regex /x/']],
    ['after typeof: regex', 'typeof /y/', ['regex /y/']],
    ['after case: regex', 'switch (s) { case /x/: }', ['regex /x/']],
    ['after do: regex', 'do /x/.exec(s); while (0)', ['regex /x/']],
    ['after else: regex', 'if (a) b; else /x/.exec(s)', ['regex /x/']],
    ['after in: regex', 'a in /x/', ['regex /x/']],
    ['after new: regex', 'new /x/', ['regex /x/']],
    ['after delete: regex', 'delete /x/.y', ['regex /x/']],
    ['after void: regex', 'void /x/', ['regex /x/']],
    ['after throw: regex', 'throw /x/', ['regex /x/']],
    ['after instanceof: regex', 'a instanceof /x/', ['regex /x/']],
    ['after yield: regex', 'function* g() { yield /x/ }', ['regex /x/']],
    ['after await: regex', 'await /x/', ['regex /x/']],
    ['after "of" inside for (...): regex', 'for (const x of /a/g.exec(s)) {}', ['regex /a/g']],
    ['"of" outside for (...) is an identifier: division', 'of / 2 / 1', ['div /', 'div /']],
    ['after this: division', 'this / 2', ['div /']],
    ['after null, true, false: division', 'null / 1; true / 2; false / 3', ['div /', 'div /', 'div /']],
    ['after super member: division', 'super.x / 2', ['div /']],
    ['a keyword as a property name: division', 'x.return / 2; y?.if / 3', ['div /', 'div /']],
    ['a keyword as a property name is not a condition: x.if (a) / 2', 'x.if (a) / 2', ['div /']],
    ['postfix ++: division', 'a++ / 2', ['div /']],
    ['prefix ++: regex', 'x = ++/re/.lastIndex', ['regex /re/']],
    ['"/=" after an identifier is an operator', 'a /= 2', ['div /=']],
    ['"/=" at the start is a regex', '/=/.test(s)', ['regex /=/']],
    ['after a template end: division', '`a` / 2; `${a}` / 3', ['div /', 'div /']],
    ['after "${": regex', '`${ /re/ }`', ['regex /re/']],
    ['after ":" in an object: regex', '({ a: /re/ })', ['regex /re/']],
    ['conditional branches: regex', 'a ? /x/ : /y/', ['regex /x/', 'regex /y/']],
    ['after "=>": regex', 'f = () => /x/', ['regex /x/']],
    ['after a private name: division', 'this.#a / 2', ['div /']],
  ];
  for (const [proves, src, want] of rows) assert.deepEqual(slashes(src), want, proves);
});

test('regular expression bodies: classes, escapes and flags', () => {
  const rows = [
    ['a "/" inside a class does not end the literal', 'x = /[/]/g', ['identifier x', 'punctuator =', 'regex /[/]/g']],
    ['an escaped "]" stays inside the class', 'x = /[\\]/]/', ['identifier x', 'punctuator =', 'regex /[\\]/]/']],
    ['an escaped "/" does not end the literal', 'x = /\\//g', ['identifier x', 'punctuator =', 'regex /\\//g']],
    ['every flag letter', 'x = /a/dgimsuyv', ['identifier x', 'punctuator =', 'regex /a/dgimsuyv']],
    ['"import" inside a regex is not a keyword', "/import 'x'/", ["regex /import 'x'/"]],
    ['a regex containing a backtick does not open a template', 'x = /`/; y', ['identifier x', 'punctuator =', 'regex /`/', 'punctuator ;', 'identifier y']],
  ];
  for (const [proves, src, want] of rows) assert.deepEqual(sig(src), want, proves);
});

test('template literals: substitutions, nesting and braces', () => {
  const rows = [
    ['no substitution', '`a b`', ['template `a b`']],
    ['head, middle, tail', '`a${b}c${d}e`', ['template-head `a${', 'identifier b', 'template-middle }c${', 'identifier d', 'template-tail }e`']],
    ['template inside a substitution', '`a${`b${c}d`}e`', ['template-head `a${', 'template-head `b${', 'identifier c', 'template-tail }d`', 'template-tail }e`']],
    ['object braces inside a substitution', '`${ {a: {b: 1}} }`', ['template-head `${', 'punctuator {', 'identifier a', 'punctuator :', 'punctuator {', 'identifier b', 'punctuator :', 'number 1', 'punctuator }', 'punctuator }', 'template-tail }`']],
    ['a block with a template inside a substitution', '`${(() => { return `x` })()}`', ['template-head `${', 'punctuator (', 'punctuator (', 'punctuator )', 'punctuator =>', 'punctuator {', 'keyword return', 'template `x`', 'punctuator }', 'punctuator )', 'punctuator (', 'punctuator )', 'template-tail }`']],
    ['an escaped backtick', '`a\\`b`', ['template `a\\`b`']],
    ['an escaped "${" is text', '`\\${x}`', ['template `\\${x}`']],
    ['"$" not followed by "{" is text', '`$x $`', ['template `$x $`']],
    ['line terminators inside; "import" inside is text', "`\nimport 'x'\n`", ["template `\nimport 'x'\n`"]],
    ['a string with a backtick inside a substitution', '`${"`"}`', ['template-head `${', 'string "`"', 'template-tail }`']],
  ];
  for (const [proves, src, want] of rows) assert.deepEqual(sig(src), want, proves);
});

test('comments, hashbang and what modules do not have (HTML-like comments)', () => {
  const rows = [
    ['a line comment holding an import', "// import 'x'\ny", ["line-comment // import 'x'", 'identifier y']],
    ['a block comment holding an import', "/* import 'x' */ y", ["block-comment /* import 'x' */", 'identifier y']],
    ['a block comment ends at the first "*/"', '/* a */ b /* c */', ['block-comment /* a */', 'identifier b', 'block-comment /* c */']],
    ['"<!--" is not a comment in a module', '<!-- x', ['punctuator <', 'punctuator !', 'punctuator --', 'identifier x']],
    ['"-->" at a line start is not a comment in a module', 'a\n--> x', ['identifier a', 'punctuator --', 'punctuator >', 'identifier x']],
    ['a hashbang at offset 0', "#!/usr/bin/env node\nimport 'x'", ['hashbang #!/usr/bin/env node', 'keyword import', "string 'x'"]],
    ['a hashbang after a BOM (the decoder strips the BOM)', '\ufeff#!node\nx', ['hashbang #!node', 'identifier x']],
    ['"#!" elsewhere is not a hashbang', ' #!x', ['invalid #', 'punctuator !', 'identifier x']],
    ['a comment between tokens does not change the goal: still division', 'a /* c */ / b', ['identifier a', 'block-comment /* c */', 'punctuator /', 'identifier b']],
  ];
  for (const [proves, src, want] of rows) assert.deepEqual(all(src), want, proves);
});

test('strings: escaped quotes, line continuations, unicode line separators', () => {
  const rows = [
    ['escaped single quote', "'a\\'b' c", ["string 'a\\'b'", 'identifier c']],
    ['escaped double quote', '"a\\"b" c', ['string "a\\"b"', 'identifier c']],
    ['line continuation (LF)', '"a\\\nb" c', ['string "a\\\nb"', 'identifier c']],
    ['line continuation (CRLF)', '"a\\\r\nb" c', ['string "a\\\r\nb"', 'identifier c']],
    ['U+2028 is allowed in a string (ES2019)', '"a\u2028b" c', ['string "a\u2028b"', 'identifier c']],
    ['an escaped backslash before the quote', '"a\\\\" c', ['string "a\\\\"', 'identifier c']],
    ['a comment opener inside a string', '"/* x" y', ['string "/* x"', 'identifier y']],
  ];
  for (const [proves, src, want] of rows) assert.deepEqual(sig(src), want, proves);
});

test('cookString and cookTemplate decode escapes; invalid ones give null', () => {
  const rows = [
    ['plain', "'./a.js'", './a.js'],
    ['hex, unicode, code point escapes', "'\\x41\\u0042\\u{43}\\u{1F600}'", 'ABC\u{1F600}'],
    ['single-character escapes', "'\\n\\t\\r\\b\\f\\v\\0'", '\n\t\r\b\f\v\0'],
    ['non-escape characters stand for themselves', "'\\q\\.\\/'", 'q./'],
    ['line continuation contributes nothing', "'a\\\nb'", 'ab'],
    ['legacy octal is a strict-mode error', "'\\101'", null],
    ['"\\0" followed by a digit is legacy octal', "'\\08'", null],
    ['"\\8" is a strict-mode error', "'\\8'", null],
    ['malformed \\x', "'\\x4'", null],
    ['malformed \\u', "'\\u00G1'", null],
    ['code point above U+10FFFF', "'\\u{110000}'", null],
    ['unterminated', "'abc", null],
    ['unterminated: the last quote is escaped', "'abc\\'", null],
  ];
  for (const [proves, src, want] of rows) {
    const token = tokenizeJs(src).tokens[0];
    assert.equal(cookString(src, token), want, proves);
  }
  const template = (src) => cookTemplate(src, tokenizeJs(src).tokens[0]);
  assert.equal(template('`./a.js`'), './a.js', 'no-substitution template');
  assert.equal(template('`a\r\nb\rc`'), 'a\nb\nc', 'CR and CRLF cook to LF');
  assert.equal(template('`\\u0041`'), 'A', 'escapes');
  assert.equal(template('`\\unicode`'), null, 'an invalid escape in an untagged template');
  assert.equal(template('`abc'), null, 'unterminated');
  assert.equal(template('`a${b}`'), null, 'a template head is not a whole literal');
});

test('identifiers: unicode escapes are never keywords; unicode names', () => {
  const rows = [
    ['"\\u0069mport" is the identifier import', '\\u0069mport', 'identifier', 'import', true],
    ['"\\u{69}f" is the identifier if', '\\u{69}f', 'identifier', 'if', true],
    ['a plain keyword', 'import', 'keyword', 'import', false],
    ['strict-mode reserved word', 'let', 'keyword', 'let', false],
    ['contextual words are identifiers', 'from', 'identifier', 'from', false],
    ['non-ASCII letters', 'café', 'identifier', 'café', false],
    ['astral letter (a surrogate pair)', '\u{10480}x', 'identifier', '\u{10480}x', false],
    ['ZWJ escape as a part', 'a\\u200Db', 'identifier', 'a\u200db', true],
    ['"$" and "_"', '$_a1', 'identifier', '$_a1', false],
    ['private name', '#secret', 'private-name', 'secret', false],
  ];
  for (const [proves, src, type, value, escaped] of rows) {
    const { tokens, errors: errs } = tokenizeJs(src);
    assert.equal(tokens.length, 1, proves);
    assert.equal(tokens[0].type, type, proves);
    assert.equal(tokens[0].value, value, proves);
    assert.equal(tokens[0].escaped, escaped, proves);
    assert.deepEqual(errs, [], proves);
  }
  assert.deepEqual(errors('\\u0030x'), ['invalid-escape@0'], 'an escape that is not an identifier start');
  assert.deepEqual(errors('a\\x'), ['invalid-escape@1'], 'a backslash not followed by u');
});

test('import.meta, member calls and property keys', () => {
  assert.deepEqual(sig('import.meta.url'), ['keyword import', 'punctuator .', 'identifier meta', 'punctuator .', 'identifier url']);
  assert.deepEqual(sig("x.import('y')"), ['identifier x', 'punctuator .', 'keyword import', 'punctuator (', "string 'y'", 'punctuator )']);
  const keys = (src) => tokenizeJs(src).tokens.filter((t) => t.key).map((t) => src.slice(t.start, t.end));
  const rows = [
    ['object keys and shorthand', '({ fetch: 1, b, "c": 2, 3: 4 })', ['fetch', 'b', '"c"', '3']],
    ['values are not keys', '({ a: fetch, b: x ? y : z })', ['a', 'b']],
    ['method modifiers and names', '({ get x() {}, set y(v) {}, async *g() {}, import() {} })', ['get', 'x', 'set', 'y', 'async', 'g', 'import']],
    ['class members after ";", "}" and a line break', 'class C { static x = 1; m() {} n\n o = a\n p }', ['static', 'x', 'm', 'n', 'o', 'p']],
    ['a multiplication in an object value is not a generator marker', '({ a: b * c })', ['a']],
    ['block statements have no keys', '{ a: 1 }', []],
    ['parenthesised values inside an object are not keys', '({ a: (b, c) })', ['a']],
    ['computed keys are expressions', '({ [k]: 1 })', []],
  ];
  for (const [proves, src, want] of rows) assert.deepEqual(keys(src), want, proves);
});

test('numeric literals: separators, bigint, radixes, and their errors', () => {
  const ok = ['1_000_000', '0x1F_FFn', '.5e-3', '1.', '0b1010', '0o17', '1e3', '123n', '0', '0.0', '1E+2', '0B1', '0O7', '0X0'];
  for (const src of ok) {
    assert.deepEqual(sig(src), [`number ${src}`], src);
    assert.deepEqual(errors(src), [], src);
  }
  assert.deepEqual(sig('1..toString()'), ['number 1.', 'punctuator .', 'identifier toString', 'punctuator (', 'punctuator )']);
  assert.deepEqual(sig('a?.5:1'), ['identifier a', 'punctuator ?', 'number .5', 'punctuator :', 'number 1'], '"?." before a digit is "?" then a number');
  const bad = [
    ['doubled separator', '1__0', 'invalid-number@1'],
    ['trailing separator', '1_', 'invalid-number@1'],
    ['separator after the radix prefix', '0x_1', 'invalid-number@2'],
    ['legacy octal', '017', 'invalid-number@0'],
    ['non-octal decimal with a leading zero', '08', 'invalid-number@0'],
    ['identifier start right after a number', '3in x', 'invalid-number@1'],
    ['radix prefix without digits', '0x', 'invalid-number@0'],
    ['exponent without digits', '1e', 'invalid-number@0'],
  ];
  for (const [proves, src, want] of bad) assert.equal(errors(src)[0], want, proves);
});

test('punctuators: longest match', () => {
  assert.deepEqual(
    sig('a >>>= b ** c ?? d ??= e ?. f ... g => h !== i &&= j ||= k'),
    ['identifier a', 'punctuator >>>=', 'identifier b', 'punctuator **', 'identifier c', 'punctuator ??', 'identifier d', 'punctuator ??=', 'identifier e', 'punctuator ?.', 'identifier f', 'punctuator ...', 'identifier g', 'punctuator =>', 'identifier h', 'punctuator !==', 'identifier i', 'punctuator &&=', 'identifier j', 'punctuator ||=', 'identifier k'],
  );
});

test('whitespace, line terminators and newlineBefore', () => {
  const tokens = tokenizeJs('a\u2028b\u2029c\u00a0d\ufeffe /*\n*/ f // x\ng\r\nh').tokens.filter((t) => !t.type.endsWith('comment'));
  assert.deepEqual(
    tokens.map((t) => `${t.value}${t.newlineBefore ? '!' : ''}`),
    ['a', 'b!', 'c!', 'd', 'e', 'f!', 'g!', 'h!'],
    'LS, PS, LF, CRLF and a multi-line comment count; NBSP and ZWNBSP are spaces',
  );
});

test('offsets: start and end of each token', () => {
  const { tokens } = tokenizeJs("import x from './a.js';");
  assert.deepEqual(tokens.map((t) => [t.start, t.end]), [[0, 6], [7, 8], [9, 13], [14, 22], [22, 23]]);
});

test('unterminated constructs end and are recorded, never thrown', () => {
  const rows = [
    ['string at EOF', "x = 'abc", ['unterminated-string@4'], ['identifier x', 'punctuator =', "string 'abc"]],
    ['string at a line end; the next line lexes normally', "x = 'abc\nimport 'y'", ['unterminated-string@4'], ['identifier x', 'punctuator =', "string 'abc", 'keyword import', "string 'y'"]],
    ['template substitution never closed', 'x = `a${b', ['unclosed-bracket@6'], ['identifier x', 'punctuator =', 'template-head `a${', 'identifier b']],
    ['regex at a line end', 'x = /abc\ny', ['unterminated-regex@4'], ['identifier x', 'punctuator =', 'regex /abc', 'identifier y']],
    ['regex class at a line end', 'x = /[/\ny', ['unterminated-regex@4'], ['identifier x', 'punctuator =', 'regex /[/', 'identifier y']],
    ['block comment at EOF', 'x /* abc', ['unterminated-comment@2'], ['identifier x']],
    ['a stray character', 'a € b', ['invalid-character@2'], ['identifier a', 'invalid €', 'identifier b']],
    ['an unmatched "}"', 'a }', ['unbalanced-bracket@2'], ['identifier a', 'punctuator }']],
    ['an unmatched ")" and "]"', ') ]', ['unbalanced-bracket@0', 'unbalanced-bracket@2'], ['punctuator )', 'punctuator ]']],
    ['an unclosed "{"', 'function f() {', ['unclosed-bracket@13'], ['keyword function', 'identifier f', 'punctuator (', 'punctuator )', 'punctuator {']],
  ];
  for (const [proves, src, wantErrors, wantTokens] of rows) {
    assert.deepEqual(errors(src), wantErrors, proves);
    assert.deepEqual(sig(src), wantTokens, proves);
  }
  assert.deepEqual(errors('`abc'), ['unterminated-template@0'], 'template without substitution at EOF');
});

test('eof repeats and the lexer never runs backwards', () => {
  const lexer = new JsLexer('a');
  assert.equal(lexer.next().type, 'identifier');
  assert.equal(lexer.next().type, 'eof');
  assert.equal(lexer.next().type, 'eof');
  assert.deepEqual(tokenizeJs('').tokens, []);
});

test('every punctuator lexes as itself, longest match first', () => {
  const all = [
    '{', '}', '(', ')', '[', ']', ';', ',', ':', '?', '.', '?.', '=>', '*', '=', '++', '--', '/', '/=', '~', '@', '...',
    '<', '<<', '<<=', '<=', '>', '>>', '>>=', '>>>', '>>>=', '>=', '==', '===', '!', '!=', '!==', '+', '+=', '-', '-=',
    '**', '**=', '*=', '%', '%=', '&', '&&', '&&=', '&=', '|', '||', '||=', '|=', '^', '^=', '??', '??=',
  ];
  // After an identifier a `/` divides, so every punctuator is read as one.
  for (const p of all) assert.deepEqual(sig(`a ${p} b`), ['identifier a', `punctuator ${p}`, 'identifier b'], p);
  assert.deepEqual([...PUNCTUATORS].sort(), [...all].sort(), 'the table holds exactly these');
  const named = [[Punct.LBrace, '{'], [Punct.RBrace, '}'], [Punct.LParen, '('], [Punct.RParen, ')'], [Punct.LBracket, '['], [Punct.RBracket, ']'], [Punct.Semicolon, ';'], [Punct.Comma, ','], [Punct.Colon, ':'], [Punct.Question, '?'], [Punct.Dot, '.'], [Punct.OptionalChain, '?.'], [Punct.Arrow, '=>'], [Punct.Star, '*'], [Punct.Assign, '='], [Punct.Increment, '++'], [Punct.Decrement, '--'], [Punct.Slash, '/'], [Punct.SlashAssign, '/='], [Punct.Ellipsis, '...']];
  for (const [code, text] of named) assert.equal(PUNCTUATORS[code], text, `Punct code of ${text}`);
});

test('word ids: each Word constant names its word; other names are 0; extra words get ids', () => {
  const words = new JsWords(['fetch']);
  const entries = Object.entries(Word).filter(([, id]) => typeof id === 'number');
  assert.ok(entries.length >= 17, 'the Word constants are there');
  for (const [name, id] of entries) assert.equal(words.names[id], name.toLowerCase(), name);
  assert.equal(words.id('fetch') > 0, true, 'an extra word has an id');
  assert.equal(new JsWords().id('fetch'), 0, 'other side: not without it');
  assert.equal(words.id('fetchx'), 0, 'a longer name is another name');
});

test('scan() records in the ring what next() returns; scanUntil stops at a stop word', () => {
  const src = "#!/usr/bin/env node\nimport a from './a.js'; /* c\n */ x = `t${ {k: 1} }` / 2; // d\nfetch(u); \\u0066etch";
  const want = tokenizeJs(src).tokens.filter((t) => !t.type.endsWith('comment') && t.type !== 'hashbang');
  const lexer = new JsLexer(src, { skipComments: true });
  const got = [];
  for (;;) {
    const kind = lexer.scan();
    if (kind === Token.Eof) break;
    const slot = (lexer.count - 1) & Ring.Mask;
    const flags = lexer.ringFlags[slot];
    got.push({ type: JS_TOKEN_TYPES[lexer.ringKinds[slot]], start: lexer.ringStarts[slot], end: lexer.ringEnds[slot], newlineBefore: (flags & TokenFlag.Newline) !== 0, escaped: (flags & TokenFlag.Escaped) !== 0, key: (flags & TokenFlag.Key) !== 0 });
    assert.equal(kind, lexer.ringKinds[slot], 'scan returns the kind it records');
  }
  assert.deepEqual(got, want.map(({ type, start, end, newlineBefore, escaped, key }) => ({ type, start, end, newlineBefore, escaped, key })), 'comments and the hashbang skipped, the rest alike');
  assert.equal(lexer.scan(), Token.Eof, 'eof repeats');

  const words = new JsWords(['fetch']);
  const stop = new Uint8Array(words.names.length);
  stop[words.id('fetch')] = 1;
  const until = new JsLexer(src, { words, skipComments: true });
  const at = () => until.ringStarts[(until.count - 1) & Ring.Mask];
  assert.equal(until.scanUntil(stop), Token.Identifier, 'stops at the watched name');
  assert.equal(at(), src.indexOf('fetch'), 'the first fetch');
  assert.equal(until.scanUntil(stop), Token.Identifier, 'an escaped name is the same word');
  assert.equal(at(), src.indexOf('\\u0066etch'), 'the escaped fetch');
  assert.equal(until.scanUntil(stop), Token.Eof, 'then the end');
  assert.equal(until.count, got.length + 1, 'every token went through the ring');
});
