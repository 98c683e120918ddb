// Lossy UTF-8 decoding as a browser reads a stylesheet (WHATWG Encoding, "replacement" mode: each maximal invalid
// subpart becomes one U+FFFD): after a stray byte every url() still fetches, so the scan reads on (D-19).
// No TextDecoder: the validator uses only ECMAScript (text.ts decodes strictly).

export interface LossyText {
  readonly text: string;
  /** Offset in `text` of the first U+FFFD that replaced invalid bytes; -1 when the input was valid. */
  readonly firstError: number;
}

/** Code units are flushed in chunks so String.fromCharCode never gets a huge argument list. */
const CHUNK_UNITS = 8192;

export function decodeUtf8Lossy(bytes: Uint8Array): LossyText {
  const parts: string[] = [];
  let units: number[] = [];
  let produced = 0; // code units in `parts` so far
  let firstError = -1;
  const n = bytes.length;
  let i = 0;

  function emit(cp: number): void {
    if (cp >= 0x10000) {
      cp -= 0x10000;
      units.push(0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
    } else {
      units.push(cp);
    }
    if (units.length >= CHUNK_UNITS) {
      parts.push(String.fromCharCode(...units));
      produced += units.length;
      units = [];
    }
  }

  function replacement(): void {
    if (firstError < 0) firstError = produced + units.length;
    emit(0xfffd);
  }

  while (i < n) {
    const b0 = bytes[i]!;
    i++;
    if (b0 < 0x80) {
      emit(b0);
      continue;
    }
    // The range narrows only for the first continuation byte: no overlongs, surrogates or values above U+10FFFF.
    let needed: number;
    let lower = 0x80;
    let upper = 0xbf;
    let cp: number;
    if (b0 >= 0xc2 && b0 <= 0xdf) {
      needed = 1;
      cp = b0 & 0x1f;
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
      if (b0 === 0xe0) lower = 0xa0;
      if (b0 === 0xed) upper = 0x9f;
      needed = 2;
      cp = b0 & 0x0f;
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      if (b0 === 0xf0) lower = 0x90;
      if (b0 === 0xf4) upper = 0x8f;
      needed = 3;
      cp = b0 & 0x07;
    } else {
      replacement();
      continue;
    }
    let complete = true;
    while (needed > 0) {
      const b = bytes[i];
      if (b === undefined || b < lower || b > upper) {
        // The offending byte is not consumed: it starts the next sequence.
        complete = false;
        break;
      }
      cp = (cp << 6) | (b & 0x3f);
      lower = 0x80;
      upper = 0xbf;
      needed--;
      i++;
    }
    if (complete) emit(cp);
    else replacement();
  }
  parts.push(String.fromCharCode(...units));
  return { text: parts.join(''), firstError };
}
