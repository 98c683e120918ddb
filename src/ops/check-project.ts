// `check` as a use case: the whole check of one project folder as a D-20 report. The
// project pipeline, then what only `check` adds: the archive's size as `package` would
// write it, the generated files against the embedded contract, the diff against a
// baseline release, the acknowledgements of platform-ext.config.json (D-33), and the
// validator's hints (notes that are no findings).
import { withArchiveSize } from '../zip/archive-size.js';
import { sharedBytes } from '../zip/parallel-compression.js';
import { checkLoadedProject, type ProjectRun } from '../pipeline/project-pipeline.js';
import { loadProject } from '../load/project-loader.js';
import { withSnapshotDrift } from '../contract/snapshot-drift.js';
import { buildReport, type Report } from '../pipeline/report.js';
import { loadBaseline, withBaseline } from '../load/baseline-loader.js';
import { applyAcknowledgements, loadProjectConfig } from '../load/project-config.js';

export interface CheckProjectOptions {
  /** `--strict`: warnings fail too. */
  readonly strict?: boolean;
  /** `--baseline`: an earlier submission set to diff the manifest against (src/load/baseline-loader.ts). */
  readonly baseline?: string;
  /** Called with each runtime/ folder once listed, before its files are read (src/load/project-loader.ts). */
  readonly onListed?: (folder: string) => void;
}

/**
 * Checks the project folder `target`. A usage problem (an unreadable folder, a baseline
 * that is not a submission set) throws a UsageError; findings never throw.
 */
export function checkProject(target: string, options: CheckProjectOptions = {}): Report {
  // The baseline first: a wrong path should fail before the project is read.
  const baseline = options.baseline !== undefined ? loadBaseline(options.baseline) : null;
  // Read once, into shared memory: the archive's size, as package would write it, is
  // measured on a worker while the check runs.
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
