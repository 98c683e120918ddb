// `check --explain <rule-id>` as text wrapped for an 80-column terminal, with reference, fix and example.
import type { RuleExplanation } from '../explain/rule-explanation.js';
import type { Style } from './report-text.js';

const WRAP_WIDTH = 78;

/** Greedy word wrap; words longer than the width stay whole. */
export function wrapText(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (line === '') line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

function indent(text: string, by: string): string[] {
  return text.split('\n').map((l) => by + l);
}

export function renderExplanation(e: RuleExplanation, style: Style): string {
  const severity = e.severity === 'error' ? style.red('error') : style.yellow('warning');
  const lines = [
    `${style.bold(e.id)}  ${severity}`,
    e.title,
    '',
    ...indent(wrapText(e.explanation, WRAP_WIDTH).join('\n'), '  '),
    '',
    `${style.bold('Contract:')} ${e.ref}`,
    '',
    style.bold('How to fix:'),
    ...indent(wrapText(e.hint, WRAP_WIDTH).join('\n'), '  '),
    '',
    `${style.bold('Example')} ${style.dim(`(${e.example.file})`)}`,
    `  ${style.red('before:')}`,
    ...indent(e.example.before, '    '),
    `  ${style.green('after:')}`,
    ...indent(e.example.after, '    '),
  ];
  return lines.join('\n') + '\n';
}
