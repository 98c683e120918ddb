// Seeded mutation fuzzing helpers shared by the fuzz tests and bench/fuzz.mjs.
// mulberry32: a tiny, well-known 32-bit PRNG; the seed makes every run repeatable.

export function prng(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick(rng, items) {
  return items[Math.floor(rng() * items.length)];
}

/**
 * Mutates `text` with 1..maxEdits edits: flip a character, insert a token from
 * `dictionary` (interesting syntax for the scanner under test), delete a span,
 * duplicate a span (splice), or truncate.
 */
export function mutateText(rng, text, dictionary, maxEdits = 4) {
  let out = text;
  const edits = 1 + Math.floor(rng() * maxEdits);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(rng() * (out.length + 1));
    const kind = Math.floor(rng() * 6);
    if (kind === 0 && out.length > 0) {
      const code = Math.floor(rng() * 0x80);
      out = out.slice(0, at) + String.fromCharCode(code) + out.slice(at + 1);
    } else if (kind === 1 || kind === 2) {
      out = out.slice(0, at) + pick(rng, dictionary) + out.slice(at);
    } else if (kind === 3) {
      const len = Math.floor(rng() * 16);
      out = out.slice(0, at) + out.slice(at + len);
    } else if (kind === 4) {
      const from = Math.floor(rng() * (out.length + 1));
      const len = Math.floor(rng() * 32);
      out = out.slice(0, at) + out.slice(from, from + len) + out.slice(at);
    } else {
      out = out.slice(0, at);
    }
  }
  return out;
}

/** Byte-level mutation (for decoders): flips, inserts and deletes bytes. */
export function mutateBytes(rng, bytes, maxEdits = 4) {
  let out = Array.from(bytes);
  const edits = 1 + Math.floor(rng() * maxEdits);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(rng() * (out.length + 1));
    const kind = Math.floor(rng() * 3);
    if (kind === 0 && out.length > 0) out[Math.min(at, out.length - 1)] = Math.floor(rng() * 256);
    else if (kind === 1) out.splice(at, 0, Math.floor(rng() * 256));
    else out.splice(at, 1 + Math.floor(rng() * 4));
  }
  return Uint8Array.from(out);
}
