// dist/validator-worker.mjs, createSubmissionPool's thread: a submission set per message; a result or an error back.
import { parentPort } from 'node:worker_threads';
import { validateSubmission, type SubmissionFiles, type SubmissionOptions } from './node/submission.js';

parentPort?.on('message', (message: { id: number; files: SubmissionFiles; options: SubmissionOptions }) => {
  try {
    parentPort!.postMessage({ id: message.id, result: validateSubmission(message.files, message.options) });
  } catch (error) {
    parentPort!.postMessage({ id: message.id, error: (error as Error).message });
  }
});
