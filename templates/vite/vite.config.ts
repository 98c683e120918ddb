// Vite settings for a website extension (see README.md, "Why these settings"). The
// platform packages runtime/ as it is and serves it from a sandboxed frame, so the build
// must write only files the contract allows, with relative paths.
import { defineConfig } from 'vite';

export default defineConfig({
  // The frame's address is not known at build time: every URL in the output is relative.
  base: './',
  // public/ would be copied into the bundle unchecked (favicons, .svg, .txt).
  publicDir: false,
  build: {
    // The bundle folder that check, preview and package read.
    outDir: 'runtime',
    emptyOutDir: true,
    // .map files are not an allowed bundle extension.
    sourcemap: false,
    // .vite/manifest.json is neither allowed nor needed.
    manifest: false,
    ssrManifest: false,
    // The polyfill fetches modules itself, and the frame has no network API.
    modulePreload: { polyfill: false },
    // Never inline assets as data: URLs; the font policy allows only font files from the bundle.
    assetsInlineLimit: 0,
    copyPublicDir: false,
  },
});
