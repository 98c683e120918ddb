// A compression worker's script: bundled alone into the CLI for dist/ (scripts/build-deflate-worker.mjs).
import { workerData } from 'node:worker_threads';
import { runCompressionWorker } from './compression-worker.js';

runCompressionWorker(workerData);
