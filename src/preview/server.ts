// The preview server (D-25): node:http on 127.0.0.1, every path below a random per-run token (D-32), `/<token>/…`:
// the host page (/, /page.js, /page.css), the latest check (/state.json, /events as SSE), the extension's files
// (/frame/…), the runtime (/frame/.platform/runtime.js: a dot segment is never a D-2 bundle path, so nothing can
// shadow it), live CSS, and with `--upgrade-from` the previous release's files from its bundle.zip (/previous/…).
// Defences: the token (no token, 404: a page that finds the port can neither read nor drive the store); exactly one
// Host, `127.0.0.1` or `localhost` with our port (DNS rebinding gets 421); frame files by exact path from the checked
// listing, never a disk path, anything outside D-2's alphabet refused before lookup; the runtime policy (D-17) on
// every frame response; another site's `Origin` refused (frame assets send `Access-Control-Allow-Origin: *`, D-25);
// and a strict policy of the host page's own.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { nodeCrypto, nodeHttp } from '../node/builtins.js';
import { sha256Base64 } from '../node/hashes.js';
import type { AddressInfo, Socket } from 'node:net';
import { resolve } from 'node:path';
import {
  runtimePolicy,
  decodeUtf8,
  extensionOf,
  pathProblem,
  HtmlTokenizer,
  CONFIG_META_NAME,
  PROTOCOL_VERSION,
  RUNTIME_MODULE_PATH,
  ruleById,
  type Finding,
  type PlatformConfig,
} from '../validator/internal.js';
import { UsageError } from '../node/usage-error.js';
import {
  BUILD_SETTLE_MISSING_MS,
  BUILD_SETTLE_MS,
  checkProjectFolder,
  EventChannel,
  manifestSummary,
  settleDelay,
  watchFolder,
  type CheckedProject,
  type FolderWatcher,
} from './watch.js';
import { checkProjectRoot } from '../load/project-loader.js';
import {
  FRAME_ATTRIBUTES,
  FRAME_SLOT_ID,
  LIVE_CSS_APPLIED,
  LIVE_CSS_MESSAGE,
  LIVE_CSS_SCRIPT,
  SHORT_CLOCK_MS,
  SHORT_CLOCK_QUERY,
  STATE_ELEMENT_ID,
  frameTitle,
  type ManifestSummary,
  type PreviewState,
} from './host-page/markup.js';
import { runReleasePipeline } from '../pipeline/release-pipeline.js';
import { CAPABILITY_GRANTS } from '../contract/prose.js';

// Strings embedded by the CLI build (esbuild `define`); absent when running from build/.
declare const __PLATFORM_RUNTIME_SOURCE__: string | undefined;
declare const __PLATFORM_PAGE_SOURCE__: string | undefined;
declare const __PLATFORM_PAGE_BOOT__: string | undefined;
declare const __PLATFORM_PAGE_HTML__: string | undefined;
declare const __PLATFORM_PAGE_CSS__: string | undefined;

export interface PreviewAssets {
  readonly runtimeJs: string;
  readonly pageJs: string;
  readonly bootJs: string;
  readonly pageHtml: string;
  readonly pageCss: string;
}

export interface PreviewServerOptions {
  readonly projectDir: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** D-25: loopback only. The type admits nothing else. */
  readonly host: '127.0.0.1';
  readonly deny: readonly string[];
  /** Capabilities whose calls reject with REQUEST_FAILED (`--fail`). */
  readonly fail: readonly string[];
  /** Capabilities whose calls reject with another of the contract's codes (`--fail key=CODE`). */
  readonly failCodes?: Readonly<Record<string, string>>;
  readonly upgradeFrom?: string;
  readonly emptyCatalog: boolean;
  readonly strictHost?: boolean;
  readonly assets?: PreviewAssets;
  readonly watch?: boolean;
  /** Default BUILD_SETTLE_MS and BUILD_SETTLE_MISSING_MS; the tests set their own. */
  readonly settle?: { readonly quietMs: number; readonly missingMs: number };
  /** Shorter bridge timeouts for browser tests; the CLI never sets them, so the contract's apply. */
  readonly runtimeConfig?: Pick<PlatformConfig, 'initializationTimeoutMs' | 'requestTimeoutMs'>;
  readonly onCheck?: (summary: CheckSummary) => void;
  /** Told the URL before the first check: a browser connects meanwhile and is answered after it (the check is sync). */
  readonly onListening?: (url: string) => void;
}

export interface CheckSummary {
  readonly revision: number;
  readonly ok: boolean;
  readonly errors: number;
  readonly warnings: number;
  readonly problem: string | null;
  /** The findings, acknowledged warnings (D-33) left out, in report order. */
  readonly findings: readonly Finding[];
}

export interface PreviewServer {
  /** `http://127.0.0.1:<port>/<token>/`: the token is random per run (D-32). */
  readonly url: string;
  readonly port: number;
  status(): CheckSummary;
  refresh(): void;
  close(): Promise<void>;
}

/** Path prefix of the frame's files; the release base URL of the preview is `http://<host>/frame/`. */
export const FRAME_PREFIX = '/frame/';
/** Where the runtime is served: a hidden segment, which D-2 forbids in bundle paths. */
export const RUNTIME_PATH = FRAME_PREFIX + RUNTIME_MODULE_PATH;
export const PREVIOUS_PREFIX = '/previous/';

/** The stylesheet swapper (live CSS): on the page's message, from the parent origin only, it reloads each named
 *  stylesheet under a new query and drops the old <link>, keeping the document's state; it answers how many. */
export function liveCssScript(): string {
  return `(function () {
  var config = {};
  try { config = JSON.parse(document.querySelector('meta[name="${CONFIG_META_NAME}"]').content); } catch (e) {}
  var base = new URL(config.baseUrl || location.href);
  addEventListener('message', function (event) {
    var data = event.data;
    if (event.source !== parent || event.origin !== config.parentOrigin || !data || data.type !== '${LIVE_CSS_MESSAGE}' || !Array.isArray(data.paths)) return;
    var links = document.querySelectorAll('link[rel~="stylesheet"][href]');
    var swapped = 0;
    for (var i = 0; i < links.length; i++) {
      var old = links[i];
      var url = new URL(old.href, document.baseURI);
      if (url.origin !== base.origin || url.pathname.indexOf(base.pathname) !== 0) continue;
      if (data.paths.indexOf(url.pathname.slice(base.pathname.length)) < 0) continue;
      var next = old.cloneNode(false);
      url.search = '?v=' + encodeURIComponent(String(data.version));
      next.href = url.href;
      next.addEventListener('load', function () { this.remove(); }.bind(old));
      old.after(next);
      swapped++;
    }
    parent.postMessage({ type: '${LIVE_CSS_APPLIED}', version: data.version, swapped: swapped }, config.parentOrigin);
  });
})();
`;
}

export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  avif: 'image/avif',
  css: 'text/css; charset=utf-8',
  gif: 'image/gif',
  html: 'text/html; charset=utf-8',
  jpeg: 'image/jpeg',
  jpg: 'image/jpeg',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  png: 'image/png',
  webp: 'image/webp',
  woff: 'font/woff',
  woff2: 'font/woff2',
};

/** The host page's policy: everything from the server itself (images also `data:`), no one may frame it. One inline
 *  script runs, by hash: boot.ts, which must run before the parser reaches the frame (a file costs a round trip). */
export function hostPagePolicy(bootScriptHash: string): string {
  return [
    "default-src 'none'",
    `script-src 'self' 'sha256-${bootScriptHash}'`,
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "frame-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** D-32: 128 random bits as 32 lowercase hex digits (inside the D-2 path alphabet). */
export function randomToken(): string {
  return nodeCrypto().randomBytes(16).toString('hex');
}

export function scriptHash(text: string): string {
  return sha256Base64(text);
}

const HEADERS_TIMEOUT_MS = 10_000;

/** The path alphabet of D-2 plus `/`: anything else in a request path cannot name a bundle file. */
const SAFE_REQUEST_PATH = /^\/[A-Za-z0-9._\-/]*$/;

export function embeddedAssets(): PreviewAssets {
  const missing = 'This copy of platform-ext was built without the preview page: run "npm run build".';
  const runtimeJs = typeof __PLATFORM_RUNTIME_SOURCE__ === 'string' ? __PLATFORM_RUNTIME_SOURCE__ : `// ${missing}\n`;
  const pageJs = typeof __PLATFORM_PAGE_SOURCE__ === 'string' ? __PLATFORM_PAGE_SOURCE__ : `// ${missing}\n`;
  const bootJs = typeof __PLATFORM_PAGE_BOOT__ === 'string' ? __PLATFORM_PAGE_BOOT__ : `// ${missing}\n`;
  const pageHtml =
    typeof __PLATFORM_PAGE_HTML__ === 'string'
      ? __PLATFORM_PAGE_HTML__
      : `<!doctype html><meta charset="utf-8"><title>Preview</title><p>${missing}</p>\n`;
  const pageCss = typeof __PLATFORM_PAGE_CSS__ === 'string' ? __PLATFORM_PAGE_CSS__ : '';
  return { runtimeJs, pageJs, bootJs, pageHtml, pageCss };
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** After a leading doctype (keeps standards mode), else at the start; a `<!DOCTYPE` inside a comment is not one. */
export function injectionOffset(html: string): number {
  const tokenizer = new HtmlTokenizer(html);
  for (;;) {
    const token = tokenizer.next();
    if (token.type === 'comment') continue;
    if (token.type === 'character' && /^[\t\n\f\r ]*$/.test(token.data)) continue;
    return token.type === 'doctype' ? token.end : 0;
  }
}

/** The entrypoint with the launch markup (contract, Bundle): a configuration <meta> (inline script is forbidden) and
 *  the runtime as a classic parser-blocking script, so `window.PLATFORM` exists before any extension script runs. */
export function injectRuntime(html: string, runtimeUrl: string, config: Readonly<Record<string, unknown>> | PlatformConfig, previewScripts: readonly string[] = []): string {
  const text = html.charCodeAt(0) === 0xfeff ? html.slice(1) : html;
  const at = injectionOffset(text);
  const markup =
    `<meta name="${CONFIG_META_NAME}" content="${escapeAttribute(JSON.stringify(config))}">` +
    `<script src="${escapeAttribute(runtimeUrl)}"></script>` +
    previewScripts.map((url) => `<script src="${escapeAttribute(url)}"></script>`).join('');
  return text.slice(0, at) + markup + text.slice(at);
}

/** Filled with the latest check, so the page shows it at once instead of waiting for the event stream. */
const PAGE_STATE_OPEN = `<script type="application/json" id="${STATE_ELEMENT_ID}">`;
export const PAGE_STATE_PLACEHOLDER = `${PAGE_STATE_OPEN}</script>`;

export const BOOT_PLACEHOLDER = '<script id="preview-boot"></script>';

const FRAME_SLOT_OPEN = `<div class="stage__frame" id="${FRAME_SLOT_ID}">`;
export const FRAME_SLOT_PLACEHOLDER = `${FRAME_SLOT_OPEN}</div>`;

/** No replacement patterns: `$&` in the text stays as it is. */
function fill(html: string, placeholder: string, text: string): string {
  const at = html.indexOf(placeholder);
  return at < 0 ? html : html.slice(0, at) + text + html.slice(at + placeholder.length);
}

/** The page with the boot script inline, the check as a JSON data block and, when it passes, the frame in the markup,
 *  so the frame starts loading while page.js loads. `<` is escaped in the block: no finding text can end it. */
export function renderPage(
  pageHtml: string,
  bootJs: string,
  data: { readonly frameUrl: string | null; readonly manifest: { readonly name: string | null } | null; readonly previous?: { readonly frameUrl: string; readonly manifest: { readonly name: string | null } } | null },
): string {
  // `--upgrade-from`: the page starts by running the previous release.
  const frameUrl = data.previous?.frameUrl ?? data.frameUrl;
  const frameName = data.previous != null ? data.previous.manifest.name : (data.manifest?.name ?? null);
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  let html = fill(pageHtml, BOOT_PLACEHOLDER, `${BOOT_PLACEHOLDER.slice(0, -'</script>'.length)}${bootJs}</script>`);
  html = fill(html, PAGE_STATE_PLACEHOLDER, `${PAGE_STATE_OPEN}${json}</script>`);
  if (frameUrl !== null) {
    const attributes = { ...FRAME_ATTRIBUTES, title: frameTitle(frameName), src: frameUrl };
    const markup = Object.entries(attributes)
      .map(([name, value]) => (value === '' ? ` ${name}` : ` ${name}="${escapeAttribute(value)}"`))
      .join('');
    html = fill(html, FRAME_SLOT_PLACEHOLDER, `${FRAME_SLOT_OPEN}<iframe${markup}></iframe></div>`);
  }
  return html;
}

interface PreviousBundle {
  readonly dir: string;
  readonly manifest: ManifestSummary;
  readonly files: ReadonlyMap<string, Uint8Array>;
}

/** Reads a release folder with `verify`'s pipeline; one with an error is refused (a store never installed it). */
export function loadPreviousRelease(dir: string): PreviousBundle {
  const run = runReleasePipeline(dir);
  const m = run.result.manifest;
  const errors = run.findings.filter((f) => f.severity === 'error').length;
  if (errors > 0 || m === null || run.result.bundleEntries === undefined) {
    throw new UsageError(`The release in "${dir}" has ${errors} error${errors === 1 ? '' : 's'}, so no store runs it: "platform-ext verify ${dir}" lists them`);
  }
  const files = new Map<string, Uint8Array>();
  for (const entry of run.result.bundleEntries) if (entry.kind === 'file' && entry.content !== undefined) files.set(entry.path, entry.content);
  return { dir, manifest: manifestSummary(m), files };
}

function publicState(state: CheckedProject, options: PreviewServerOptions, base: string, previous: PreviousBundle | null = null): PreviewState {
  const entrypoint = state.manifest?.entrypoint ?? null;
  return {
    revision: state.revision,
    ok: state.ok,
    errors: state.errors,
    warnings: state.warnings,
    acknowledged: state.acknowledged,
    findings: state.findings.map((finding) => {
      const hint = ruleById(finding.rule)?.hint;
      return hint === undefined ? finding : { ...finding, hint };
    }),
    problem: state.problem,
    contentKey: state.contentKey,
    frameKey: state.frameKey,
    styles: state.styles,
    manifest: state.manifest,
    frameUrl: state.ok && entrypoint !== null ? base + FRAME_PREFIX + entrypoint : null,
    grantTexts: CAPABILITY_GRANTS,
    previous: previous === null ? null : { manifest: previous.manifest, frameUrl: base + PREVIOUS_PREFIX + previous.manifest.entrypoint, dir: previous.dir },
    options: { deny: options.deny.slice(), fail: options.fail.slice(), failCodes: { ...options.failCodes }, emptyCatalog: options.emptyCatalog, strictHost: options.strictHost === true },
  };
}

interface PreviewServerState {
  readonly options: PreviewServerOptions;
  readonly projectDir: string;
  readonly assets: PreviewAssets;
  /** Worked out at the first page request, after the URL is out: hashing loads node:crypto. */
  pagePolicy: string | null;
  readonly previous: PreviousBundle | null;
  revision: number;
  /** The latest check; set before the server can answer any request (see the listen callback). */
  checked: CheckedProject;
  readonly channel: EventChannel;
  readonly sockets: Set<Socket>;
  readonly base: string;
  port: number;
  watcher: FolderWatcher | null;
  readonly settle: NonNullable<PreviewServerOptions['settle']>;
  /** Set while a failing check waits for the folder to settle (a build in progress); the pages show "building". */
  settling: ReturnType<typeof setTimeout> | null;
  server: Server;
}

function allowedHosts(srv: PreviewServerState): readonly string[] {
  return [`127.0.0.1:${srv.port}`, `localhost:${srv.port}`];
}

function baseHeaders(response: ServerResponse): void {
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Cache-Control', 'no-store');
  response.setHeader('Referrer-Policy', 'no-referrer');
}

function frameHeaders(srv: PreviewServerState, response: ServerResponse, host: string, prefix = FRAME_PREFIX): void {
  baseHeaders(response);
  response.setHeader('Content-Security-Policy', runtimePolicy(`http://${host}${srv.base}${prefix}`));
  response.setHeader('Access-Control-Allow-Origin', '*');
}

// No Cross-Origin-Opener-Policy: the preview holds no secret, so it would protect nothing and costs a renderer
// process on every cold start; D-25 does not ask for it. Framing stays refused (X-Frame-Options, frame-ancestors).
function pageHeaders(srv: PreviewServerState, response: ServerResponse): void {
  baseHeaders(response);
  srv.pagePolicy ??= hostPagePolicy(scriptHash(srv.assets.bootJs));
  response.setHeader('Content-Security-Policy', srv.pagePolicy);
  response.setHeader('X-Frame-Options', 'DENY');
}

function send(request: IncomingMessage, response: ServerResponse, status: number, type: string, body: string | Uint8Array): void {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  response.statusCode = status;
  response.setHeader('Content-Type', type);
  response.setHeader('Content-Length', bytes.length);
  response.end(request.method === 'HEAD' ? undefined : bytes);
}

function plain(request: IncomingMessage, response: ServerResponse, status: number, text: string): void {
  send(request, response, status, 'text/plain; charset=utf-8', `${text}\n`);
}

function serveFrame(srv: PreviewServerState, request: IncomingMessage, response: ServerResponse, path: string, host: string, shortClock: boolean): void {
  const prefix = srv.previous !== null && path.startsWith(PREVIOUS_PREFIX) ? PREVIOUS_PREFIX : FRAME_PREFIX;
  frameHeaders(srv, response, host, prefix);
  const hidden = path.slice(prefix.length);
  if (hidden === RUNTIME_MODULE_PATH) {
    send(request, response, 200, CONTENT_TYPES['js']!, srv.assets.runtimeJs);
    return;
  }
  if (hidden === LIVE_CSS_SCRIPT) {
    send(request, response, 200, CONTENT_TYPES['js']!, liveCssScript());
    return;
  }
  const files = prefix === PREVIOUS_PREFIX ? srv.previous!.files : srv.checked.files;
  const entrypoint = prefix === PREVIOUS_PREFIX ? srv.previous!.manifest.entrypoint : srv.checked.manifest?.entrypoint;
  if (prefix === FRAME_PREFIX && !srv.checked.ok) {
    // A broken extension is not served: the host page shows the findings instead.
    plain(request, response, 503, 'The extension has errors: the preview page lists them');
    return;
  }
  const bundlePath = path.slice(prefix.length);
  const bytes = pathProblem(bundlePath) === null ? files.get(bundlePath) : undefined;
  const type = CONTENT_TYPES[extensionOf(bundlePath)];
  if (bytes === undefined || type === undefined) {
    plain(request, response, 404, 'Not in the bundle');
    return;
  }
  if (bundlePath !== entrypoint) {
    send(request, response, 200, type, bytes);
    return;
  }
  const html = decodeUtf8(bytes);
  if (html === null) {
    // The check refuses non-UTF-8 entrypoints (D-22), so this is a race with an edit.
    plain(request, response, 503, 'The entrypoint changed while it was being served: reload');
    return;
  }
  const config: PlatformConfig = {
    ...srv.options.runtimeConfig,
    // The page's "Short clock" switch: both timeouts shortened, as the page states.
    ...(shortClock && { initializationTimeoutMs: SHORT_CLOCK_MS, requestTimeoutMs: SHORT_CLOCK_MS }),
    protocol: PROTOCOL_VERSION,
    baseUrl: `http://${host}${srv.base}${prefix}`,
    parentOrigin: `http://${host}`,
  };
  const root = `http://${host}${srv.base}${prefix}`;
  send(request, response, 200, type, injectRuntime(html, root + RUNTIME_MODULE_PATH, config, [root + LIVE_CSS_SCRIPT]));
}

function servePage(srv: PreviewServerState, request: IncomingMessage, response: ServerResponse, path: string): void {
  pageHeaders(srv, response);
  switch (path) {
    case '/':
      send(request, response, 200, 'text/html; charset=utf-8', renderPage(srv.assets.pageHtml, srv.assets.bootJs, publicState(srv.checked, srv.options, srv.base, srv.previous)));
      return;
    case '/page.js':
      send(request, response, 200, 'text/javascript; charset=utf-8', srv.assets.pageJs);
      return;
    case '/page.css':
      send(request, response, 200, 'text/css; charset=utf-8', srv.assets.pageCss);
      return;
    case '/state.json':
      send(request, response, 200, 'application/json; charset=utf-8', JSON.stringify(publicState(srv.checked, srv.options, srv.base, srv.previous)));
      return;
    case '/events':
      if (request.method === 'HEAD') {
        send(request, response, 200, 'text/event-stream; charset=utf-8', '');
        return;
      }
      response.statusCode = 200;
      response.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
      response.setHeader('Connection', 'keep-alive');
      response.flushHeaders();
      srv.channel.add(response, { event: 'state', data: publicState(srv.checked, srv.options, srv.base, srv.previous) });
      if (srv.settling !== null) response.write(EventChannel.format('building', { revision: srv.checked.revision }));
      return;
    default:
      plain(request, response, 404, 'Not found');
  }
}

function handle(srv: PreviewServerState, request: IncomingMessage, response: ServerResponse): void {
  let hostHeaders = 0;
  for (let i = 0; i < request.rawHeaders.length; i += 2) if (request.rawHeaders[i]!.toLowerCase() === 'host') hostHeaders++;
  if (hostHeaders > 1) {
    // Node keeps the first of several Host headers; whoever else reads the request may keep another.
    baseHeaders(response);
    response.setHeader('Connection', 'close');
    plain(request, response, 400, 'Bad request: more than one Host header');
    return;
  }
  const host = (request.headers.host ?? '').toLowerCase();
  if (!allowedHosts(srv).includes(host)) {
    // DNS rebinding defence (D-25): a name other than ours means the browser was pointed here by someone else.
    baseHeaders(response);
    response.setHeader('Connection', 'close');
    plain(request, response, 421, 'Misdirected request: open the preview at the address platform-ext printed');
    return;
  }
  const origin = request.headers.origin;
  const target = request.url ?? '';
  const query = target.indexOf('?');
  const fullPath = query < 0 ? target : target.slice(0, query);
  if (fullPath === srv.base && (request.method === 'GET' || request.method === 'HEAD')) {
    // The printed URL without its final slash: the page's relative URLs need it.
    baseHeaders(response);
    response.setHeader('Location', `${srv.base}/`);
    plain(request, response, 308, 'Moved');
    return;
  }
  if (!fullPath.startsWith(`${srv.base}/`)) {
    // D-32: no token, no content (and no hint of what is served).
    baseHeaders(response);
    plain(request, response, 404, 'Not found');
    return;
  }
  const path = fullPath.slice(srv.base.length);
  const isFrame = path.startsWith(FRAME_PREFIX) || (srv.previous !== null && path.startsWith(PREVIOUS_PREFIX));
  if (origin !== undefined && origin !== `http://${host}` && !(isFrame && origin === 'null')) {
    // Another site's script asking: the frame's own requests say `null`, the page's say our origin.
    baseHeaders(response);
    plain(request, response, 403, 'Forbidden');
    return;
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    baseHeaders(response);
    response.setHeader('Allow', 'GET, HEAD');
    plain(request, response, 405, 'Only GET and HEAD');
    return;
  }
  if (!SAFE_REQUEST_PATH.test(path)) {
    // Percent signs, backslashes, NUL and everything outside D-2's alphabet: no bundle file has them.
    if (isFrame) frameHeaders(srv, response, host);
    else baseHeaders(response);
    plain(request, response, 404, 'Not found');
    return;
  }
  if (isFrame) serveFrame(srv, request, response, path, host, query >= 0 && target.slice(query + 1).split('&').includes(SHORT_CLOCK_QUERY));
  else servePage(srv, request, response, path);
}

function publish(srv: PreviewServerState, next: CheckedProject): void {
  if (srv.settling !== null) clearTimeout(srv.settling);
  srv.settling = null;
  srv.revision = next.revision;
  srv.checked = next;
  srv.channel.send('state', publicState(srv.checked, srv.options, srv.base, srv.previous));
  srv.options.onCheck?.(status(srv));
}

function refresh(srv: PreviewServerState): void {
  publish(srv, checkProjectFolder(srv.projectDir, srv.revision + 1));
}

/** A passing check shows at once; a failing one once the folder has been quiet for settleDelay() (the pages show
 *  "building" and keep the running frame), so a bundler rewriting its output never flashes an error. */
function changed(srv: PreviewServerState): void {
  const next = checkProjectFolder(srv.projectDir, srv.revision + 1);
  if (next.ok || next.problem !== null) {
    publish(srv, next);
    return;
  }
  const delay = settleDelay(next.findings, srv.settle);
  if (delay <= 0) {
    publish(srv, next);
    return;
  }
  if (srv.settling === null) srv.channel.send('building', { revision: srv.checked.revision });
  else clearTimeout(srv.settling);
  srv.settling = setTimeout(() => refresh(srv), delay);
}

function status(srv: PreviewServerState): CheckSummary {
  return { revision: srv.checked.revision, ok: srv.checked.ok, errors: srv.checked.errors, warnings: srv.checked.warnings, problem: srv.checked.problem, findings: srv.checked.findings };
}

function close(srv: PreviewServerState): Promise<void> {
  srv.watcher?.close();
  srv.watcher = null;
  if (srv.settling !== null) clearTimeout(srv.settling);
  srv.settling = null;
  srv.channel.close();
  return new Promise((done) => {
    srv.server.close(() => done());
    for (const socket of srv.sockets) socket.destroy();
  });
}

export function createPreviewServer(options: PreviewServerOptions): Promise<PreviewServer> {
  if (options.host !== '127.0.0.1') return Promise.reject(new Error('the preview listens on 127.0.0.1 only (D-25)'));
  const projectDir = resolve(options.projectDir);
  const assets = options.assets ?? embeddedAssets();
  if (/<\/script|<!--/i.test(assets.bootJs)) return Promise.reject(new Error('the boot script cannot be inlined: it contains "</script" or "<!--"'));
  // A missing folder is a usage error before anything listens; the first full check comes after onListening.
  let previous: PreviousBundle | null = null;
  try {
    checkProjectRoot(projectDir);
    if (options.upgradeFrom !== undefined) previous = loadPreviousRelease(options.upgradeFrom);
  } catch (error) {
    return Promise.reject(error);
  }
  const srv: PreviewServerState = {
    options,
    projectDir,
    assets,
    pagePolicy: null,
    previous,
    revision: 1,
    checked: undefined as unknown as CheckedProject,
    channel: new EventChannel(),
    sockets: new Set<Socket>(),
    base: `/${randomToken()}`,
    port: 0,
    watcher: null,
    settle: options.settle ?? { quietMs: BUILD_SETTLE_MS, missingMs: BUILD_SETTLE_MISSING_MS },
    settling: null,
    server: undefined as unknown as Server,
  };
  // Node answers a Host-less request with a bare 400; this way it gets the wrong-Host 421, from one place.
  srv.server = nodeHttp().createServer({ requireHostHeader: false }, (request, response) => {
    try {
      handle(srv, request, response);
    } catch {
      // A bug must not take the preview down; the page can retry.
      if (!response.headersSent) plain(request, response, 500, 'Internal error');
      else response.destroy();
    }
  });
  srv.server.on('connection', (socket: Socket) => {
    srv.sockets.add(socket);
    socket.on('close', () => srv.sockets.delete(socket));
  });
  srv.server.headersTimeout = HEADERS_TIMEOUT_MS;

  return new Promise((resolvePromise, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      srv.server.close();
      if (error.code === 'EADDRINUSE') {
        reject(new UsageError(`Port ${srv.options.port} on 127.0.0.1 is already in use: stop the program using it, or pass "--port 0" to pick a free port`));
      } else if (error.code === 'EACCES') {
        reject(new UsageError(`Port ${srv.options.port} on 127.0.0.1 needs privileges this user does not have: pass a port above 1023, or "--port 0"`));
      } else {
        reject(new UsageError(`Cannot listen on 127.0.0.1 port ${srv.options.port}: ${error.message}`));
      }
    };
    srv.server.once('error', onError);
    srv.server.listen({ port: srv.options.port, host: '127.0.0.1', exclusive: true }, () => {
      srv.server.off('error', onError);
      srv.port = (srv.server.address() as AddressInfo).port;
      const url = `http://127.0.0.1:${srv.port}${srv.base}/`;
      // All of this runs before the event loop can hand the server a request.
      srv.options.onListening?.(url);
      // Watching starts before the first check reads the folder: a save during the check is not missed.
      if (srv.options.watch !== false) srv.watcher = watchFolder(srv.projectDir, () => changed(srv));
      srv.checked = checkProjectFolder(srv.projectDir, srv.revision);
      if (srv.checked.problem !== null) {
        // The folder went away or became unreadable since checkProjectRoot: as at any start-up problem, stop.
        const problem = srv.checked.problem;
        void close(srv).then(() => reject(new UsageError(problem)));
        return;
      }
      resolvePromise({ url, port: srv.port, status: () => status(srv), refresh: () => refresh(srv), close: () => close(srv) });
    });
  });
}
