// The one project pipeline for `check`, `package` and `preview`: load (D-30), validate runtime/, add the
// D-4 key scan of the other files. A caller doing more loads once and calls checkLoadedProject.
import { validateProject, type Finding, type ValidationResult } from '../validator/internal.js';
import { loadProject, type LoadedProject, type LoadOptions } from '../load/project-loader.js';
import { withKeyHits } from '../load/key-scan.js';

export interface ProjectRun {
  readonly project: LoadedProject;
  readonly result: ValidationResult;
  readonly findings: Finding[];
}

export function runProjectPipeline(dir: string, options: LoadOptions = {}): ProjectRun {
  return checkLoadedProject(loadProject(dir, options));
}

export function checkLoadedProject(project: LoadedProject): ProjectRun {
  const result = validateProject(project.input, { bundlePrefix: 'runtime/' });
  return { project, result, findings: withKeyHits(result.findings, project.keyHits, project.keyMisses) };
}
