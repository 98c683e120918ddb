// docs/service.md's statement table cannot drift: every service statement of the contract
// (listed here by key) has its row, each row names functions the service core exports (and
// commands those functions take), and every test id it cites is a test in test/service/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as service from '../../build/service/index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The service's statements in the contract: What the service does (rules 1-4, 6),
 * Distribution modes, Private link rules, Publisher team rules, Retention, the capability
 * grant, release review and private link state tables, Authentication 1 and 5-7,
 * Versioning, the settings rules and the ready snapshot, the invitation limit and the
 * submission's key id.
 */
const STATEMENTS = [
  'svc-install-first', 'svc-signed-snapshot', 'svc-validation-not-approval', 'svc-three-decisions', 'svc-four-eyes', 'svc-validator-authority',
  'dist-public-free', 'dist-private', 'dist-paid',
  'link-store-lock', 'link-use-limit', 'link-expiry', 'link-hash-only', 'link-open-terms', 'link-explicit-accept', 'link-reopen-free', 'link-revoke-stops', 'link-revoke-release',
  'team-roles', 'team-invite-link', 'team-invite-no-reveal', 'team-recipient-match', 'team-second-owner', 'team-legacy-owner',
  'ret-private', 'ret-deleted', 'ret-copy-first', 'ret-kept',
  'grant-on-install', 'grant-revoke', 'grant-added-off', 'grant-dropped-removed',
  'review-failed', 'review-passed', 'review-approved', 'review-closed', 'review-revoked',
  'linkstate-open', 'linkstate-accept', 'linkstate-revoke',
  'auth-capability', 'auth-public-key-only', 'auth-one-key', 'auth-rotation', 'auth-last-key', 'auth-revoked-final', 'auth-fingerprint', 'auth-trust-separation', 'auth-hashes-and-address',
  'ver-semver', 'ver-namespace', 'ver-immutable', 'ver-higher', 'ver-settings-persist', 'ver-added-capability', 'ver-removed-capability', 'ver-rollback', 'ver-storage-path',
  'settings-cap', 'settings-unknown', 'ready-snapshot', 'limit-invitation', 'set-key-fingerprint',
];

const COMMANDS = {
  decideSubmission: service.SUBMISSION_COMMANDS,
  decidePublisher: service.PUBLISHER_COMMANDS,
  decideInstallation: service.INSTALLATION_COMMANDS,
  decideLink: service.LINK_COMMANDS,
  decideInvitation: service.INVITATION_COMMANDS,
};

/** The table's rows: { key, statement, functions, tests }. */
export function statementRows(page) {
  const start = page.indexOf('<!-- statements:start -->');
  const end = page.indexOf('<!-- statements:end -->');
  assert.ok(start >= 0 && end > start, 'docs/service.md has the statements markers');
  return page
    .slice(start, end)
    .split('\n')
    .filter((l) => l.startsWith('| `'))
    .map((line) => {
      const cells = line.split(' | ').map((c) => c.replace(/^\| ?| ?\|$/g, ''));
      assert.equal(cells.length, 4, line);
      const spans = (cell) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
      return { key: spans(cells[0])[0], statement: cells[1], functions: cells[2], tests: spans(cells[3]) };
    });
}

/** Every test id in test/service/: `id: '…'` entries and `test('id: …')` names. */
function testIds() {
  const ids = new Set();
  const dir = join(ROOT, 'test/service');
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.test.mjs'))) {
    const text = readFileSync(join(dir, name), 'utf8');
    for (const m of text.matchAll(/\bid: '([a-z][a-z0-9-]*)'/g)) ids.add(m[1]);
    for (const m of text.matchAll(/\btest\(\s*[`'"]([a-z][a-z0-9-]*):/g)) ids.add(m[1]);
  }
  return ids;
}

/** Problems with a row: functions not exported, commands a function does not take, unknown test ids. */
function rowProblems(row, ids) {
  const problems = [];
  if (row.tests.length === 0) problems.push(`${row.key}: no test`);
  for (const t of row.tests) if (!ids.has(t)) problems.push(`${row.key}: no test ${t}`);
  // `decideX` (`a`, `b`), `launchGate`: each function, with the commands in its parentheses.
  const fns = [...row.functions.matchAll(/`([A-Za-z]+)`(?: \(([^)]*)\))?/g)];
  if (fns.length === 0) problems.push(`${row.key}: no function`);
  for (const [, fn, commands] of fns) {
    if (typeof service[fn] !== 'function') problems.push(`${row.key}: ${fn} is not exported`);
    for (const c of [...(commands ?? '').matchAll(/`([a-z-]+)`/g)].map((m) => m[1])) {
      if (!COMMANDS[fn]?.includes(c)) problems.push(`${row.key}: ${fn} has no command ${c}`);
    }
  }
  return problems;
}

const page = readFileSync(join(ROOT, 'docs/service.md'), 'utf8');
const rows = statementRows(page);
const ids = testIds();

test('every service statement has exactly one row, and every row is a statement', () => {
  const keys = rows.map((r) => r.key);
  assert.deepEqual(keys.filter((k, i) => keys.indexOf(k) !== i), [], 'repeated rows');
  assert.deepEqual(STATEMENTS.filter((k) => !keys.includes(k)), [], 'statements without a row');
  assert.deepEqual(keys.filter((k) => !STATEMENTS.includes(k)), [], 'rows of no statement');
  for (const r of rows) assert.ok(r.statement.length > 20, r.key);
});

test('every row names exported functions, their commands, and existing test ids', () => {
  assert.deepEqual(rows.flatMap((r) => rowProblems(r, ids)), []);
});

test('the checks can fail: a missing test id, an unknown function or command is reported', () => {
  const bad = { key: 'x', statement: 'a statement long enough to count', functions: '`decideNothing`, `decideLink` (`burn`)', tests: ['no-such-test'] };
  assert.deepEqual(rowProblems(bad, ids), ['x: no test no-such-test', 'x: decideNothing is not exported', 'x: decideLink has no command burn']);
});

test('the commands table names every command of every record kind', () => {
  const section = page.slice(page.indexOf('## Commands\n'), page.indexOf('\n## ', page.indexOf('## Commands\n') + 1));
  let kind = null;
  const listed = new Map();
  for (const line of section.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| ---') && !l.startsWith('| Record kind'))) {
    const cells = line.split(' | ');
    const k = /`([a-z-]+)`/.exec(cells[0])?.[1];
    if (k !== undefined) kind = k;
    for (const m of cells[1].matchAll(/`([a-z-]+)`/g)) listed.set(`${kind} ${m[1]}`, true);
  }
  const kinds = { 'release-submission': service.SUBMISSION_COMMANDS, publisher: service.PUBLISHER_COMMANDS, installation: service.INSTALLATION_COMMANDS, 'private-link': service.LINK_COMMANDS, invitation: service.INVITATION_COMMANDS };
  const missing = Object.entries(kinds).flatMap(([k, commands]) => commands.filter((c) => !listed.has(`${k} ${c}`)).map((c) => `${k} ${c}`));
  assert.deepEqual(missing, []);
  assert.equal(listed.size, Object.values(kinds).flat().length, 'no command listed that does not exist');
});
