#!/usr/bin/env node
// Mutation fuzzing of the entrypoint HTML scanner: the tokenizer (in every content state)
// and the policy over text and over bytes.
// Usage: node bench/fuzz-html.mjs [count=1000000] [seed=1]
// Prints cases per second and the slowest case. test/validator/fuzz-html.test.mjs runs the same
// cases (fuzzHtmlCase) at a smaller count.
// The generator and the run live in test/support/fuzz-html.mjs, shared with the suite.
import { main } from '../test/support/fuzz-html.mjs';

main();
