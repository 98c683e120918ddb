// The orchestrator: one pass over a project (or a release) reporting every finding; values in, findings out.
import { checkBundleListing, type BundleEntry } from './bundle.js';
import { checkStylesheet } from './css/css-policy.js';
import { FindingList, jsonPointer, sortFindings, type Finding, type Location } from './findings.js';
import { checkEntrypointHtml } from './html/html-policy.js';
import { checkJsModule, type ModuleFacts } from './js/js-policy.js';
import { readJson } from './json.js';
import { validateManifest, type ManifestInfo } from './manifest.js';
import { extensionOf } from './paths.js';
import { MANIFEST_MAX_BYTES } from './limits.js';
import { groupDigits, LineMap } from './text.js';
import { bundleViewOf, type BundleView } from './scan.js';
import { checkFileSecrets, checkManifestSecrets, isSecretScanned } from './secrets.js';
import { suggest } from './suggest.js';

export interface ProjectInput {
  /** The manifest bytes; null when the file is missing (reported by the loader). */
  readonly manifest: Uint8Array | null;
  /** Why a present manifest was not read: not a regular file, too large by the size seen first (D-30), unreadable. */
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
  /** Properties no module reads, as hints at their keys (D-20 allows only error and warning findings); empty unless
   * every module was scanned and all its settings reads and bridge uses could be followed. */
  readonly hints?: PropertyHint[];
}

/** A note about the manifest that is no finding: it never counts, fails or changes an exit status. */
export interface PropertyHint {
  readonly file: string;
  readonly pointer: string;
  readonly line?: number;
  readonly column?: number;
  readonly message: string;
}

export function bundleFilePaths(entries: readonly BundleEntry[]): string[] {
  return entries.flatMap((e) => (e.kind === 'file' ? [e.path] : []));
}

/** Secrets in text files, then the stylesheet or module rules: one file's content scan; a module's facts, or null. */
function scanContent(path: string, content: Uint8Array, view: BundleView, findings: FindingList): ModuleFacts | null {
  const ext = extensionOf(path);
  if (isSecretScanned(ext)) checkFileSecrets(path, content, findings);
  if (ext === 'css') checkStylesheet(path, content, view, findings);
  else if (ext === 'js' || ext === 'mjs') return checkJsModule(path, content, view, findings);
  return null;
}

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

function hasModuleScan(path: string): boolean {
  const ext = extensionOf(path);
  return ext === 'js' || ext === 'mjs';
}

// A module's exported names with its `export *` targets' (but `default`), or null when not all can be known.
function exportedNames(path: string, modules: ReadonlyMap<string, ModuleFacts | null>, memo: Map<string, Set<string> | null>, visiting: Set<string>): Set<string> | null {
  if (memo.has(path)) return memo.get(path)!;
  const facts = modules.get(path);
  if (facts == null || facts.exports === null || visiting.has(path)) return null;
  visiting.add(path);
  let names: Set<string> | null = new Set(facts.exports);
  for (const target of facts.reexports) {
    const more = exportedNames(target, modules, memo, visiting);
    if (more === null) {
      names = null;
      break;
    }
    for (const n of more) if (n !== 'default') names.add(n);
  }
  visiting.delete(path);
  memo.set(path, names);
  return names;
}

/** js/import-not-exported: a named import (or `export { x } from`) of a bundle module that does not export that name. */
function checkImportedNames(modules: ReadonlyMap<string, ModuleFacts | null>, findings: FindingList): void {
  const memo = new Map<string, Set<string> | null>();
  for (const [file, facts] of modules) {
    if (facts == null) continue;
    for (const imported of facts.imports) {
      const names = exportedNames(imported.path, modules, memo, new Set());
      if (names === null || names.has(imported.name)) continue;
      findings.add(
        'js/import-not-exported',
        `"${imported.name}" is imported from "${imported.path}", which does not export it: the browser refuses to link the modules`,
        { file, line: imported.line, column: imported.column },
      );
    }
  }
}

// D-34: a capability used but not declared is an error at the use; one declared but unused a warning, only when every
// module was read and none uses the bridge in a way the scan cannot follow.
function checkCapabilityUse(declared: readonly string[], manifestBytes: Uint8Array, modules: ReadonlyMap<string, ModuleFacts | null>, allRead: boolean, manifestFile: string, top: FindingList, findings: FindingList): void {
  const granted = new Set(declared);
  const used = new Set<string>();
  let unclear = !allRead;
  for (const [file, facts] of modules) {
    if (facts == null) continue;
    if (facts.platformUnclear) unclear = true;
    for (const use of facts.capabilityUses) {
      used.add(use.key);
      if (granted.has(use.key)) continue;
      findings.add(
        'js/capability-not-declared',
        `${use.call} uses the capability "${use.key}", which ${manifestFile} does not declare: the call can only fail with CAPABILITY_NOT_GRANTED`,
        { file, line: use.line, column: use.column },
      );
    }
  }
  if (unclear) return;
  const unused = declared.filter((key) => !used.has(key));
  if (unused.length === 0) return;
  const where = capabilityEntries(manifestBytes, manifestFile);
  for (const key of unused) {
    top.add('js/capability-unused', `The capability "${key}" is declared, but no module uses it: each one costs the store user a permission review`, where.get(key) ?? { file: manifestFile, pointer: '/capabilities' });
  }
}

/** Object.prototype's members: reading them from the settings object names no property. */
const OBJECT_MEMBERS: ReadonlySet<string> = new Set(['constructor', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString', 'toString', 'valueOf']);

// A name `properties` does not define reads undefined: a warning at the read, with the nearest property.
function checkSettingsUse(properties: readonly string[], modules: ReadonlyMap<string, ModuleFacts | null>, manifestFile: string, findings: FindingList): void {
  const defined = new Set(properties);
  for (const [file, facts] of modules) {
    if (facts == null) continue;
    for (const r of facts.settingsReads) {
      if (defined.has(r.name) || OBJECT_MEMBERS.has(r.name)) continue;
      const near = suggest(r.name, properties);
      findings.add(
        'js/setting-unknown',
        `The code reads the setting ${JSON.stringify(r.name.length > 100 ? r.name.slice(0, 100) + '…' : r.name)}, which ${manifestFile} does not define in "properties": it never has a value${near === undefined ? '' : `; did you mean "${near}"?`}`,
        { file, line: r.line, column: r.column },
      );
    }
  }
}

// None when a module was not scanned or reads settings or the bridge in a way the scan cannot follow (it may read any).
function unreadProperties(properties: readonly string[], manifestBytes: Uint8Array, modules: ReadonlyMap<string, ModuleFacts | null>, allRead: boolean, manifestFile: string): PropertyHint[] {
  if (!allRead || properties.length === 0) return [];
  const read = new Set<string>();
  for (const facts of modules.values()) {
    if (facts == null || facts.settingsUnclear || facts.platformUnclear) return [];
    for (const r of facts.settingsReads) read.add(r.name);
  }
  const unread = properties.filter((name) => !read.has(name));
  if (unread.length === 0) return [];
  const where = propertyKeys(manifestBytes);
  return unread.map((name) => ({
    file: manifestFile,
    pointer: jsonPointer('properties', name),
    ...where.get(name),
    message: `No module reads the property ${JSON.stringify(name.length > 100 ? name.slice(0, 100) + '…' : name)}: whatever the store sets it to changes nothing; read it in the code, or remove it`,
  }));
}

function propertyKeys(bytes: Uint8Array): Map<string, { line: number; column: number }> {
  const out = new Map<string, { line: number; column: number }>();
  const read = readJson(bytes);
  if (!read.ok || read.value.kind !== 'object') return out;
  const object = read.value.entries.find((e) => e.key === 'properties')?.value;
  if (object?.kind !== 'object') return out;
  const lines = new LineMap(read.text);
  for (const e of object.entries) if (!out.has(e.key)) out.set(e.key, lines.at(e.keyOffset));
  return out;
}

function capabilityEntries(bytes: Uint8Array, file: string): Map<string, Location> {
  const out = new Map<string, Location>();
  const read = readJson(bytes);
  if (!read.ok || read.value.kind !== 'object') return out;
  const list = read.value.entries.find((e) => e.key === 'capabilities')?.value;
  if (list?.kind !== 'array') return out;
  const lines = new LineMap(read.text);
  list.items.forEach((item, index) => {
    if (item.kind !== 'string' || out.has(item.value)) return;
    const { line, column } = lines.at(item.offset);
    out.set(item.value, { file, pointer: `/capabilities/${index}`, line, column });
  });
  return out;
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
  let formsSubmitted = false;

  let manifest: ManifestInfo | null = null;
  let hints: PropertyHint[] = [];
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
        // A build that wrote its page elsewhere (dist/index.html): with exactly one HTML file, that is the page.
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
    // Everything under runtime/ is packaged (D-3), so every stylesheet and module is scanned, referenced or not.
    const modules = new Map<string, ModuleFacts | null>();
    for (const e of files) {
      if (e.kind !== 'file' || e.content === undefined) continue;
      const facts = scanContent(e.path, e.content, view, inBundle);
      if (hasModuleScan(e.path)) modules.set(e.path, facts);
    }
    checkImportedNames(modules, inBundle);
    // Capability use needs every module's facts: a module that was not read may use any.
    const allRead = files.every((e) => e.kind !== 'file' || !hasModuleScan(e.path) || modules.get(e.path) != null);
    if (manifest !== null && input.manifest !== null) {
      checkCapabilityUse(manifest.capabilities, input.manifest, modules, allRead, manifestFile, top, inBundle);
      checkSettingsUse(manifest.properties.map((p) => p.name), modules, manifestFile, inBundle);
      hints = unreadProperties(manifest.properties.map((p) => p.name), input.manifest, modules, allRead, manifestFile);
    }
    // A <form> sent through the bridge (forms.submit declared and called) is the intended pattern: no html/form-element.
    formsSubmitted = manifest !== null && manifest.capabilities.includes('forms.submit') && [...modules.values()].some((m) => m?.capabilityUses.some((u) => u.key === 'forms.submit') === true);
    // Scripts run only as modules the entrypoint loads: one nothing loads is dead weight or a leftover. Judged only
    // when the entrypoint was scanned.
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
    inBundle.items.filter((f) => !(formsSubmitted && f.rule === 'html/form-element')).map((f) => (f.file === undefined ? f : { ...f, file: prefix + f.file })),
  );
  const sorted = sortFindings(findings);
  let errors = 0;
  for (const f of sorted) if (f.severity === 'error') errors++;
  return { findings: sorted, errors, warnings: sorted.length - errors, manifest, hints };
}
