// `platform-review <release-dir> [--known-keys <file>] [--baseline <dir>] [--format ...]`:
// the operator's offline review. Built from dist/validator.mjs (imported at run time,
// exactly the module the server side vendors) and Node built-ins; it reads the release
// folder (and the baseline and key list) and changes nothing. The command itself is
// src/commands/review.ts; this file is its entry point.
import { runReview } from './commands/review.js';

// A reader that closes the pipe early (`platform-review <dir> | head`) ends the output
// quietly, as for any Unix filter; the exit status stays the review's.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}
process.exitCode = runReview(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  isTTY: process.stdout.isTTY === true,
  env: process.env,
});
