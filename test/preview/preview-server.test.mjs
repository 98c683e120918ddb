// The preview server (D-25): loopback only, Host allow-list, bundle files from the checked
// listing only, frame responses under the runtime policy (D-17), a strict host-page
// policy, Server-Sent Events, and the `preview` command's edges (arguments, busy port,
// clean stop). Every server is started on port 0 and closed by the test that started it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, createServer as createNetServer } from 'node:net';
import { get } from 'node:http';
import { createHash } from 'node:crypto';
import { networkInterfaces, tmpdir } from 'node:os';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createPreviewServer,
  embeddedAssets,
  injectRuntime,
  injectionOffset,
  renderPage,
  hostPagePolicy,
  scriptHash,
  BOOT_PLACEHOLDER,
  FRAME_SLOT_PLACEHOLDER,
  PAGE_STATE_PLACEHOLDER,
} from '../../build/preview/server.js';
import { FRAME_SANDBOX } from '../../build/validator/runtime-policy.js';
import { buildPage, pageDefines } from '../../scripts/build-page.mjs';
import { describeCheck, runPreview, PREVIEW_FLAGS, PRINTED_FINDINGS_MAX } from '../../build/commands/preview.js';
import { ruleById } from '../../build/validator/rules.js';
import { parseArgs } from '../../build/commands/args.js';
import { runtimePolicy } from '../../build/validator/runtime-policy.js';
import { UsageError } from '../../build/node/usage-error.js';
import { parseFailList } from '../../build/commands/preview.js';
import { SHORT_CLOCK_MS } from '../../build/preview/host-page/markup.js';
import { forgeRelease } from '../support/forge-release.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const ASSETS = {
  runtimeJs: '// RUNTIME-MARKER\n',
  pageJs: '// PAGE-JS-MARKER\n',
  bootJs: '// BOOT-JS-MARKER\n',
  pageHtml: '<!doctype html><title>PAGE-HTML-MARKER</title>\n',
  pageCss: '/* PAGE-CSS-MARKER */\n',
};

/** Strings that live outside the bundle listing: no response may ever contain them. */
const SECRETS = ['OUTSIDE-ROOT-SECRET', 'PROJECT-NOTES-SECRET', 'MANIFEST-DESCRIPTION-SECRET', 'NODE-MODULES-SECRET'];

const MANIFEST = {
  schema_version: 1,
  protocol_version: 1,
  namespace: 'acme/preview-test',
  version: '1.0.0',
  name: 'Preview test',
  description: 'MANIFEST-DESCRIPTION-SECRET',
  entrypoint: 'index.html',
  capabilities: ['cart.manage'],
  properties: {},
};

const INDEX_HTML =
  '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>t</title>' +
  '<link rel="stylesheet" href="style.css"><script type="module" src="main.js"></script></head>' +
  '<body><p>BUNDLE-INDEX-MARKER</p></body></html>\n';

/** One file per allowed extension (Bundle), with the Content-Type each must be served with. */
const TYPED_FILES = [
  ['index.html', INDEX_HTML, 'text/html; charset=utf-8'],
  ['style.css', 'p { color: green; } /* BUNDLE-CSS-MARKER */\n', 'text/css; charset=utf-8'],
  ['main.js', "import './lib/extra.mjs';\n// BUNDLE-JS-MARKER\n", 'text/javascript; charset=utf-8'],
  ['lib/extra.mjs', 'export const x = 1;\n', 'text/javascript; charset=utf-8'],
  ['img/a.avif', 'AVIF', 'image/avif'],
  ['img/b.gif', 'GIF89a', 'image/gif'],
  ['img/c.jpeg', 'JPEG', 'image/jpeg'],
  ['img/d.JPG', 'JPG', 'image/jpeg'],
  ['img/e.png', 'PNG', 'image/png'],
  ['img/f.webp', 'WEBP', 'image/webp'],
  ['fonts/g.woff', 'WOFF', 'font/woff'],
  ['fonts/h.woff2', 'WOFF2', 'font/woff2'],
];

/** A project folder inside a parent folder that holds a file of its own (outside the project). */
function makeFixture(t, { manifest = MANIFEST, files = TYPED_FILES } = {}) {
  const parent = mkdtempSync(join(tmpdir(), 'platform-ext-preview-'));
  t.after(() => rmSync(parent, { recursive: true, force: true }));
  const dir = join(parent, 'project');
  const write = (rel, content) => {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  };
  mkdirSync(dir);
  writeFileSync(join(parent, 'secret.txt'), 'OUTSIDE-ROOT-SECRET\n');
  write('notes.txt', 'PROJECT-NOTES-SECRET\n');
  write('node_modules/pkg/index.js', 'NODE-MODULES-SECRET\n');
  write('manifest.json', JSON.stringify(manifest, null, 2));
  for (const [rel, content] of files) write(`runtime/${rel}`, content);
  return { parent, dir, write };
}

/** Port -> the server's token path (`/<token>`, D-32); rawRequest puts it in front of every `/…` target. */
const BASES = new Map();
function remember(url) {
  const parsed = new URL(url);
  BASES.set(Number(parsed.port), parsed.pathname.replace(/\/$/, ''));
  return url;
}

async function startServer(t, dir, extra = {}) {
  const server = await createPreviewServer({
    projectDir: dir,
    port: 0,
    host: '127.0.0.1',
    deny: [],
    fail: [],
    emptyCatalog: false,
    assets: ASSETS,
    watch: false,
    ...extra,
  });
  t.after(() => server.close());
  remember(server.url);
  return server;
}

/**
 * One HTTP/1.1 request written byte for byte (no client-side normalization of the path,
 * full control of Host), read until the server closes. `host: null` sends no Host header.
 */
function rawRequest(port, { method = 'GET', target, host = `127.0.0.1:${port}`, headers = {}, token = true, extraLines = [] }) {
  if (token && target.startsWith('/')) target = (BASES.get(port) ?? '') + target;
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      const head = split < 0 ? text : text.slice(0, split);
      const body = split < 0 ? '' : text.slice(split + 4);
      const [statusLine, ...lines] = head.split('\r\n');
      const parsed = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim().toLowerCase();
        const value = line.slice(colon + 1).trim();
        parsed[name] = parsed[name] === undefined ? value : `${parsed[name]}, ${value}`;
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers: parsed, body, raw: text });
    });
    let request = `${method} ${target} HTTP/1.1\r\n`;
    if (host !== null) request += `Host: ${host}\r\n`;
    for (const [name, value] of Object.entries(headers)) request += `${name}: ${value}\r\n`;
    for (const line of extraLines) request += `${line}\r\n`;
    request += 'Connection: close\r\n\r\n';
    socket.write(request, 'latin1');
  });
}

function assertNoSecrets(response, what) {
  for (const secret of SECRETS) assert.ok(!response.raw.includes(secret), `${what}: leaked ${secret}`);
}

// ---------------------------------------------------------------------------------------
// Path handling: only files of the bundle listing, by exact path

test('traversal attempts never reach a file outside the bundle listing', async (t) => {
  const { dir } = makeFixture(t);
  const server = await startServer(t, dir);
  assert.equal(server.status().ok, true, 'fixture project must pass the check');
  const rows = [
    // [request target, what it tries]
    ['/frame/../manifest.json', 'plain dot-dot to the manifest'],
    ['/frame/../notes.txt', 'plain dot-dot to a project file'],
    ['/frame/../../secret.txt', 'dot-dot out of the project'],
    ['/frame/./../secret.txt', 'dot segment then dot-dot'],
    ['/frame/%2e%2e/manifest.json', 'percent-encoded dots'],
    ['/frame/%2E%2E/%2E%2E/secret.txt', 'upper-case percent-encoded dots'],
    ['/frame/..%2fmanifest.json', 'encoded slash'],
    ['/frame/..%2Fnotes.txt', 'encoded slash, upper case'],
    ['/frame/%2e%2e%2f%2e%2e%2fsecret.txt', 'fully encoded path'],
    ['/frame/..\\manifest.json', 'backslash separator'],
    ['/frame/..\\..\\secret.txt', 'backslashes out of the project'],
    ['/frame/..%5cmanifest.json', 'encoded backslash'],
    ['/frame/..%5Cnotes.txt', 'encoded backslash, upper case'],
    ['/frame/%252e%252e/manifest.json', 'double-encoded dots'],
    ['/frame/..%252fmanifest.json', 'double-encoded slash'],
    ['/frame/%c0%ae%c0%ae/manifest.json', 'overlong UTF-8 dots'],
    ['/frame/main.js%00.png', 'encoded NUL'],
    ['/frame/%00../manifest.json', 'encoded NUL then dot-dot'],
    ['/frame//manifest.json', 'empty segment'],
    ['/frame/.platform/../../manifest.json', 'through the runtime prefix'],
    ['/frame/../node_modules/pkg/index.js', 'into node_modules'],
    ['/../manifest.json', 'dot-dot on the page side'],
    ['/..%2fmanifest.json', 'encoded slash on the page side'],
    ['/manifest.json', 'project file on the page side'],
    ['/runtime/main.js', 'the disk folder name instead of the frame prefix'],
    ['//secret.txt', 'protocol-relative looking target'],
    [`http://127.0.0.1/frame/../manifest.json`, 'absolute-form target'],
    ['/frame/MAIN.JS', 'letter case differs from the listing'],
    ['/frame/main.js/', 'trailing slash'],
    ['/frame/runtime/main.js', 'disk folder inside the frame prefix'],
  ];
  for (const [target, what] of rows) {
    const response = await rawRequest(server.port, { target });
    assert.notEqual(response.status, 200, `${what} (${target}) must not succeed`);
    assertNoSecrets(response, what);
    assert.ok(!response.body.includes('BUNDLE-JS-MARKER'), `${what}: served a bundle file under another name`);
  }
  // The control row: the same client does read a listed file, so the rows above can fail.
  const ok = await rawRequest(server.port, { target: '/frame/main.js' });
  assert.equal(ok.status, 200);
  assert.ok(ok.body.includes('BUNDLE-JS-MARKER'));
  const withQuery = await rawRequest(server.port, { target: '/frame/main.js?v=2' });
  assert.equal(withQuery.status, 200, 'a query string is ignored, not part of the path');
});

test('files outside runtime/ and files the check did not read are never served', async (t) => {
  const { dir } = makeFixture(t, { files: [...TYPED_FILES, ['notes.md', 'MD-SECRET']] });
  const server = await startServer(t, dir);
  // notes.md has no allowed extension: the check fails, and nothing of the bundle is served.
  assert.equal(server.status().ok, false);
  const response = await rawRequest(server.port, { target: '/frame/notes.md' });
  assert.equal(response.status, 503);
  assert.ok(!response.raw.includes('MD-SECRET'));
  const index = await rawRequest(server.port, { target: '/frame/index.html' });
  assert.equal(index.status, 503, 'a broken extension is not served');
  assert.ok(!index.raw.includes('BUNDLE-INDEX-MARKER'));
});

// ---------------------------------------------------------------------------------------
// Host header (DNS rebinding defence) and Origin

test('a foreign or missing Host header gets 421 and no content', async (t) => {
  const { dir } = makeFixture(t);
  const server = await startServer(t, dir);
  const port = server.port;
  const rows = [
    [`evil.example:${port}`, 'foreign name with our port'],
    ['evil.example', 'foreign name, no port'],
    [`127.0.0.1.evil.example:${port}`, 'our address as a prefix of a foreign name'],
    [`localhost.evil.example:${port}`, 'localhost as a prefix of a foreign name'],
    [`127.0.0.1:${port + 1}`, 'our address with another port'],
    ['127.0.0.1', 'our address without the port'],
    ['localhost', 'localhost without the port'],
    [`[::1]:${port}`, 'IPv6 loopback literal'],
    [`127.0.0.2:${port}`, 'another loopback address'],
    [`0.0.0.0:${port}`, 'the unspecified address'],
    ['', 'empty Host'],
    [null, 'no Host header at all'],
  ];
  for (const target of ['/', '/state.json', '/page.js', '/frame/index.html', '/frame/main.js', '/frame/.platform/runtime.js', '/events']) {
    for (const [host, what] of rows) {
      const response = await rawRequest(port, { target, host });
      assert.ok(response.status === 421 || response.status === 403, `${what} for ${target}: got ${response.status}`);
      for (const marker of ['BUNDLE-', 'PAGE-', 'RUNTIME-MARKER', 'revision', ...SECRETS]) {
        assert.ok(!response.body.includes(marker), `${what} for ${target}: body has ${marker}`);
      }
    }
  }
  // Control rows: the two names D-25 allows, in any letter case.
  for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LocalHost:${port}`]) {
    const response = await rawRequest(port, { target: '/frame/main.js', host });
    assert.equal(response.status, 200, host);
  }
});

test('another site may not read frame assets, even with Access-Control-Allow-Origin: *', async (t) => {
  const { dir } = makeFixture(t);
  const server = await startServer(t, dir);
  const port = server.port;
  const rows = [
    // [target, Origin, expected status, why]
    ['/frame/main.js', 'https://evil.example', 403, 'a foreign page fetching a module'],
    ['/frame/main.js', `http://127.0.0.1:${port + 1}`, 403, 'another local server'],
    ['/frame/main.js', 'null', 200, 'the sandboxed frame itself (opaque origin)'],
    ['/frame/main.js', `http://127.0.0.1:${port}`, 200, 'the host page'],
    ['/frame/main.js', `http://localhost:${port}`, 403, 'the other allowed name, when Host says 127.0.0.1'],
    ['/state.json', 'null', 403, 'a sandboxed document asking for page data'],
    ['/state.json', 'https://evil.example', 403, 'a foreign page asking for page data'],
    ['/state.json', `http://127.0.0.1:${port}`, 200, 'the host page'],
  ];
  for (const [target, origin, status, why] of rows) {
    const response = await rawRequest(port, { target, headers: { Origin: origin } });
    assert.equal(response.status, status, why);
    if (status !== 200) assert.ok(!response.body.includes('BUNDLE-') && !response.body.includes('revision'), why);
  }
});

// ---------------------------------------------------------------------------------------
// Listening address

test('the server listens on 127.0.0.1 only', async (t) => {
  const { dir } = makeFixture(t);
  const server = await startServer(t, dir);
  assert.equal(new URL(server.url).hostname, '127.0.0.1');
  const canConnect = (host) =>
    new Promise((resolve) => {
      const socket = connect({ host, port: server.port });
      socket.on('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
  assert.equal(await canConnect('127.0.0.1'), true, 'control: loopback connects');
  // 127.0.0.2 is loopback too on Linux, but a socket bound to 127.0.0.1 does not accept it.
  const others = ['127.0.0.2', '::1'];
  for (const list of Object.values(networkInterfaces())) {
    for (const info of list ?? []) if (!info.internal) others.push(info.address);
  }
  for (const address of others) assert.equal(await canConnect(address), false, `reachable on ${address}`);
  await assert.rejects(
    createPreviewServer({ projectDir: dir, port: 0, host: '0.0.0.0', deny: [], fail: [], emptyCatalog: false, assets: ASSETS, watch: false }),
    'any other host is refused',
  );
});

// ---------------------------------------------------------------------------------------
// Frame responses: runtime policy, sandbox, CORS, MIME types

test('every frame response carries the runtime policy, nosniff, no-store and ACAO *', async (t) => {
  const { dir } = makeFixture(t);
  const server = await startServer(t, dir);
  const policy = runtimePolicy(`${server.url}frame/`);
  assert.match(policy, /sandbox allow-scripts$/, 'the policy carries the sandbox directive');
  const targets = [
    ...TYPED_FILES.map(([rel]) => `/frame/${rel}`),
    '/frame/.platform/runtime.js',
    '/frame/missing.js',
    '/frame/..%2fmanifest.json',
    '/frame/',
  ];
  for (const target of targets) {
    for (const method of ['GET', 'HEAD']) {
      const response = await rawRequest(server.port, { target, method });
      assert.equal(response.headers['content-security-policy'], policy, `${method} ${target}`);
      assert.equal(response.headers['x-content-type-options'], 'nosniff', target);
      assert.equal(response.headers['cache-control'], 'no-store', target);
      assert.equal(response.headers['access-control-allow-origin'], '*', target);
    }
  }
  // Reached as localhost, the base URL in the policy follows the Host the browser used.
  const viaLocalhost = await rawRequest(server.port, { target: '/frame/main.js', host: `localhost:${server.port}` });
  assert.equal(viaLocalhost.headers['content-security-policy'], runtimePolicy(`http://localhost:${server.port}${BASES.get(server.port)}/frame/`));
});

test('each allowed extension is served with its Content-Type', async (t) => {
  const { dir } = makeFixture(t);
  const server = await startServer(t, dir);
  for (const [rel, content, type] of TYPED_FILES) {
    const response = await rawRequest(server.port, { target: `/frame/${rel}` });
    assert.equal(response.status, 200, rel);
    assert.equal(response.headers['content-type'], type, rel);
    if (rel !== 'index.html') assert.equal(response.body, content, rel);
  }
  const runtime = await rawRequest(server.port, { target: '/frame/.platform/runtime.js' });
  assert.equal(runtime.headers['content-type'], 'text/javascript; charset=utf-8');
  assert.equal(runtime.body, ASSETS.runtimeJs);
  const head = await rawRequest(server.port, { target: '/frame/main.js', method: 'HEAD' });
  assert.equal(head.status, 200);
  assert.equal(head.body, '', 'HEAD has no body');
  const post = await rawRequest(server.port, { target: '/frame/main.js', method: 'POST' });
  assert.equal(post.status, 405);
});

test('the entrypoint is served with the configuration meta and the runtime first in head, as a classic script', async (t) => {
  const { dir } = makeFixture(t);
  const server = await startServer(t, dir, { runtimeConfig: { requestTimeoutMs: 50 } });
  const response = await rawRequest(server.port, { target: '/frame/index.html' });
  const body = Buffer.from(response.body, 'latin1').toString('utf8');
  const origin = `http://127.0.0.1:${server.port}`;
  const expectedStart =
    '<!doctype html><meta name="platform-config" content="' +
    `{&quot;requestTimeoutMs&quot;:50,&quot;protocol&quot;:1,&quot;baseUrl&quot;:&quot;${server.url}frame/&quot;,&quot;parentOrigin&quot;:&quot;${origin}&quot;}` +
    `"><script src="${server.url}frame/.platform/runtime.js"></script>` +
    // The preview's stylesheet swapper (live CSS) comes after the runtime, also a file.
    `<script src="${server.url}frame/.platform/live-css.js"></script>\n<html lang="en">`;
  assert.equal(body.slice(0, expectedStart.length), expectedStart);
  assert.ok(body.endsWith('<body><p>BUNDLE-INDEX-MARKER</p></body></html>\n'), 'the author markup follows unchanged');
  assert.ok(!/<script(?![^>]*\bsrc=)[^>]*>/i.test(body), 'no inline script is injected (the policy forbids it)');
});

test('injection goes after a leading doctype, otherwise first', () => {
  const rows = [
    // [html, expected offset, what it proves]
    ['<!doctype html><html>', 15, 'doctype first'],
    ['<!DOCTYPE html>\n<html>', 15, 'upper-case doctype, text after it stays after the markup'],
    ['\n  <!doctype html><p>', 18, 'whitespace before the doctype'],
    ['<!-- note --><!doctype html><p>', 28, 'comment before the doctype'],
    ['<!-- <!doctype html> --><p>', 0, 'a doctype inside a comment is not one'],
    ['<html><head>', 0, 'no doctype'],
    ['hello <!doctype html>', 0, 'text before a late doctype'],
    ['', 0, 'empty document'],
  ];
  for (const [html, offset, what] of rows) assert.equal(injectionOffset(html), offset, what);
  const withBom = injectRuntime('\ufeff<!doctype html><p>x', '/rt.js', { a: '"<&>' });
  assert.equal(
    withBom,
    '<!doctype html><meta name="platform-config" content="{&quot;a&quot;:&quot;\\&quot;&lt;&amp;&gt;&quot;}"><script src="/rt.js"></script><p>x',
    'BOM dropped, attribute text escaped',
  );
});

// ---------------------------------------------------------------------------------------
// The host page

test('the host page carries the latest check as a JSON data block that no text can end, and the frame when the check passes', async (t) => {
  const page = `<!doctype html><head>${BOOT_PLACEHOLDER}${PAGE_STATE_PLACEHOLDER}</head><body>${FRAME_SLOT_PLACEHOLDER}`;
  const hostile = { message: '</script><script>alert(1)</script> <!-- $& $1 $$ \u2028', file: 'a<b' };
  const block = (html) => /<script type="application\/json" id="preview-state">([^<]*)<\/script>/.exec(html);
  const failing = renderPage(page, 'BOOT();', { frameUrl: null, manifest: null, ...hostile });
  assert.ok(block(failing) !== null, 'one data block, closed by its own end tag');
  assert.deepEqual(JSON.parse(block(failing)[1]), { frameUrl: null, manifest: null, ...hostile }, 'the JSON reads back exactly (no replacement patterns applied)');
  assert.equal(failing.indexOf('</script>', failing.indexOf('preview-state')), block(failing).index + block(failing)[0].length - '</script>'.length, 'the first </script> ends the block');
  assert.ok(failing.endsWith(FRAME_SLOT_PLACEHOLDER), 'no frame while the check fails');
  assert.ok(failing.startsWith('<!doctype html><head><script id="preview-boot">BOOT();</script>'), 'the boot script is inlined first');
  const passing = renderPage(page, 'BOOT();', { frameUrl: '/frame/index.html', manifest: { name: 'A "quoted" <name> & $&' } });
  assert.ok(
    passing.endsWith(
      `<div class="stage__frame" id="frame-slot"><iframe sandbox="${FRAME_SANDBOX}" credentialless referrerpolicy="no-referrer" ` +
        'title="Extension: A &quot;quoted&quot; &lt;name&gt; &amp; $&amp;" src="/frame/index.html"></iframe></div>',
    ),
    passing,
  );
  assert.equal(renderPage('<p>no placeholders', 'BOOT();', { frameUrl: '/frame/x.html', manifest: null }), '<p>no placeholders', 'a page without the placeholders is served as it is');
  for (const bootJs of ['a("</script>")', 'a("<!--")', 'a("</SCRIPT ")']) {
    await assert.rejects(
      createPreviewServer({ projectDir: makeFixture(t).dir, port: 0, host: '127.0.0.1', deny: [], fail: [], emptyCatalog: false, watch: false, assets: { ...ASSETS, bootJs } }),
      /cannot be inlined/,
      bootJs,
    );
  }

  // Served: the block holds what /state.json holds, and the frame is in the markup.
  const { dir } = makeFixture(t);
  const server = await startServer(t, dir, { assets: { ...ASSETS, pageHtml: `<!doctype html><title>PAGE-HTML-MARKER</title>${PAGE_STATE_PLACEHOLDER}${FRAME_SLOT_PLACEHOLDER}\n` } });
  const html = Buffer.from((await rawRequest(server.port, { target: '/' })).body, 'latin1').toString('utf8');
  const state = JSON.parse((await rawRequest(server.port, { target: '/state.json' })).body);
  assert.deepEqual(JSON.parse(block(html)[1]), state);
  assert.equal(state.revision, 1);
  assert.ok(html.includes(`src="${state.frameUrl}"></iframe>`));
});

test('the host page has its own strict policy and loads nothing from elsewhere', async (t) => {
  const { dir } = makeFixture(t);
  const server = await startServer(t, dir);
  for (const [target, type, marker] of [
    ['/', 'text/html; charset=utf-8', 'PAGE-HTML-MARKER'],
    ['/page.js', 'text/javascript; charset=utf-8', 'PAGE-JS-MARKER'],
    ['/page.css', 'text/css; charset=utf-8', 'PAGE-CSS-MARKER'],
    ['/state.json', 'application/json; charset=utf-8', '"revision":1'],
  ]) {
    const response = await rawRequest(server.port, { target });
    assert.equal(response.status, 200, target);
    assert.equal(response.headers['content-type'], type, target);
    assert.ok(response.body.includes(marker), target);
    assert.equal(response.headers['content-security-policy'], hostPagePolicy(scriptHash(ASSETS.bootJs)), target);
    assert.equal(response.headers['x-content-type-options'], 'nosniff', target);
    assert.equal(response.headers['cache-control'], 'no-store', target);
    assert.equal(response.headers['access-control-allow-origin'], undefined, `${target}: page data is not shared`);
  }
  // The policy itself: same-origin sources only, no inline code, nothing remote, no framing.
  const policy = hostPagePolicy(scriptHash(ASSETS.bootJs));
  const directives = new Map(policy.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
  assert.deepEqual(directives.get('default-src'), ["'none'"]);
  // Its own files, and the one inline script with exactly the boot script's text.
  assert.deepEqual(directives.get('script-src'), ["'self'", `'sha256-${createHash('sha256').update(ASSETS.bootJs).digest('base64')}'`]);
  assert.deepEqual(directives.get('style-src'), ["'self'"]);
  assert.deepEqual(directives.get('frame-ancestors'), ["'none'"]);
  assert.ok(!/unsafe|https?:|\*/.test(policy), 'no inline allowance but the hash, no scheme or wildcard source');
  assert.equal(directives.has('font-src'), false, 'system fonts only');
  // The real page markup and styles reference nothing outside the server.
  const html = readFileSync(join(ROOT, 'src/preview/host-page/page.html'), 'utf8');
  const css = readFileSync(join(ROOT, 'src/preview/host-page/page.css'), 'utf8');
  const refs = [...html.matchAll(/\b(?:src|href)\s*=\s*"([^"]*)"/g)].map((m) => m[1]);
  // Relative: the page is served below the per-run token (D-32).
  assert.deepEqual(refs.sort(), ['page.css', 'page.js', 'data:,'].sort());
  assert.equal(html.split(BOOT_PLACEHOLDER).length, 2, 'exactly one placeholder for the boot script');
  assert.ok(html.indexOf(BOOT_PLACEHOLDER) < html.indexOf('rel="stylesheet"'), 'the boot script comes before the stylesheet, so it never waits for it');
  assert.equal(html.split(FRAME_SLOT_PLACEHOLDER).length, 2, 'exactly one frame slot for the server to fill');
  assert.ok(
    !/<script(?![^>]*\bsrc=)(?![^>]*\btype="application\/json")(?![^>]*\bid="preview-boot")[^>]*>/i.test(html),
    'no inline script in the page but the boot script (a JSON data block is not run)',
  );
  assert.equal(html.split(PAGE_STATE_PLACEHOLDER).length, 2, 'exactly one placeholder for the embedded check');
  assert.ok(!/\sstyle\s*=|\son[a-z]+\s*=/i.test(html), 'no inline style or handler attributes');
  assert.ok(!/url\(|@import|@font-face/i.test(css), 'the stylesheet loads nothing');
  const unknown = await rawRequest(server.port, { target: '/nope' });
  assert.equal(unknown.status, 404);
});

test('buildPage bundles the host page for the browser; without it the server says how to build', async (t) => {
  const page = await buildPage(ROOT);
  assert.ok(page.pageJs.length > 10_000, 'the page, the host bridge and the mock store');
  assert.ok(!/\bnode:[a-z]/.test(page.pageJs), 'no Node module in the browser bundle');
  assert.ok(page.pageJs.includes('platform:cart-updated'), 'the host bridge is inside');
  assert.equal(page.pageHtml, readFileSync(join(ROOT, 'src/preview/host-page/page.html'), 'utf8'));
  assert.equal(page.pageCss, readFileSync(join(ROOT, 'src/preview/host-page/page.css'), 'utf8'));
  const defines = pageDefines(page);
  assert.deepEqual(Object.keys(defines).sort(), ['__PLATFORM_PAGE_BOOT__', '__PLATFORM_PAGE_CSS__', '__PLATFORM_PAGE_HTML__', '__PLATFORM_PAGE_SOURCE__']);
  assert.equal(JSON.parse(defines.__PLATFORM_PAGE_SOURCE__), page.pageJs);
  assert.equal(JSON.parse(defines.__PLATFORM_PAGE_BOOT__), page.bootJs);
  assert.ok(page.bootJs.length < 1000 && !/\bimport\b|\bexport\b/.test(page.bootJs), 'the boot script is a small classic script');
  assert.ok(!/<\/script|<!--/i.test(page.bootJs), 'it can be inlined as it is');
  // Transpiled sources (build/) have no embedded strings: the fallback page says what to do.
  const fallback = embeddedAssets();
  assert.match(fallback.pageHtml, /npm run build/);
  const { dir } = makeFixture(t);
  const server = await startServer(t, dir, { assets: undefined });
  const response = await rawRequest(server.port, { target: '/' });
  assert.equal(response.status, 200);
  assert.match(response.body, /npm run build/);
});

// ---------------------------------------------------------------------------------------
// State and live updates

function readEvents(port, onEvent) {
  return new Promise((resolve, reject) => {
    const request = get({ host: '127.0.0.1', port, path: `${BASES.get(port) ?? ''}/events`, headers: { Host: `127.0.0.1:${port}` } }, (response) => {
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => {
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event !== undefined && onEvent(event, JSON.parse(data)) === true) {
            request.destroy();
            resolve();
          }
        }
      });
      response.on('end', resolve);
    });
    request.on('error', (error) => (error.code === 'ECONNRESET' ? resolve() : reject(error)));
  });
}

test('a change is re-checked and pushed to the page; a broken extension stops being served', async (t) => {
  const { dir, write } = makeFixture(t);
  const server = await startServer(t, dir);
  const seen = [];
  const done = readEvents(server.port, (event, data) => {
    seen.push([event, data.revision, data.ok, data.errors, data.frameUrl]);
    if (data.revision === 1) {
      // Break the entrypoint (an inline script), then ask for a re-check.
      write('runtime/index.html', '<!doctype html><script>alert(1)</script>\n');
      server.refresh();
    } else if (data.revision === 2) {
      write('runtime/index.html', INDEX_HTML);
      server.refresh();
    }
    return data.revision === 3;
  });
  await done;
  assert.deepEqual(
    seen.map(([event, revision, ok, , frameUrl]) => [event, revision, ok, frameUrl]),
    [
      ['state', 1, true, `${BASES.get(server.port)}/frame/index.html`],
      ['state', 2, false, null],
      ['state', 3, true, `${BASES.get(server.port)}/frame/index.html`],
    ],
  );
  assert.ok(seen[1][3] > 0, 'revision 2 reports its errors');
  const state = JSON.parse((await rawRequest(server.port, { target: '/state.json' })).body);
  assert.equal(state.revision, 3);
  assert.deepEqual(state.manifest.capabilities, ['cart.manage']);
  assert.deepEqual(state.options, { deny: [], fail: [], failCodes: {}, emptyCatalog: false, strictHost: false });
});

test('the content key changes with the manifest or a bundle file, not with other project files', async (t) => {
  const { dir, write } = makeFixture(t);
  const server = await startServer(t, dir);
  const key = async () => JSON.parse((await rawRequest(server.port, { target: '/state.json' })).body).contentKey;
  const first = await key();
  assert.match(first, /^[0-9a-f]{64}$/);
  const rows = [
    // [change, key changes?, what]
    [() => write('notes.txt', 'edited'), false, 'a file outside runtime/'],
    [() => write('runtime/style.css', 'p { color: red; }\n'), true, 'a stylesheet'],
    [() => write('runtime/img/new.png', 'PNG'), true, 'a new bundle file'],
    [() => write('manifest.json', JSON.stringify({ ...MANIFEST, name: 'Renamed' }, null, 2)), true, 'the manifest'],
    [() => {}, false, 'nothing'],
  ];
  let previous = first;
  for (const [change, changes, what] of rows) {
    change();
    server.refresh();
    const next = await key();
    assert.equal(next !== previous, changes, what);
    previous = next;
  }
});

test('the URL is announced once the server listens and before the first check; a request that comes meanwhile gets the checked state', async (t) => {
  const { dir } = makeFixture(t);
  const seen = [];
  let firstState = null;
  const server = await startServer(t, dir, {
    onListening: (url) => {
      seen.push(remember(url));
      // The first check has not read the folder yet: a manifest broken now is what it sees.
      writeFileSync(join(dir, 'manifest.json'), '{"schema_version": 1,');
      // Sent now, before the check: answered after it, with its result.
      firstState = rawRequest(Number(new URL(url).port), { target: '/state.json' });
    },
  });
  assert.deepEqual(seen, [server.url]);
  const state = JSON.parse((await firstState).body);
  assert.deepEqual([state.revision, state.ok, state.frameUrl], [1, false, null]);
  assert.equal(server.status().revision, 1);
});

test('start-up problems: a missing folder refuses before listening; a folder that cannot be checked closes the server it opened', async (t) => {
  const { dir, parent } = makeFixture(t);
  const announced = [];
  const options = { port: 0, host: '127.0.0.1', deny: [], fail: [], emptyCatalog: false, assets: ASSETS, watch: false, onListening: (url) => announced.push(url) };
  await assert.rejects(createPreviewServer({ ...options, projectDir: join(parent, 'nope') }), (error) => error instanceof UsageError && /does not exist/.test(error.message));
  assert.deepEqual(announced, [], 'nothing listened');
  // A folder whose manifest.json cannot be opened at all: the folder's own path fits in
  // PATH_MAX but the manifest's does not (ENAMETOOLONG, for any user). A folder named
  // manifest.json is a finding (D-30), not a failure, so it cannot serve here.
  let deep = parent;
  while (deep.length < 4000) deep = join(deep, 'd'.repeat(Math.min(200, 4090 - deep.length - 1)));
  deep = join(deep, 'p'.repeat(4090 - deep.length - 1));
  mkdirSync(deep, { recursive: true });
  t.after(() => rmSync(join(parent, 'd'.repeat(200)), { recursive: true, force: true }));
  await assert.rejects(createPreviewServer({ ...options, projectDir: deep }), (error) => error instanceof UsageError && /manifest\.json|project folder/.test(error.message));
  assert.equal(announced.length, 1);
  await assert.rejects(rawRequest(Number(new URL(announced[0]).port), { target: '/' }), /ECONNREFUSED/, 'the server it opened is closed');
});

test('a project folder that disappears is reported, not a crash, and comes back on the next check', async (t) => {
  const { dir, parent } = makeFixture(t);
  const server = await startServer(t, dir);
  const moved = join(parent, 'moved');
  renameSync(dir, moved);
  server.refresh();
  const gone = JSON.parse((await rawRequest(server.port, { target: '/state.json' })).body);
  assert.equal(gone.ok, false);
  assert.match(gone.problem, /does not exist/);
  assert.equal(gone.frameUrl, null);
  assert.equal((await rawRequest(server.port, { target: '/frame/main.js' })).status, 503);
  renameSync(moved, dir);
  server.refresh();
  const back = JSON.parse((await rawRequest(server.port, { target: '/state.json' })).body);
  assert.deepEqual([back.ok, back.problem, back.revision], [true, null, 3]);
  assert.equal((await rawRequest(server.port, { target: '/frame/main.js' })).status, 200);
});

test('the watcher re-checks after a file changes on disk', async (t) => {
  const { dir, write } = makeFixture(t);
  const server = await startServer(t, dir, { watch: true });
  let wrote = false;
  await readEvents(server.port, (event, data) => {
    if (!wrote) {
      wrote = true;
      write('runtime/main.js', "import './lib/extra.mjs';\nfetch('/x');\n");
      return false;
    }
    // Any later revision proves the watcher fired; the fetch use is a warning, so the extension still runs.
    return data.revision > 1 && data.ok === true && data.warnings > 0;
  });
  assert.ok(server.status().revision > 1);
});

test('the folder watcher sees a folder created after it started, and files saved in it', async (t) => {
  const { watchFolder } = await import('../../build/preview/watch.js');
  const dir = mkdtempSync(join(tmpdir(), 'platform-ext-watch-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'runtime'));
  let changes = 0;
  let waiting = null;
  const watcher = watchFolder(dir, () => {
    changes++;
    waiting?.();
  }, 5);
  t.after(() => watcher.close());
  const nextChange = () =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no change reported within 10 s')), 10_000);
      waiting = () => {
        clearTimeout(timer);
        waiting = null;
        resolve();
      };
    });
  let seen = nextChange();
  mkdirSync(join(dir, 'runtime', 'new'));
  await seen;
  const afterFolder = changes;
  seen = nextChange();
  writeFileSync(join(dir, 'runtime', 'new', 'b.js'), 'export {};\n');
  await seen;
  assert.ok(changes > afterFolder, 'a save inside the new folder is a change');
});

test('the server stops by itself: close ends event streams and frees the port', async (t) => {
  const { dir } = makeFixture(t);
  const server = await createPreviewServer({
    projectDir: dir, port: 0, host: '127.0.0.1', deny: [], fail: [], emptyCatalog: false, assets: ASSETS, watch: true,
  });
  const stream = readEvents(server.port, () => false);
  await rawRequest(server.port, { target: '/state.json' });
  await server.close();
  await stream;
  await assert.rejects(rawRequest(server.port, { target: '/' }), /ECONNREFUSED/);
});

// ---------------------------------------------------------------------------------------
// The `preview` command

function captureIo() {
  const io = { outText: '', errText: '', out: (s) => (io.outText += s), err: (s) => (io.errText += s), color: false };
  return io;
}

test('preview: unknown capability keys, bad ports and wrong folders are usage errors', (t) => {
  const { dir } = makeFixture(t);
  const rows = [
    // [argv, pattern the message must match]
    [[dir, '--deny', 'cart.manag'], /"cart\.manag".*did you mean "cart\.manage"/],
    [[dir, '--deny', 'cart.write'], /"cart\.write".*did you mean "cart\.manage"/],
    [[dir, '--fail', 'site.theme.raed'], /did you mean "site\.theme\.read"/],
    [[dir, '--fail', 'cart.manage=REQUEST_TIMEOUTT'], /did you mean "REQUEST_TIMEOUT"/],
    [[dir, '--fail', 'cart.manage=INITIALIZATION_TIMEOUT'], /handshake's code/],
    [[dir, '--upgrade-from', ''], /"--upgrade-from" needs a release folder/],
    [[dir, '--deny', 'cart.manage,payments.charge'], /"payments\.charge".*analytics\.events\.write/],
    [[dir, '--deny', ' , '], /needs at least one capability/],
    [[dir, '--port', '65536'], /"--port"/],
    [[dir, '--port', '-1'], /"--port"/],
    [[dir, '--port', '80a'], /"--port"/],
    [[dir, dir], /one project folder/],
  ];
  for (const [argv, pattern] of rows) {
    const io = captureIo();
    assert.throws(() => runPreview(parseArgs(argv, PREVIEW_FLAGS, 'preview'), io, { assets: ASSETS }), (error) => {
      assert.ok(error instanceof UsageError, String(argv));
      assert.match(error.message, pattern);
      return true;
    });
  }
});

test('preview: a port in use is a clear error naming the port (exit 2)', async (t) => {
  const { dir } = makeFixture(t);
  const blocker = createNetServer();
  await new Promise((resolve) => blocker.listen({ port: 0, host: '127.0.0.1' }, resolve));
  t.after(() => blocker.close());
  const port = blocker.address().port;
  const io = captureIo();
  const status = await runPreview(parseArgs([dir, '--port', String(port)], PREVIEW_FLAGS, 'preview'), io, { assets: ASSETS });
  assert.equal(status, 2);
  assert.match(io.errText, new RegExp(`^platform-ext: Port ${port} .*in use.*--port 0`));
  const missing = captureIo();
  const statusMissing = await runPreview(parseArgs([join(dir, 'nope'), '--port', '0'], PREVIEW_FLAGS, 'preview'), missing, { assets: ASSETS });
  assert.equal(statusMissing, 2);
  assert.match(missing.errText, /does not exist/);
});

/**
 * Runs the preview command with `args` until its server listens. `stop()` ends it as SIGTERM
 * does; a failed assertion before that still ends it (a running server would keep this file alive).
 */
async function runPreviewListening(t, args, io) {
  let server;
  const finished = runPreview(parseArgs(args, PREVIEW_FLAGS, 'preview'), io, {
    assets: ASSETS,
    onListening: (s) => {
      server = s;
      remember(s.url);
    },
  });
  while (server === undefined) await new Promise((resolve) => setImmediate(resolve));
  let stopped = false;
  t.after(() => {
    if (!stopped) process.emit('SIGTERM');
  });
  const stop = () => {
    stopped = true;
    process.emit('SIGTERM');
  };
  return { server, finished, stop };
}

test('preview: prints the URL, applies the flags and stops cleanly on SIGTERM', async (t) => {
  const { dir } = makeFixture(t);
  const io = captureIo();
  const before = process.listenerCount('SIGTERM');
  const { server, finished, stop } = await runPreviewListening(t, [dir, '--port', '0', '--deny', 'cart.manage', '--fail', 'site.theme.read,cart.manage', '--empty-catalog', '--strict-host'], io);
  const state = JSON.parse((await rawRequest(server.port, { target: '/state.json' })).body);
  assert.deepEqual(state.options, { deny: ['cart.manage'], fail: ['site.theme.read', 'cart.manage'], failCodes: {}, emptyCatalog: true, strictHost: true });
  assert.match(io.outText, new RegExp(`http://127\\.0\\.0\\.1:${server.port}/`));
  assert.equal(process.listenerCount('SIGTERM'), before + 1);
  stop();
  assert.equal(await finished, 0);
  assert.equal(process.listenerCount('SIGTERM'), before, 'signal handlers removed');
  await assert.rejects(rawRequest(server.port, { target: '/' }), /ECONNREFUSED/);
});

test('D-32: every path sits below the per-run token; without it, or with another, the answer is 404 and no content', async (t) => {
  const { dir } = makeFixture(t);
  const server = await startServer(t, dir);
  const other = await startServer(t, dir);
  const base = BASES.get(server.port);
  assert.match(base, /^\/[0-9a-f]{32}$/);
  assert.notEqual(base, BASES.get(other.port), 'each run draws its own token');
  for (const target of ['/', '/page.js', '/state.json', '/events', '/frame/index.html', '/frame/main.js', '/frame/.platform/runtime.js']) {
    // The event stream stays open: asked with HEAD, which answers at once.
    assert.equal((await rawRequest(server.port, { target, method: target === '/events' ? 'HEAD' : 'GET' })).status, 200, `with the token: ${target}`);
    for (const [prefix, what] of [['', 'no token'], [BASES.get(other.port), "another run's token"], [base.slice(0, -1), 'a token one digit short'], [base.toUpperCase(), 'the token in upper case']]) {
      const response = await rawRequest(server.port, { target: prefix + target, token: false });
      assert.equal(response.status, 404, `${what}: ${target}`);
      assert.ok(!response.body.includes('MARKER'), `${what}: ${target} serves nothing`);
    }
  }
  const bare = await rawRequest(server.port, { target: base, token: false });
  assert.deepEqual([bare.status, bare.headers.location], [308, `${base}/`], 'the token without its final slash leads to the page');
});

test('two Host headers are a bad request (400), whichever comes first', async (t) => {
  const { dir } = makeFixture(t);
  const server = await startServer(t, dir);
  const ours = `127.0.0.1:${server.port}`;
  for (const [first, second] of [[ours, 'evil.example'], ['evil.example', ours], [ours, ours], [ours, `localhost:${server.port}`]]) {
    const response = await rawRequest(server.port, { target: '/frame/index.html', host: first, extraLines: [`Host: ${second}`] });
    assert.equal(response.status, 400, `${first} then ${second}`);
    assert.ok(!response.body.includes('MARKER'));
  }
  assert.equal((await rawRequest(server.port, { target: '/frame/index.html' })).status, 200, 'one Host is served');
});

test('a file that keeps changing faster than the debounce still gets checked while it changes (at most the longest wait apart)', async (t) => {
  const { watchFolder, WATCH_MAX_WAIT_MS } = await import('../../build/preview/watch.js');
  assert.ok(WATCH_MAX_WAIT_MS <= 500, 'the re-check comes at least every 500 ms');
  const dir = mkdtempSync(join(tmpdir(), 'platform-ext-watch-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'runtime'));
  // A debounce far longer than the gap between writes: only the longest wait can end a burst.
  let changes = 0;
  const watcher = watchFolder(dir, () => changes++, 60_000, 100);
  t.after(() => watcher.close());
  let writes = 0;
  // Writes every 20 ms until a check has come, for at most 1,000 writes: the watcher must not wait for the burst to end.
  while (changes === 0 && writes < 1000) {
    writeFileSync(join(dir, 'runtime', 'busy.js'), `export const n = ${writes++};\n`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.ok(changes > 0, `no check during ${writes} writes`);
});

test('D-33: warnings that platform-ext.config.json acknowledges are counted apart, as check counts them', async (t) => {
  const { dir, write } = makeFixture(t);
  write('runtime/extra.js', 'export const unused = 1;\n'); // loaded by nothing: a bundle/unreferenced-module warning
  const server = await startServer(t, dir);
  const state = async () => {
    server.refresh();
    return JSON.parse((await rawRequest(server.port, { target: '/state.json' })).body);
  };
  const extra = (s) => s.findings.filter((f) => f.rule === 'bundle/unreferenced-module' && f.file === 'runtime/extra.js').length;
  const before = await state();
  assert.equal(extra(before), 1);
  assert.equal(before.acknowledged, 0);

  const entry = { rule: 'bundle/unreferenced-module', file: 'runtime/extra.js', reason: 'loaded by a later release' };
  // An entry for a finding only `check` makes (the generated files) is not reported unused
  // here: the preview does not run that part of the check.
  const checkOnly = { rule: 'project/snapshot-stale', file: 'contract-snapshot/', reason: 'regenerated at release time' };
  write('platform-ext.config.json', JSON.stringify({ acknowledged: [entry, checkOnly] }));
  const after = await state();
  assert.equal(extra(after), 0);
  assert.equal(after.acknowledged, 1);
  assert.equal(after.warnings, before.warnings - 1);
  assert.deepEqual(after.findings.filter((f) => f.rule.startsWith('config/')), []);

  // The config's own problems are findings, as in check; nothing is acknowledged then.
  write('platform-ext.config.json', '{ "acknowledged": [');
  const broken = await state();
  assert.deepEqual(broken.findings.filter((f) => f.rule.startsWith('config/')).map((f) => f.rule), ['config/invalid-json']);
  assert.equal(extra(broken), 1);
  assert.equal(broken.acknowledged, 0);
});

// ---------------------------------------------------------------------------------------
// Issue 26: failures on demand, the short clock, live CSS, --upgrade-from

test('--fail: a plain key is REQUEST_FAILED, key=CODE any call code; a bad or handshake code is a usage error', () => {
  assert.deepEqual(parseFailList('cart.manage=ADAPTER_UNAVAILABLE,catalog.products.read=REQUEST_TIMEOUT,site.theme.read'), {
    fail: ['site.theme.read'],
    failCodes: { 'cart.manage': 'ADAPTER_UNAVAILABLE', 'catalog.products.read': 'REQUEST_TIMEOUT' },
  });
  // The last entry for a key wins; REQUEST_FAILED spelled out is the plain key.
  assert.deepEqual(parseFailList('cart.manage=INVALID_REQUEST, cart.manage=REQUEST_FAILED'), { fail: ['cart.manage'], failCodes: {} });
  const rows = [
    ['cart.manage=ADAPTER_UNAVAILABL', /not an error code: did you mean "ADAPTER_UNAVAILABLE"/],
    ['cart.manage=INITIALIZATION_TIMEOUT', /handshake's code/],
    ['cart.manag=REQUEST_TIMEOUT', /did you mean "cart\.manage"/],
    ['=REQUEST_TIMEOUT', /capability/],
  ];
  for (const [text, pattern] of rows) assert.throws(() => parseFailList(text), (error) => error instanceof UsageError && pattern.test(error.message), text);
});

test('--fail codes reach the page state; the short clock is asked in the frame URL and injected', async (t) => {
  const { dir } = makeFixture(t);
  const server = await startServer(t, dir, { failCodes: { 'cart.manage': 'ADAPTER_UNAVAILABLE' } });
  const state = JSON.parse((await rawRequest(server.port, { target: '/state.json' })).body);
  assert.deepEqual(state.options.failCodes, { 'cart.manage': 'ADAPTER_UNAVAILABLE' });
  const configOf = async (target) => {
    const body = Buffer.from((await rawRequest(server.port, { target })).body, 'latin1').toString('utf8');
    return JSON.parse(body.match(/content="([^"]*)"/)[1].replace(/&quot;/g, '"'));
  };
  const short = await configOf('/frame/index.html?clock=short');
  assert.equal(short.initializationTimeoutMs, SHORT_CLOCK_MS);
  assert.equal(short.requestTimeoutMs, SHORT_CLOCK_MS);
  const normal = await configOf('/frame/index.html');
  assert.equal(normal.initializationTimeoutMs, undefined);
  assert.equal(normal.requestTimeoutMs, undefined);
});

test('live CSS: the swapper is served below the frame prefix; a stylesheet-only change keeps frameKey, another file changes it', async (t) => {
  const { dir, write } = makeFixture(t);
  const server = await startServer(t, dir);
  const script = await rawRequest(server.port, { target: '/frame/.platform/live-css.js' });
  assert.equal(script.status, 200);
  assert.equal(script.headers['content-type'], 'text/javascript; charset=utf-8');
  assert.match(script.headers['content-security-policy'], /sandbox allow-scripts/);
  const before = JSON.parse((await rawRequest(server.port, { target: '/state.json' })).body);
  write('runtime/style.css', 'p { color: red; }\n');
  server.refresh();
  const css = JSON.parse((await rawRequest(server.port, { target: '/state.json' })).body);
  assert.notEqual(css.contentKey, before.contentKey);
  assert.equal(css.frameKey, before.frameKey);
  assert.notEqual(css.styles['style.css'], before.styles['style.css']);
  write('runtime/main.js', '// changed\n');
  server.refresh();
  const js = JSON.parse((await rawRequest(server.port, { target: '/state.json' })).body);
  assert.notEqual(js.frameKey, css.frameKey);
});

test('--upgrade-from: the previous release is served from its bundle.zip below /previous/, and the page starts with it', async (t) => {
  const { dir, parent } = makeFixture(t);
  const release = join(parent, 'release-1.0.0');
  const manifest = { ...MANIFEST, namespace: 'acme/hostile', capabilities: [] };
  forgeRelease(release, { manifest, files: { 'index.html': '<!doctype html><html><head><meta charset="utf-8"><title>old</title></head><body>PREVIOUS-MARKER</body></html>\n', 'old.css': 'p{}' } });
  const server = await startServer(t, dir, { upgradeFrom: release, assets: { ...ASSETS, pageHtml: '<!doctype html><div class="stage__frame" id="frame-slot"></div>' } });
  const state = JSON.parse((await rawRequest(server.port, { target: '/state.json' })).body);
  assert.equal(state.previous.manifest.version, '1.0.0');
  assert.equal(state.previous.frameUrl, `${BASES.get(server.port)}/previous/index.html`);
  const page = await rawRequest(server.port, { target: '/' });
  assert.match(page.body, /<iframe[^>]* src="[^"]*\/previous\/index\.html"/);
  const entry = Buffer.from((await rawRequest(server.port, { target: '/previous/index.html' })).body, 'latin1').toString('utf8');
  assert.match(entry, /PREVIOUS-MARKER/);
  assert.match(entry, new RegExp(`baseUrl&quot;:&quot;http://127\\.0\\.0\\.1:${server.port}${BASES.get(server.port)}/previous/&quot;`));
  const css = await rawRequest(server.port, { target: '/previous/old.css' });
  assert.equal(css.status, 200);
  assert.match(css.headers['content-security-policy'], /previous\//);
  assert.equal((await rawRequest(server.port, { target: '/previous/style.css' })).status, 404, "the project's files are not the release's");
  assert.equal((await rawRequest(server.port, { target: '/previous/.platform/runtime.js' })).status, 200);
  // Without --upgrade-from there is no /previous/.
  const plain = await startServer(t, dir);
  assert.equal((await rawRequest(plain.port, { target: '/previous/index.html' })).status, 404);
});

test('--upgrade-from: a folder that is not a sound release is a usage error naming verify', async (t) => {
  const { dir, parent } = makeFixture(t);
  const release = join(parent, 'broken');
  forgeRelease(release, { files: { 'index.html': '<!doctype html><p>x</p>' }, signature: Buffer.alloc(64) });
  await assert.rejects(startServer(t, dir, { upgradeFrom: release }), (error) => error instanceof UsageError && /platform-ext verify/.test(error.message));
  await assert.rejects(startServer(t, dir, { upgradeFrom: join(parent, 'missing') }), UsageError);
});

test('preview: --fail key=CODE and --upgrade-from reach the page state and the terminal notes', async (t) => {
  const { dir, parent } = makeFixture(t);
  const release = join(parent, 'release');
  forgeRelease(release, { files: { 'index.html': '<!doctype html><p>old</p>' } });
  const io = captureIo();
  const { server, finished, stop } = await runPreviewListening(t, [dir, '--port', '0', '--fail', 'cart.manage=ADAPTER_UNAVAILABLE,site.theme.read', '--upgrade-from', release], io);
  const state = JSON.parse((await rawRequest(server.port, { target: '/state.json' })).body);
  assert.deepEqual(state.options.fail, ['site.theme.read']);
  assert.deepEqual(state.options.failCodes, { 'cart.manage': 'ADAPTER_UNAVAILABLE' });
  assert.equal(state.previous.manifest.namespace, 'acme/hostile');
  assert.match(io.outText, /failing: site\.theme\.read, cart\.manage \(ADAPTER_UNAVAILABLE\)/);
  assert.match(io.outText, /upgrade from the release in /);
  stop();
  assert.equal(await finished, 0);
});

test('a check with findings names each in the terminal (rule, file:line, message) and gives the page each fix hint', async (t) => {
  const { dir, write } = makeFixture(t);
  write('runtime/index.html', '<!doctype html><script>alert(1)</script>\n');
  const server = await startServer(t, dir);
  server.refresh();
  const state = JSON.parse((await rawRequest(server.port, { target: '/state.json' })).body);
  const inline = state.findings.find((f) => f.rule === 'html/inline-script');
  assert.ok(inline !== undefined, JSON.stringify(state.findings.map((f) => f.rule)));
  assert.equal(inline.hint, ruleById('html/inline-script').hint, 'the page gets the catalogue hint');

  // The terminal: the summary line, then one line per finding with its rule id and place.
  const status = server.status();
  assert.deepEqual(status.findings.map((f) => f.rule), state.findings.map((f) => f.rule));
  const lines = describeCheck(status).split('\n');
  assert.equal(lines.length, 1 + status.findings.length);
  assert.match(lines[0], /^✖ /);
  const line = lines.find((l) => l.includes('html/inline-script'));
  assert.ok(line !== undefined && line.includes(`runtime/index.html:${inline.line}`), line);
});

test('describeCheck: errors before warnings, at most PRINTED_FINDINGS_MAX lines, input text escaped (D-29)', () => {
  const finding = (i, severity) => ({ rule: 'js/network-api', severity, message: `call ${i}\u001b[2J`, file: 'runtime/main.js', line: i });
  const findings = [finding(1, 'warning'), ...Array.from({ length: PRINTED_FINDINGS_MAX + 4 }, (_, i) => finding(i + 2, 'error'))];
  const text = describeCheck({ revision: 1, ok: false, errors: findings.length - 1, warnings: 1, problem: null, findings });
  const lines = text.split('\n');
  assert.equal(lines.length, 1 + PRINTED_FINDINGS_MAX + 1);
  assert.match(lines[1], /^ {2}error {4}js\/network-api {2}runtime\/main\.js:2: /);
  assert.match(lines.at(-1), /and 5 more/);
  assert.ok(!text.includes('\u001b'), 'no escape sequence from a message reaches the terminal');
  assert.equal(describeCheck({ revision: 1, ok: true, errors: 0, warnings: 0, problem: null, findings: [] }), '✓ No problems found');
});
