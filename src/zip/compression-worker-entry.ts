// A compression worker's script: in dist/ this module alone is bundled and embedded in the
// CLI (scripts/build-deflate-worker.mjs); from build/ (tests) the worker runs this file.
import { workerData } from 'node:worker_threads';
import { runCompressionWorker } from './compression-worker.js';

runCompressionWorker(workerData);
