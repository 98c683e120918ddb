// Text that deceives the people who read it (the operator in review, the store user in the
// builder): invisible characters, words that mix scripts (Latin letters swapped for Cyrillic
// or Greek lookalikes), claims of official status or of the platform's own voice, and text
// addressed to the reviewer. Checked on the manifest's name, description, property labels,
// help texts and option labels. The output already escapes invisible characters (D-29a);
// these findings say that the release used them.
import type { FindingList } from './findings.js';
import { LATIN_LOOKALIKES } from './confusables-table.js';

/** A string of the manifest and where it is. */
export interface ManifestText {
  readonly pointer: string;
  readonly text: string;
}

/** Format, tag, zero-width and bidirectional characters: nothing a reader sees. */
const INVISIBLE = /[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\u{1d173}-\u{1d17a}\u{e0000}-\u{e0fff}]/u;
/** A word: letters and marks of any script. */
const WORD = /[\p{L}\p{M}]+/gu;
const LATIN = /\p{Script=Latin}/u;
const LOOKALIKE_SCRIPTS = /[\p{Script=Cyrillic}\p{Script=Greek}]/u;
/** Claims of a status the publisher cannot give itself, or of speaking for the platform. */
const IMPERSONATION = /\b(official|approved|verified|certified|endorsed|security team|trust(?:ed)? (?:and safety )?team|platform team|store team|staff pick|operators?)\b/iu;
/** Text that speaks to whoever reviews the release. */
const TO_REVIEWER = /\b(reviewers?|moderators?|(?:please|kindly|just) (?:click|press|select|choose) ["'“]?approve|click ["'“]?approve|approve (?:this|it|now|immediately)|ignore (?:the |all |any |previous )?(?:warnings|findings|errors|instructions))\b/iu;

/** Greek and Cyrillic lookalikes to their ASCII skeleton (generated from UTS #39 confusables data). */
const SKELETON: ReadonlyMap<string, string> = new Map(
  LATIN_LOOKALIKES.split(' ').map((entry) => [String.fromCodePoint(parseInt(entry.slice(0, -1), 16)), entry.slice(-1)] as const),
);

/** The text with lookalike letters folded to Latin: what a reader takes it for. */
export function latinSkeleton(text: string): string {
  let out = '';
  for (const c of text) out += SKELETON.get(c) ?? c;
  return out;
}

/** Reports deceptive text in the manifest strings given (confusable-text, impersonation, addressed-to-reviewer); invisible characters are D-29a's manifest/invisible-character and manifest/tag-character. */
export function checkDeceptiveText(texts: readonly ManifestText[], findings: FindingList): void {
  for (const { pointer, text } of texts) {
    const at = { file: 'manifest.json', pointer };
    const mixed = (text.match(WORD) ?? []).find((w) => LATIN.test(w) && LOOKALIKE_SCRIPTS.test(w));
    if (mixed !== undefined) findings.add('manifest/confusable-text', `The word read as "${latinSkeleton(mixed)}" mixes Latin letters with Cyrillic or Greek lookalikes`, at);
    // Without invisible characters and with lookalikes folded: the text as a reader takes it.
    const read = latinSkeleton(text.replace(new RegExp(INVISIBLE.source, 'gu'), ''));
    const claim = IMPERSONATION.exec(read);
    if (claim !== null) findings.add('manifest/impersonation', `The text claims a status or voice the publisher cannot give itself: "${claim[0]}"`, at);
    const aimed = TO_REVIEWER.exec(read);
    if (aimed !== null) findings.add('manifest/addressed-to-reviewer', `The text speaks to the reviewer: "${aimed[0]}"`, at);
  }
}
