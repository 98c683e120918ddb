// Bundles the browser side of the bridge into strings (the CLI embeds them with esbuild
// `define`, the way esbuild embeds its own worker source):
//   runtime: src/bridge/runtime-main.ts, a self-running script with no imports or exports,
//            served by the preview as <base URL>.platform/runtime.js and loaded by the
//            injected classic <script src="…"> (parser-blocking: it runs before any
//            extension script).
//   host:    src/bridge/host-main.ts as an ES module exporting createHostBridge,
//            AdapterUnavailable, isAdapterUnavailable, THEME_FIELDS, CART_UPDATED_EVENT.
// Both: browser platform, ES2020 / Chrome 100, minified, no legal comments.
import { build } from 'esbuild';
import { join } from 'node:path';
import { validatorIsPure } from './esbuild-validator-pure.mjs';

const TARGET = ['es2020', 'chrome100'];

async function bundle(root, entry, format, extra = {}) {
  const result = await build({
    entryPoints: [join(root, entry)],
    bundle: true,
    write: false,
    format,
    platform: 'browser',
    target: TARGET,
    minify: process.env.PLATFORM_EXT_NO_MINIFY !== '1',
    legalComments: 'none',
    logLevel: 'warning',
    tsconfig: join(root, 'src/bridge/tsconfig.json'),
    plugins: [validatorIsPure(root)],
    ...extra,
  });
  return result.outputFiles[0].text;
}

/** Returns the two bundles as strings. `root` is the repository root. */
export async function buildBridge(root) {
  const [runtime, host] = await Promise.all([
    bundle(root, 'src/bridge/runtime-main.ts', 'iife'),
    bundle(root, 'src/bridge/host-main.ts', 'esm'),
  ]);
  return { runtime, host };
}
