// What publishers and AI agents read says what they need, the same way everywhere: the
// templates' AGENTS.md and README.md, the context document, README.md and docs/. Each row
// names a file, the part of it, and the text that must be there (ids, commands, file
// names; not prose): who signs, check --explain, acknowledged warnings (D-33), no events
// and the preview's own messages (D-26), images and fonts (D-44), the non-interactive
// type-check command, --strict-host, and the bundler recipes' prerequisites.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contextDocument, TYPECHECK_COMMAND } from '../../build/contract/context-document.js';
import { ROOT } from '../support/project.mjs';

const read = (path) => readFileSync(join(ROOT, path), 'utf8');

/** The text of `doc` from the line `from` up to the next heading of the same or a higher level. */
function section(doc, from) {
  const start = doc.indexOf(`\n${from}\n`);
  assert.ok(start >= 0, `heading ${from}`);
  const level = /^#+/.exec(from)[0].length;
  const rest = doc.slice(start + from.length + 2);
  const next = rest.search(new RegExp(`^#{1,${level}} `, 'm'));
  return next < 0 ? rest : rest.slice(0, next);
}

test('both templates tell an agent who does what, about warnings, events, images and fonts', () => {
  for (const template of ['scaffold', 'vite']) {
    const agents = read(`templates/${template}/AGENTS.md`);
    const who = section(agents, '## Who does what');
    for (const step of ['keygen', 'package', 'verify', 'check --explain']) assert.ok(who.includes(step), `${template}: ${step}`);
    const warnings = section(agents, '## Warnings');
    for (const needle of ['platform-ext.config.json', 'D-33', '"acknowledged"', 'js/capability-unused']) assert.ok(warnings.includes(needle), `${template}: ${needle}`);
    const rules = section(agents, '## Rules that bite');
    for (const needle of ['PLATFORM.capabilities()', 'PLATFORM.settings()', 'CAPABILITY_NOT_GRANTED', 'D-26', 'D-44', '`image`', '`font-family`']) {
      assert.ok(rules.includes(needle), `${template}: ${needle}`);
    }
  }
});

test('the type-check command is the same non-interactive one wherever it is given', () => {
  assert.match(TYPECHECK_COMMAND, /^npx --yes /);
  const places = {
    'templates/scaffold/AGENTS.md': read('templates/scaffold/AGENTS.md'),
    'templates/scaffold/README.md': read('templates/scaffold/README.md'),
    CONTEXT: contextDocument('plain'),
  };
  for (const [name, text] of Object.entries(places)) {
    // The command lines (a comment that names tsc in passing is not one).
    const uses = text.split('\n').filter((line) => line.includes('tsc -p jsconfig.json') && line.includes('npx'));
    assert.ok(uses.length > 0, `${name} gives the command`);
    for (const line of uses) assert.ok(line.includes(TYPECHECK_COMMAND), `${name}: ${line.trim()}`);
  }
  // Nowhere an interactive npx: every npx of a package that may be absent says --yes or --no.
  for (const path of ['README.md', 'templates/scaffold/AGENTS.md', 'templates/scaffold/README.md', 'templates/vite/AGENTS.md', 'templates/vite/README.md']) {
    for (const line of read(path).split('\n')) assert.doesNotMatch(line, /`[^`]*\bnpx (?!--yes |--no )/, `${path}: ${line.trim()}`);
  }
});

test('README names acknowledged warnings in its CI section, who signs for agents, and --strict-host', () => {
  const readme = read('README.md');
  const ci = section(readme, '### CI pipelines');
  assert.ok(ci.includes('platform-ext.config.json') && ci.includes('D-33'), 'CI: acknowledged warnings');
  const agents = section(readme, '### AI coding agents');
  assert.ok(agents.includes('`keygen`') && agents.includes('AGENTS.md'), 'agents: who signs');
  assert.ok(readme.includes('[--strict-host]'), 'the preview row');
  const commands = section(read('docs/commands.md'), '## preview');
  assert.ok(commands.includes('`--strict-host`'), 'docs/commands.md');
});

test('docs/preview.md says how images, fonts and grant changes reach the frame (D-44, D-26)', () => {
  const doc = section(read('docs/preview.md'), '## Catalog images, theme fonts and changes of grants and settings');
  for (const needle of ['decisions.md#d-44-', '`image`', '`font-family`', 'platform.grants', 'platform.settings', 'PLATFORM.capabilities()', 'CAPABILITY_NOT_GRANTED', 'decisions.md#d-26-']) {
    assert.ok(doc.includes(needle), needle);
  }
});

test('docs/bundlers.md: starters without public/, an existing app, and webpack\'s "type": "module"', () => {
  const doc = read('docs/bundlers.md');
  const starters = section(doc, '### Starting from a framework\'s starter (Vue, React, Svelte)');
  for (const needle of ['publicDir: false', '/icons.svg', '<link rel="icon">', 'public/']) assert.ok(starters.includes(needle), needle);
  const existing = section(doc, '### Adding the contract to an existing app');
  for (const needle of ['manifest.json', 'platform-ext init --refresh', 'contract-snapshot/platform.d.ts', 'tsconfig.json']) assert.ok(existing.includes(needle), needle);
  assert.ok(section(doc, '## webpack').includes('"type": "module"'));
});
