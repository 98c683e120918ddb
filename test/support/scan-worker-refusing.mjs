// A scan worker that claims files but posts no scan for them (as runScanWorker does when a
// scanner throws): the main thread must scan those files again
// (test/validator-parallel-scan.test.mjs).
import { workerData } from 'node:worker_threads';

const NEXT = 0;
const DONE = 1;
const { port, counters } = workerData;
port.once('message', (work) => {
  for (;;) {
    const k = Atomics.add(counters, NEXT, 1);
    if (k >= work.order.length) break;
    port.postMessage({ index: work.order[k] });
    Atomics.add(counters, DONE, 1);
    Atomics.notify(counters, DONE);
  }
  port.close();
});
