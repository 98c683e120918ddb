// The node:test reporter of `npm test`: one line per test file (ok or FAIL, the counts, the
// time), then node's totals and a last line `N passed, N failed`. A failing test is printed
// in full under its file's line: the file, the test's name with its suites, the assertion
// (message, actual, expected, operator) and the stack; a file that fails outside any test
// (a throw at load, a non-zero exit) gets its exit status and what it wrote. What passing
// files print is dropped. `node scripts/test.mjs --tap` (or --spec) uses node's reporter.
import { relative } from 'node:path';
import { inspect } from 'node:util';

/** At most this much of a file's own output is kept for its failure report (the end of it). */
const OUTPUT_KEEP_CHARS = 64 * 1024;
const SUMMARY_KEYS = ['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo', 'duration_ms'];

/** Formats an error in full: an AssertionError's message, diff, properties and stack. */
function formatError(error) {
  const cause = error?.cause;
  const shown = cause instanceof Error || (cause !== null && typeof cause === 'object') ? cause : error;
  const text = inspect(shown, { depth: 6, colors: false, breakLength: 100 });
  const kind = error?.failureType && error.failureType !== 'testCodeFailure' ? `(${error.failureType}) ` : '';
  return kind + text;
}

const indent = (text, by) => text.replace(/\n$/, '').replace(/^/gm, by);

export default async function* compactReporter(source) {
  const cwd = process.cwd();
  /** file -> its state, in the order files first report. */
  const files = new Map();
  const summary = new Map();
  const failedNames = [];
  let passed = 0;
  let failed = 0;

  const stateOf = (file) => {
    let s = files.get(file);
    if (s === undefined) {
      s = { passed: 0, failed: 0, skipped: 0, todo: 0, path: [], failures: [], output: '', done: false };
      files.set(file, s);
    }
    return s;
  };
  const show = (file) => relative(cwd, file) || file;

  /** The file's line, its failures in full, and its output when it failed. */
  function finish(file, details) {
    const s = stateOf(file);
    if (s.done) return '';
    s.done = true;
    const exitFailure = details?.passed === false && s.failed === 0;
    const bad = s.failed > 0 || exitFailure;
    const counts = [`${s.passed} passed`];
    if (s.failed > 0) counts.push(`${s.failed} failed`);
    if (s.skipped > 0) counts.push(`${s.skipped} skipped`);
    if (s.todo > 0) counts.push(`${s.todo} todo`);
    const time = typeof details?.duration_ms === 'number' ? `  ${(details.duration_ms / 1000).toFixed(1)} s` : '';
    let out = `${bad ? 'FAIL' : 'ok  '}  ${show(file)}  ${counts.join(', ')}${time}\n`;
    for (const f of s.failures) {
      out += `\n  ✖ ${show(file)} > ${f.name}\n${indent(f.text, '    ')}\n`;
    }
    if (exitFailure) {
      const error = details.error ?? {};
      const status = error.signal ? `signal ${error.signal}` : `exit status ${error.exitCode ?? '?'}`;
      out += `\n  ✖ ${show(file)}: the file failed outside any test (${status})\n`;
      failed++;
      failedNames.push(`${show(file)} (${status})`);
    }
    if (bad && s.output !== '') out += `\n  output of ${show(file)}:\n${indent(s.output, '    | ')}\n`;
    if (bad) out += '\n';
    return out;
  }

  for await (const { type, data } of source) {
    // Events of a test carry its file; a runner that leaves it out still gets its tests counted.
    const file = data?.file ?? (type === 'test:diagnostic' || type === 'test:plan' ? undefined : '(test files)');
    const isFileTest = file !== undefined && data.name === file && data.nesting === 0;
    switch (type) {
      case 'test:start':
        if (file !== undefined && !isFileTest) {
          const s = stateOf(file);
          s.path.length = data.nesting;
          s.path[data.nesting] = data.name;
        }
        break;
      case 'test:pass':
        if (isFileTest) yield finish(file, data.details);
        else if (data.details?.type !== 'suite' && file !== undefined) {
          const s = stateOf(file);
          if (data.skip !== undefined && data.skip !== false) s.skipped++;
          else if (data.todo !== undefined && data.todo !== false) s.todo++;
          else {
            s.passed++;
            passed++;
          }
        }
        break;
      case 'test:fail': {
        if (isFileTest) {
          yield finish(file, { ...data.details, passed: false });
          break;
        }
        if (file === undefined) break;
        const s = stateOf(file);
        const error = data.details?.error;
        if (data.todo !== undefined && data.todo !== false) {
          s.todo++;
          break;
        }
        // A suite or a test whose subtests failed: the subtests are reported themselves.
        if (error?.failureType === 'subtestsFailed') break;
        s.failed++;
        failed++;
        const name = [...s.path.slice(0, data.nesting), data.name].join(' > ');
        s.failures.push({ name, text: formatError(error) });
        failedNames.push(`${show(file)} > ${name}`);
        break;
      }
      case 'test:stdout':
      case 'test:stderr':
        if (file !== undefined) {
          const s = stateOf(file);
          s.output = (s.output + data.message).slice(-OUTPUT_KEEP_CHARS);
        }
        break;
      case 'test:diagnostic':
        if (file === undefined && data.nesting === 0) {
          const m = /^(\w+) (.*)$/.exec(data.message);
          if (m !== null && SUMMARY_KEYS.includes(m[1])) summary.set(m[1], m[2]);
          else yield `# ${data.message}\n`;
        }
        break;
      case 'test:complete':
        if (isFileTest) yield finish(file, data.details);
        break;
      default:
        break;
    }
  }

  // Files the runner did not close with an event of their own.
  for (const file of files.keys()) {
    const out = finish(file, undefined);
    if (out !== '') yield out;
  }
  if (failedNames.length > 0) yield `\nFailed:\n${failedNames.map((n) => `  ${n}\n`).join('')}`;
  yield '\n';
  for (const key of SUMMARY_KEYS) if (summary.has(key)) yield `# ${key} ${summary.get(key)}\n`;
  const pass = summary.has('pass') ? Number(summary.get('pass')) : passed;
  const fail = summary.has('fail') ? Math.max(Number(summary.get('fail')), failed) : failed;
  yield `${pass} passed, ${fail} failed\n`;
}
