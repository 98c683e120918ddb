// Bundle listing rules (contract "Bundle (bundle.zip)"; D-1 to D-4), read alike from runtime/ (check, package) and
// a ZIP's central directory (verify, review), so writer and readers never disagree on a valid bundle.
import type { FindingList } from './findings.js';
import {
  ALLOWED_EXTENSIONS,
  BUNDLE_MAX_EXPANDED_BYTES,
  BUNDLE_MAX_FILE_BYTES,
  BUNDLE_MAX_FILES,
  BUNDLE_PATH_MAX_BYTES,
} from './limits.js';
import { PATH_PROBLEM_TEXT, extensionOf, pathProblem } from './paths.js';
import { groupDigits, utf8ByteLength } from './text.js';

export interface BundleEntry {
  /** Path relative to the bundle root (runtime/), `/`-separated, exactly as found. */
  readonly path: string;
  /** `symlink` and `other` (device, socket, pipe) are refused; they are never read. */
  readonly kind: 'file' | 'symlink' | 'other';
  /** Size in bytes (the declared uncompressed size for ZIP entries). */
  readonly size: number;
  /** The bytes, when the loader read them: it does not read a file whose size already breaks a limit. */
  readonly content?: Uint8Array;
  /** Set by a loader that could not read the file (permissions, a race). */
  readonly unreadable?: boolean;
}

const ALLOWED = new Set<string>(ALLOWED_EXTENSIONS);

// D-4: the PEM armour lines of private keys, assembled at run time so this module's text never holds them (the
// validator, bundled or scanned, would be flagged as a key).
const ARMOUR = '-----';
export const PRIVATE_KEY_MARKERS: readonly string[] = ['', 'OPENSSH ', 'ENCRYPTED '].map(
  (kind) => `${ARMOUR}BEGIN ${kind}${['PRIVATE', 'KEY'].join(' ')}${ARMOUR}`,
);

/** Longest marker length: a chunked scanner keeps this many bytes minus one of overlap. */
export const PRIVATE_KEY_MARKER_MAX_LENGTH = Math.max(...PRIVATE_KEY_MARKERS.map((m) => m.length));

const MARKER_BYTES = PRIVATE_KEY_MARKERS.map((m) => Uint8Array.from(m, (c) => c.charCodeAt(0)));

// `-----BEGIN`, searched with Horspool's algorithm: a window's last byte says how far it may move (ANCHOR_SHIFT), so
// most windows cost one read. Linear: only a window ending in `N` is compared, and that moves it ten bytes on.
const ANCHOR = MARKER_BYTES[0]!.subarray(0, ARMOUR.length + 'BEGIN'.length);
const ANCHOR_LAST = ANCHOR[ANCHOR.length - 1]!;
const ANCHOR_SHIFT = anchorShifts();

function anchorShifts(): Uint8Array {
  const table = new Uint8Array(256).fill(ANCHOR.length);
  for (let k = 0; k < ANCHOR.length - 1; k++) table[ANCHOR[k]!] = ANCHOR.length - 1 - k;
  return table;
}

export function findPrivateKeyMarker(bytes: Uint8Array): string | null {
  const last = ANCHOR.length - 1;
  for (let i = nextWindowEndingInN(bytes, last); i >= 0; i = nextWindowEndingInN(bytes, i + ANCHOR.length)) {
    const at = i - last;
    let k = 0;
    while (k < last && bytes[at + k] === ANCHOR[k]) k++;
    if (k === last) {
      const marker = markerAt(bytes, at);
      if (marker !== null) return marker;
    }
  }
  return null;
}

// The hot loop on its own, so V8 optimises it with complete feedback while it runs through a large file.
function nextWindowEndingInN(bytes: Uint8Array, i: number): number {
  const shift = ANCHOR_SHIFT;
  const n = bytes.length;
  while (i < n) {
    const b = bytes[i]!;
    if (b === ANCHOR_LAST) return i;
    i += shift[b]!;
  }
  return -1;
}

function markerAt(bytes: Uint8Array, at: number): string | null {
  for (let m = 0; m < MARKER_BYTES.length; m++) {
    const marker = MARKER_BYTES[m]!;
    if (at + marker.length > bytes.length) continue;
    let k = ANCHOR.length;
    while (k < marker.length && bytes[at + k] === marker[k]) k++;
    if (k === marker.length) return PRIVATE_KEY_MARKERS[m]!;
  }
  return null;
}

/** A path for a message: a very long one is cut (the finding's `file` keeps it whole). */
function shortPath(path: string): string {
  return path.length <= BUNDLE_PATH_MAX_BYTES ? path : `${path.slice(0, BUNDLE_PATH_MAX_BYTES)}…`;
}

// D-2a: no path is a file and also another file's folder (`lib`, `lib/x.js`), compared lowercased as D-2 does:
// no folder holds both, and extractors disagree on which wins.
function checkPrefixConflicts(entries: readonly BundleEntry[], findings: FindingList): void {
  // Sorted, the paths under `p/` end at the first path not below it: one binary search per path.
  const sorted = entries.map((e) => ({ key: lowerAscii(e.path), path: e.path })).sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
  for (const { key, path } of sorted) {
    const folder = `${key}/`;
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid]!.key < folder) lo = mid + 1;
      else hi = mid;
    }
    const inside = sorted[lo];
    if (inside !== undefined && inside.key.startsWith(folder)) {
      findings.add('bundle/path-prefix-conflict', `"${shortPath(path)}" is a file, and "${shortPath(inside.path)}" uses it as a folder`, { file: path });
    }
  }
}

function lowerAscii(path: string): string {
  return path.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

function formatBytes(n: number): string {
  return `${groupDigits(n)} bytes`;
}

// A bundler's leftovers the contract refuses, with the tool setting that stops them (the names tell the tool).
export function toolHintFor(path: string, ext: string): string | null {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  if (path.startsWith('.vite/') || path.includes('/.vite/')) {
    return 'Vite\'s build manifest: set build.manifest: false (and build.ssrManifest: false) in vite.config';
  }
  if (ext === 'map') {
    return 'a source map: turn source maps off for the build (Vite build.sourcemap: false; esbuild without --sourcemap; Rollup output.sourcemap: false; webpack devtool: false)';
  }
  if (ext === 'svg') {
    return 'convert it to .png or .webp, or put the SVG markup in the HTML or a module; Vite copies public/ as it is (publicDir: false) and writes imported .svg files out';
  }
  if (ext === 'json') {
    return 'import the data into a module instead (bundlers inline import data from "./data.json"); a bundler\'s build manifest is turned off with Vite build.manifest: false, webpack without WebpackManifestPlugin';
  }
  if (ext === 'txt' && name.endsWith('.license.txt')) {
    return 'webpack\'s extracted licence comments: set new TerserPlugin({ extractComments: false }) in optimization.minimizer';
  }
  return null;
}

// Path grammar, extensions, entry kinds, case collisions, count and size limits, one HTML file that is the entrypoint
// (null when unusable), private keys. Paths are bundle-relative; the caller adds its prefix.
export function checkBundleListing(entries: readonly BundleEntry[], entrypoint: string | null, findings: FindingList): void {
  const lowered = new Map<string, string>();
  let pages = 0;
  let hasEntrypoint = false;
  for (const entry of entries) {
    if (entry.kind !== 'file') continue;
    if (extensionOf(entry.path) === 'html') pages++;
    if (entry.path === entrypoint) hasEntrypoint = true;
  }
  let total = 0;
  let regular = 0;
  for (const entry of entries) {
    const at = { file: entry.path };
    if (entry.kind === 'symlink') {
      findings.add('bundle/symlink', `"${entry.path}" is a symbolic link`, at);
      continue;
    }
    if (entry.kind === 'other') {
      findings.add('bundle/not-regular-file', `"${entry.path}" is not a regular file`, at);
      continue;
    }
    regular++;
    const problem = pathProblem(entry.path);
    // D-2a: the entrypoint's length limit holds for every path.
    const pathBytes = utf8ByteLength(entry.path);
    if (pathBytes > BUNDLE_PATH_MAX_BYTES) {
      findings.add('bundle/path-too-long', `"${shortPath(entry.path)}" is ${groupDigits(pathBytes)} bytes long; a bundle path may be at most ${BUNDLE_PATH_MAX_BYTES} bytes`, at);
    }
    const ext = extensionOf(entry.path);
    const tool = toolHintFor(entry.path, ext);
    if (problem !== null) {
      const vite = tool !== null && tool.startsWith('Vite\'s build manifest') ? `; ${tool}` : '';
      findings.add('bundle/path-invalid', `"${shortPath(entry.path)}" is not a valid bundle path: ${PATH_PROBLEM_TEXT[problem]}${vite}`, at);
    }
    if (!ALLOWED.has(ext)) {
      findings.add(
        'bundle/extension-not-allowed',
        ext === ''
          ? `"${entry.path}" has no file extension`
          : `"${entry.path}" has the extension ".${ext}", which is not allowed${tool !== null ? `: ${tool}` : ''}`,
        at,
      );
    } else if (ext === 'html' && (entrypoint === null || entry.path !== entrypoint)) {
      // D-1: one HTML file, the entrypoint; without a usable one, pages are reported only if the manifest named none.
      if (entrypoint !== null) {
        // The entrypoint absent and this the only page: the build wrote it somewhere else.
        const moved = !hasEntrypoint && pages === 1 ? `, which is not in the bundle: did you mean "entrypoint": "${entry.path}"?` : '';
        findings.add('bundle/extra-html', `"${entry.path}" is an HTML file but the entrypoint is "${entrypoint}"${moved}`, at);
      }
    }
    // D-2: collisions compare ASCII-lowercased full paths.
    const key = entry.path.replace(/[A-Z]+/g, (m) => m.toLowerCase());
    const earlier = lowered.get(key);
    if (earlier !== undefined) {
      findings.add('bundle/case-collision', `"${entry.path}" and "${earlier}" differ only by letter case`, at);
    } else {
      lowered.set(key, entry.path);
    }
    if (entry.size > BUNDLE_MAX_FILE_BYTES) {
      findings.add(
        'bundle/file-too-large',
        `"${entry.path}" is ${formatBytes(entry.size)}; one file may be at most ${formatBytes(BUNDLE_MAX_FILE_BYTES)}`,
        at,
      );
    }
    if (entry.unreadable === true) {
      findings.add('bundle/unreadable-file', `"${entry.path}" could not be read`, at);
    }
    total += entry.size;
    if (entry.content !== undefined) {
      const marker = findPrivateKeyMarker(entry.content);
      if (marker !== null) findings.add('secret/private-key', `"${entry.path}" contains "${marker}"`, at);
    }
  }
  checkPrefixConflicts(entries, findings);
  if (regular > BUNDLE_MAX_FILES) {
    findings.add('bundle/too-many-files', `The bundle has ${regular} files; at most ${BUNDLE_MAX_FILES} are allowed`);
  }
  if (total > BUNDLE_MAX_EXPANDED_BYTES) {
    findings.add(
      'bundle/expanded-too-large',
      `The bundle files add up to ${formatBytes(total)}; at most ${formatBytes(BUNDLE_MAX_EXPANDED_BYTES)} are allowed`,
    );
  }
}
