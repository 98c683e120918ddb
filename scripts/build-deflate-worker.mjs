// The compression worker of `package` (src/zip/compression-worker-entry.ts and what it imports: the
// DEFLATE encoder, the entry rule and the node:zlib proof), bundled alone for embedding
// in the CLI. The CLI build passes it to esbuild `define` as
// __PLATFORM_DEFLATE_WORKER_SOURCE__ (a JSON string of CommonJS source); src/zip/parallel-compression.ts
// starts it with `new Worker(source, { eval: true })`. A worker running the whole CLI
// bundle instead took twice as long to start and 8 MiB more memory (bench/package.mjs).
//
//   import { deflateWorkerDefines } from './build-deflate-worker.mjs';
//   define: { ...(await deflateWorkerDefines(root)), ... }
import { build } from 'esbuild';
import { join } from 'node:path';
import { validatorIsPure } from './esbuild-validator-pure.mjs';

/** The esbuild `define` entry for the worker's source. */
export async function deflateWorkerDefines(root) {
  const result = await build({
    entryPoints: [join(root, 'src/zip/compression-worker-entry.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    write: false,
    plugins: [validatorIsPure(root)],
    // An eval'd worker has no module URL: any import.meta.url in its modules gets a fixed one.
    define: { 'import.meta.url': JSON.stringify('file:///platform-ext-deflate-worker.js') },
  });
  return { __PLATFORM_DEFLATE_WORKER_SOURCE__: JSON.stringify(result.outputFiles[0].text) };
}
