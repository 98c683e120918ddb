// Entry point of dist/validator-worker.mjs: the script of createSubmissionPool's worker
// threads (src/node/submission-workers.ts). Each message is one submission set; the answer
// is validateSubmission's result, or the message of an error a caller's option caused.
import { parentPort } from 'node:worker_threads';
import { validateSubmission, type SubmissionFiles, type SubmissionOptions } from './node/submission.js';

parentPort?.on('message', (message: { id: number; files: SubmissionFiles; options: SubmissionOptions }) => {
  try {
    parentPort!.postMessage({ id: message.id, result: validateSubmission(message.files, message.options) });
  } catch (error) {
    parentPort!.postMessage({ id: message.id, error: (error as Error).message });
  }
});
