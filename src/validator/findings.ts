// Findings are values: scanners add them to a list and never throw for bad input.
// The shape is the D-20 report entry; `severity` always comes from the catalogue.
import { isRuleId, ruleById, type RuleDef } from './rules.js';
import { MAX_FILES_PER_RULE, MAX_FINDINGS_PER_RULE_AND_FILE } from './limits.js';

export type Severity = 'error' | 'warning';

export interface Finding {
  readonly rule: string;
  readonly severity: Severity;
  readonly message: string;
  readonly file?: string;
  readonly pointer?: string;
  readonly line?: number;
  readonly column?: number;
  /** Findings of this rule not listed (past MAX_FINDINGS_PER_RULE_AND_FILE or MAX_FILES_PER_RULE), on the last kept. */
  readonly truncated?: number;
}

type MutableFinding = { -readonly [K in keyof Finding]: Finding[K] };

export interface Location {
  file?: string;
  pointer?: string;
  line?: number;
  column?: number;
}

export interface FindingListOptions {
  /** A caller's own rules (a store's), sorted and counted like any: `area/kebab-name` ids, none a catalogue id. */
  readonly rules?: readonly RuleDef[];
}

export class FindingList {
  readonly items: Finding[] = [];
  /** The caller's own rules (FindingListOptions.rules), by id. */
  private readonly ownRules: ReadonlyMap<string, RuleDef> | undefined;
  /** Findings added per rule and file, and the last one listed of each (which carries the count of the rest). */
  private readonly counts = new Map<string, { n: number; last: MutableFinding }>();
  /** Per rule: how many files it is listed for, and the last finding listed (which counts the files left out). */
  private readonly files = new Map<string, { n: number; last: MutableFinding }>();

  /** Throws when an own rule has a malformed id, a catalogue id, or a severity other than error or warning. */
  constructor(options: FindingListOptions = {}) {
    if (options.rules === undefined || options.rules.length === 0) {
      this.ownRules = undefined;
      return;
    }
    const own = new Map<string, RuleDef>();
    for (const rule of options.rules) {
      if (!isRuleId(rule.id)) throw new Error(`FindingList: rule id "${rule.id}" is not of the form area/kebab-name`);
      if (ruleById(rule.id) !== undefined) throw new Error(`FindingList: rule id "${rule.id}" is a catalogue rule; give your own rule an id of its own`);
      if (rule.severity !== 'error' && rule.severity !== 'warning') throw new Error(`FindingList: rule "${rule.id}" has severity "${String(rule.severity)}"; use "error" or "warning"`);
      own.set(rule.id, rule);
    }
    this.ownRules = own;
  }

  /**
   * Adds a finding for a catalogued rule or one of the list's own rules. An unknown id is a programming error. Past
   * MAX_FINDINGS_PER_RULE_AND_FILE findings of one rule in one file, only a count grows:
   * a file with a million faults costs a number, not a million entries. Likewise a rule is
   * listed for at most MAX_FILES_PER_RULE files: an archive of 60,000 badly named entries
   * costs a count, not 60,000 findings.
   */
  add(rule: string, message: string, at: Location = {}): void {
    const def = ruleById(rule) ?? this.ownRules?.get(rule);
    if (def === undefined) throw new Error(`internal: rule ${rule} is not in the catalogue`);
    const key = `${rule}\u0000${at.file ?? ''}`;
    const seen = this.counts.get(key);
    if (seen !== undefined && seen.n >= MAX_FINDINGS_PER_RULE_AND_FILE) {
      seen.last.truncated = (seen.last.truncated ?? 0) + 1;
      return;
    }
    const ofRule = this.files.get(rule);
    if (seen === undefined && ofRule !== undefined && ofRule.n >= MAX_FILES_PER_RULE) {
      ofRule.last.truncated = (ofRule.last.truncated ?? 0) + 1;
      return;
    }
    const finding: MutableFinding = { rule, severity: def.severity, message };
    if (at.file !== undefined) finding.file = at.file;
    if (at.pointer !== undefined) finding.pointer = at.pointer;
    if (at.line !== undefined) finding.line = at.line;
    if (at.column !== undefined) finding.column = at.column;
    this.items.push(finding);
    if (seen === undefined) this.counts.set(key, { n: 1, last: finding });
    else {
      seen.n++;
      seen.last = finding;
    }
    if (ofRule === undefined) this.files.set(rule, { n: 1, last: finding });
    else {
      if (seen === undefined) ofRule.n++;
      ofRule.last = finding;
    }
  }

  get errorCount(): number {
    let n = 0;
    for (const f of this.items) if (f.severity === 'error') n++;
    return n;
  }
}

/** Stable order for reports: manifest findings first, then by file, position and rule. */
export function sortFindings(findings: readonly Finding[]): Finding[] {
  return [...findings].sort((a, b) => {
    const fa = a.file ?? '';
    const fb = b.file ?? '';
    if (fa !== fb) return fa < fb ? -1 : 1;
    const la = a.line ?? 0;
    const lb = b.line ?? 0;
    if (la !== lb) return la - lb;
    const ca = a.column ?? 0;
    const cb = b.column ?? 0;
    if (ca !== cb) return ca - cb;
    const pa = a.pointer ?? '';
    const pb = b.pointer ?? '';
    if (pa !== pb) return pa < pb ? -1 : 1;
    return a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0;
  });
}

/** RFC 6901 JSON pointer from path segments. */
export function jsonPointer(...segments: (string | number)[]): string {
  let out = '';
  for (const s of segments) out += '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1');
  return out;
}
