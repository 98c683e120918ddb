// Text helpers shared by every scanner. No platform APIs beyond ECMAScript: where the
// host offers a fatal TextDecoder (every browser and Node.js does) it is used as a fast
// path, otherwise a strict decoder written here runs.

interface FatalDecoder {
  decode(input: Uint8Array): string;
}
type DecoderConstructor = new (label: string, options: { fatal: boolean; ignoreBOM: boolean }) => FatalDecoder;

let hostDecoder: FatalDecoder | null | undefined;

function getHostDecoder(): FatalDecoder | null {
  if (hostDecoder === undefined) {
    const ctor = (globalThis as { TextDecoder?: DecoderConstructor }).TextDecoder;
    hostDecoder = ctor === undefined ? null : new ctor('utf-8', { fatal: true, ignoreBOM: true });
  }
  return hostDecoder;
}

/** Strict UTF-8 (no overlongs, no surrogates, nothing above U+10FFFF). A BOM is kept as U+FEFF. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  const host = getHostDecoder();
  if (host !== null) {
    try {
      return host.decode(bytes);
    } catch {
      return null;
    }
  }
  return decodeUtf8Portable(bytes);
}

/** The portable decoder behind decodeUtf8; exported for tests. */
export function decodeUtf8Portable(bytes: Uint8Array): string | null {
  const parts: string[] = [];
  let units: number[] = [];
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const b0 = bytes[i]!;
    let cp: number;
    if (b0 < 0x80) {
      cp = b0;
      i += 1;
    } else if (b0 >= 0xc2 && b0 <= 0xdf) {
      const b1 = bytes[i + 1];
      if (b1 === undefined || (b1 & 0xc0) !== 0x80) return null;
      cp = ((b0 & 0x1f) << 6) | (b1 & 0x3f);
      i += 2;
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
      const b1 = bytes[i + 1];
      const b2 = bytes[i + 2];
      if (b1 === undefined || b2 === undefined || (b1 & 0xc0) !== 0x80 || (b2 & 0xc0) !== 0x80) return null;
      if (b0 === 0xe0 && b1 < 0xa0) return null; // overlong
      if (b0 === 0xed && b1 >= 0xa0) return null; // surrogate
      cp = ((b0 & 0x0f) << 12) | ((b1 & 0x3f) << 6) | (b2 & 0x3f);
      i += 3;
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      const b1 = bytes[i + 1];
      const b2 = bytes[i + 2];
      const b3 = bytes[i + 3];
      if (b1 === undefined || b2 === undefined || b3 === undefined) return null;
      if ((b1 & 0xc0) !== 0x80 || (b2 & 0xc0) !== 0x80 || (b3 & 0xc0) !== 0x80) return null;
      if (b0 === 0xf0 && b1 < 0x90) return null; // overlong
      if (b0 === 0xf4 && b1 >= 0x90) return null; // above U+10FFFF
      cp = ((b0 & 0x07) << 18) | ((b1 & 0x3f) << 12) | ((b2 & 0x3f) << 6) | (b3 & 0x3f);
      i += 4;
    } else {
      return null;
    }
    if (cp >= 0x10000) {
      cp -= 0x10000;
      units.push(0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
    } else {
      units.push(cp);
    }
    if (units.length >= 8192) {
      parts.push(String.fromCharCode(...units));
      units = [];
    }
  }
  parts.push(String.fromCharCode(...units));
  return parts.join('');
}

/** UTF-8 byte length of a JavaScript string; a lone surrogate counts as U+FFFD (3 bytes), as an encoder writes it. */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** Maps string offsets (UTF-16 code units) to 1-based line and column; built once per file. */
export class LineMap {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    if (!text.includes('\r')) {
      // The common case: LF only. Native indexOf is several times faster than a
      // character loop on a cold start, and this runs at the first finding of a file.
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
      return;
    }
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x0a) this.starts.push(i + 1);
      else if (c === 0x0d) {
        if (text.charCodeAt(i + 1) === 0x0a) i++;
        this.starts.push(i + 1);
      }
    }
  }

  /** 1-based line and column (column counts UTF-16 code units from the line start). */
  at(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.starts[lo]! + 1 };
  }
}

/** ASCII lowercase (the HTML and CSS specs' "ASCII lowercase"; never locale-dependent). */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/** `1234567` -> `1,234,567`, the same on every host (no locale data). */
export function groupDigits(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * D-29: characters that let text take over a terminal or reorder what it shows: C0
 * controls, DEL, C1 controls, the Arabic letter mark, zero-width and directional marks,
 * the line and paragraph separators, bidirectional embeddings, overrides and isolates,
 * invisible operators and the byte order mark; and lone surrogates, which a terminal
 * cannot show and an encoder replaces, so the operator would not see what is there.
 */
const TERMINAL_UNSAFE_SOURCE = '[\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u2069\\ufeff]|[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]';
const TERMINAL_UNSAFE = new RegExp(TERMINAL_UNSAFE_SOURCE, 'g');
const TERMINAL_UNSAFE_TEST = new RegExp(TERMINAL_UNSAFE_SOURCE);

/** True when `text` holds a character D-29 never prints as is. */
export function hasTerminalUnsafe(text: string): boolean {
  return TERMINAL_UNSAFE_TEST.test(text);
}

/** `text` with each D-29 character written as `\u{hex}`, so input never controls the terminal. */
export function escapeTerminal(text: string): string {
  return TERMINAL_UNSAFE_TEST.test(text) ? text.replace(TERMINAL_UNSAFE, (c) => `\\u{${c.charCodeAt(0).toString(16)}}`) : text;
}

/** escapeTerminal for a message of several lines: its own line breaks kept, every other D-29 character escaped. */
export function escapeLines(message: string): string {
  return message
    .split('\n')
    .map((line) => escapeTerminal(line))
    .join('\n');
}

/**
 * D-29, manifest strings: C0 controls, DEL, C1 controls and the bidirectional embeddings,
 * overrides and isolates (U+202A-U+202E, U+2066-U+2069), which can make a store page or a
 * review screen show text in another order than it is stored. Marks that right-to-left
 * scripts need (U+200E, U+200F, U+061C) and joiners stay allowed.
 */
const MANIFEST_STRING_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const MANIFEST_STRING_UNSAFE_EXCEPT_LINE_BREAK = /[\u0000-\u0009\u000b-\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/;

/**
 * The first character a manifest string may not hold, as `U+XXXX`, or undefined. With
 * `lineBreaks` (a textarea default), `\n` and `\r\n` are allowed.
 */
export function manifestStringProblem(text: string, lineBreaks = false): string | undefined {
  const match = (lineBreaks ? MANIFEST_STRING_UNSAFE_EXCEPT_LINE_BREAK : MANIFEST_STRING_UNSAFE).exec(text);
  return match === null ? undefined : `U+${match[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** `1536` -> `1.5 KiB`; exact bytes below 1 KiB. Binary units, one decimal. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const text = value.toFixed(1).replace(/\.0$/, '');
  return `${text} ${units[unit]}`;
}
