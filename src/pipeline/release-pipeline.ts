// One release check for `platform-ext verify` and `platform-review`: load the folder,
// validate the set, render the D-20 report. Node built-ins and the validator only.
import { withKeyHits } from '../load/key-scan.js';
import { escapeTerminal, validateRelease, type Finding, type ReleaseResult } from '../validator/index.js';
import { buildReport, renderText, type Style } from '../render/report-text.js';
import { UsageError } from '../node/usage-error.js';
import { loadRelease, ReleaseFolderError, type LoadedRelease } from '../load/release-loader.js';
import { crc32Fast, NODE_RELEASE_DEPS } from '../node/release-deps.js';

export interface ReleaseCheck {
  readonly findings: Finding[];
  readonly result: ReleaseResult;
  /** The folder as read (the operator's review summarises its files). */
  readonly loaded: LoadedRelease;
}

export function checkReleaseFolder(dir: string): ReleaseCheck {
  const loaded = loadRelease(dir);
  const result = validateRelease(loaded.release, {
    ...NODE_RELEASE_DEPS,
    // Stored entries' CRC-32 natively too (the inflater already gives it for deflated ones).
    crc32: crc32Fast,
  });
  return { findings: withKeyHits(result.findings, loaded.keyHits, loaded.keyMisses), result, loaded };
}

/** Lines after the findings: what was recomputed (text output only). */
export function releaseSummary(result: ReleaseResult): string[] {
  const lines: string[] = [];
  if (result.manifest?.namespace !== undefined) lines.push(`  release        ${escapeTerminal(result.manifest.namespace)} ${escapeTerminal(result.manifest.version ?? '?')}`);
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
