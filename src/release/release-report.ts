// One release check for `platform-ext verify` and `platform-review`: load the folder,
// validate the set, render the D-20 report. Node built-ins and the validator only.
import { withKeyHits } from './key-scan.js';
import { bundleFilePaths, validateRelease, type BundleEntry, type ContentScan, type Finding, type ReleaseResult } from '../validator/index.js';
import { buildReport, renderText, type Style } from '../project/report.js';
import { UsageError } from '../usage-error.js';
import { loadRelease, ReleaseFolderError, type LoadedRelease } from './load-release.js';
import { crc32Fast, NODE_RELEASE_DEPS } from './node-deps.js';
import { contentScanBytes, launchScanWorker, PARALLEL_SCAN_MIN_BYTES, scanWithWorker, type ScanWorker } from './parallel-scan.js';

export interface ReleaseCheck {
  readonly findings: Finding[];
  readonly result: ReleaseResult;
  /** The folder as read (the operator's review summarises its files). */
  readonly loaded: LoadedRelease;
}

/**
 * An archive this large may hold enough stylesheets and modules to share with a worker
 * (text deflates to a fifth or less); the worker is launched before inflating, so that it
 * has started when the scanning does.
 */
const SCAN_WORKER_ARCHIVE_BYTES = PARALLEL_SCAN_MIN_BYTES / 8;

/** The content scans of the entries, on this thread and the worker, when there is enough to share; else undefined (and the worker is stopped). */
function scanEntries(worker: ScanWorker, entries: readonly BundleEntry[]): ReadonlyMap<string, ContentScan> | undefined {
  const files = entries.flatMap((e) => (e.kind === 'file' && e.content !== undefined ? [{ path: e.path, content: e.content }] : []));
  if (contentScanBytes(files) < PARALLEL_SCAN_MIN_BYTES) {
    worker.dispose();
    return undefined;
  }
  return scanWithWorker(worker, files, bundleFilePaths(entries));
}

export function checkReleaseFolder(dir: string): ReleaseCheck {
  const loaded = loadRelease(dir);
  const archive = loaded.release.files['bundle.zip'];
  const worker = archive !== null && archive.length >= SCAN_WORKER_ARCHIVE_BYTES ? launchScanWorker() : null;
  let handed = false;
  let result: ReleaseResult;
  try {
    result = validateRelease(loaded.release, {
      ...NODE_RELEASE_DEPS,
      // Stored entries' CRC-32 natively too (the inflater already gives it for deflated ones).
      crc32: crc32Fast,
      ...(worker !== null && {
        scanContents: (entries: readonly BundleEntry[]) => {
          handed = true;
          return scanEntries(worker, entries);
        },
      }),
    });
  } finally {
    // An archive refused before its contents were read never reaches the worker.
    if (!handed) worker?.dispose();
  }
  return { findings: withKeyHits(result.findings, loaded.keyHits, loaded.keyMisses), result, loaded };
}

/** Lines after the findings: what was recomputed (text output only). */
export function releaseSummary(result: ReleaseResult): string[] {
  const lines: string[] = [];
  if (result.manifest?.namespace !== undefined) lines.push(`  release        ${result.manifest.namespace} ${result.manifest.version ?? '?'}`);
  if (result.manifestSha256 !== undefined) lines.push(`  manifest       sha256 ${result.manifestSha256}`);
  if (result.artifactSha256 !== undefined) lines.push(`  artifact       sha256 ${result.artifactSha256}`);
  if (result.publicKeyId !== undefined) lines.push(`  key            ${result.publicKeyId}`);
  lines.push(`  signature      ${result.signatureValid ? 'valid' : 'NOT valid'}`);
  return lines;
}

/** `verify` and `review`: check the folder and render the report; returns the exit status (D-21). */
export function runReleaseCheck(command: 'verify' | 'review', target: string, json: boolean, style: Style, out: (text: string) => void): number {
  let check: ReleaseCheck;
  try {
    check = checkReleaseFolder(target);
  } catch (error) {
    if (error instanceof ReleaseFolderError) throw new UsageError(error.message);
    throw error;
  }
  const report = buildReport(command, target, check.findings);
  if (json) out(JSON.stringify(report) + '\n');
  else out(renderText(report, style) + releaseSummary(check.result).join('\n') + '\n');
  return report.ok ? 0 : 1;
}
