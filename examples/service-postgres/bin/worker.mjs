#!/usr/bin/env node
// Runs the outbox worker against the database the PG* environment variables name:
//
//   node bin/worker.mjs --working <dir> --storage <dir> --staging <dir> [--until-idle]
//
// --until-idle stops when no effect is pending (and exits 1 if one failed); without it the
// worker polls until SIGINT or SIGTERM. Test-only: --crash-at <point>[:<effect type>] makes
// the process SIGKILL itself when it reaches that point (see src/worker.mjs and
// src/files.mjs for the points), --trace <file> appends every point reached to a file,
// and --unordered breaks the outbox order.
import { appendFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { files } from '../src/files.mjs';
import { runWorker } from '../src/worker.mjs';

const { values } = parseArgs({
  options: {
    working: { type: 'string' },
    storage: { type: 'string' },
    staging: { type: 'string' },
    'until-idle': { type: 'boolean', default: false },
    'crash-at': { type: 'string' },
    trace: { type: 'string' },
    unordered: { type: 'boolean', default: false },
  },
});
for (const name of ['working', 'storage', 'staging']) {
  if (!values[name]) {
    process.stderr.write(`worker: --${name} <dir> is required\n`);
    process.exit(2);
  }
}
const [crashPoint, crashType] = (values['crash-at'] ?? '').split(':');
function at(point, effect) {
  if (values.trace) appendFileSync(values.trace, `${point} ${effect.type} ${effect.submissionId ?? ''}\n`);
  if (point === crashPoint && (crashType === undefined || crashType === effect.type)) process.kill(process.pid, 'SIGKILL');
}

const pool = new pg.Pool({ max: 2 });
const controller = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => controller.abort());
try {
  const result = await runWorker(pool, files({ working: values.working, storage: values.storage, staging: values.staging }), {
    untilIdle: values['until-idle'],
    ordered: !values.unordered,
    at,
    signal: controller.signal,
  });
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exitCode = result.failed.length > 0 ? 1 : 0;
} finally {
  await pool.end();
}
