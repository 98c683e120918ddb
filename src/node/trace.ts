// PLATFORM_EXT_TRACE=1: `package` prints a line per phase to stderr (time since start, duration, memory), the
// compression worker too, on the same clock. For profiling by hand; off, it costs one comparison a call.
import { readFileSync, writeSync } from 'node:fs';

const enabled = process.env['PLATFORM_EXT_TRACE'] === '1';
// `performance` loads perf_hooks on first use: read only when tracing. A worker gets the main origin (setTraceOrigin).
let origin = enabled ? performance.timeOrigin : 0;
let last = enabled ? performance.now() : 0;
let thread = 'main';

export function tracing(): boolean {
  return enabled;
}

export function traceOrigin(): number {
  return origin;
}

export function setTraceOrigin(mainOrigin: number, name: string): void {
  origin = mainOrigin;
  thread = name;
}

// Linux only (/proc/thread-self/schedstat); NaN elsewhere.
function threadCpuMs(): number {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return Number.NaN;
  }
}

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
