// The one project pipeline, for `check`, `package` and `preview`: load the folder (the D-30
// opener, src/load/project-loader.ts), validate it with the bundle under runtime/, add the
// D-4 key scan of the files outside runtime/. What each command does around it (the archive
// measure, the compression worker, the baseline, acknowledgements) is the caller's.
import { validateProject, type Finding, type ValidationResult } from '../validator/internal.js';
import { loadProject, type LoadedProject } from '../load/project-loader.js';
import { withKeyHits } from '../load/key-scan.js';

export interface ProjectPipelineOptions {
  /**
   * Runs between loading and validating, with the files as read: `check` starts measuring
   * the archive and `package` hands the files to the compression worker here, so that
   * their work overlaps validation.
   */
  readonly afterLoad?: (project: LoadedProject) => void;
}

export interface ProjectRun {
  readonly project: LoadedProject;
  /** The validator's result (its findings without the key scan's, and the manifest as read). */
  readonly result: ValidationResult;
  /** The validator's findings with the key scan's, sorted. */
  readonly findings: Finding[];
}

/** Throws a UsageError when `dir` is missing or not a readable folder. */
export function runProjectPipeline(dir: string, options: ProjectPipelineOptions = {}): ProjectRun {
  const project = loadProject(dir);
  options.afterLoad?.(project);
  const result = validateProject(project.input, { bundlePrefix: 'runtime/' });
  return { project, result, findings: withKeyHits(result.findings, project.keyHits, project.keyMisses) };
}
