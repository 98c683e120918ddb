// What the operator should do about a finding of platform-review (contract rule 3: the
// operator trusts the publisher and approves the release; rule 4: someone else approves
// what an operator submitted). The catalogue's hints speak to the publisher ("package
// again"); the operator does not fix a release, they reject it, approve it, or ask the
// publisher for something. Node side only (the catalogue stays the server's vendored copy).
import type { RuleDef } from '../validator/internal.js';

const ALTERED = 'Reject: the submission was altered or damaged after packaging. Ask the publisher for the five files exactly as platform-ext package wrote them.';
const ARCHIVE = 'Reject: the archive is not one the packaging tool writes, or it was altered. Ask the publisher for bundle.zip exactly as platform-ext package wrote it.';
const SAVED_SETTINGS =
  'Ask the publisher whether stores\' saved values of this property still matter: saved settings persist through the upgrade and would no longer fit. Approve only if they confirm.';

const BY_RULE: Readonly<Record<string, string>> = {
  'release/missing-file': 'Reject: the submission is incomplete. Ask the publisher for all five submission files.',
  'release/unexpected-file': 'Reject: a submission is exactly five files. Ask the publisher for a folder without the extra file (if it holds a key or a secret, tell them it is exposed).',
  'release/file-too-large': ALTERED,
  'release/public-key-format': ALTERED,
  'release/signature-format': ALTERED,
  'release/submission-invalid': ALTERED,
  'release/submission-field': ALTERED,
  'release/submission-mismatch': ALTERED,
  'release/signature-invalid': 'Reject: nothing proves these files are the ones the key holder signed. Ask the publisher to sign the release again and upload the files unchanged.',
  'release/signature-extra-line-break': 'Reject: the store verifies only the D-14 payload, so this signature would never pass there. Ask the publisher to fix their signing tool (one line break after the last line, not two) and sign again.',
  'release/unknown-signing-key':
    'Reject, unless the publisher confirms the key through the console: ask them to register it as an active key (and revoke the old one), then review again with the updated key list.',
  'release/signer-not-pinned': 'Before approving, review again with --known-keys and the publisher\'s active keys from the console.',
  'baseline/signer-changed': 'Do not approve yet: confirm with the publisher, through the console, that they rotated their key; then review again with --known-keys.',
  'baseline/version-not-higher':
    'Reject if the baseline version was approved: ask the publisher for a higher version. Only a correction of a submission that was never approved may keep its version.',
  'baseline/namespace-changed': 'Reject as an update: a release under another namespace is another extension. Ask the publisher to restore the namespace or submit it as a new extension.',
  'baseline/capability-added':
    'Review the new capability as a new permission: every store must approve it, and it stays off until they do. Ask the publisher why it is needed if the release does not say.',
  'baseline/capability-removed': 'No action needed: stores lose the grant automatically on upgrade.',
  'baseline/property-removed': SAVED_SETTINGS,
  'baseline/property-retyped': SAVED_SETTINGS,
  'baseline/property-narrowed': SAVED_SETTINGS,
  'history/version-already-approved': 'Reject: this version was approved before and is never reused. Ask the publisher for the same change under a higher version.',
  'history/version-not-higher': 'Reject: stores run a higher version already. Ask the publisher for a version above the last approved one.',
  'history/signer-revoked': 'Reject: the key was revoked, so anyone may hold it now. Ask the publisher to sign with an active key; if they did not sign this, tell them their old key is in use.',
  'history/signer-unknown': 'Reject, unless the publisher confirms through the console that the key is theirs: ask them to register it, then review again with the updated history.',
  'history/signer-new': 'Before approving, confirm with the publisher, through the console, that they added this key: it signed none of their approved releases.',
  'history/publisher-revoked': 'Reject: the publisher is revoked. Decide about the publisher first; their releases wait until then.',
  'history/namespace-changed': 'Reject as an update: ask the publisher to keep the namespace of their approved releases, or to submit this as a new extension.',
  'js/network-api':
    'Reject unless the publisher explains: ask what this call is for, which host it would reach and what data it would send. The frame blocks it, so it either is dead code (ask them to remove it) or is meant to work somewhere the policy does not hold.',
  'js/eval-blocked':
    'Reject unless the publisher explains: ask which code is built from strings and where the strings come from (a setting, a form, the network). Ordinary functions do the same without it.',
  'js/computed-global-access':
    'Reject unless the publisher explains: ask which global this reads and why by a computed name; code that needs fetch or eval would name it, so this hides the call from review.',
  'js/assembled-api-name':
    'Reject unless the publisher explains: the release spells a blocked API in pieces. Ask why; an honest answer is rare, and the release should name what it calls.',
  'js/constructor-constructor': 'Reject unless the publisher explains: this builds code from a string without naming eval or Function. Ask what it runs and where the string comes from.',
  'js/capability-unused': 'Ask the publisher to drop the capability or say which upcoming code uses it: every store is asked to grant it, and an unused grant is a permission the extension holds for nothing.',
  'manifest/confusable-text': 'Reject unless the publisher explains: a word made of lookalike letters passes for another name. Ask for the name in one script.',
  'manifest/impersonation': 'Reject unless the publisher explains: the text claims a status only the operator gives. Ask them to describe what the extension does instead.',
  'manifest/addressed-to-reviewer': 'Reject: the text tries to steer the review. Ask the publisher to put notes for the operator in the console, not in the manifest.',
  'js/input-flows-to-sink':
    'Reject unless the publisher explains: whoever sets this value (the store in the builder, or a visitor in a form) would choose where a request goes or which code runs. Ask why the value is used as it is, not chosen from a fixed list.',
  'manifest/invisible-character': 'Ask the publisher what the invisible character is for: store users see the text without it, so it can hide a word from them or from review. Approve when it is a harmless joiner in a name written in its own script.',
  'property/option-value-repeated': 'Not blocking for this release, but stores that pick either label save the same value, so the extension cannot tell them apart. Ask the publisher whether both labels are meant to behave alike.',
  'bundle/unreferenced-module': 'Ask the publisher what the module that nothing loads is for: it ships to every store yet never runs in this release. Read it first; code kept out of sight is worth a look.',
  'secret/not-scanned': 'Before approving, look at the file that could not be scanned: it is part of the submission folder but unread, and may hold a key. Ask the publisher for a folder with the five submission files only.',
  'html/form-element': 'Ask the publisher how the form is sent: the frame blocks a form submission, so as written this form does nothing for visitors of the stores that install the release.',
  'css/bad-url': 'Not blocking: browsers drop the declaration, so a background or font of this release will be missing in stores. Mention it to the publisher if it affects how the extension looks.',
  'css/invalid-utf8': 'Not blocking: the stylesheet shows replacement characters where its bytes are not UTF-8. Mention it to the publisher if visible text (content: or fonts) is affected.',
  'js/syntax-error': 'Ask the publisher whether this module works: one that does not parse never runs, so the features it holds are missing from this release in every store.',
  'js/dynamic-import-unchecked': 'Ask the publisher which modules the computed import loads: the review cannot see which code runs there. The frame still refuses code outside the release.',
  'js/storage-unavailable': 'Ask the publisher whether the extension works without storage: in the frame this call throws, so what it keeps is lost or the feature fails for every store.',
  'js/navigation': 'Ask the publisher where the navigation or popup leads and why: the frame blocks it, so it is either dead code or an attempt to take visitors away from the store.',
  'js/root-relative-string': 'Not blocking: a path from the site root misses the release\'s files, so an image or module of this release will not load in stores. Mention it to the publisher.',
  'js/commonjs': 'Ask the publisher whether the module runs: CommonJS code fails in a module script, so what it provides is missing from this release in every store.',
  'js/import-not-exported': 'Ask the publisher for a working build: the browser refuses to link these modules, so this part of the release runs in no store.',
  'js/setting-unknown': 'Ask the publisher which property the code means: stores cannot set this one, so the feature behind it always sees no value in this release.',
  'js/markup-root-relative': 'Not blocking: markup the code writes points at the site root, where the release\'s files are not, so an image or style is missing in stores. Mention it to the publisher.',
  'js/markup-navigation': 'Ask the publisher where the link or form the code writes would lead: the frame blocks navigation and popups, so it either does nothing or tries to take visitors away from the store.',
  'js/markup-frame': 'Ask the publisher what the frame, object or embed would show: the policy blocks it, so it is dead code or content meant to come from elsewhere.',
  'secret/high-entropy-default': 'Ask the publisher whether the default is a key or password: every store and visitor of this release can read it. If it is, reject and ask for a release without it (and a revoked credential).',
  'secret/email-in-default': 'Ask the publisher whose address the default is: every store that installs this release shows it until they change it. Approve only for a role address the publisher owns.',
  'secret/phone-in-default': 'Ask the publisher whose number the default is: every store that installs this release shows it until they change it. Approve only for a number the publisher owns.',
  'secret/private-key':
    'Reject: the release holds private-key material. Tell the publisher that key is exposed: they must register a new key, revoke the exposed one, and submit again without it.',
};

/** The operator's hint for a rule of the catalogue. */
export function operatorHint(rule: RuleDef): string {
  const own = Object.prototype.hasOwnProperty.call(BY_RULE, rule.id) ? BY_RULE[rule.id] : undefined;
  if (own !== undefined) return own;
  const area = rule.id.slice(0, rule.id.indexOf('/'));
  if (area === 'archive') return ARCHIVE;
  if (area === 'secret') {
    return rule.severity === 'error'
      ? 'Reject: the release holds a credential. Tell the publisher it is exposed: they must revoke or rotate it and submit again without it.'
      : 'Ask the publisher whether the value is a credential or personal data: every store and visitor can read a default. If it is, reject and ask for a release without it.';
  }
  if (rule.severity === 'error') return `Reject: the release breaks a rule of the contract. Ask the publisher for a release that passes platform-ext check (their tool reports it as ${rule.id}).`;
  return 'Not blocking: weigh it in the review, and ask the publisher about it if it matters to the stores that will run the extension.';
}
