// platform-ext/testing, bundled as dist/testing.mjs with dist/testing.d.ts: a mock host for
// publishers' unit tests (src/mock-platform/mock-platform.ts says how it works). Entry point
// only.
export * from './mock-platform/mock-platform.js';
// The store lifecycle (install, upgrade, approve, revoke, roll back) on the service core.
export * from './mock-platform/mock-lifecycle.js';
