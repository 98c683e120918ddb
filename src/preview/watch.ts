// The preview's view of the project: checked exactly as `check` does, watched with a debounce, pushed over SSE.
// The frame is served from this in-memory listing, never from a disk path built out of a request (D-25).
import { createSha256 } from '../node/hashes.js';
import { readdirSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { extensionOf, type Finding, type ManifestInfo } from '../validator/internal.js';
import type { ManifestSummary } from './host-page/markup.js';
import { runProjectPipeline, type ProjectRun } from '../pipeline/project-pipeline.js';
import { UsageError } from '../node/usage-error.js';
import { applyAcknowledgements, loadProjectConfig } from '../load/project-config.js';

export interface CheckedProject {
  /** Counts up from 1 with every check, so pages can tell a new result from a repeat. */
  readonly revision: number;
  /** No error finding and the folder was read (warnings allowed, as in `check`: D-21). */
  readonly ok: boolean;
  readonly errors: number;
  readonly warnings: number;
  /** Warnings that platform-ext.config.json acknowledges (D-33): counted here, not in `findings` or `warnings`. */
  readonly acknowledged: number;
  readonly findings: readonly Finding[];
  /** Set when the folder itself could not be read (deleted, renamed): the usage-error text. */
  readonly problem: string | null;
  readonly manifest: ManifestSummary | null;
  /** SHA-256 over the manifest and bundle files: the page restarts the frame only when this changes. */
  readonly contentKey: string;
  /** contentKey blind to the bytes of .css files (their paths still count): equal means only stylesheets changed. */
  readonly frameKey: string;
  readonly styles: Readonly<Record<string, string>>;
  readonly files: ReadonlyMap<string, Uint8Array>;
}

/** A folder that cannot be read is a result, not a throw. */
export function checkProjectFolder(dir: string, revision: number): CheckedProject {
  let run: ProjectRun;
  try {
    run = runProjectPipeline(dir);
  } catch (error) {
    // The folder vanished between two events: the page says so. A watcher callback must never throw.
    const problem = error instanceof UsageError ? error.message : `Cannot read the project folder "${dir}": ${(error as Error)?.message ?? String(error)}`;
    return { revision, ok: false, errors: 0, warnings: 0, acknowledged: 0, findings: [], problem, manifest: null, contentKey: '', frameKey: '', styles: {}, files: new Map() };
  }
  const { project, result } = run;
  // D-33 as in `check`, but unused entries are not reported: they may cover a finding only `check` makes.
  const split = applyAcknowledgements(loadProjectConfig(dir), run.findings, { reportUnused: false });
  const findings = split.findings;
  let errors = 0;
  for (const f of findings) if (f.severity === 'error') errors++;
  const files = new Map<string, Uint8Array>();
  const hash = createSha256();
  // Without stylesheet bytes: the page swaps a changed stylesheet into the running frame (live CSS).
  const frameHash = createSha256();
  const styles: Record<string, string> = {};
  // Lengths first, so that no two different listings can hash the same byte stream.
  const manifestBytes = project.input.manifest ?? new Uint8Array(0);
  hash.update(`manifest ${manifestBytes.length}\n`).update(manifestBytes);
  frameHash.update(`manifest ${manifestBytes.length}\n`).update(manifestBytes);
  for (const entry of project.input.files ?? []) {
    const content = entry.content ?? new Uint8Array(0);
    const head = `\n${entry.kind} ${entry.path.length} ${entry.path} ${entry.size} ${content.length}\n`;
    hash.update(head).update(content);
    if (entry.kind === 'file' && extensionOf(entry.path) === 'css') {
      frameHash.update(`\nstylesheet ${entry.path.length} ${entry.path}\n`);
      styles[entry.path] = createSha256().update(content).digest('hex').slice(0, 16);
    } else frameHash.update(head).update(content);
    if (entry.kind === 'file' && entry.content !== undefined) files.set(entry.path, entry.content);
  }
  const manifest = result.manifest === null ? null : manifestSummary(result.manifest);
  const contentKey = hash.digest('hex');
  const frameKey = frameHash.digest('hex');
  return { revision, ok: errors === 0, errors, warnings: findings.length - errors, acknowledged: split.acknowledged.length, findings, problem: null, manifest, contentKey, frameKey, styles, files };
}

const IGNORED_FOLDERS = new Set(['node_modules', '.git']);

/** Quiet time before a burst of events (a save, a `git checkout`) becomes one check; each event restarts it. A file
 *  read half written gets a fresh check from the write's next event. */
export const WATCH_DEBOUNCE_MS = 30;

/** A file rewritten faster than the debounce would postpone the check forever: while events come, check this often. */
export const WATCH_MAX_WAIT_MS = 500;

/** A failing re-check waits this long for quiet before it is shown: a bundler in watch mode rewrites its output in
 *  steps, and a check in between would flash an error on every save. A passing check shows at once. */
export const BUILD_SETTLE_MS = 800;
/** The same when only files are missing: a bundler empties its output first and may compile for seconds silently. */
export const BUILD_SETTLE_MISSING_MS = 8_000;
/** Rules whose findings mean "a file is not there (yet)": what a build in progress looks like. */
export const MISSING_FILE_RULES: ReadonlySet<string> = new Set([
  'bundle/missing-runtime',
  'bundle/entrypoint-missing',
  'bundle/unreadable-file',
  'html/missing-reference',
  'css/missing-reference',
  'js/missing-module',
]);

export function settleDelay(findings: readonly Finding[], settle: { readonly quietMs: number; readonly missingMs: number }): number {
  const errors = findings.filter((f) => f.severity === 'error');
  return errors.length > 0 && errors.every((f) => MISSING_FILE_RULES.has(f.rule)) ? settle.missingMs : settle.quietMs;
}

export interface FolderWatcher {
  close(): void;
}

function isIgnored(relative: string | null): boolean {
  if (relative === null) return false;
  const first = relative.split(/[\\/]/)[0] ?? '';
  return IGNORED_FOLDERS.has(first);
}

/** Every folder under `dir` (itself included) outside the ignored ones, for platforms without recursive watching. */
function listFolders(dir: string): string[] {
  const out: string[] = [dir];
  for (let i = 0; i < out.length; i++) {
    let children;
    try {
      children = readdirSync(out[i]!, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const child of children) {
      if (child.isDirectory() && !IGNORED_FOLDERS.has(child.name)) out.push(join(out[i]!, child.name));
    }
  }
  return out;
}

/** Calls `onChange` once per burst of changes under `dir`: one recursive watcher on macOS and Windows, otherwise one
 *  per folder, rebuilt after each burst (Node 20 emulates recursive watching on Linux by reading the whole tree,
 *  node_modules included, and can run out of inotify watches). Watcher errors count as a change. */
export function watchFolder(dir: string, onChange: () => void, debounceMs = WATCH_DEBOUNCE_MS, maxWaitMs = WATCH_MAX_WAIT_MS): FolderWatcher {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let burstStart = 0;
  let closed = false;
  let watchers: FSWatcher[] = [];
  let recursive = process.platform === 'darwin' || process.platform === 'win32';

  function fire(): void {
    timer = null;
    if (closed) return;
    if (!recursive) rewatch();
    onChange();
  }

  function schedule(relative: string | null): void {
    if (closed || isIgnored(relative)) return;
    const now = performance.now();
    if (timer === null) burstStart = now;
    else clearTimeout(timer);
    // Each event restarts the quiet time, but never past maxWaitMs after the burst began.
    timer = setTimeout(fire, Math.max(0, Math.min(debounceMs, burstStart + maxWaitMs - now)));
  }

  function attach(folder: string, options: { recursive: boolean }): FSWatcher | null {
    try {
      const watcher = watch(folder, { recursive: options.recursive, persistent: true }, (_event, name) => {
        schedule(name === null ? null : String(name));
      });
      watcher.on('error', () => schedule(null));
      return watcher;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM') throw error;
      return null;
    }
  }

  function closeWatchers(): void {
    for (const w of watchers) w.close();
    watchers = [];
  }

  function rewatch(): void {
    closeWatchers();
    for (const folder of listFolders(dir)) {
      const w = attach(folder, { recursive: false });
      if (w !== null) watchers.push(w);
    }
  }

  if (recursive) {
    try {
      const w = attach(dir, { recursive: true });
      if (w !== null) watchers.push(w);
    } catch {
      recursive = false;
    }
  }
  if (!recursive) rewatch();

  return {
    close() {
      closed = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      closeWatchers();
    },
  };
}

/** Keep-alive comment interval: proxies and browsers drop idle event streams. */
const SSE_KEEPALIVE_MS = 25_000;

export class EventChannel {
  private readonly clients = new Set<ServerResponse>();
  private keepAlive: ReturnType<typeof setInterval> | null = null;

  /** Takes over a response as an event stream (the caller has set the headers). */
  add(response: ServerResponse, first: { event: string; data: unknown }): void {
    this.clients.add(response);
    response.on('close', () => this.clients.delete(response));
    // `retry` tells EventSource how soon to reconnect after the server restarts.
    response.write('retry: 1000\n\n');
    response.write(EventChannel.format(first.event, first.data));
    if (this.keepAlive === null) {
      this.keepAlive = setInterval(() => {
        for (const client of this.clients) client.write(': keep-alive\n\n');
      }, SSE_KEEPALIVE_MS);
      this.keepAlive.unref();
    }
  }

  send(event: string, data: unknown): void {
    const text = EventChannel.format(event, data);
    for (const client of this.clients) client.write(text);
  }

  get size(): number {
    return this.clients.size;
  }

  close(): void {
    if (this.keepAlive !== null) clearInterval(this.keepAlive);
    this.keepAlive = null;
    for (const client of this.clients) client.end();
    this.clients.clear();
  }

  /** One event; JSON.stringify never emits a raw newline, so `data` is one line. */
  static format(event: string, data: unknown): string {
    return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
  }
}

/** What the host page shows of a checked manifest (a copy: the page state is serialised). */
export function manifestSummary(m: ManifestInfo): ManifestSummary {
  return {
    namespace: m.namespace ?? null,
    version: m.version ?? null,
    name: m.name ?? null,
    description: m.description ?? null,
    entrypoint: m.entrypoint ?? null,
    capabilities: m.capabilities.slice(),
    properties: m.properties.slice(),
  };
}
