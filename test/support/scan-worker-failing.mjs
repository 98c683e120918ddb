// A scan worker that gives up at once (as runScanWorker does when it fails): the main
// thread must scan every file itself (test/validator-parallel-scan.test.mjs).
import { workerData } from 'node:worker_threads';

const FAILED = 2;
const DONE = 1;
Atomics.store(workerData.counters, FAILED, 1);
Atomics.notify(workerData.counters, DONE);
workerData.port.close();
