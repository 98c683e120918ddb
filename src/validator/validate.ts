// The orchestrator: one pass over a project (or a release's contents) that reports
// every finding, never just the first. Values in (bytes and a listing), findings out.
import { checkBundleListing, type BundleEntry } from './bundle.js';
import { checkStylesheet } from './css/policy.js';
import { FindingList, sortFindings, type Finding } from './findings.js';
import { checkEntrypointHtml } from './html/policy.js';
import { checkJsModule } from './js/policy.js';
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

/** Secrets in text files, then the stylesheet or module rules: one file's content scan. */
function scanContent(path: string, content: Uint8Array, view: BundleView, findings: FindingList): void {
  const ext = extensionOf(path);
  if (isSecretScanned(ext)) checkFileSecrets(path, content, findings);
  if (ext === 'css') checkStylesheet(path, content, view, findings);
  else if (ext === 'js' || ext === 'mjs') checkJsModule(path, content, view, findings);
}

/** The bundle's view (scan.ts), remembering which paths a reference found. */
function recordingView(entries: readonly BundleEntry[]): BundleView & { readonly used: Set<string> } {
  const view = bundleViewOf(bundleFilePaths(entries));
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
    checkBundleListing(files, entrypoint, inBundle);
    const view = recordingView(files);
    const byPath = new Map<string, BundleEntry>();
    for (const e of files) if (e.kind === 'file') byPath.set(e.path, e);

    if (entrypoint !== null) {
      const entry = byPath.get(entrypoint);
      if (entry === undefined) {
        const near = view.caseInsensitiveMatch(entrypoint);
        top.add(
          'bundle/entrypoint-missing',
          near !== undefined
            ? `The entrypoint "${entrypoint}" is not in ${prefix || 'the bundle'}; did you mean "${near}" (letter case differs)?`
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
      scanContent(e.path, e.content, view, inBundle);
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
