// The orchestrator: one pass over a project (or a release's contents) that reports
// every finding, never just the first. Values in (bytes and a listing), findings out.
import { checkBundleListing, type BundleEntry } from './bundle.js';
import { checkStylesheet, warmUpStylesheetScanner } from './css/policy.js';
import { FindingList, sortFindings, type Finding } from './findings.js';
import { checkEntrypointHtml } from './html/policy.js';
import { checkJsModule, warmUpModuleScanner } from './js/policy.js';
import { validateManifest, type ManifestInfo } from './manifest.js';
import { extensionOf } from './paths.js';
import { MANIFEST_MAX_BYTES } from './limits.js';
import { groupDigits } from './text.js';
import { bundleViewOf, type BundleView } from './scan.js';
import { checkFileSecrets, checkManifestSecrets, isSecretScanned } from './secrets.js';

export interface ProjectInput {
  /** The manifest bytes; null when the file is missing (reported by the loader). */
  readonly manifest: Uint8Array | null;
  /**
   * Why a manifest that is there was not read (`manifest` is then null): not a regular
   * file (a link, folder, FIFO, device or socket), larger than the limit by the size the
   * loader saw before reading (D-30), or unreadable.
   */
  readonly manifestRefused?: { readonly reason: 'symlink' | 'directory' | 'special' | 'too-large' | 'unreadable'; readonly size?: number };
  /** Every entry under the bundle root; null when runtime/ is missing. */
  readonly files: readonly BundleEntry[] | null;
  /**
   * Content scans already made, by bundle path (scanBundleFile, on another thread): these
   * files are not scanned again. Each must be the scan of the same bytes against the same
   * listing (bundleFilePaths of `files`), so the findings are those a scan here would give.
   */
  readonly scans?: ReadonlyMap<string, ContentScan>;
}

/** What scanning one file's content found, and which bundle paths its references named. */
export interface ContentScan {
  /** In the order the scanners added them; `file` is the bundle path (no prefix). */
  readonly findings: readonly Finding[];
  readonly used: readonly string[];
}

export interface ValidateOptions {
  /** Name of the manifest in findings (default `manifest.json`). */
  readonly manifestFile?: string;
  /** Prefix added to bundle paths in findings (`runtime/` for a project folder, `bundle.zip/` for a release). */
  readonly bundlePrefix?: string;
  /** Check the manifest only: the bundle could not be listed (an archive whose structure was refused). */
  readonly skipBundle?: boolean;
}

export interface ValidationResult {
  readonly findings: Finding[];
  readonly errors: number;
  readonly warnings: number;
  /** What the manifest reader could use, for callers that go on (package, preview). */
  readonly manifest: ManifestInfo | null;
}

/** The listing as content scanners see it: the paths of the regular files, in order. */
export function bundleFilePaths(entries: readonly BundleEntry[]): string[] {
  return entries.flatMap((e) => (e.kind === 'file' ? [e.path] : []));
}

/**
 * Whether a bundle file's content is scanned beyond the listing rules with real cost
 * (stylesheets and modules): the files worth scanning on another thread.
 */
export function hasContentScan(path: string): boolean {
  const ext = extensionOf(path);
  return ext === 'css' || ext === 'js' || ext === 'mjs';
}

/**
 * One file's content scan, exactly as validateProject makes it, against the listing
 * `view` (bundleViewOf(bundleFilePaths(files))): for a scan on another thread, which
 * validateProject then takes from ProjectInput.scans.
 */
export function scanBundleFile(path: string, content: Uint8Array, view: BundleView): ContentScan {
  const findings = new FindingList();
  const recording = recordingOf(view);
  scanContent(path, content, recording, findings);
  return { findings: findings.items, used: [...recording.used] };
}

/** Secrets in text files, then the stylesheet or module rules: one file's content scan. */
function scanContent(path: string, content: Uint8Array, view: BundleView, findings: FindingList): void {
  const ext = extensionOf(path);
  if (isSecretScanned(ext)) checkFileSecrets(path, content, findings);
  if (ext === 'css') checkStylesheet(path, content, view, findings);
  else if (ext === 'js' || ext === 'mjs') checkJsModule(path, content, view, findings);
}

/**
 * Warms the module and stylesheet scanners up when enough of each is about to be scanned:
 * V8 then compiles them on a background thread while this one does other work (the
 * listing rules, the entrypoint, another thread's start), and the first large file runs
 * optimised code. validateProject calls it; so does a scan worker when it gets its files.
 */
export function warmUpContentScans(files: readonly { readonly path: string; readonly content: Uint8Array }[]): void {
  let modules = 0;
  let stylesheets = 0;
  for (const f of files) {
    const ext = extensionOf(f.path);
    if (ext === 'css') stylesheets += f.content.length;
    else if (ext === 'js' || ext === 'mjs') modules += f.content.length;
  }
  warmUpModuleScanner(modules);
  warmUpStylesheetScanner(stylesheets);
}

/** The bundle's view (scan.ts), remembering which paths a reference found. */
function recordingView(entries: readonly BundleEntry[]): BundleView & { readonly used: Set<string> } {
  return recordingOf(bundleViewOf(bundleFilePaths(entries)));
}

function recordingOf(view: BundleView): BundleView & { readonly used: Set<string> } {
  const used = new Set<string>();
  return {
    used,
    has(path) {
      const found = view.has(path);
      if (found) used.add(path);
      return found;
    },
    caseInsensitiveMatch: view.caseInsensitiveMatch,
  };
}

const MANIFEST_REFUSED_TEXT = {
  symlink: 'a symbolic link (never followed)',
  directory: 'a folder',
  special: 'a FIFO, device or socket',
  unreadable: 'not readable (permissions)',
} as const;

export function validateProject(input: ProjectInput, options: ValidateOptions = {}): ValidationResult {
  const manifestFile = options.manifestFile ?? 'manifest.json';
  const prefix = options.bundlePrefix ?? '';
  const top = new FindingList();
  const inBundle = new FindingList();

  let manifest: ManifestInfo | null = null;
  const refused = input.manifestRefused;
  if (input.manifest === null && refused !== undefined) {
    if (refused.reason === 'too-large') {
      top.add('manifest/too-large', `The manifest is ${groupDigits(refused.size ?? 0)} bytes; the limit is ${groupDigits(MANIFEST_MAX_BYTES)} (not read)`, { file: manifestFile, pointer: '' });
    } else {
      top.add('project/manifest-not-regular-file', `${manifestFile} is ${MANIFEST_REFUSED_TEXT[refused.reason]}, not a regular file; it was not read`, { file: manifestFile });
    }
  } else if (input.manifest === null) {
    top.add('project/manifest-missing', `There is no ${manifestFile}`, { file: manifestFile });
  } else {
    manifest = validateManifest(input.manifest, top, manifestFile);
    if (manifest !== null) checkManifestSecrets(input.manifest, top, manifestFile);
  }
  const entrypoint = manifest?.entrypoint ?? null;

  if (options.skipBundle === true) {
    // Nothing to list: the caller has reported why.
  } else if (input.files === null) {
    top.add('bundle/missing-runtime', `There is no ${prefix === '' ? 'bundle root' : prefix} folder`, { file: prefix || undefined });
  } else {
    const files = input.files;
    // The files scanned here (not in input.scans), before the listing rules read them all.
    warmUpContentScans(files.flatMap((e) => (e.kind === 'file' && e.content !== undefined && input.scans?.has(e.path) !== true ? [{ path: e.path, content: e.content }] : [])));
    checkBundleListing(files, entrypoint, inBundle);
    const view = recordingView(files);
    const byPath = new Map<string, BundleEntry>();
    for (const e of files) if (e.kind === 'file') byPath.set(e.path, e);

    if (entrypoint !== null) {
      const entry = byPath.get(entrypoint);
      if (entry === undefined) {
        const near = view.caseInsensitiveMatch(entrypoint);
        // A build that wrote its page somewhere else (dist/index.html, or a page named
        // after its source): with exactly one HTML file in the bundle, that is the page.
        const pages = [...byPath.keys()].filter((path) => extensionOf(path) === 'html');
        const only = pages.length === 1 ? pages[0] : undefined;
        top.add(
          'bundle/entrypoint-missing',
          near !== undefined
            ? `The entrypoint "${entrypoint}" is not in ${prefix || 'the bundle'}; did you mean "${near}" (letter case differs)?`
            : only !== undefined
              ? `The entrypoint "${entrypoint}" is not in ${prefix || 'the bundle'}, whose only HTML file is "${only}": did you mean "entrypoint": "${only}"? (or make the build write its page to ${prefix}${entrypoint})`
              : `The entrypoint "${entrypoint}" is not in ${prefix || 'the bundle'}`,
          { file: manifestFile, pointer: '/entrypoint' },
        );
      } else if (entry.content !== undefined) {
        view.used.add(entrypoint);
        checkEntrypointHtml(entry.path, entry.content, view, inBundle);
      }
    }
    // Stylesheets and modules are scanned whether or not anything references them:
    // everything under runtime/ is packaged (D-3), so everything is checked.
    for (const e of files) {
      if (e.kind !== 'file' || e.content === undefined) continue;
      const done = input.scans?.get(e.path);
      if (done === undefined) {
        scanContent(e.path, e.content, view, inBundle);
        continue;
      }
      // Scanned elsewhere: the same findings in the same place of the list, and the same references.
      for (const f of done.findings) inBundle.items.push(f);
      for (const p of done.used) view.used.add(p);
    }
    // Scripts run only as local modules loaded by the entrypoint or an import: a module
    // nothing loads is dead weight at best, a leftover at worst. Only judged when the
    // entrypoint was scanned (otherwise nothing could have referenced it).
    if (entrypoint !== null && byPath.get(entrypoint)?.content !== undefined) {
      for (const e of files) {
        const ext = extensionOf(e.path);
        if (e.kind === 'file' && (ext === 'js' || ext === 'mjs') && !view.used.has(e.path)) {
          inBundle.add('bundle/unreferenced-module', `"${e.path}" is not loaded by the entrypoint or any import`, { file: e.path });
        }
      }
    }
  }

  const findings = top.items.concat(
    inBundle.items.map((f) => (f.file === undefined ? f : { ...f, file: prefix + f.file })),
  );
  const sorted = sortFindings(findings);
  let errors = 0;
  for (const f of sorted) if (f.severity === 'error') errors++;
  return { findings: sorted, errors, warnings: sorted.length - errors, manifest };
}
