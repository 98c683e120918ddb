// The types of the mock's `platform` object and of capability keys, as the source sees
// them: the runtime's own interface, loosely typed (payloads and answers are `unknown`).
//
// In the published package this file's declarations are replaced: scripts/build.mjs
// (bundleTesting) writes dist/types/testing/platform-api.d.ts from the same generator as
// contract-snapshot/platform.d.ts, as a module, so `platform-ext/testing` gives
// publishers the closed `Platform.Api` types (every method, payload and answer) without
// declaring any global that would clash with their project's own contract snapshot.
import type { PlatformApi } from '../bridge/runtime.js';

/** `window.PLATFORM` as the mock installs it (in dist/testing.d.ts: `Platform.Api`). */
export type MockPlatformApi = PlatformApi;

/** A capability key of protocol version 1 (in dist/testing.d.ts: `Platform.CapabilityKey`). */
export type MockCapabilityKey = string;
