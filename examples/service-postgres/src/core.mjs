// The service core this example wires. A platform team imports `platform-ext/service` (the
// published package, or dist/service.mjs vendored as it is); inside this repository the
// example uses the checkout's own build, so that it always tests the core beside it.
const url = new URL('../../../dist/service.mjs', import.meta.url);
let core;
try {
  core = await import(url.href);
} catch (error) {
  if (error.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  throw new Error('dist/service.mjs is not built: run `npm ci` (or `node scripts/build.mjs`) at the root of the repository first');
}
export const { DECIDERS, REFUSALS } = core;
export default core;
