// platform-ext/validator/node (dist/validator-node.mjs): the Node.js release-check adapter, validateSubmission and
// a worker pool; it imports the sibling dist/validator.mjs, so findings and classes are that module's.
export { NODE_RELEASE_DEPS, inflateRawCapped, verifyEd25519 } from './node/release-deps.js';
export { sha256Hex } from './node/hashes.js';
export { validateSubmission, type SubmissionFiles, type SubmissionOptions } from './node/submission.js';
export { createSubmissionPool, type SubmissionPool, type SubmissionPoolOptions } from './node/submission-workers.js';
