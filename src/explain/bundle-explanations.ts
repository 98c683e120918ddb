// Long explanations of the bundle rules (src/validator/catalogue/bundle-rules.ts), joined into the
// table of src/explain/all-explanations.ts.
import { ALLOWED_EXTENSIONS, BUNDLE_MAX_EXPANDED_BYTES, BUNDLE_MAX_FILES, BUNDLE_MAX_FILE_BYTES, BUNDLE_PATH_MAX_BYTES, KEY_SCAN_MAX_BYTES } from '../validator/internal.js';
import { listOf, sizeText, type Explanation } from './explanation-kit.js';

export function bundleExplanations(): Record<string, Explanation> {
  return {
    'project/manifest-missing': {
      text: 'A project is a folder with manifest.json at its top and runtime/ beside it. The folder given has no manifest.json: usually the command was pointed at a parent folder or at runtime/ itself.',
      example: { file: 'shell', before: 'platform-ext check my-extension/runtime', after: 'platform-ext check my-extension' },
    },
    'project/manifest-not-regular-file': {
      text: 'manifest.json is read only when it is a regular file in the project folder itself (D-30): it is opened without following links and without waiting, and checked on the open file. A link would make the tool check and sign bytes from somewhere else, a named pipe or device could make it wait forever, and a folder has no content. In a release folder the same rule speaks for manifest.json.',
      example: { file: 'layout', before: 'my-extension/manifest.json -> ../common/manifest.json', after: 'my-extension/manifest.json   (a regular file, copied by the build step)' },
    },
    'project/snapshot-stale': {
      text: 'init writes contract-snapshot/ (rules, limits, runtime policy, bridge protocol) so that editors, CI and AI agents read the same contract as the tool. A file there differs from, is missing from, or is extra to the contract this version of the tool enforces: the project was made by another version, or the files were edited. The contract says a scaffold is regenerated to adopt a newer contract and its snapshot files are never edited by hand (Versioning). It is a warning: the checks themselves always use the tool\'s own contract.',
      example: { file: 'shell', before: '(contract-snapshot/rules.json edited by hand, or written by an older platform-ext)', after: 'platform-ext init --refresh' },
    },
    'project/context-stale': {
      text: 'CONTEXT.md, written by init, is the one-file context document (contract, schema, API declarations, a reference extension) for people and AI agents working on the project. It differs from the document of the contract this version of the tool enforces, so whoever reads it would work from an outdated or edited contract (Versioning). It is a warning; a CONTEXT.md of your own (without the generated marker) is left alone.',
      example: { file: 'shell', before: '(CONTEXT.md written by an older platform-ext)', after: 'platform-ext init --refresh' },
    },
    'bundle/missing-runtime': {
      text: 'Only runtime/ is packaged: it becomes the root of bundle.zip, and the entrypoint is relative to it (D-1). Without it there is nothing to publish. The name is exact and lowercase.',
      example: {
        file: 'layout',
        before: 'my-extension/\n  manifest.json\n  index.html\n  main.js',
        after: 'my-extension/\n  manifest.json\n  runtime/\n    index.html\n    main.js',
      },
    },
    'bundle/path-invalid': {
      text: 'Bundle paths become ZIP entry names and URLs on the release origin, so every segment is 1 or more ASCII letters, digits, ".", "_" or "-", and never starts with "." (D-2). Spaces, non-ASCII letters, "%" and hidden files such as .DS_Store or ._logo.png (macOS metadata) are refused. Nothing under runtime/ is skipped silently (D-3), so such files are findings, not omissions.',
      example: { file: 'layout', before: 'runtime/images/Hero Image.png\nruntime/.DS_Store', after: 'runtime/images/hero-image.png' },
    },
    'bundle/extension-not-allowed': {
      text: `Only files with these extensions can be in the bundle: ${listOf(ALLOWED_EXTENSIONS)} (any letter case, D-2). Everything under runtime/ is packaged (D-3), so another file type is an error instead of being left out: JSON, Markdown, source maps, TypeScript, SVG files, lock files, tests and licenses. Keep sources outside runtime/ and build into it; put data in a .js module; inline SVG in the HTML or convert it.`,
      example: { file: 'layout', before: 'runtime/main.js.map\nruntime/config.json', after: 'runtime/config.js   (export default { … })' },
    },
    'bundle/entrypoint-missing': {
      text: 'The manifest\'s entrypoint must name a file under runtime/, with the same letter case: storage is case-sensitive even when your disk is not (D-1).',
      example: { file: 'manifest.json', before: '"entrypoint": "Index.html",   (the file is runtime/index.html)', after: '"entrypoint": "index.html",' },
    },
    'bundle/extra-html': {
      text: 'A bundle has exactly one HTML file, the entrypoint (contract "Bundle"). Another page could never be shown, because the frame must not navigate, and it would escape the entrypoint checks. Build extra views with JavaScript in the one page.',
      example: { file: 'layout', before: 'runtime/index.html\nruntime/about.html', after: 'runtime/index.html\nruntime/about.js   (renders the about view)' },
    },
    'bundle/case-collision': {
      text: 'Two paths differ only by letter case (compared after ASCII lowercasing, D-2). On case-insensitive disks (macOS, Windows) and in some storage they are one file, so which one is served would depend on where the bundle is unpacked.',
      example: { file: 'layout', before: 'runtime/Logo.png\nruntime/logo.png', after: 'runtime/logo.png' },
    },
    'bundle/symlink': {
      text: 'Symbolic links are not allowed in a bundle (contract "Bundle"): a link can point outside the project, ZIP has no portable way to store one, and following it would package a file the publisher never looked at.',
      example: { file: 'layout', before: 'runtime/vendor -> ../node_modules/lib/dist', after: 'runtime/vendor/lib.js   (a copy made by the build step)' },
    },
    'bundle/not-regular-file': {
      text: 'Only regular files can be packaged (D-3). A device, socket or named pipe under runtime/ has no content to archive, and reading a pipe could block forever.',
      example: { file: 'layout', before: 'runtime/debug.fifo   (a named pipe)', after: '(removed from runtime/)' },
    },
    'bundle/unreadable-file': {
      text: 'Everything under runtime/ is packaged (D-3), so a file that cannot be read (permissions, a broken mount) is an error rather than being skipped.',
      example: { file: 'shell', before: '$ ls -l runtime/logo.png\n--w------- 1 root root 2048 logo.png', after: '$ chmod a+r runtime/logo.png' },
    },
    'bundle/path-too-long': {
      text: `Every bundle path, relative to runtime/ (or an entry name inside bundle.zip), is at most ${BUNDLE_PATH_MAX_BYTES} bytes, the limit the contract sets for the entrypoint (D-2a). Longer names break extractors and file systems with a 255-byte name limit, and a 64 KB ZIP entry name is a way to make logs and reports unreadable.`,
      example: { file: 'layout', before: 'runtime/assets/generated/chunk-…(300 characters)….js', after: 'runtime/assets/chunk-3f9a2c.js' },
    },
    'bundle/path-prefix-conflict': {
      text: 'No bundle path is both a file and the folder of another file (D-2a), compared ignoring ASCII letter case as collisions are (D-2). A runtime/ folder on a case-sensitive disk can hold "Lib.js" beside "lib.js/x.js", and an archive can list "lib" beside "lib/x.js"; extractors then disagree on which one exists, so the release would not be the same files everywhere.',
      example: { file: 'layout', before: 'bundle.zip: lib   and   lib/x.js', after: 'bundle.zip: lib.js   and   lib/x.js' },
    },
    'bundle/too-many-files': {
      text: `A bundle holds at most ${BUNDLE_MAX_FILES} files (contract "Limits"). Bundle the modules with a build step, combine icons into a sprite or inline SVG, and remove unused assets.`,
      example: { file: 'layout', before: 'runtime/icons/a.png … runtime/icons/z.png (240 files)', after: 'runtime/icons.png   (one sprite)' },
    },
    'bundle/file-too-large': {
      text: `One file is at most ${sizeText(BUNDLE_MAX_FILE_BYTES)} (contract "Limits"). The loader does not read a file whose size already breaks the limit. Re-encode images (WebP, AVIF), subset fonts, and split or minify code.`,
      example: { file: 'layout', before: 'runtime/images/hero.png   (9.6 MiB)', after: 'runtime/images/hero.webp   (410 KiB)' },
    },
    'bundle/expanded-too-large': {
      text: `All bundle files together are at most ${sizeText(BUNDLE_MAX_EXPANDED_BYTES)} before compression (contract "Limits").`,
      example: { file: 'layout', before: 'runtime/images/   (64 photos at full resolution)', after: 'runtime/images/   (the same photos resized for the widget)' },
    },
    'bundle/unreferenced-module': {
      text: 'JavaScript runs in the frame only as local modules, loaded by a <script type="module" src> in the entrypoint or imported by another module (contract "Bundle": JavaScript). A .js file that nothing loads is dead weight, or a sign of a mistyped import path or of a module reached only by a computed dynamic import. It is a warning: the release is still valid.',
      example: { file: 'runtime/main.js', before: "import { renderList } from './list.js';   (runtime/grid.js is never imported)", after: "import { renderList } from './list.js';\nimport { renderGrid } from './grid.js';" },
    },
    'secret/private-key': {
      text: 'Key custody (contract "Authentication" 5): the private signing key is never part of a project, bundle, submission or source control. Every file of the project except node_modules/ and .git/ is scanned for PEM private-key markers (D-4). Whoever holds the key can sign releases in your name: if the file was ever committed, pushed or shared, add a new key in the console, sign with it, and revoke the old one.',
      example: {
        file: 'layout',
        before: 'my-extension/\n  manifest.json\n  signing.pem   (-----BEGIN PRIVATE KEY-----)',
        after: '~/.config/platform-ext/acme.pem   (outside every project)\nmy-extension/.gitignore: *.pem and *.key',
      },
    },
    'secret/not-scanned': {
      text: `The private-key scan (D-4) reads every file of the project outside runtime/, node_modules/ and .git/, and every extra file of a release folder. A file it cannot read is named in this warning rather than skipped in silence (D-30): one it has no permission to read, a named pipe, device or socket (opened without waiting, never read), or a file over ${sizeText(KEY_SCAN_MAX_BYTES)} (refused by the size of the open file, never read to its end). Links are not followed and not scanned: their targets are not part of the folder.`,
      example: { file: 'layout', before: 'my-extension/\n  recording.fifo   (a named pipe)\n  backup.img   (20 GB)', after: 'my-extension/   (the pipe and the image moved elsewhere)' },
    },
  };
}
