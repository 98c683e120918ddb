// Browser entry of the injected runtime (bundled by scripts/build-bridge.mjs as a
// self-running script and served by the preview at <base URL>.platform/runtime.js, loaded
// by a classic parser-blocking <script src>, so it runs before any extension script).
// The only place that reads the frame's globals: everything else takes them as arguments.
import { installPlatform, readInjectedConfig } from './runtime.js';

installPlatform(window, readInjectedConfig(document));
