// Built-ins only some commands need, loaded on first use: a static import makes every start-up (`--version`, `check`)
// compile them. node:module is loaded by Node's own bootstrap, so createRequire is free.
import { createRequire } from 'node:module';
import type * as Crypto from 'node:crypto';
import type * as Http from 'node:http';
import type * as Tty from 'node:tty';
import type * as WorkerThreads from 'node:worker_threads';
import type * as Zlib from 'node:zlib';

const load = createRequire(import.meta.url);

let crypto: typeof Crypto | undefined;
let http: typeof Http | undefined;
let tty: typeof Tty | undefined;
let workerThreads: typeof WorkerThreads | undefined;
let zlib: typeof Zlib | undefined;

export function nodeCrypto(): typeof Crypto {
  return (crypto ??= load('node:crypto') as typeof Crypto);
}

export function nodeHttp(): typeof Http {
  return (http ??= load('node:http') as typeof Http);
}

export function nodeTty(): typeof Tty {
  return (tty ??= load('node:tty') as typeof Tty);
}

export function nodeWorkerThreads(): typeof WorkerThreads {
  return (workerThreads ??= load('node:worker_threads') as typeof WorkerThreads);
}

export function nodeZlib(): typeof Zlib {
  return (zlib ??= load('node:zlib') as typeof Zlib);
}
