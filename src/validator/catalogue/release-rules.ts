import type { RuleDef } from '../rules.js';

// The submission set (contract "Submission set"; "Authentication" 3 to 5; D-11 to D-14).
export const RELEASE_RULES: readonly RuleDef[] = [
  {
    id: 'release/missing-file',
    severity: 'error',
    title: 'A file of the submission set is missing',
    ref: 'Submission set',
    hint: 'A release folder holds bundle.zip, manifest.json, publisher-public-key.txt, signature.txt and submission.json: run platform-ext package again.',
  },
  {
    id: 'release/unexpected-file',
    severity: 'error',
    title: 'The release folder holds a file that is not part of a submission',
    ref: 'Submission set; D-38',
    hint: 'Remove the file: a submission is exactly five files, uploaded together.',
  },
  {
    id: 'release/not-regular-file',
    severity: 'error',
    title: 'A file of the submission set is a link, folder, pipe or device',
    ref: 'Submission set; D-30',
    hint: 'Replace it with the regular file that platform-ext package wrote: a release folder holds five plain files, never links or special files.',
  },
  {
    id: 'release/file-too-large',
    severity: 'error',
    title: 'A submission file is larger than any valid one can be',
    ref: 'Submission set; Limits',
    hint: 'The file was replaced or corrupted: run platform-ext package again.',
  },
  {
    id: 'release/public-key-format',
    severity: 'error',
    title: 'publisher-public-key.txt is not exactly one base64 Ed25519 public key',
    ref: 'Authentication 4; D-11',
    hint: 'The file holds 44 characters of standard base64 (32 bytes) and at most one final newline: copy it from the keygen output without changes.',
  },
  {
    id: 'release/signature-format',
    severity: 'error',
    title: 'signature.txt is not exactly one base64 Ed25519 signature',
    ref: 'Authentication 4; D-11',
    hint: 'The file holds 88 characters of standard base64 (64 bytes) and at most one final newline: upload it unchanged (no CRLF conversion).',
  },
  {
    id: 'release/submission-invalid',
    severity: 'error',
    title: 'submission.json is not a strict JSON object',
    ref: 'Submission set; D-5',
    hint: 'submission.json is written by platform-ext package: do not edit it; package again.',
  },
  {
    id: 'release/submission-field',
    severity: 'error',
    title: 'submission.json has a missing, unknown or malformed field',
    ref: 'Submission set',
    hint: 'The record is a closed object of seven string fields written by platform-ext package: do not edit it; package again.',
  },
  {
    id: 'release/submission-mismatch',
    severity: 'error',
    title: 'submission.json does not describe this manifest, bundle or key',
    ref: 'Submission set; Authentication 3',
    hint: 'A file changed after packaging, or the record was edited: package the release again from the project.',
  },
  {
    id: 'release/weak-public-key',
    severity: 'error',
    title: 'publisher-public-key.txt is not a canonical Ed25519 key of a point of large order',
    ref: 'Authentication 4; D-31',
    hint: 'A key made by platform-ext keygen (or any Ed25519 key generator) never breaks this rule: create a key pair with keygen and package again.',
  },
  {
    id: 'release/signature-not-canonical',
    severity: 'error',
    title: 'signature.txt has a scalar S that is not below the group order',
    ref: 'Authentication 4; D-31',
    hint: 'Ed25519 signers always write S below L: the signature was altered after signing; package again and upload the files unchanged.',
  },
  {
    id: 'release/signature-invalid',
    severity: 'error',
    title: 'The release signature does not verify',
    ref: 'Authentication 3 and 4; D-14',
    hint: 'Any change to the manifest or bundle after signing, a different key, or altered line endings breaks the signature: package again and upload the files unchanged.',
  },
];
