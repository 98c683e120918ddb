// Entry point of platform-ext/validator/node (dist/validator-node.mjs): what a Node.js
// server needs beside the validator itself: the Node.js adapter of the release check
// (capped raw inflate, SHA-256, Ed25519), validateSubmission over it, and a pool of worker
// threads that validates off the main thread. Its validator is the sibling
// dist/validator.mjs, so findings, rules and classes are that module's.
export { NODE_RELEASE_DEPS, inflateRawCapped, verifyEd25519 } from './node/release-deps.js';
export { sha256Hex } from './node/hashes.js';
export { validateSubmission, type SubmissionFiles, type SubmissionOptions } from './node/submission.js';
export { createSubmissionPool, type SubmissionPool, type SubmissionPoolOptions } from './node/submission-workers.js';
