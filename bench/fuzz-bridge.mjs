#!/usr/bin/env node
// Fuzzing of the bridge's checks (D-23): random values built from every kind of piece
// (plain data, values that cannot cross, hostile Proxies, getters, cycles, shared
// references, deep chains) go through copyPayload and checkRequest. Each case must
// finish without an exception, and an accepted copy must be plain JSON whose size is
// exactly the size reported.
// Usage: node bench/fuzz-bridge.mjs [count=1000000] [seed=1]
// Prints cases per second and the slowest case. test/validator/bridge-payload.test.mjs runs the
// same cases (fuzzBridgeCase) at a smaller count.
// The generator and the run live in test/support/fuzz-bridge.mjs, shared with the suite.
import { main } from '../test/support/fuzz-bridge.mjs';

await main();
