// Browser entry of the injected runtime module (bundled by scripts/build-bridge.mjs and
// served by the preview at <base URL>.platform/runtime.js). The only place that reads
// the frame's globals: everything else takes them as arguments.
import { installPlatform, readInjectedConfig } from './runtime.js';

installPlatform(window, readInjectedConfig(document));
