// Bundle listing rules (contract "Bundle"; D-1 to D-4): both sides of every boundary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkBundleListing, findPrivateKeyMarker, PRIVATE_KEY_MARKERS } from '../../build/validator/bundle.js';
import { FindingList } from '../../build/validator/findings.js';
import { pathProblem, extensionOf } from '../../build/validator/paths.js';
import {
  BUNDLE_MAX_FILES,
  BUNDLE_MAX_FILE_BYTES,
  BUNDLE_MAX_EXPANDED_BYTES,
  ALLOWED_EXTENSIONS,
} from '../../build/validator/limits.js';

function file(path, size = 10, content) {
  return content === undefined ? { path, kind: 'file', size } : { path, kind: 'file', size: content.length, content };
}

function rules(entries, entrypoint = 'index.html') {
  const findings = new FindingList();
  checkBundleListing(entries, entrypoint, findings);
  return findings.items.map((f) => `${f.rule}${f.file ? ` ${f.file}` : ''}`);
}

test('file count: 200 is fine, 201 is bundle/too-many-files (Bundle; Limits)', () => {
  const make = (n) => [file('index.html'), ...Array.from({ length: n - 1 }, (_, i) => file(`img/p${i}.png`))];
  assert.equal(BUNDLE_MAX_FILES, 200);
  assert.deepEqual(rules(make(200)), []);
  assert.deepEqual(rules(make(201)), ['bundle/too-many-files']);
});

test('one file: 5,242,880 bytes is fine, one more is bundle/file-too-large', () => {
  assert.deepEqual(rules([file('index.html'), file('a.png', BUNDLE_MAX_FILE_BYTES)]), []);
  assert.deepEqual(rules([file('index.html'), file('a.png', BUNDLE_MAX_FILE_BYTES + 1)]), ['bundle/file-too-large a.png']);
});

test('expanded size: 20,971,520 bytes in total is fine, one more is bundle/expanded-too-large', () => {
  const four = Array.from({ length: 4 }, (_, i) => file(`f${i}.png`, BUNDLE_MAX_FILE_BYTES));
  assert.equal(4 * BUNDLE_MAX_FILE_BYTES, BUNDLE_MAX_EXPANDED_BYTES);
  assert.deepEqual(rules([file('index.html', 0), ...four]), []);
  assert.deepEqual(rules([file('index.html', 1), ...four]), ['bundle/expanded-too-large']);
});

test('every allowed extension passes, in any letter case (D-2)', () => {
  for (const ext of ALLOWED_EXTENSIONS) {
    if (ext === 'html') continue;
    assert.deepEqual(rules([file('index.html'), file(`a.${ext}`), file(`B.${ext.toUpperCase()}`)]), [], ext);
  }
});

test('extensions outside the list are refused (JSON, Markdown, maps, TypeScript, lock files, no extension)', () => {
  for (const name of ['data.json', 'README.md', 'main.js.map', 'main.ts', 'package-lock.json', 'LICENSE', 'x.svg', 'a.htm']) {
    assert.deepEqual(rules([file('index.html'), file(name)]), [`bundle/extension-not-allowed ${name}`], name);
  }
});

test('exactly one HTML file, the entrypoint (D-1)', () => {
  assert.deepEqual(rules([file('index.html')]), []);
  assert.deepEqual(rules([file('index.html'), file('other.html')]), ['bundle/extra-html other.html']);
  assert.deepEqual(rules([file('index.html'), file('Index.HTML')]), ['bundle/extra-html Index.HTML', 'bundle/case-collision Index.HTML']);
  assert.deepEqual(rules([file('pages/app.html')], 'pages/app.html'), []);
  // With no usable entrypoint (the manifest is already wrong) HTML files are not blamed twice.
  assert.deepEqual(rules([file('a.html'), file('b.html')], null), []);
});

test('path grammar (D-2): safe segments pass, everything else is bundle/path-invalid', () => {
  const ok = ['a.png', 'A-b_c.9.png', 'deep/er/x.png', 'x..y.png'];
  for (const p of ok) assert.equal(pathProblem(p), null, p);
  const bad = [
    ['', 'empty'],
    ['/a.png', 'leading-slash'],
    ['a\\b.png', 'backslash'],
    ['a?.png', 'query-or-fragment'],
    ['a#.png', 'query-or-fragment'],
    ['a//b.png', 'empty-segment'],
    ['a/', 'empty-segment'],
    ['./a.png', 'dot-segment'],
    ['a/../b.png', 'dot-segment'],
    ['._a.png', 'hidden-segment'],
    ['.well/a.png', 'hidden-segment'],
    ['a b.png', 'bad-character'],
    ['é.png', 'bad-character'],
    ['a:b.png', 'bad-character'],
  ];
  for (const [p, problem] of bad) assert.equal(pathProblem(p), problem, p);
  assert.deepEqual(rules([file('index.html'), file('a b.png')]), ['bundle/path-invalid a b.png']);
  assert.deepEqual(rules([file('index.html'), file('._a.png')]), ['bundle/path-invalid ._a.png']);
});

test('extensionOf ignores case and leading dots', () => {
  assert.equal(extensionOf('a/B.PNG'), 'png');
  assert.equal(extensionOf('a/.png'), '');
  assert.equal(extensionOf('noext'), '');
  assert.equal(extensionOf('a.tar.gz'), 'gz');
});

test('case collisions compare ASCII-lowercased full paths (D-2)', () => {
  assert.deepEqual(rules([file('index.html'), file('img/a.png'), file('IMG/a.png')]), ['bundle/case-collision IMG/a.png']);
  assert.deepEqual(rules([file('index.html'), file('img/a.png'), file('img/b.png')]), []);
});

test('symlinks and special files are refused and not counted as files', () => {
  assert.deepEqual(rules([file('index.html'), { path: 'link.png', kind: 'symlink', size: 0 }]), ['bundle/symlink link.png']);
  assert.deepEqual(rules([file('index.html'), { path: 'fifo', kind: 'other', size: 0 }]), ['bundle/not-regular-file fifo']);
});

test('unreadable files are reported', () => {
  assert.deepEqual(rules([file('index.html'), { path: 'a.png', kind: 'file', size: 0, unreadable: true }]), ['bundle/unreadable-file a.png']);
});

test('private-key material in any bundle file is secret/private-key (D-4)', () => {
  const enc = (s) => new TextEncoder().encode(s);
  for (const marker of PRIVATE_KEY_MARKERS) {
    assert.deepEqual(rules([file('index.html'), file('a.js', 0, enc(`// x\n${marker}\nMC4C\n`))]), ['secret/private-key a.js'], marker);
  }
  assert.deepEqual(rules([file('index.html'), file('a.js', 0, enc('-----BEGIN PUBLIC KEY-----'))]), []);
  assert.deepEqual(rules([file('index.html'), file('a.js', 0, enc('-----BEGIN PRIVATE KEY----'))]), [], 'one dash short');
  assert.equal(findPrivateKeyMarker(enc('---------BEGIN PRIVATE KEY-----')), '-----BEGIN PRIVATE KEY-----', 'extra leading dashes');
});

test('path length (D-2a): 255 bytes is fine, 256 is bundle/path-too-long, counted in UTF-8 bytes', () => {
  const at = (n) => `${'a'.repeat(n - 4)}.png`;
  assert.deepEqual(rules([file('index.html'), file(at(255))]), []);
  assert.deepEqual(rules([file('index.html'), file(at(256))]), [`bundle/path-too-long ${at(256)}`]);
  // A name of 128 two-byte characters is 256 bytes: too long, and not a safe path either.
  assert.ok(rules([file('index.html'), file(`${'é'.repeat(126)}.png`)]).includes(`bundle/path-too-long ${'é'.repeat(126)}.png`));
  const huge = `${'d/'.repeat(32_000)}x.js`;
  const found = rules([file('index.html'), file(huge)]);
  assert.ok(found.includes(`bundle/path-too-long ${huge}`));
});

test('file/folder prefix conflicts (D-2a): "lib" beside "lib/x.js" is refused, compared lowercased', () => {
  assert.deepEqual(rules([file('index.html'), file('lib'), file('lib/x.js')]).filter((r) => r.startsWith('bundle/path-prefix')), ['bundle/path-prefix-conflict lib']);
  assert.deepEqual(rules([file('index.html'), file('Lib.js'), file('lib.js/x.js')]).filter((r) => r.startsWith('bundle/path-prefix')), ['bundle/path-prefix-conflict Lib.js']);
  assert.deepEqual(rules([file('index.html'), file('a/b.js'), file('a/b.js/c/d.js')]).filter((r) => r.startsWith('bundle/path-prefix')), ['bundle/path-prefix-conflict a/b.js']);
  // Neighbours that share a prefix but not a folder are fine: "lib.js" and "lib-a.js" beside "lib/x.js".
  assert.deepEqual(rules([file('index.html'), file('lib.js'), file('lib-a.js'), file('lib/x.js')]).filter((r) => r.startsWith('bundle/path-prefix')), []);
  assert.deepEqual(rules([file('index.html'), file('lib/x.js'), file('lib/y.js'), file('libx/z.js')]).filter((r) => r.startsWith('bundle/path-prefix')), []);
});
