// An esbuild plugin for bundles that take a few names from the validator: every module
// under src/validator/ is marked free of side effects (the validator is values in, findings
// out: no module does anything when it is loaded but build its tables), so esbuild keeps
// only what the bundle uses even when it imports through src/validator/index.ts.
import { join, resolve } from 'node:path';

export function validatorIsPure(root) {
  const validatorDir = join(root, 'src/validator') + '/';
  return {
    name: 'validator-is-pure',
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        const path = resolve(args.resolveDir, args.path).replace(/\.js$/, '.ts');
        return path.startsWith(validatorDir) ? { path, sideEffects: false } : undefined;
      });
    },
  };
}
