// Browser entry of the injected runtime, loaded parser-blocking so it runs before any extension script.
// The only place that reads the frame's globals: everything else takes them as arguments.
import { installPlatform, readInjectedConfig } from './runtime.js';

installPlatform(window, readInjectedConfig(document));
