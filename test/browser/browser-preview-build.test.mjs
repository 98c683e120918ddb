// `preview` beside a bundler in watch mode: while the output folder is being
// rewritten (files vanish, then reappear), the page says a build is under way and keeps
// the running frame, instead of flashing the findings of a half-written folder; a check
// that passes is shown at once, and a failure that stays is shown once the folder has
// been quiet. The waits are set per test (createPreviewServer's `settle`), so nothing
// here depends on how fast the machine is: the "build" takes as long as the test needs.
import { test } from 'node:test';
import { ruleById } from '../../build/validator/rules.js';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { browserSkip, extensionFrame, launchBrowser, startPreview, watchConsole } from '../support/browser.mjs';
import { makeProject } from '../support/project.mjs';
import { settleDelay, MISSING_FILE_RULES } from '../../build/preview/watch.js';

const SKIP = browserSkip();
const HTML = '<!doctype html><html><head><meta charset="utf-8"><title>t</title><script type="module" src="main.js"></script></head><body><p id="out">…</p></body></html>\n';
const main = (build) => `document.getElementById('out').textContent = 'build ${build}';\n`;

test('settleDelay: only missing files wait the long wait; any other error the short one', () => {
  const settle = { quietMs: 1, missingMs: 2 };
  const error = (rule) => ({ rule, severity: 'error', message: '' });
  assert.equal(settleDelay([error('bundle/entrypoint-missing'), error('html/missing-reference')], settle), 2);
  assert.equal(settleDelay([error('bundle/entrypoint-missing'), error('js/syntax-error')], settle), 1);
  assert.equal(settleDelay([error('js/syntax-error')], settle), 1);
  assert.ok(['bundle/missing-runtime', 'css/missing-reference', 'js/missing-module'].every((rule) => MISSING_FILE_RULES.has(rule)));
});

/** Records every state the page's check status takes, from now on. */
async function recordStatus(page) {
  await page.evaluate(() => {
    const status = document.getElementById('check-status');
    window.statusLog = [status.dataset.state];
    new MutationObserver(() => window.statusLog.push(status.dataset.state)).observe(status, { attributes: true, attributeFilter: ['data-state'] });
  });
  return () => page.evaluate(() => window.statusLog.slice());
}

async function frameText(page) {
  const frame = await extensionFrame(page);
  return frame.evaluate(() => document.getElementById('out')?.textContent ?? '');
}

test('preview during a rebuild: "building" while files are missing, the frame stays, no error flashes', { skip: SKIP }, async (t) => {
  const dir = makeProject(t, { files: { 'runtime/index.html': HTML, 'runtime/main.js': main(1) } });
  const browser = await launchBrowser(t);
  const context = await browser.newContext();
  t.after(() => context.close());
  // Waits far longer than this test can take: the "build" below decides when it ends.
  const server = await startPreview(t, { projectDir: dir, watch: true, settle: { quietMs: 600_000, missingMs: 600_000 } });
  const page = await context.newPage();
  t.after(() => page.close());
  const log = watchConsole(page);
  await page.goto(server.url);
  await page.waitForFunction(() => document.getElementById('check-status').dataset.state === 'ok');
  await (await extensionFrame(page)).waitForFunction(() => document.getElementById('out').textContent === 'build 1');
  const states = await recordStatus(page);

  // The bundler empties its output folder...
  rmSync(join(dir, 'runtime/main.js'));
  rmSync(join(dir, 'runtime/index.html'));
  await page.waitForFunction(() => document.getElementById('check-status').dataset.state !== 'ok');
  assert.equal(await page.locator('#check-status').getAttribute('data-state'), 'building');
  assert.equal(await frameText(page), 'build 1', 'the last good build keeps running');
  assert.equal(await page.locator('#findings').isVisible(), false, 'no findings over the frame');

  // ...and writes the new build, one file at a time.
  writeFileSync(join(dir, 'runtime/index.html'), HTML);
  writeFileSync(join(dir, 'runtime/main.js'), main(2));
  await page.waitForFunction(() => document.getElementById('check-status').dataset.state === 'ok');
  await page.waitForFunction(async () => {
    const frame = document.querySelector('#frame-slot iframe');
    return frame !== null;
  });
  await (await extensionFrame(page)).waitForFunction(() => document.getElementById('out')?.textContent === 'build 2');
  assert.deepEqual((await states()).filter((s) => s === 'errors'), [], `states: ${(await states()).join(', ')}`);
  assert.equal(server.status().ok, true);
  assert.deepEqual(log.pageErrors, []);
});

test('preview: an error that stays after the folder settles is shown', { skip: SKIP }, async (t) => {
  const dir = makeProject(t, { files: { 'runtime/index.html': HTML, 'runtime/main.js': main(1) } });
  const browser = await launchBrowser(t);
  const context = await browser.newContext();
  t.after(() => context.close());
  const server = await startPreview(t, { projectDir: dir, watch: true, settle: { quietMs: 50, missingMs: 50 } });
  const page = await context.newPage();
  t.after(() => page.close());
  await page.goto(server.url);
  await page.waitForFunction(() => document.getElementById('check-status').dataset.state === 'ok');
  rmSync(join(dir, 'runtime/main.js'));
  await page.waitForFunction(() => document.getElementById('check-status').dataset.state === 'errors');
  assert.equal(server.status().ok, false);
  assert.equal(await page.locator('#findings').isVisible(), true);
  assert.ok(await page.locator('#findings-list .finding__rule', { hasText: 'html/missing-reference' }).count() > 0);
  // Each finding shows its rule's fix, as check prints it.
  const item = page.locator('#findings-list .finding', { has: page.locator('.finding__rule', { hasText: 'html/missing-reference' }) }).first();
  assert.equal(await item.locator('.finding__hint').textContent(), `Fix: ${ruleById('html/missing-reference').hint}`);
});
