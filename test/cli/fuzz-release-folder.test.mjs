// Seeded fuzzing of release folders (D-30): random bytes and special files planted in a
// valid signed release, then verify and platform-review, each watched (a hang is killed
// and fails) with the heap capped. Whatever is planted, the answer is a JSON report with
// exit status 0 or 1 whose every finding is a catalogued rule: never a hang, a crash, a
// signal or an internal error. FUZZ_SEED and FUZZ_RELEASE_ROUNDS repeat or widen a run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prng } from '../support/fuzz.mjs';
import { spoilRelease } from '../support/fuzz-release.mjs';
import { EXT, REVIEW, run, workspace } from '../support/hostile.mjs';
import { RULES } from '../../dist/validator.mjs';

const SEED = Number(process.env.FUZZ_SEED ?? 0x13c0ffee);
const ROUNDS = Number(process.env.FUZZ_RELEASE_ROUNDS ?? 12);
const ws = workspace();
process.on('exit', () => ws.cleanup());
const known = new Set(RULES.map((r) => r.id));

test(`release folders spoiled at random (seed ${SEED}, ${ROUNDS} rounds) get a report, never a hang`, () => {
  const rng = prng(SEED);
  for (let round = 0; round < ROUNDS; round++) {
    const dir = ws.fresh('release');
    const done = spoilRelease(rng, dir);
    const cli = round % 2 === 0 ? EXT : REVIEW;
    const r = run(cli, cli === EXT ? ['verify', dir, '--json'] : [dir, '--json']);
    const what = `round ${round} (${done.join(', ')})`;
    assert.equal(r.timedOut, false, `${what}: hung`);
    assert.equal(r.signal, null, `${what}: died of ${r.signal}`);
    assert.ok(r.status === 0 || r.status === 1, `${what}: exit ${r.status}: ${r.stderr}`);
    assert.doesNotMatch(r.stderr, /internal error/, what);
    assert.ok(r.json !== undefined, `${what}: no JSON report`);
    for (const f of r.json.findings) assert.ok(known.has(f.rule), `${what}: unknown rule ${f.rule}`);
  }
});
