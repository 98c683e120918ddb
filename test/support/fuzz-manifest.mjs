#!/usr/bin/env node
// Mutation fuzzing of the manifest check (validateManifest over readJson): seeded text
// mutations with a JSON dictionary and byte mutations of valid manifests. Every case must
// finish without an exception, every finding must be located, and the reader must agree
// with JSON.parse wherever both accept (differential oracle).
//
//   node bench/fuzz-manifest.mjs [count=1000000] [seed=1]
//
// test/validator/fuzz-manifest.test.mjs imports the generator below and runs a short campaign.
import { isDeepStrictEqual } from 'node:util';
import { prng, pick, mutateText, mutateBytes } from './fuzz.mjs';
import { validateManifest } from '../../build/validator/manifest.js';
import { readJson, jsonValueOf } from '../../build/validator/json.js';
import { validateSettings } from '../../build/validator/properties.js';
import { FindingList } from '../../build/validator/findings.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/** Valid manifests touching every field, type and rule family. */
export const SEEDS = [
  {
    schema_version: 1,
    protocol_version: 1,
    namespace: 'acme/hello-world',
    version: '1.2.3-rc.1+build.5',
    name: 'Hello \u20ac world',
    description: 'Says hello. \ud83d\ude00',
    entrypoint: 'pages/Index.HTML',
    capabilities: ['analytics.events.write', 'cart.manage', 'site.theme.read'],
    properties: {
      headline: { type: 'text', label: 'Headline', default: 'Hi', required: true, help: 'Shown on top' },
      body: { type: 'textarea', label: 'Body', default: 'a\nb' },
      accent: { type: 'color', label: 'Accent', default: '#a1b2c3' },
      size: { type: 'number', label: 'Size', min: -1.5, max: 10, default: 2 },
      show: { type: 'boolean', label: 'Show', default: false, required: true },
      layout: { type: 'select', label: 'Layout', options: [{ label: 'Grid', value: 'grid' }, { label: 'List', value: 'list' }], default: 'list' },
      link: { type: 'url', label: 'Link', default: 'https://[::1]:8443/a?b#c' },
      logo: { type: 'image', label: 'Logo', default: '/img/logo.png' },
    },
  },
  {
    schema_version: 1,
    protocol_version: 1,
    namespace: 'a/b',
    version: '0.0.0',
    name: 'x',
    entrypoint: 'index.html',
    capabilities: [],
    properties: {},
  },
];

/** JSON syntax, boundary values and manifest words the mutator splices in. */
export const DICTIONARY = [
  '{', '}', '[', ']', ':', ',', '"', '\\', '\\u', '\\ud800', '\\udc00', '\\ud83d\\ude00', '\\u0061', '\\n', '\\"',
  'true', 'false', 'null', '0', '-0', '1', '1.0', '1e0', '1e400', '1e-400', '-', '01', '9007199254740992', '.5', '1.',
  ' ', '\t', '\n', '\r\n', '\f', '\u00a0', '\ufeff', '\u2028', '\u0000', '\u00e9', '\ud83d\ude00',
  '"schema_version":1', '"protocol_version":1', '"$schema":"x"', '"name":"', '"name":"a","name":"b"',
  '"type":"select"', '"type":"number"', '"type":"color"', '"type":"url"', '"options":[]', '"options":[{"label":"a","value":"a"}]',
  '"min":5', '"max":-5', '"required":true', '"default":""', '"default":" "', '"default":"javascript:x"', '"default":"#fff"',
  '"cart.manage"', '"nope"', '"index.html"', '"/index.html"', '"../x.html"', '"a/b"', '"A/b"', '"1.0.0"', '"v1"',
  '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[', '{"a":{"a":{"a":{"a":{"a":', '"__proto__"', '"constructor"',
  'http://', 'https://user:pass@x/', '[::1]', '1.2.3.256', 'xn--', '//', '?', '#', '\\\\',
];

/** JSON values the structured mutator puts in place of a member or element. */
export const VALUES = [
  '', ' ', '\u00a0', 'x', 'x'.repeat(101), 'x'.repeat(501), '\u20ac'.repeat(167), '\ud83d\ude00'.repeat(60), '#fff', '#a1b2c3d4',
  'javascript:alert(1)', '//x', '/a b', 'http://user@x', 'http://[::1]:99999', 'cart.manage', 'select', 'number', 'text',
  'Index.html', '../a.html', 'a/b', '1.0.0', '01.0.0', 0, -0, 1, 1.5, -1, 1e300, 9007199254740992, true, false, null,
  [], {}, [1], ['a', 'a'], { a: 1 }, { label: 'a', value: 'a' }, { type: 'select', label: 'L' }, { type: 'number', label: 'L', min: 2, max: 1 },
];

/** Replaces, deletes or adds a member or element somewhere in a deep copy of `seed`. */
function mutateValue(rng, seed) {
  const root = structuredClone(seed);
  const edits = 1 + Math.floor(rng() * 4);
  for (let e = 0; e < edits; e++) {
    // Walk down a random path, stopping at random; half the walks start in `properties`,
    // where most of the rules are.
    let parent = rng() < 0.5 && root.properties !== null && typeof root.properties === 'object' ? root.properties : root;
    for (;;) {
      const keys = Object.keys(parent);
      if (keys.length === 0) break;
      const key = pick(rng, keys);
      const child = parent[key];
      if (child !== null && typeof child === 'object' && rng() < 0.6) {
        parent = child;
        continue;
      }
      const kind = Math.floor(rng() * 4);
      if (kind === 0 && !Array.isArray(parent)) delete parent[key];
      else if (kind === 1) {
        const extra = Array.isArray(parent) ? parent.length : pick(rng, ['$schema', 'extra', 'default', 'options', 'min', 'max', 'required', 'help', 'p' + Math.floor(rng() * 100)]);
        parent[extra] = structuredClone(pick(rng, VALUES));
      } else parent[key] = structuredClone(pick(rng, VALUES));
      break;
    }
  }
  return root;
}

/** One fuzz case: bytes to check, and the text when the case is text. */
export function nextCase(rng) {
  const seed = pick(rng, SEEDS);
  const space = rng() < 0.5 ? 2 : undefined;
  const mode = rng();
  if (mode < 0.35) {
    // Structured: still JSON, so the semantic checks behind the parser are reached.
    const text = JSON.stringify(mutateValue(rng, seed), null, space);
    return { bytes: encoder.encode(text), text };
  }
  const text = JSON.stringify(seed, null, space);
  if (mode < 0.75) {
    const mutated = mutateText(rng, text, DICTIONARY, 6);
    return { bytes: encoder.encode(mutated), text: mutated };
  }
  return { bytes: mutateBytes(rng, encoder.encode(text), 6), text: null };
}

/**
 * Runs one case and checks the invariants; returns a string describing a violation, or
 * null. An exception thrown by the validator propagates (that is the bug to find).
 */
export function runCase(testCase) {
  const findings = new FindingList();
  const info = validateManifest(testCase.bytes, findings);
  for (const f of findings.items) {
    if (typeof f.pointer !== 'string' || !(f.line >= 1) || !(f.column >= 1)) return `unlocated finding ${JSON.stringify(f)}`;
  }
  if (info !== null) {
    // The preview path: the definitions read must judge their own valid defaults cleanly
    // and arbitrary settings without throwing.
    const settings = new FindingList();
    validateSettings(info.properties, Object.fromEntries(info.properties.filter((p) => 'default' in p).map((p) => [p.name, p.default])), settings);
    if (settings.items.length > 0) return `valid defaults refused as settings: ${JSON.stringify(settings.items[0])}`;
    validateSettings(info.properties, { [info.properties[0]?.name ?? 'x']: [1], other: NaN }, new FindingList());
  }
  // Differential oracle against JSON.parse (our reader is a strict subset).
  const read = readJson(testCase.bytes);
  let parsed;
  let parsedOk = true;
  try {
    parsed = JSON.parse(decoder.decode(testCase.bytes));
  } catch {
    parsedOk = false;
  }
  if (read.ok) {
    if (!parsedOk) return 'readJson accepted what JSON.parse refuses';
    if (!isDeepStrictEqual(jsonValueOf(read.value), parsed)) return 'readJson and JSON.parse read different values';
  } else if (parsedOk && !['bom', 'invalid-utf8', 'duplicate-key', 'lone-surrogate', 'number-out-of-range', 'too-deep'].includes(read.error.kind)) {
    return `readJson refused valid JSON with ${read.error.kind} (${read.error.message})`;
  }
  return null;
}

export async function main() {
  const count = Number(process.argv[2] ?? 1_000_000);
  const seed = Number(process.argv[3] ?? 1);
  const rng = prng(seed);
  let slowest = { ms: 0, index: -1, size: 0 };
  let failures = 0;
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const testCase = nextCase(rng);
    const t0 = performance.now();
    let problem;
    try {
      problem = runCase(testCase);
    } catch (error) {
      problem = `exception: ${error && error.stack}`;
    }
    const ms = performance.now() - t0;
    if (ms > slowest.ms) slowest = { ms, index: i, size: testCase.bytes.length };
    if (problem !== null) {
      failures++;
      if (failures <= 5) console.log(`case ${i}: ${problem}\n  input: ${JSON.stringify(testCase.text ?? Array.from(testCase.bytes.slice(0, 200)))}`);
    }
    if ((i + 1) % 100_000 === 0) console.log(`${i + 1} cases...`);
  }
  const seconds = (performance.now() - start) / 1000;
  console.log(`${count} cases in ${seconds.toFixed(1)} s: ${Math.round(count / seconds)} cases/s; ${failures} failures`);
  console.log(`slowest: case ${slowest.index}, ${slowest.ms.toFixed(2)} ms, ${slowest.size} bytes`);
  if (failures > 0) process.exitCode = 1;
}
