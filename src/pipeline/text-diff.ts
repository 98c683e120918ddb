// A line diff for the operator's review: counts and unified hunks. The LCS table is bounded in cells,
// so a huge rewrite gives counts without hunks.

const MAX_CELLS = 4_000_000;
export const MAX_HUNK_LINES = 400;
const CONTEXT = 2;

export interface LineDiff {
  readonly lines_added: number;
  readonly lines_removed: number;
  /** Null when the files are too far apart to align within the bound. */
  readonly hunks: readonly string[] | null;
}

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Whether bytes look like text: no NUL byte in the first 8 KiB. */
export function isText(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8192);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return false;
  return true;
}

export function lineDiff(before: string, after: string): LineDiff {
  const a = splitLines(before);
  const b = splitLines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const n = endA - start;
  const m = endB - start;
  if ((n + 1) * (m + 1) > MAX_CELLS) {
    // Too far apart to align: counts by multiset, no hunks.
    const count = new Map<string, number>();
    for (let i = start; i < endA; i++) count.set(a[i]!, (count.get(a[i]!) ?? 0) + 1);
    let added = 0;
    for (let j = start; j < endB; j++) {
      const c = count.get(b[j]!) ?? 0;
      if (c > 0) count.set(b[j]!, c - 1);
      else added++;
    }
    let removed = 0;
    for (const c of count.values()) removed += c;
    return { lines_added: added, lines_removed: removed, hunks: null };
  }
  const w = m + 1;
  const lcs = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * w + j] = a[start + i] === b[start + j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
    }
  }
  const ops: [' ' | '-' | '+', string][] = [];
  for (let i = 0; i < start; i++) ops.push([' ', a[i]!]);
  let i = 0;
  let j = 0;
  let added = 0;
  let removed = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[start + i] === b[start + j]) {
      ops.push([' ', a[start + i]!]);
      i++;
      j++;
    } else if (j < m && (i === n || lcs[i * w + j + 1]! >= lcs[(i + 1) * w + j]!)) {
      ops.push(['+', b[start + j]!]);
      j++;
      added++;
    } else {
      ops.push(['-', a[start + i]!]);
      i++;
      removed++;
    }
  }
  for (let k = endA; k < a.length; k++) ops.push([' ', a[k]!]);
  return { lines_added: added, lines_removed: removed, hunks: hunksOf(ops) };
}

function hunksOf(ops: readonly [' ' | '-' | '+', string][]): string[] {
  const out: string[] = [];
  let k = 0;
  let oldLine = 1;
  let newLine = 1;
  while (k < ops.length && out.length < MAX_HUNK_LINES) {
    if (ops[k]![0] === ' ') {
      k++;
      oldLine++;
      newLine++;
      continue;
    }
    // A hunk: back up CONTEXT lines, run until CONTEXT*2 unchanged lines follow a change.
    const back = Math.min(CONTEXT, k, oldLine - 1);
    let from = k - back;
    let o = oldLine - back;
    let nw = newLine - back;
    let to = k;
    let quiet = 0;
    while (to < ops.length && quiet <= CONTEXT * 2) {
      quiet = ops[to]![0] === ' ' ? quiet + 1 : 0;
      to++;
    }
    if (quiet > CONTEXT) to -= quiet - CONTEXT;
    const body = ops.slice(from, to);
    const oldCount = body.filter((x) => x[0] !== '+').length;
    const newCount = body.filter((x) => x[0] !== '-').length;
    out.push(`@@ -${o},${oldCount} +${nw},${newCount} @@`);
    for (const [kind, line] of body) out.push(kind + line);
    for (; from < to; from++) {
      if (ops[from]![0] !== '+') o++;
      if (ops[from]![0] !== '-') nw++;
    }
    oldLine = o;
    newLine = nw;
    k = to;
  }
  return out.slice(0, MAX_HUNK_LINES);
}
