// Classifies a URL reference in HTML, CSS or JS as a browser's URL parser reads it (WHATWG URL): outer C0 controls and
// spaces stripped, tabs and newlines removed ("java\tscript:"), `\` a slash in http(s) ("/\host" is protocol-relative).
// D-19: local references must be bundle files; `scheme:` (but `data:` for images) and `//host` are remote.

export type ReferenceResult =
  /** Nothing after trimming: the caller decides (an empty `src` is usually a defect). */
  | { readonly type: 'empty' }
  | { readonly type: 'fragment' }
  | { readonly type: 'data' }
  /** A URL with a scheme other than `data:`, or protocol-relative (`scheme` is `//`). */
  | { readonly type: 'remote'; readonly scheme: string }
  /** Starts with one `/`: the site's root, outside the release. */
  | { readonly type: 'root' }
  | { readonly type: 'outside' }
  /** A bundle path (relative to the bundle root), without query or fragment. */
  | { readonly type: 'local'; readonly path: string; readonly query: boolean; readonly fragment: boolean };

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/** Strips what the URL parser strips: leading/trailing C0 controls and spaces, then every tab, LF and CR. */
export function normalizeUrlText(raw: string): string {
  // eslint-disable-next-line no-control-regex
  return raw.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
}

export function dirName(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

function percentDecode(text: string): string {
  if (!text.includes('%')) return text;
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

// `baseDir` is the referring file's folder: the document's for HTML (base-uri 'none'), the stylesheet's, the module's.
export function classifyReference(raw: string, baseDir: string): ReferenceResult {
  const text = normalizeUrlText(raw);
  if (text === '') return { type: 'empty' };
  if (text.startsWith('#')) return { type: 'fragment' };
  const scheme = SCHEME.exec(text);
  if (scheme !== null) {
    const name = scheme[1]!.toLowerCase();
    return name === 'data' ? { type: 'data' } : { type: 'remote', scheme: name };
  }
  const slashed = text.replace(/\\/g, '/');
  if (slashed.startsWith('//')) return { type: 'remote', scheme: '//' };
  if (slashed.startsWith('/')) return { type: 'root' };
  let end = slashed.length;
  const hash = slashed.indexOf('#');
  if (hash >= 0) end = hash;
  const q = slashed.indexOf('?');
  if (q >= 0 && q < end) end = q;
  const pathPart = slashed.slice(0, end);
  const segments = baseDir === '' ? [] : baseDir.split('/');
  const parts = pathPart.split('/');
  for (let i = 0; i < parts.length; i++) {
    const seg = percentDecode(parts[i]!);
    const last = i === parts.length - 1;
    const lower = seg.toLowerCase();
    if (lower === '.' ) {
      if (last) segments.push('');
      continue;
    }
    if (lower === '..') {
      if (segments.length === 0) return { type: 'outside' };
      segments.pop();
      if (last) segments.push('');
      continue;
    }
    segments.push(seg);
  }
  return { type: 'local', path: segments.join('/'), query: q >= 0 && q < (hash >= 0 ? hash : Infinity), fragment: hash >= 0 };
}

// The bundle file a root-relative reference names from the bundle root, if present: build tools assuming the site
// root (Vite's `base: '/'`) write these, but the release is served from its own folder.
export function rootRelativeTwin(raw: string, bundle: { has(path: string): boolean }): string | undefined {
  const text = normalizeUrlText(raw).replace(/\\/g, '/');
  if (!text.startsWith('/') || text.startsWith('//')) return undefined;
  const ref = classifyReference(text.slice(1), '');
  if (ref.type !== 'local' || ref.path === '' || !bundle.has(ref.path)) return undefined;
  return ref.path;
}

/** The fix for a root-relative reference whose relative twin is in the bundle (appended to a finding's message). */
export function rootRelativeHint(twin: string): string {
  return `; "${twin}" is in the bundle: drop the leading "/" (Vite: set base: './' in vite.config)`;
}
