// What contract-snapshot/ says (src/contract/): contract.md covers every rule id, limit,
// bridge error code, capability, property type and decision D-n; errors.json,
// capabilities.json and version.json have their documented shapes and agree with the
// validator's tables; the D-14 test vector is recomputed; the snapshot is byte-identical
// across runs and environments; no file holds private-key armour (D-4); and the method
// table behind platform.d.ts matches what the real runtime sends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { snapshotFiles, SNAPSHOT_VERSION_FILE } from '../../build/contract/snapshot.js';
import { SIGNING_TEST_VECTOR } from '../../build/contract/contract-text.js';
import { METHOD_PARAMS } from '../../build/contract/api-tables.js';
import { requestSection, requestSections } from '../../build/contract/request-fields.js';
import { DECISIONS } from '../../build/contract/prose.js';
import { RULES } from '../../build/validator/rules.js';
import { LIMITS } from '../../build/validator/limits.js';
import { CAPABILITIES, CAPABILITY_KEYS } from '../../build/validator/capabilities.js';
import { BRIDGE_ERROR_CODE_LIST, BRIDGE_ERROR_CODES } from '../../build/validator/bridge/errors.js';
import { ACTION_SPECS } from '../../build/validator/bridge/requests.js';
import { PROPERTY_TYPES } from '../../build/validator/properties.js';
import { SUBMISSION_FILES, SUBMISSION_FORMAT, SIGNED_PAYLOAD_HEADER, signedPayload } from '../../build/validator/release.js';
import { findPrivateKeyMarker } from '../../build/validator/bundle.js';
import { installPlatform } from '../../build/bridge/runtime.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const files = snapshotFiles();
const onDisk = (name) => readFileSync(join(root, 'contract-snapshot', name), 'utf8');
const contract = onDisk('contract.md');
const sha256 = (text) => createHash('sha256').update(text).digest('hex');
/** Every decision id, in order, each amendment (`2a`) right after the decision it amends. */
const DECISION_IDS = [
  ...Array.from({ length: 44 }, (_, i) => String(i + 1)).flatMap((id) => (['2', '16', '20', '29'].includes(id) ? [id, `${id}a`] : [id])),
];

test('the snapshot is the documented set of files, version.json last, and the committed copy is current', () => {
  assert.deepEqual([...files.keys()], [
    'contract.md',
    'manifest.schema.json',
    'platform.d.ts',
    'rules.json',
    'limits.json',
    'errors.json',
    'capabilities.json',
    'runtime-policy.txt',
    'bridge-protocol.md',
    'service-refusals.json',
    SNAPSHOT_VERSION_FILE,
  ]);
  for (const [name, content] of files) assert.equal(onDisk(name), content, `${name} is stale: run node scripts/gen-snapshot.mjs`);
});

test('contract.md names every rule id, with its severity when it is a warning', () => {
  for (const r of RULES) {
    const line = contract.split('\n').find((l) => l.startsWith(`- \`${r.id}\``));
    assert.ok(line !== undefined, r.id);
    assert.equal(line.includes('(warning)'), r.severity === 'warning', r.id);
  }
});

test('contract.md gives every limit with its value from LIMITS', () => {
  const show = (v) => (typeof v === 'number' ? [v.toLocaleString('en-US'), String(v)] : [v.join(', ')]);
  for (const l of LIMITS) {
    const row = contract.split('\n').find((line) => line.startsWith(`| \`${l.name}\` |`));
    assert.ok(row !== undefined, l.name);
    const value = row.split('|')[2].trim();
    assert.ok(show(l.value).some((s) => value === s || value.startsWith(`${s} `)), `${l.name}: ${value}`);
  }
  // Spot checks against the contract's own numbers.
  assert.match(contract, /\| `manifest\.maxBytes` \| 65,536 bytes \|/);
  assert.match(contract, /\| `bundle\.maxFiles` \| 200 \|/);
  assert.match(contract, /\| `bridge\.payloadMaxNodes` \| 2,000 \|/);
  assert.match(contract, /\| `semver\.maxNumericIdentifier` \| 9007199254740991 \|/);
});

test('contract.md covers every error code, capability, property type and the release format', () => {
  for (const code of BRIDGE_ERROR_CODE_LIST) assert.ok(contract.includes(`| \`${code}\` |`), code);
  for (const key of CAPABILITY_KEYS) {
    assert.ok(contract.includes(`| \`${key}\` |`), key);
    assert.ok(contract.includes(`- \`${key}\`: `), `${key} grant`);
  }
  for (const c of CAPABILITIES) assert.ok(contract.includes(`\`${c.method}\``), c.method);
  for (const t of PROPERTY_TYPES) assert.ok(contract.includes(`| \`${t}\` |`), t);
  for (const f of SUBMISSION_FILES) assert.ok(contract.includes(`\`${f}\``), f);
  assert.ok(contract.includes(SUBMISSION_FORMAT));
  assert.ok(contract.includes(signedPayload('<namespace>', '<version>', '<manifest sha-256 hex>', '<bundle sha-256 hex>')));
  assert.ok(contract.includes(`${SIGNED_PAYLOAD_HEADER}\nnamespace=`));
  for (const field of ['format', 'namespace', 'version', 'artifact_path', 'manifest_sha256', 'artifact_sha256', 'publisher_public_key_id']) assert.ok(contract.includes(`\`${field}\``), field);
});

test('contract.md summarises every decision and each amendment, each once and in order', () => {
  assert.deepEqual(DECISIONS.map((d) => d.id), DECISION_IDS);
  const found = [...contract.matchAll(/^- \*\*D-(\d+[a-z]?) /gm)].map((m) => m[1]);
  assert.deepEqual(found, DECISION_IDS);
  for (const d of DECISIONS) assert.ok(d.text.length > 40 && d.title.length > 3, `D-${d.id}`);
});

test('the D-14 test vector in contract.md is what Ed25519 gives', () => {
  const v = SIGNING_TEST_VECTOR;
  assert.equal(v.seedHex, '0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20');
  // PKCS#8 wrapping of a raw Ed25519 seed (RFC 8410): a fixed 16-byte prefix, then the seed.
  const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(v.seedHex, 'hex')]);
  const privateKey = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  const raw = createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(-32);
  assert.equal(raw.toString('base64'), v.publicKey);
  assert.equal(createHash('sha256').update(raw).digest('hex'), v.fingerprint);
  const payload = signedPayload(v.namespace, v.version, sha256(v.manifest), sha256(v.bundle));
  assert.equal(sign(null, Buffer.from(payload), privateKey).toString('base64'), v.signature);
  for (const value of [v.publicKey, v.fingerprint, v.signature, v.seedHex]) assert.ok(contract.includes(value), value);
});

test('docs/releasing.md gives the D-14 test vector\'s payload as hex, ending in a single line break', () => {
  const v = SIGNING_TEST_VECTOR;
  const page = readFileSync(join(root, 'docs/releasing.md'), 'utf8');
  const section = page.slice(page.indexOf('### The signed payload'));
  const block = /```text\n([0-9a-f\n]+)```/.exec(section);
  assert.ok(block !== null, 'a hex block in the signed payload section');
  const bytes = Buffer.from(block[1].replace(/\n/g, ''), 'hex');
  const payload = signedPayload(v.namespace, v.version, sha256(v.manifest), sha256(v.bundle));
  assert.equal(bytes.toString('hex'), Buffer.from(payload, 'latin1').toString('hex'));
  assert.ok(section.includes(`these ${bytes.length} bytes`), 'the page states the length');
  assert.deepEqual([...bytes.subarray(-2)], [0x35, 0x0a], 'one 0a at the end, not two');
  // The vector's signature verifies over these bytes and not over the other reading.
  const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(v.seedHex, 'hex')]);
  const publicKey = createPublicKey(createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }));
  const signature = Buffer.from(v.signature, 'base64');
  assert.equal(verify(null, bytes, publicKey, signature), true);
  assert.equal(verify(null, Buffer.concat([bytes, Buffer.from([0x0a])]), publicKey, signature), false);
});

test('errors.json: every code in table order with meaning, when and what to do', () => {
  const doc = JSON.parse(onDisk('errors.json'));
  assert.deepEqual(Object.keys(doc), ['format', 'contract', 'errors']);
  assert.equal(doc.format, 'platform-extension-errors-v1');
  assert.equal(doc.contract, 1);
  assert.deepEqual(doc.errors.map((e) => e.code), BRIDGE_ERROR_CODE_LIST);
  for (const e of doc.errors) {
    assert.deepEqual(Object.keys(e), ['code', 'meaning', 'when', 'handle'], e.code);
    assert.equal(e.meaning, BRIDGE_ERROR_CODES[e.code]);
    assert.ok(e.when.length > 20 && e.handle.length > 10, e.code);
  }
});

test('capabilities.json: every capability with what it grants, its methods and its request schema', () => {
  const doc = JSON.parse(onDisk('capabilities.json'));
  const dts = onDisk('platform.d.ts');
  assert.equal(doc.format, 'platform-extension-capabilities-v1');
  assert.equal(doc.contract, 1);
  assert.deepEqual(doc.capabilities.map((c) => c.key), CAPABILITY_KEYS);
  for (const c of doc.capabilities) {
    const def = CAPABILITIES.find((d) => d.key === c.key);
    assert.deepEqual(Object.keys(c), ['key', 'risk', 'grants', 'method', 'actions', 'unlocks', 'requestType', 'responseType', 'response', 'request']);
    assert.equal(c.risk, def.risk);
    assert.equal(c.method, def.method);
    assert.deepEqual(c.actions, def.actions);
    assert.deepEqual(c.unlocks, [def.method, ...def.actions.map((a) => `PLATFORM.request("${c.key}", "${a}", payload)`)]);
    assert.ok(c.grants.length > 30, c.key);
    assert.deepEqual(c.request, JSON.parse(JSON.stringify(ACTION_SPECS.find((s) => s.capability === c.key).fields)));
    for (const t of [c.requestType, c.responseType]) {
      const name = t.replace(/^Platform\./, '');
      assert.match(dts, new RegExp(`^  (interface|type) ${name}\\b`, 'm'), t);
    }
  }
});

test('version.json: contract version, a hash of each other file, and the sha256sum-style total', () => {
  const doc = JSON.parse(onDisk(SNAPSHOT_VERSION_FILE));
  assert.deepEqual(Object.keys(doc), ['format', 'contract', 'manifestSchema', 'protocol', 'sha256', 'hashInput', 'files']);
  assert.equal(doc.format, 'platform-extension-contract-snapshot-v1');
  assert.deepEqual([doc.contract, doc.manifestSchema, doc.protocol], [1, 1, 1]);
  const others = [...files.keys()].filter((n) => n !== SNAPSHOT_VERSION_FILE);
  assert.deepEqual(Object.keys(doc.files), others);
  let lines = '';
  for (const name of others) {
    assert.equal(doc.files[name], sha256(onDisk(name)), name);
    lines += `${doc.files[name]}  ${name}\n`;
  }
  assert.equal(doc.sha256, sha256(lines));
  // Any edit to any file changes the total.
  assert.notEqual(sha256(lines.replace(doc.files['contract.md'], sha256(`${onDisk('contract.md')} `))), doc.sha256);
});

test('deterministic: the same bytes in another process, time zone and locale', () => {
  const digest = (map) => sha256([...map].map(([n, c]) => `${n}\n${c}`).join('\0'));
  assert.equal(digest(snapshotFiles()), digest(files));
  const script = `import('./build/contract/snapshot.js').then((m) => { const h = require('node:crypto').createHash('sha256'); h.update([...m.snapshotFiles()].map(([n, c]) => n + '\\n' + c).join('\\0')); console.log(h.digest('hex')); })`;
  const r = spawnSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8', env: { ...process.env, TZ: 'Pacific/Kiritimati', LANG: 'de_DE.UTF-8', LC_ALL: 'de_DE.UTF-8' } });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), digest(files));
});

test('D-4: no snapshot file holds private-key armour (a project copy must pass check)', () => {
  for (const [name, content] of files) assert.equal(findPrivateKeyMarker(new TextEncoder().encode(content)), null, name);
});

/** A valid value for one field of a request schema (every optional field included). */
function sample(spec) {
  switch (spec.kind) {
    case 'string':
      return 'x'.repeat(Math.max(1, spec.min ?? 1));
    case 'integer':
      return spec.min;
    case 'number':
      return 1.5;
    case 'boolean':
      return false;
    case 'date':
      return '2030-01-31';
    case 'date-time':
      return '2030-01-31T10:00:00+01:00';
    case 'choice':
      return spec.choices[spec.choices.length - 1] ?? null;
    case 'object':
      return spec.fields === undefined ? null : Object.fromEntries(spec.fields.map((f) => [f.name, sample(f)]));
  }
}

function samplePayload(fields) {
  const out = {};
  for (const f of fields) if (f.variantOf === undefined) out[f.name] = sample(f);
  for (const f of fields) if (f.variantOf !== undefined) out[f.name] = Object.fromEntries(f.variants[out[f.variantOf]].map((g) => [g.name, sample(g)]));
  return out;
}

test('METHOD_PARAMS (behind platform.d.ts) is how the runtime builds each payload', async () => {
  const HOST = 'http://127.0.0.1:4321';
  const parent = {};
  const listeners = new Set();
  const win = {
    parent,
    addEventListener: (type, l) => type === 'message' && listeners.add(l),
    removeEventListener: (type, l) => listeners.delete(l),
    setTimeout: (f, ms) => setTimeout(f, ms),
    clearTimeout: (h) => clearTimeout(h),
  };
  const api = installPlatform(win, { protocol: 1, parentOrigin: HOST, baseUrl: `${HOST}/frame/` });
  const { port1, port2 } = new MessageChannel();
  const sent = [];
  port2.on('message', (m) => {
    if (m.type !== 'platform.request') return;
    sent.push(m);
    port2.postMessage({ type: 'platform.response', id: m.id, ok: true, result: null });
  });
  for (const l of [...listeners]) l({ source: parent, origin: HOST, data: { type: 'platform.init', protocol: 1 }, ports: [port1] });
  port2.postMessage({ type: 'platform.ready', protocol: 1, capabilities: [...CAPABILITY_KEYS], settings: {} });
  await api.ready;
  try {
    for (const def of CAPABILITIES) {
      const params = METHOD_PARAMS[def.key];
      assert.ok(Array.isArray(params), def.key);
      const payload = samplePayload(ACTION_SPECS.find((s) => s.capability === def.key).fields);
      const action = def.actions[def.actions.length - 1];
      const args = params.map((p) => (p.source.kind === 'action' ? action : p.source.kind === 'payload' ? payload : payload[p.source.field]));
      const [, ns, method] = def.method.split('.');
      assert.equal(typeof api[ns][method], 'function', def.method);
      assert.equal(api[ns][method].length, params.length, `${def.method} takes ${params.length} arguments`);
      await api[ns][method](...args);
      const message = sent.pop();
      assert.deepEqual([message.capability, message.action], [def.key, action], def.method);
      assert.deepEqual(message.payload, payload, def.method);
    }
  } finally {
    port1.close();
    port2.close();
  }
});

// The eight things the contract says it does not show, by a phrase of each (D-26): every one
// is listed as "not specified by the contract" in contract.md, never stated as a rule.
const NOT_SHOWN = [
  'publisher, release record, private link and invitation',
  'release states',
  'HTTP endpoints',
  'booking availability response',
  'contact-form fields are mandatory',
  'signs in',
  'hashed to form the public-key fingerprint',
  'cart-updated event',
];

test('contract.md: every "not shown" item of the contract is "not specified by the contract" (D-26)', () => {
  const section = contract.slice(contract.indexOf('## 14. Not specified by the contract'));
  assert.ok(section.length > 100, 'the section exists');
  const items = section.split('\n').filter((line) => line.startsWith('- '));
  assert.equal(items.length, NOT_SHOWN.length);
  for (const phrase of NOT_SHOWN) {
    const item = items.find((line) => line.includes(phrase));
    assert.ok(item !== undefined && item.includes('not specified by the contract'), phrase);
  }
});

test('no invented rule is published (D-26): contact fields optional everywhere, the cart event name the preview\'s own', () => {
  const text = onDisk('capabilities.json');
  const requiredOf = (name) => [...text.matchAll(new RegExp(`"name": "${name}",\\s*"kind": "string",\\s*"required": (true|false)`, 'g'))].map((m) => m[1]);
  for (const name of ['name', 'phone', 'subject']) assert.deepEqual(requiredOf(name), ['false'], `capabilities.json: contact ${name}`);
  assert.deepEqual(requiredOf('message'), ['false', 'false'], 'capabilities.json: the SMS message and the contact message are optional');
  assert.deepEqual(requiredOf('email'), ['false', 'true'], 'capabilities.json: email optional on contact, required on newsletter');
  const dts = onDisk('platform.d.ts');
  const contact = dts.slice(dts.indexOf('interface ContactFields'), dts.indexOf('}', dts.indexOf('interface ContactFields')));
  for (const name of ['name', 'email', 'phone', 'subject', 'message']) assert.match(contact, new RegExp(`\\b${name}\\?:`), `platform.d.ts: ${name} optional`);
  const protocol = onDisk('bridge-protocol.md');
  assert.ok(!/classic,\s+parser-blocking script, not a module/.test(protocol), 'bridge-protocol.md does not contradict "runtime module"');
  const cartSection = protocol.slice(protocol.indexOf('## Cart-updated event'));
  assert.match(cartSection.slice(0, 400), /not specified by the contract/);
  assert.match(contract, /last active key cannot be revoked/);
  assert.match(contract, /revoked cannot be restored/);
  assert.match(contract, /legacy publisher/);
  assert.ok(!contract.includes('An owner can only be removed after a\n  second owner joins'), 'the owner rule is not paraphrased wrongly');
});

// Request fields are worded once (src/contract/request-fields.ts): both documents print its sections, and
// no other Markdown renderer reads the request tables, so a second wording cannot creep back in.
test('contract.md and bridge-protocol.md print the same section for each request, from one renderer', () => {
  const protocol = onDisk('bridge-protocol.md');
  const inContract = requestSections(4);
  const inProtocol = requestSections(3);
  assert.ok(contract.includes(`### Requests\n\n${inContract}`), 'contract.md holds the renderer\'s request sections');
  assert.ok(protocol.includes(`## Requests by capability\n\n${inProtocol}`), 'bridge-protocol.md holds the renderer\'s request sections');
  assert.equal(inContract.replace(/^####/gm, '###'), inProtocol, 'the sections differ only in heading level');
  for (const spec of ACTION_SPECS) {
    for (const [doc, level] of [[contract, 4], [protocol, 3]]) {
      const section = requestSection(spec, level);
      assert.equal(doc.split(section).length, 2, `${spec.capability} ${spec.action}: its section appears once`);
    }
  }
  const renderers = ['contract-text.ts', 'protocol-doc.ts', 'context-document.ts'];
  for (const file of renderers) {
    const source = readFileSync(join(root, 'src/contract', file), 'utf8');
    assert.ok(!/\b(ACTION_SPECS|FORM_FIELDS|FieldSpec)\b/.test(source), `${file} words no request field itself`);
  }
});
