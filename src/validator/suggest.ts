// "Did you mean": the closest known name by Levenshtein distance (messages, the testing mock, CLI flags, rule ids).

const SUGGEST_MAX_EDITS = 2;

/** The edit distance between `a` and `b`, or a number above `cap` once it is certainly larger. */
function distance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = row[j]!;
      row[j] = next;
    }
  }
  return row[b.length]!;
}

/** The closest candidate within SUGGEST_MAX_EDITS edits (the first of equals), or undefined. */
export function suggest(input: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = SUGGEST_MAX_EDITS + 1;
  for (const c of candidates) {
    const d = distance(input, c, SUGGEST_MAX_EDITS);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}
