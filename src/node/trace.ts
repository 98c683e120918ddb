// PLATFORM_EXT_TRACE=1: `package` prints one line per phase to stderr, with the time since
// the process started (performance.timeOrigin), the phase's own duration, the resident
// memory of the whole process and this thread's heap. The compression worker prints its
// own lines (prefixed "worker") on the same clock. Meant for profiling by hand
// (bench/package.mjs says how long; this says where): off, it costs one comparison a call.
import { readFileSync, writeSync } from 'node:fs';

const enabled = process.env['PLATFORM_EXT_TRACE'] === '1';
// Node's `performance` global is loaded on first use (it loads perf_hooks): read only
// when tracing is on, so that no other run of the CLI pays for it.
/** The main thread's time origin; a worker is given it (setTraceOrigin) so both print on one clock. */
let origin = enabled ? performance.timeOrigin : 0;
let last = enabled ? performance.now() : 0;
let thread = 'main';

/** Whether tracing is on. */
export function tracing(): boolean {
  return enabled;
}

/** The clock origin to hand to a worker (0 when tracing is off). */
export function traceOrigin(): number {
  return origin;
}

/** In a worker: print on the main thread's clock, under `name`. */
export function setTraceOrigin(mainOrigin: number, name: string): void {
  origin = mainOrigin;
  thread = name;
}

/** This thread's CPU time in ms (Linux: /proc/thread-self/schedstat), or NaN elsewhere. */
function threadCpuMs(): number {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return Number.NaN;
  }
}

/** Ends a phase named `label`: prints when it ended and how long it took since the last mark. */
export function trace(label: string): void {
  if (!enabled) return;
  const now = performance.now();
  const at = performance.timeOrigin + now - origin;
  const memory = process.memoryUsage();
  const MiB = 1 << 20;
  const line =
    `trace ${thread.padEnd(6)} ${at.toFixed(1).padStart(7)} ms  +${(now - last).toFixed(1).padStart(6)} ms  cpu ${threadCpuMs().toFixed(0).padStart(5)} ms  ${label.padEnd(28)}` +
    `rss ${(memory.rss / MiB).toFixed(1).padStart(6)} MiB  heap ${(memory.heapUsed / MiB).toFixed(1).padStart(5)} MiB  ext ${(memory.external / MiB).toFixed(1).padStart(5)} MiB\n`;
  last = now;
  try {
    // Straight to the descriptor: a worker's process.stderr is a stream to the main thread.
    writeSync(2, line);
  } catch {
    // Tracing never changes the outcome.
  }
}
