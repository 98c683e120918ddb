// The mock's `platform` and capability key types as the source sees them (loosely typed). The package replaces them:
// scripts/build.mjs writes the closed `Platform.Api` types as a module, so no global clashes with a project's snapshot.
import type { PlatformApi } from '../bridge/runtime.js';

/** `window.PLATFORM` as the mock installs it (in dist/testing.d.ts: `Platform.Api`). */
export type MockPlatformApi = PlatformApi;

/** A capability key of protocol version 1 (in dist/testing.d.ts: `Platform.CapabilityKey`). */
export type MockCapabilityKey = string;
