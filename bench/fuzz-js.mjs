#!/usr/bin/env node
// Mutation fuzzing of the JavaScript lexer and module policy (src/validator/js/).
//   node bench/fuzz-js.mjs [count=1000000] [seed=1]
// Prints cases per second and the slowest case. test/validator/fuzz-js.test.mjs runs the same
// cases (SEEDS, DICTIONARY, fuzzCase) at a smaller count as part of `npm test`.
// The generator and the run live in test/support/fuzz-js.mjs, shared with the suite.
import { main } from '../test/support/fuzz-js.mjs';

main();
