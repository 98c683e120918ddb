// platform-ext/testing (dist/testing.mjs): the mock host and store lifecycle for publishers' unit tests.
export * from './mock-platform/mock-platform.js';
export * from './mock-platform/mock-lifecycle.js';
