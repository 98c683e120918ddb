// The use cases of src/ops/ driven directly, without the command layer: a table of fixture
// projects, each row naming the use case, its input and what it must return (pass or fail
// and the rule ids found, or the usage error it throws).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkProject, packageProject, reviewRelease, verifyRelease, UsageError } from '../../build/ops/index.js';
import { initProject } from '../../build/ops/init-project.js';
import { previewSession } from '../../build/ops/preview-session.js';
import { BASE_HTML, keygen, makeProject, tempDir } from '../support/project.mjs';

const PREVIEW_ASSETS = { runtimeJs: '//\n', pageJs: '//\n', bootJs: '//\n', pageHtml: '<!doctype html><title>p</title>\n', pageCss: '\n' };

/** The rule ids of a report, in report order. */
const rules = (report) => report.findings.map((f) => f.rule);

/** A project packaged with a fresh key: the release folder and the key. */
function released(t, project = {}) {
  const key = keygen(tempDir(t));
  const out = join(tempDir(t), 'release');
  const outcome = packageProject(makeProject(t, project), { out, privateKey: key.privateKey });
  assert.equal(outcome.written, true, rules(outcome.report).join(', '));
  return { out, key };
}

// Each row: the use case, what the input is, how to run it, and what it returns.
const ROWS = [
  { use: 'checkProject', input: 'a valid project', run: (t) => checkProject(makeProject(t)), ok: true, rules: [] },
  {
    use: 'checkProject',
    input: 'a call to a PLATFORM member that does not exist',
    run: (t) => checkProject(makeProject(t, { files: { 'runtime/main.js': "window.PLATFORM.teleport();\n" } })),
    ok: false,
    rules: ['js/platform-unknown-member'],
  },
  {
    use: 'checkProject',
    input: 'a remote script in the entrypoint',
    run: (t) => checkProject(makeProject(t, { files: { 'runtime/index.html': BASE_HTML.replace('</head>', '<script src="https://cdn.example/x.js"></script></head>') } })),
    ok: false,
    rules: ['html/classic-script', 'html/remote-reference'],
  },
  {
    use: 'checkProject',
    input: 'a manifest without a version',
    run: (t) => checkProject(makeProject(t, { manifest: { version: undefined } })),
    ok: false,
    rules: ['manifest/missing-field'],
  },
  {
    use: 'packageProject',
    input: 'a valid project and a key',
    run: (t) => {
      const key = keygen(tempDir(t));
      const outcome = packageProject(makeProject(t), { out: join(tempDir(t), 'release'), privateKey: key.privateKey });
      assert.equal(outcome.written, true);
      assert.equal(outcome.publicKeyId, key.fingerprint);
      return outcome.report;
    },
    ok: true,
    rules: [],
  },
  {
    use: 'packageProject',
    input: 'a project with an error: nothing is written',
    run: (t) => {
      const key = keygen(tempDir(t));
      const outcome = packageProject(makeProject(t, { manifest: { version: 'one' } }), { out: join(tempDir(t), 'release'), privateKey: key.privateKey });
      assert.equal(outcome.written, false);
      return outcome.report;
    },
    ok: false,
    rules: ['manifest/version'],
  },
  { use: 'verifyRelease', input: 'a release as packaged', run: (t) => verifyRelease(released(t).out).report, ok: true, rules: [] },
  {
    use: 'verifyRelease',
    input: 'a release whose signature is another one',
    run: (t) => {
      const { out } = released(t);
      writeFileSync(join(out, 'signature.txt'), `${Buffer.alloc(64).toString('base64')}\n`);
      return verifyRelease(out).report;
    },
    ok: false,
    rules: ['release/signature-invalid'],
  },
  {
    use: 'reviewRelease',
    input: 'a release as packaged, nothing pins the signer: cannot decide',
    run: (t) => reviewRelease(released(t).out),
    ok: false,
    rules: ['release/signer-not-pinned'],
  },
  {
    use: 'reviewRelease',
    input: "a release as packaged, the operator states it is the publisher's first",
    run: (t) => reviewRelease(released(t).out, { firstRelease: true }),
    ok: true,
    rules: [],
  },
  {
    use: 'reviewRelease',
    input: 'a release signed by a key the known-keys file does not hold',
    run: (t) => {
      const { out } = released(t);
      const other = keygen(tempDir(t));
      const known = join(tempDir(t), 'known-keys.txt');
      writeFileSync(known, `${other.publicText}\n`);
      return reviewRelease(out, { knownKeys: known });
    },
    ok: false,
    rules: ['release/unknown-signing-key'],
  },
  {
    use: 'initProject',
    input: 'a new folder: the scaffold passes checkProject',
    run: (t) => {
      const target = join(tempDir(t), 'shelf');
      const outcome = initProject(target, { namespace: 'acme/shelf', name: 'Shelf' });
      assert.ok(outcome.files > 0);
      return checkProject(target);
    },
    ok: true,
    rules: [],
  },
  {
    use: 'initProject',
    input: 'a namespace without a slash',
    run: (t) => initProject(join(tempDir(t), 'shelf'), { namespace: 'shelf', name: 'Shelf' }),
    throws: UsageError,
  },
  {
    use: 'previewSession',
    input: 'a valid project: the first check passes',
    run: async (t) => {
      const server = await previewSession({ dir: makeProject(t), port: 0, deny: [], fail: [], emptyCatalog: false, strictHost: false, assets: PREVIEW_ASSETS });
      t.after(() => server.close());
      return server.status();
    },
    ok: true,
    rules: [],
  },
  {
    use: 'previewSession',
    input: 'a project with an error: the first check fails',
    run: async (t) => {
      const server = await previewSession({ dir: makeProject(t, { manifest: { version: 'one' } }), port: 0, deny: [], fail: [], emptyCatalog: false, strictHost: false, assets: PREVIEW_ASSETS });
      t.after(() => server.close());
      return server.status();
    },
    ok: false,
    rules: ['manifest/version'],
  },
];

for (const row of ROWS) {
  test(`${row.use}: ${row.input}`, async (t) => {
    if (row.throws !== undefined) {
      await assert.rejects(async () => row.run(t), row.throws);
      return;
    }
    const result = await row.run(t);
    assert.deepEqual({ ok: result.ok, rules: rules(result) }, { ok: row.ok, rules: row.rules });
  });
}

test('the table covers every use case', () => {
  const uses = new Set(ROWS.map((row) => row.use));
  assert.deepEqual([...uses].sort(), ['checkProject', 'initProject', 'packageProject', 'previewSession', 'reviewRelease', 'verifyRelease']);
});
