// What a content scanner (HTML, CSS, JS) gets: file, text, the bundle listing and a findings sink with line and column.
import type { FindingList } from './findings.js';
import { LineMap } from './text.js';

/** The bundle listing as scanners see it: exact paths relative to the bundle root. */
export interface BundleView {
  has(path: string): boolean;
  /** The listed path that equals `path` ignoring ASCII case, if any (for "did you mean"). */
  caseInsensitiveMatch(path: string): string | undefined;
}

export class FileScan {
  private lineMap: LineMap | undefined;

  constructor(
    /** Bundle path of the file (relative to the bundle root, e.g. `index.html`). */
    readonly file: string,
    readonly text: string,
    readonly bundle: BundleView,
    readonly findings: FindingList,
  ) {}

  /** Adds a finding located at `offset` (UTF-16 code units into `text`); no offset: the whole file. */
  report(rule: string, message: string, offset?: number): void {
    if (offset === undefined) {
      this.findings.add(rule, message, { file: this.file });
      return;
    }
    this.lineMap ??= new LineMap(this.text);
    const { line, column } = this.lineMap.at(offset);
    this.findings.add(rule, message, { file: this.file, line, column });
  }
}

/** A BundleView over a list of paths. */
export function bundleViewOf(paths: Iterable<string>): BundleView {
  const exact = new Set<string>();
  const folded = new Map<string, string>();
  for (const p of paths) {
    exact.add(p);
    folded.set(p.toLowerCase(), p);
  }
  return {
    has: (path) => exact.has(path),
    caseInsensitiveMatch: (path) => folded.get(path.toLowerCase()),
  };
}
