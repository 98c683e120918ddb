// Validation off the main thread, where a large bundle would stall a server's event loop: a fixed set of worker
// threads running validateSubmission; their script is dist/validator-worker.mjs, started with the pool.
import type { Worker } from 'node:worker_threads';
import type { ReleaseResult } from '../validator/index.js';
import { nodeWorkerThreads } from './builtins.js';
import type { SubmissionFiles, SubmissionOptions } from './submission.js';

/** `threads`: default 1, one validation each at a time; `workerUrl`: default validator-worker.mjs beside this one. */
export interface SubmissionPoolOptions {
  readonly threads?: number;
  readonly workerUrl?: URL;
}

export interface SubmissionPool {
  /** Validates in a worker; resolves with what validateSubmission returns. Files are copied to the worker, not moved. */
  validate(files: SubmissionFiles, options?: SubmissionOptions): Promise<ReleaseResult>;
  /** Stops the workers; validations still queued reject. */
  close(): Promise<void>;
}

interface Job {
  readonly id: number;
  readonly files: SubmissionFiles;
  readonly options: SubmissionOptions;
  readonly resolve: (result: ReleaseResult) => void;
  readonly reject: (error: Error) => void;
}

/** Starts `threads` workers that validate submission sets. Close the pool when done (workers keep the process alive). */
export function createSubmissionPool(options: SubmissionPoolOptions = {}): SubmissionPool {
  const threads = options.threads ?? 1;
  if (!Number.isInteger(threads) || threads < 1) throw new TypeError('createSubmissionPool: threads must be a positive integer');
  const url = options.workerUrl ?? new URL('./validator-worker.mjs', import.meta.url);
  const queue: Job[] = [];
  const idle: Worker[] = [];
  const running = new Map<Worker, Job>();
  let nextId = 1;
  let closed = false;

  const pump = () => {
    while (idle.length > 0 && queue.length > 0) {
      const worker = idle.pop()!;
      const job = queue.shift()!;
      running.set(worker, job);
      worker.postMessage({ id: job.id, files: job.files, options: job.options });
    }
  };
  const finish = (worker: Worker) => {
    running.delete(worker);
    if (!closed) idle.push(worker);
    pump();
  };
  const workers: Worker[] = [];
  for (let i = 0; i < threads; i++) {
    const worker = new (nodeWorkerThreads().Worker)(url);
    worker.on('message', (message: { id: number; result?: ReleaseResult; error?: string }) => {
      const job = running.get(worker);
      if (job === undefined || job.id !== message.id) return;
      if (message.error !== undefined) job.reject(new Error(message.error));
      else job.resolve(message.result!);
      finish(worker);
    });
    worker.on('error', (error: Error) => {
      running.get(worker)?.reject(error);
      running.delete(worker);
    });
    workers.push(worker);
    idle.push(worker);
  }

  return {
    validate(files, jobOptions = {}) {
      if (closed) return Promise.reject(new Error('createSubmissionPool: the pool is closed'));
      return new Promise<ReleaseResult>((resolve, reject) => {
        queue.push({ id: nextId++, files, options: jobOptions, resolve, reject });
        pump();
      });
    },
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error('createSubmissionPool: the pool was closed'));
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
