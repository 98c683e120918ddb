// Heading anchors as GitHub renders them, for the generated rule list (docs/rules.md) and
// the documentation link test: the rule list links each decision it cites, and the test
// checks that every `#anchor` in README.md and docs/ names a heading that exists.
// Node built-ins only; no Markdown parser (the documents are ours and plain).

/**
 * The anchor GitHub gives a heading: the heading's text without its Markdown (code spans,
 * emphasis, links), lower-cased, every character other than a letter, mark, digit,
 * connector, space or hyphen removed, spaces turned into hyphens.
 */
export function githubSlug(heading) {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The ATX headings of a Markdown document, outside fenced code blocks. */
export function headings(markdown) {
  const found = [];
  let fence = null;
  for (const line of markdown.split('\n')) {
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (open !== null) {
      if (fence === null) fence = open[1];
      else if (open[1][0] === fence[0] && open[1].length >= fence.length && line.trim() === open[1]) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const h = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (h !== null) found.push({ level: h[1].length, text: h[2] });
  }
  return found;
}

/** Every anchor of a document, with GitHub's -1, -2 ... suffixes for repeated headings. */
export function headingAnchors(markdown) {
  const anchors = new Set();
  const seen = new Map();
  for (const { text } of headings(markdown)) {
    const base = githubSlug(text);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** A decision id as written in the documents: D-1, D-2a. */
export const DECISION_ID = /\bD-\d+[a-z]?\b/g;

/** Decision id -> anchor, from the `### D-n: title` headings of docs/decisions.md. */
export function decisionAnchors(decisionsMarkdown) {
  const map = new Map();
  for (const { text } of headings(decisionsMarkdown)) {
    const m = /^(D-\d+[a-z]?):/.exec(text);
    if (m !== null) map.set(m[1], githubSlug(text));
  }
  return map;
}

/**
 * Turns each decision id in plain text into a link to its heading in decisions.md
 * (`base` is the path of decisions.md from the document the text goes into). An id without
 * a heading is an error: the documents must never cite a decision they do not explain.
 */
export function linkDecisions(text, anchors, base) {
  return text.replace(DECISION_ID, (id) => {
    const anchor = anchors.get(id);
    if (anchor === undefined) throw new Error(`docs/decisions.md has no heading for ${id}`);
    return `[${id}](${base}#${anchor})`;
  });
}
