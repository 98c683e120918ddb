// STUB: replaced by the CSS scanner. Signature is fixed.
import type { FileScan } from '../scan.js';

export interface CssSource {
  /** CSS text: a stylesheet, a <style> element's text, or a style="" attribute value (entity-decoded). */
  readonly text: string;
  readonly mode: 'stylesheet' | 'declarations';
  /** Bundle folder that relative url() resolves against. */
  readonly baseDir: string;
  /** Maps an offset in `text` to an offset in the scanned file's text (for line and column). */
  readonly mapOffset: (cssOffset: number) => number;
}

export function checkCss(_scan: FileScan, _source: CssSource): void {}
