// Character references (WHATWG HTML 13.2.5.72-80, 13.5): the named table lookup and the numeric fix-ups.
import { NAMED_REFERENCE_DATA, NAMED_REFERENCE_MAX_LENGTH } from './entities.js';

let namedTable: Map<string, string> | undefined;

/** Parses the generated table once, on first use (most documents have no named references). */
function table(): Map<string, string> {
  if (namedTable !== undefined) return namedTable;
  const map = new Map<string, string>();
  for (const entry of NAMED_REFERENCE_DATA.split(/\s+/)) {
    if (entry === '') continue;
    const eq = entry.indexOf('=');
    const codePoints = entry
      .slice(eq + 1)
      .split('+')
      .map((h) => parseInt(h, 16));
    map.set(entry.slice(0, eq), String.fromCodePoint(...codePoints));
  }
  namedTable = map;
  return map;
}

export interface NamedMatch {
  readonly length: number;
  readonly value: string;
  readonly semicolon: boolean;
}

function isAsciiAlphanumeric(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

/** The longest table name among the prefixes of the alphanumeric run after `&`, or that run with `;`; the run is
 *  bounded by NAMED_REFERENCE_MAX_LENGTH, so `&aaaa…` stays linear. */
export function matchNamedReference(input: string, from: number): NamedMatch | null {
  const names = table();
  let end = from;
  const limit = Math.min(input.length, from + NAMED_REFERENCE_MAX_LENGTH);
  while (end < limit && isAsciiAlphanumeric(input.charCodeAt(end))) end++;
  if (end < input.length && input.charCodeAt(end) === 0x3b && end + 1 - from <= NAMED_REFERENCE_MAX_LENGTH) {
    const value = names.get(input.slice(from, end + 1));
    if (value !== undefined) return { length: end + 1 - from, value, semicolon: true };
  }
  for (let stop = end; stop > from; stop--) {
    const name = input.slice(from, stop);
    const value = names.get(name);
    if (value !== undefined) return { length: stop - from, value, semicolon: false };
  }
  return null;
}

const C1_REPLACEMENTS: Readonly<Record<number, number>> = {
  0x80: 0x20ac, 0x82: 0x201a, 0x83: 0x0192, 0x84: 0x201e, 0x85: 0x2026, 0x86: 0x2020, 0x87: 0x2021,
  0x88: 0x02c6, 0x89: 0x2030, 0x8a: 0x0160, 0x8b: 0x2039, 0x8c: 0x0152, 0x8e: 0x017d, 0x91: 0x2018,
  0x92: 0x2019, 0x93: 0x201c, 0x94: 0x201d, 0x95: 0x2022, 0x96: 0x2013, 0x97: 0x2014, 0x98: 0x02dc,
  0x99: 0x2122, 0x9a: 0x0161, 0x9b: 0x203a, 0x9c: 0x0153, 0x9e: 0x017e, 0x9f: 0x0178,
};

export function numericReferenceValue(code: number): string {
  if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
  const replaced = C1_REPLACEMENTS[code];
  return String.fromCodePoint(replaced ?? code);
}
