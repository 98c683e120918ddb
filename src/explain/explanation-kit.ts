// What every explanation file shares: the shape of an explanation and its example, and
// the phrases several areas use (sizes as the contract writes them, the package command).
import { formatSize, groupDigits } from '../validator/internal.js';

export interface FixExample {
  /** What the snippets are: a project file (`manifest.json`, `runtime/main.js`), `layout` or `shell`. */
  readonly file: string;
  readonly before: string;
  readonly after: string;
}

export interface Explanation {
  /** Why the rule exists and what exactly it checks: a short paragraph, no line breaks. */
  readonly text: string;
  readonly example: FixExample;
}

export const PACKAGE_COMMAND = 'platform-ext package . --out release --private-key ~/.config/platform-ext/acme.pem';

export function listOf(items: readonly string[]): string {
  return items.join(', ');
}

/** Sizes as people read them and as the contract writes them: `5 MiB (5,242,880 bytes)`. */
export function sizeText(bytes: number): string {
  return `${formatSize(bytes)} (${groupDigits(bytes)} bytes)`;
}

/** Archive rules: the finding means the ZIP was not written by `package`, or was changed after. */
export function repackaged(text: string, before: string): Explanation {
  return {
    text: `${text} An archive written by platform-ext package never breaks this rule, so the finding means bundle.zip was built by another tool or changed after packaging.`,
    example: { file: 'shell', before, after: PACKAGE_COMMAND },
  };
}
