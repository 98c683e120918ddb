// Module hooks (node --experimental-loader) that record what the test suite feeds the
// validator: every manifest given to validateManifest and every string given to the
// grammar functions, as transpiled in build/. test/interop/schema-differential.test.mjs runs the
// manifest, property and grammar suites under these hooks and replays each recorded input
// through manifest.schema.json, so "every manifest case in the test suite" stays true as
// those suites grow. The suites themselves run unchanged.
//
// Each recorded module is replaced by a proxy that re-exports the original (loaded under a
// `?recorded-original` URL) and wraps the named functions; calls are collected by
// test/support/call-recorder.mjs in the test process and written when it exits.
const TARGETS = [
  { suffix: '/build/validator/manifest.js', functions: ['validateManifest'] },
  { suffix: '/build/validator/grammar.js', functions: ['isNamespace', 'isSemver', 'isPropertyName', 'isColor', 'urlProblem'] },
];
const ORIGINAL = '?recorded-original';
const RECORDER = new URL('./call-recorder.mjs', import.meta.url).href;

function proxySource(url, functions) {
  const original = JSON.stringify(url + ORIGINAL);
  const wrappers = functions.map(
    (name) => `export function ${name}(...args) { record(${JSON.stringify(name)}, args[0]); return original.${name}(...args); }`,
  );
  return [`import * as original from ${original};`, `import { record } from ${JSON.stringify(RECORDER)};`, `export * from ${original};`, ...wrappers].join('\n');
}

export async function load(url, context, nextLoad) {
  if (url.startsWith('file:') && !url.includes('?')) {
    for (const target of TARGETS) {
      if (url.endsWith(target.suffix)) return { format: 'module', shortCircuit: true, source: proxySource(url, target.functions) };
    }
  }
  return nextLoad(url, context);
}
