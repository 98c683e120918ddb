import type { RuleDef } from '../rules.js';
import { BUNDLE_PATH_MAX_BYTES } from '../limits.js';

// Bundle listing rules (contract "Bundle (bundle.zip)"; D-1 to D-4) and key material.
export const BUNDLE_RULES: readonly RuleDef[] = [
  {
    id: 'bundle/missing-runtime',
    severity: 'error',
    title: 'The project has no runtime/ folder',
    ref: 'Bundle; D-1',
    hint: 'Create runtime/ and put the entrypoint HTML file and its assets in it: only runtime/ is packaged.',
  },
  {
    id: 'bundle/path-invalid',
    severity: 'error',
    title: 'A bundle path is not a safe relative ASCII path',
    ref: 'Bundle; D-2',
    hint: 'Rename the file or folder: segments may use only ASCII letters, digits, ".", "_" and "-", and must not start with ".".',
  },
  {
    id: 'bundle/extension-not-allowed',
    severity: 'error',
    title: 'A bundle file has an extension that is not allowed',
    ref: 'Bundle; D-2; D-3',
    hint: 'Move the file out of runtime/ (only avif, css, gif, html, jpeg, jpg, js, mjs, png, webp, woff, woff2 are packaged) or convert it.',
  },
  {
    id: 'bundle/entrypoint-missing',
    severity: 'error',
    title: 'The manifest entrypoint is not a file in runtime/',
    ref: 'Bundle; D-1',
    hint: 'Create the file under runtime/ or correct "entrypoint" in manifest.json (it is relative to runtime/, for example "index.html").',
  },
  {
    id: 'bundle/extra-html',
    severity: 'error',
    title: 'An HTML file other than the entrypoint is in the bundle',
    ref: 'Bundle; D-1',
    hint: 'A bundle has exactly one HTML file, the entrypoint: remove the other HTML files or build the views with JavaScript.',
  },
  {
    id: 'bundle/case-collision',
    severity: 'error',
    title: 'Two bundle paths differ only by letter case',
    ref: 'Bundle; D-2',
    hint: 'Rename one of the files: storage and some systems treat these names as the same file.',
  },
  {
    id: 'bundle/symlink',
    severity: 'error',
    title: 'A symbolic link is in the bundle',
    ref: 'Bundle',
    hint: 'Replace the link with a copy of the file it points to, or move it out of runtime/.',
  },
  {
    id: 'bundle/not-regular-file',
    severity: 'error',
    title: 'A bundle entry is not a regular file',
    ref: 'Bundle; D-3',
    hint: 'Remove the device, socket or pipe from runtime/: only regular files can be packaged.',
  },
  {
    id: 'bundle/unreadable-file',
    severity: 'error',
    title: 'A bundle file cannot be read',
    ref: 'Bundle; D-3',
    hint: 'Fix the file permissions so the file can be read, or remove it from runtime/.',
  },
  {
    id: 'bundle/path-too-long',
    severity: 'error',
    title: `A bundle path is longer than ${BUNDLE_PATH_MAX_BYTES} bytes`,
    ref: 'Bundle; D-2a',
    hint: `Shorten the folder and file names: every path relative to runtime/ is at most ${BUNDLE_PATH_MAX_BYTES} bytes, as the entrypoint is.`,
  },
  {
    id: 'bundle/path-prefix-conflict',
    severity: 'error',
    title: 'A bundle path is both a file and the folder of another file',
    ref: 'Bundle; D-2a',
    hint: 'Rename the file or the folder: "lib" beside "lib/x.js" (compared ignoring letter case) cannot be extracted the same way everywhere.',
  },
  {
    id: 'bundle/too-many-files',
    severity: 'error',
    title: 'The bundle has more files than allowed',
    ref: 'Bundle; Limits',
    hint: 'Combine files (for example bundle modules or sprite images) or remove unused ones.',
  },
  {
    id: 'bundle/file-too-large',
    severity: 'error',
    title: 'A bundle file is larger than the one-file limit',
    ref: 'Bundle; Limits',
    hint: 'Shrink the file (compress images, split or minify code) below the limit.',
  },
  {
    id: 'bundle/expanded-too-large',
    severity: 'error',
    title: 'The files of the bundle add up to more than the expanded-size limit',
    ref: 'Bundle; Limits',
    hint: 'Remove or shrink files until the total is within the limit.',
  },
  {
    id: 'bundle/unreferenced-module',
    severity: 'warning',
    title: 'A JavaScript file is never loaded by a module script or an import',
    ref: 'Bundle',
    hint: 'Load it with <script type="module" src> or a static import, or remove it: JavaScript runs only as local modules.',
  },
  {
    id: 'secret/private-key',
    severity: 'error',
    title: 'A file holds private-key material',
    ref: 'Authentication (key custody); D-4',
    hint: 'Move the private key out of the project (keep it in a secret store or your home folder) and revoke it if it was ever shared or committed.',
  },
  {
    id: 'secret/not-scanned',
    severity: 'warning',
    title: 'A file outside the bundle could not be scanned for private-key material',
    ref: 'Authentication (key custody); D-4; D-30',
    hint: 'Make the file readable, or move it (and any pipe, device or very large file) out of the project or release folder, so that every file there can be scanned.',
  },
];

// Project-level rules: what a loader finds before any content rule can run.
export const PROJECT_RULES: readonly RuleDef[] = [
  {
    id: 'project/manifest-missing',
    severity: 'error',
    title: 'The project has no manifest.json',
    ref: 'Manifest',
    hint: 'Create manifest.json at the top of the project (platform-ext init writes one) or point the command at the project folder.',
  },
  {
    id: 'project/manifest-not-regular-file',
    severity: 'error',
    title: 'manifest.json is a link, folder, pipe or device',
    ref: 'Manifest; D-30',
    hint: 'Make manifest.json a regular file in the folder itself: a link is never followed (the signed bytes must be the ones in the folder) and a pipe or device is never read.',
  },
  // The project's copy of the contract (written by init) against the one this tool embeds
  // (contract "Versioning": a scaffold is regenerated to adopt a newer contract, and its
  // snapshot files are never edited by hand). Checked by src/contract/snapshot-drift.ts.
  {
    id: 'project/snapshot-stale',
    severity: 'warning',
    title: "A file of the project's contract-snapshot/ differs from the contract this tool enforces",
    ref: 'Versioning',
    hint: 'Run "platform-ext init --refresh" in the project: it regenerates contract-snapshot/ and CONTEXT.md in place and touches nothing else. Never edit them by hand.',
  },
  {
    id: 'project/context-stale',
    severity: 'warning',
    title: "The project's CONTEXT.md differs from the context document of this tool's contract",
    ref: 'Versioning',
    hint: 'Run "platform-ext init --refresh" in the project: it regenerates CONTEXT.md and contract-snapshot/ in place and touches nothing else. Never edit them by hand.',
  },
];
