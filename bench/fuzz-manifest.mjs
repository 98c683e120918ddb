#!/usr/bin/env node
// Mutation fuzzing of the manifest check (validateManifest over readJson): seeded text
// mutations with a JSON dictionary and byte mutations of valid manifests. Every case must
// finish without an exception, every finding must be located, and the reader must agree
// with JSON.parse wherever both accept (differential oracle).
//
//   node bench/fuzz-manifest.mjs [count=1000000] [seed=1]
//
// test/validator/fuzz-manifest.test.mjs imports the generator below and runs a short campaign.
// The generator and the run live in test/support/fuzz-manifest.mjs, shared with the suite.
import { main } from '../test/support/fuzz-manifest.mjs';

await main();
