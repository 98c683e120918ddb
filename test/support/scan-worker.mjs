// A scan worker for test/validator-parallel-scan.test.mjs: the product's worker side
// (src/release/parallel-scan.ts) on build/, as the CLI runs it on dist/.
import { runScanWorker } from '../../build/release/parallel-scan.js';

runScanWorker();
