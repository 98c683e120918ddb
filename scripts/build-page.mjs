// Builds the preview host page for embedding in the CLI: page.ts bundled for the browser
// (with the host bridge, the validator pieces it uses and the mock store), plus the page's
// HTML and CSS as they are, and boot.ts, the page's first (classic) script. The CLI build
// passes the strings to esbuild `define` as __PLATFORM_PAGE_SOURCE__,
// __PLATFORM_PAGE_BOOT__, __PLATFORM_PAGE_HTML__ and __PLATFORM_PAGE_CSS__
// (JSON-encoded), the way esbuild embeds its own worker source; src/preview/server.ts
// reads them.
//
//   import { buildPage, pageDefines } from './build-page.mjs';
//   const page = await buildPage(root);          // { pageJs, bootJs, pageHtml, pageCss }
//   define: { ...pageDefines(page), ... }
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validatorIsPure } from './esbuild-validator-pure.mjs';

/** Browsers the page must run in: the evergreen ones (ES2022: class fields, top-level await). */
const BROWSER_TARGETS = ['chrome109', 'firefox115', 'safari16'];

/** Bundles one browser entry of the page: no Node code, minified, for BROWSER_TARGETS. */
async function bundlePage(root, entry, format) {
  const result = await build({
    entryPoints: [join(root, entry)],
    bundle: true,
    format,
    platform: 'browser',
    target: BROWSER_TARGETS,
    minify: process.env.PLATFORM_EXT_NO_MINIFY !== '1',
    legalComments: 'none',
    write: false,
    logLevel: 'warning',
    // The page must never pull in Node code: a node: import is a build error, not a shim.
    plugins: [
      validatorIsPure(root),
      {
        name: 'browser-only',
        setup(b) {
          b.onResolve({ filter: /^node:/ }, (args) => ({
            errors: [{ text: `the preview page runs in the browser and cannot import ${args.path} (from ${args.importer})` }],
          }));
        },
      },
    ],
  });
  return result.outputFiles[0].text;
}

/** The page's code, markup and styles as strings. */
export async function buildPage(root) {
  // page.js is the page's module; boot.js its first, classic script (boot.ts says why).
  const [pageJs, bootJs] = await Promise.all([bundlePage(root, 'src/preview/host-page/page.ts', 'esm'), bundlePage(root, 'src/preview/host-page/boot.ts', 'iife')]);
  return {
    pageJs,
    bootJs,
    pageHtml: readFileSync(join(root, 'src/preview/host-page/page.html'), 'utf8'),
    pageCss: readFileSync(join(root, 'src/preview/host-page/page.css'), 'utf8'),
  };
}

/** The esbuild `define` entries for the page strings. */
export function pageDefines(page) {
  return {
    __PLATFORM_PAGE_SOURCE__: JSON.stringify(page.pageJs),
    __PLATFORM_PAGE_BOOT__: JSON.stringify(page.bootJs),
    __PLATFORM_PAGE_HTML__: JSON.stringify(page.pageHtml),
    __PLATFORM_PAGE_CSS__: JSON.stringify(page.pageCss),
  };
}
