// The one project pipeline, for `check`, `package` and `preview`: load the folder (the D-30
// opener, src/load/project-loader.ts), validate it with the bundle under runtime/, add the
// D-4 key scan of the files outside runtime/. What each command does around it (the archive
// measure, the compression, the baseline, acknowledgements) is the caller's: such a caller
// loads the folder once (loadProject) and checks what it loaded (checkLoadedProject).
import { validateProject, type Finding, type ValidationResult } from '../validator/internal.js';
import { loadProject, type LoadedProject, type LoadOptions } from '../load/project-loader.js';
import { withKeyHits } from '../load/key-scan.js';

export interface ProjectRun {
  readonly project: LoadedProject;
  /** The validator's result (its findings without the key scan's, and the manifest as read). */
  readonly result: ValidationResult;
  /** The validator's findings with the key scan's, sorted. */
  readonly findings: Finding[];
}

/** Throws a UsageError when `dir` is missing or not a readable folder. */
export function runProjectPipeline(dir: string, options: LoadOptions = {}): ProjectRun {
  return checkLoadedProject(loadProject(dir, options));
}

/** The validator and the key scan over a project loaded already. */
export function checkLoadedProject(project: LoadedProject): ProjectRun {
  const result = validateProject(project.input, { bundlePrefix: 'runtime/' });
  return { project, result, findings: withKeyHits(result.findings, project.keyHits, project.keyMisses) };
}
