// Projects the benchmarks check: made on the fly, never committed.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

const MiB = 1 << 20;

/**
 * A valid project of 200 files and 20 MiB: 1 HTML page, 40 JavaScript modules, 20
 * stylesheets and 139 images. The code is real: each large module is a copy of
 * dist/validator.mjs (a 330 KB ECMAScript module of ordinary application code), the small
 * ones import them; stylesheets are ordinary rules with a url() every ten rules.
 * `codeBytes` is how much of the 20 MiB is code; images fill the rest. An image is one random
 * byte in sixteen, the rest zeros: compressible about ninefold, like real pictures in
 * formats that compress, so the project's archive stays within the compressed-size limit
 * (a bundle of 20 MiB of noise would be refused by check, as package refuses it).
 */
function imageBytes(size) {
  const bytes = Buffer.alloc(size);
  const noise = randomBytes(Math.ceil(size / 16));
  for (let k = 0; k < noise.length; k++) bytes[k * 16] = noise[k];
  return bytes;
}

export function makeBundle(dir, codeBytes, root) {
  const runtime = join(dir, 'runtime');
  mkdirSync(join(runtime, 'js'), { recursive: true });
  mkdirSync(join(runtime, 'css'));
  mkdirSync(join(runtime, 'img'));
  const realModule = readFileSync(join(root, 'dist/validator.mjs'));
  const total = 20 * MiB;
  const jsFiles = 40;
  const cssFiles = 20;
  const imgFiles = 200 - 1 - jsFiles - cssFiles;
  const bigModules = Math.min(jsFiles - 1, Math.max(1, Math.round((codeBytes * 0.75) / realModule.length)));
  let written = 0;
  for (let i = 0; i < jsFiles; i++) {
    if (i < bigModules) {
      writeFileSync(join(runtime, `js/m${i}.js`), realModule);
      written += realModule.length;
    } else {
      const text = `import { validateProject } from './m${i % bigModules}.js';\nexport function run${i}(input) {\n  return validateProject(input).errors === 0;\n}\n`;
      writeFileSync(join(runtime, `js/m${i}.js`), text);
      written += text.length;
    }
  }
  const rule = (n) =>
    n % 10 === 0
      ? `.c${n} { background: #fff url("../img/i${n % imgFiles}.png") no-repeat right top / 16px; }\n`
      : `.c${n} > .item:hover, .c${n}[data-state="open"] { color: #1f2937; margin: 0 auto; padding: 4px 8px; border-radius: 6px; }\n`;
  const cssTarget = Math.floor((codeBytes - written) / cssFiles);
  for (let i = 0; i < cssFiles; i++) {
    const parts = [];
    let size = 0;
    for (let n = 0; size < cssTarget; n++) {
      const r = rule(n);
      parts.push(r);
      size += r.length;
    }
    writeFileSync(join(runtime, `css/s${i}.css`), parts.join(''));
    written += size;
  }
  const imgSize = Math.floor((total - 4096 - written) / imgFiles);
  for (let i = 0; i < imgFiles; i++) writeFileSync(join(runtime, `img/i${i}.png`), imageBytes(imgSize));
  const links = Array.from({ length: cssFiles }, (_, i) => `<link rel="stylesheet" href="css/s${i}.css">`).join('\n');
  const scripts = Array.from({ length: jsFiles - bigModules }, (_, i) => `<script type="module" src="js/m${i + bigModules}.js"></script>`).join('\n');
  writeFileSync(join(runtime, 'index.html'), `<!doctype html><meta charset="utf-8"><title>bench</title>\n${links}\n${scripts}\n<p>bench</p>\n`);
  writeFileSync(
    join(dir, 'manifest.json'),
    JSON.stringify({ schema_version: 1, protocol_version: 1, namespace: 'bench/big', version: '1.0.0', name: 'Bench', entrypoint: 'index.html', capabilities: [], properties: {} }),
  );
}
