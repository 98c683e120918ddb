// `check` as a use case: the project pipeline plus what only `check` adds (archive size, snapshot
// drift, baseline diff, D-33 acknowledgements, hints), as a D-20 report.
import { withArchiveSize } from '../zip/archive-size.js';
import { sharedBytes } from '../zip/parallel-compression.js';
import { checkLoadedProject, type ProjectRun } from '../pipeline/project-pipeline.js';
import { loadProject } from '../load/project-loader.js';
import { withSnapshotDrift } from '../contract/snapshot-drift.js';
import { buildReport, type Report } from '../pipeline/report.js';
import { loadBaseline, withBaseline } from '../load/baseline-loader.js';
import { applyAcknowledgements, loadProjectConfig } from '../load/project-config.js';

export interface CheckProjectOptions {
  readonly strict?: boolean;
  readonly baseline?: string;
  /** Called with each runtime/ folder once listed, before its files are read. */
  readonly onListed?: (folder: string) => void;
}

/** An unreadable folder or a baseline that is no submission set throws a UsageError; findings never throw. */
export function checkProject(target: string, options: CheckProjectOptions = {}): Report {
  // The baseline first: a wrong path should fail before the project is read.
  const baseline = options.baseline !== undefined ? loadBaseline(options.baseline) : null;
  // Shared memory: the archive's size is measured on a worker while the check runs.
  const project = loadProject(target, { allocate: sharedBytes, ...(options.onListed !== undefined && { onListed: options.onListed }) });
  let run: ProjectRun | undefined;
  let findings = withArchiveSize(project.input.files, () => (run = checkLoadedProject(project)).findings); // archive/compressed-too-large, as package would find it
  findings = withSnapshotDrift(target, findings); // project/snapshot-stale, project/context-stale
  findings = withBaseline(baseline, run!.project.input.manifest, findings); // baseline/*
  // Acknowledged warnings (D-33) last: they may cover any warning above.
  const config = loadProjectConfig(target);
  const split = applyAcknowledgements(config, findings);
  return buildReport('check', target, split.findings, {
    strict: options.strict === true,
    ...(config.present && { acknowledged: split.acknowledged }),
    ...(run!.result.hints !== undefined && { hints: run!.result.hints }),
  });
}
