#!/usr/bin/env node
// Mutation fuzzing of the hardened ZIP reader (readZip, D-16): seeded mutations of valid
// archives (bit flips, byte inserts and deletes, headers spliced from other archives,
// size/offset/count fields rewritten with boundary values, in one header or consistently
// in both) through readZip with a capped node:zlib inflater.
//
//   node bench/fuzz-zip.mjs [count=1000000] [seed=1]
//
// Prints cases per second, the slowest case and peak RSS. test/validator/fuzz-zip.test.mjs runs
// the same cases (fuzzZipCase) at a smaller count; test/validator/zip-read.test.mjs uses craftZip.
//
// Invariants checked on every case:
// - readZip never throws;
// - memory is bounded: the reader never asks the inflater for more than one file's cap,
//   never for more than the expanded cap in total, and every buffer it gets back is at
//   most the size it asked for (the adapter stops at the cap);
// - every entry's content has exactly its declared size;
// - when the archive is accepted without findings, a reader that walks the local headers
//   from offset 0 sees the same names and bytes (no two readers disagree).
// The generator and the run live in test/support/fuzz-zip.mjs, shared with the suite.
import { main } from '../test/support/fuzz-zip.mjs';

main();
