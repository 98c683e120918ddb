// Collects the inputs record-loader.mjs intercepts, once each, and writes them as JSON to
// $PLATFORM_RECORD_CALLS when the process exits: {fn: [input, ...]}, byte inputs in base64.
import { writeFileSync } from 'node:fs';

const calls = new Map();

export function record(fn, input) {
  let set = calls.get(fn);
  if (set === undefined) calls.set(fn, (set = new Set()));
  set.add(input instanceof Uint8Array ? Buffer.from(input.buffer, input.byteOffset, input.byteLength).toString('base64') : String(input));
}

process.on('exit', () => {
  const out = process.env.PLATFORM_RECORD_CALLS;
  if (out === undefined) return;
  writeFileSync(out, JSON.stringify(Object.fromEntries([...calls].map(([fn, set]) => [fn, [...set]]))));
});
