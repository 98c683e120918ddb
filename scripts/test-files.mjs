// The suite: every test file, listed by hand in one place. scripts/test.mjs and
// scripts/node-matrix.mjs run this list and nothing else (Node 20's own discovery would also
// run any .js under a folder named test, fixtures included).
// Files sit in the folder of the area they test: test/<src folder>/ for a folder of src/,
// test/cli/ for the built commands end to end, test/browser/ for Chromium, test/interop/ for
// outside tools and packages, test/repo/ for the repository itself. test/repo/suite.test.mjs
// fails when a *.test.mjs file under test/ is missing here, or a listed one is gone.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Paths from the repository root, sorted. */
export const TEST_FILES = [
  'test/bridge/bridge-protocol.test.mjs',
  'test/browser/browser-bridge.test.mjs',
  'test/browser/browser-isolation.test.mjs',
  'test/browser/browser-preview-build.test.mjs',
  'test/browser/browser-preview-lifecycle.test.mjs',
  'test/browser/browser-preview.test.mjs',
  'test/browser/browser-scaffold-vite.test.mjs',
  'test/browser/browser-scaffold.test.mjs',
  'test/cli/api.test.mjs',
  'test/cli/baseline.test.mjs',
  'test/cli/check-acknowledged.test.mjs',
  'test/cli/check-format.test.mjs',
  'test/cli/cli-edges.test.mjs',
  'test/cli/cli.test.mjs',
  'test/cli/command-help.test.mjs',
  'test/cli/fuzz-release-folder.test.mjs',
  'test/cli/golden-release.test.mjs',
  'test/cli/hostile-files.test.mjs',
  'test/cli/hostile-output.test.mjs',
  'test/cli/init.test.mjs',
  'test/cli/launcher.test.mjs',
  'test/cli/package-faults.test.mjs',
  'test/cli/release.test.mjs',
  'test/cli/review-decisions.test.mjs',
  'test/cli/review-history.test.mjs',
  'test/cli/review.test.mjs',
  'test/cli/wrong-folder.test.mjs',
  'test/contract/context.test.mjs',
  'test/contract/snapshot-content.test.mjs',
  'test/contract/snapshot-drift.test.mjs',
  'test/contract/snapshot.test.mjs',
  'test/explain/explain.test.mjs',
  'test/interop/bundler-esbuild.test.mjs',
  'test/interop/js-markup-frameworks.test.mjs',
  'test/interop/js-real-modules.test.mjs',
  'test/interop/npm-pack.test.mjs',
  'test/interop/platform-types.test.mjs',
  'test/interop/sarif.test.mjs',
  'test/interop/scaffold-typecheck.test.mjs',
  'test/interop/schema-differential.test.mjs',
  'test/interop/typecheck-command.test.mjs',
  'test/mock-platform/mock-lifecycle.test.mjs',
  'test/mock-platform/testing-mock.test.mjs',
  'test/node/crypto.test.mjs',
  'test/node/file-open.test.mjs',
  'test/node/tool-root.test.mjs',
  'test/ops/use-cases.test.mjs',
  'test/preview/preview-adapters.test.mjs',
  'test/preview/preview-server.test.mjs',
  'test/repo/api-doc.test.mjs',
  'test/repo/bundle-imports.test.mjs',
  'test/repo/comment-share.test.mjs',
  'test/repo/docs.test.mjs',
  'test/repo/gitignore.test.mjs',
  'test/repo/import-graph.test.mjs',
  'test/repo/publisher-docs.test.mjs',
  'test/repo/self-contained.test.mjs',
  'test/repo/suite.test.mjs',
  'test/repo/test-reporter.test.mjs',
  'test/service/catalogue.test.mjs',
  'test/service/installation.test.mjs',
  'test/service/link.test.mjs',
  'test/service/malformed.test.mjs',
  'test/service/properties.test.mjs',
  'test/service/publisher.test.mjs',
  'test/service/statements.test.mjs',
  'test/service/submission.test.mjs',
  'test/service/walkthrough.test.mjs',
  'test/validator/bridge-payload.test.mjs',
  'test/validator/bridge-requests.test.mjs',
  'test/validator/bundle.test.mjs',
  'test/validator/bundler-hints.test.mjs',
  'test/validator/catalogue-coverage.test.mjs',
  'test/validator/catalogue-refs.test.mjs',
  'test/validator/css-policy.test.mjs',
  'test/validator/css-tokenizer.test.mjs',
  'test/validator/deflate-bound.test.mjs',
  'test/validator/fuzz-css.test.mjs',
  'test/validator/fuzz-html.test.mjs',
  'test/validator/fuzz-js.test.mjs',
  'test/validator/fuzz-manifest.test.mjs',
  'test/validator/fuzz-zip.test.mjs',
  'test/validator/grammar.test.mjs',
  'test/validator/html-policy.test.mjs',
  'test/validator/html-tokenizer.test.mjs',
  'test/validator/js-lexer.test.mjs',
  'test/validator/js-policy.test.mjs',
  'test/validator/js-project.test.mjs',
  'test/validator/json-reader.test.mjs',
  'test/validator/manifest.test.mjs',
  'test/validator/properties.test.mjs',
  'test/validator/public-api.test.mjs',
  'test/validator/references.test.mjs',
  'test/validator/secrets.test.mjs',
  'test/validator/suspicious-code.test.mjs',
  'test/validator/validator-boundary.test.mjs',
  'test/validator/zip-read.test.mjs',
  'test/zip/deflate.test.mjs',
  'test/zip/size-agreement.test.mjs',
  'test/zip/zip-write.test.mjs',
];

/** Folders under test/ that hold data, corpora or shared code, never test files. */
const NOT_TESTS = new Set(['fixtures', 'corpus', 'support', 'node_modules']);

/** Every *.test.mjs under test/ (outside data and support folders), sorted: what TEST_FILES must equal. */
export function testFilesOnDisk(root) {
  const walk = (dir, prefix) =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = prefix + '/' + entry.name;
      if (entry.isDirectory()) return NOT_TESTS.has(entry.name) ? [] : walk(join(dir, entry.name), path);
      return entry.isFile() && entry.name.endsWith('.test.mjs') ? [path] : [];
    });
  return walk(join(root, 'test'), 'test').sort();
}
