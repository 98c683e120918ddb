// Every error-level rule has a source: its `ref` cites a section of the contract or a
// decision (D-38). "Cites" means one of the ref's `;`-separated parts names a section
// heading of the contract (optionally followed by a parenthesised detail or a numbered
// item, `Bundle (JavaScript)`, `Authentication 4`) or a decision that docs/decisions.md
// restates (`D-22`, `D-16a`). Rules the contract does not name and the decisions rule on
// (D-36, D-37, D-38) cite those decisions, and the tool's own errors say so when explained.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RULES, ruleById } from '../../build/validator/rules.js';
import { DECISIONS } from '../../build/contract/prose.js';
import { allExplanations } from '../../build/explain/all-explanations.js';

/** The section and subsection headings of contract version 1, as the contract spells them. */
const CONTRACT_HEADINGS = [
  'What the service does',
  'Resources and their fields',
  'Manifest',
  'Property definition',
  'Ready state and settings snapshot',
  'Theme',
  'Catalog product',
  'Bundle',
  'Submission set',
  'States and transitions',
  'Endpoints',
  'Bridge basics',
  'Capabilities and operations',
  'Developer tool commands',
  'Authentication',
  'Events',
  'Errors',
  'Limits',
  'Versioning',
];

const DECISION_IDS = new Set(DECISIONS.map((d) => d.id));

function citesPart(part) {
  const decision = /^D-([0-9]+[a-z]?)$/.exec(part);
  if (decision !== null) return DECISION_IDS.has(decision[1]);
  return CONTRACT_HEADINGS.some((h) => part === h || part.startsWith(`${h} (`) || new RegExp(`^${h} [0-9]`).test(part));
}

/** True when `ref` cites a contract section heading or an existing decision. */
function cites(ref) {
  return ref.split(';').map((p) => p.trim()).some(citesPart);
}

test('"cites": a contract heading (with a detail or item number) or an existing D-n; nothing else', () => {
  const rows = [
    ['Bundle', true],
    ['Bundle (JavaScript)', true],
    ['Bundle (JavaScript, allowed file extensions)', true],
    ['What the service does (rule 5)', true],
    ['Authentication 4', true],
    ['Authentication 3 and 4', true],
    ['D-22', true],
    ['D-16a', true],
    ['Runtime frame; D-17', true],
    ['Submission set; Limits', true],
    ['D-999', false],
    ['D-16z', false],
    ['D-', false],
    ['Runtime frame', false],
    ['Contract rule 5', false],
    ['rule 3', false],
    ['Bundles', false],
    ['bundle', false],
    ['Bundle: JavaScript', false],
    ['', false],
    ['Runtime frame; D-999', false],
  ];
  for (const [ref, expected] of rows) assert.equal(cites(ref), expected, ref);
});

test('every error-level rule cites a contract section or a decision', () => {
  const uncited = RULES.filter((r) => r.severity === 'error' && !cites(r.ref)).map((r) => `${r.id}: ${r.ref}`);
  assert.deepEqual(uncited, []);
});

test('every decision a rule cites is restated in docs/decisions.md', () => {
  const missing = RULES.flatMap((r) => [...r.ref.matchAll(/D-([0-9]+[a-z]?)\b/g)].filter((m) => !DECISION_IDS.has(m[1])).map((m) => `${r.id}: D-${m[1]}`));
  assert.deepEqual(missing, []);
});

test('D-36, D-37, D-38: the rules the contract does not name cite the decision that rules on them', () => {
  const rows = [
    ['html/duplicate-attribute', 'D-36'],
    ['html/legacy-raw-text-element', 'D-36'],
    ['html/ambiguous-markup', 'D-36'],
    ['css/charset-not-utf8', 'D-36'],
    ['js/webrtc', 'D-37'],
    ['js/module-type-attribute', 'D-37'],
    ['secret/access-token', 'D-38'],
    ['release/unexpected-file', 'D-38'],
  ];
  const explanations = allExplanations();
  for (const [id, decision] of rows) {
    const rule = ruleById(id);
    assert.equal(rule.severity, 'error', id);
    assert.ok(rule.ref.split(';').map((p) => p.trim()).includes(decision), `${id} cites ${decision}: ${rule.ref}`);
    assert.ok(explanations[id].text.includes(decision), `${id}'s explanation names ${decision}`);
  }
  for (const id of ['secret/access-token', 'release/unexpected-file']) {
    assert.match(explanations[id].text, /this tool's own decision \(D-38\)/, `${id} is marked as the tool's own`);
  }
  for (const id of ['36', '37', '38']) assert.ok(DECISION_IDS.has(id), `D-${id} is restated`);
});
