#!/usr/bin/env node
// Mutation fuzzing of the CSS scanner: the tokenizer (both ident modes), the policy over
// text (checkCss) and over bytes (checkStylesheet, with the lossy UTF-8 decoder).
// Usage: node bench/fuzz-css.mjs [count=1000000] [seed=1]
// Prints cases per second and the slowest case. test/validator/fuzz-css.test.mjs runs the same
// cases (fuzzCssCase) at a smaller count.
// The generator and the run live in test/support/fuzz-css.mjs, shared with the suite.
import { main } from '../test/support/fuzz-css.mjs';

main();
