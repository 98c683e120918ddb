// The header's check status and the findings: the overlay over the frame when the check
// has errors or the folder cannot be read, and the warnings note beside a running
// extension. Finding text comes from the project and is set as text only.
import { byId, el, plural } from './dom.js';
import type { PreviewState } from './page-state.js';
import type { PreviewFinding } from './markup.js';

export function renderStatus(current: PreviewState): void {
  const manifest = current.manifest;
  byId('ext-name').textContent = manifest?.name ?? 'Extension';
  byId('ext-meta').textContent = [manifest?.namespace, manifest?.version].filter((v) => v !== null && v !== undefined).join(' · ');
  document.title = `${manifest?.name ?? 'Extension'}: preview`;
  const status = byId('check-status');
  if (current.problem !== null) {
    status.dataset['state'] = 'errors';
    status.textContent = 'Folder unreadable';
  } else if (current.errors > 0) {
    status.dataset['state'] = 'errors';
    status.textContent = `${plural(current.errors, 'error')}, ${plural(current.warnings, 'warning')}${acknowledgedNote(current)}`;
  } else if (current.warnings > 0) {
    status.dataset['state'] = 'warnings';
    status.textContent = `${plural(current.warnings, 'warning')}${acknowledgedNote(current)}`;
  } else {
    status.dataset['state'] = 'ok';
    status.textContent = `No problems${acknowledgedNote(current)}`;
  }
}

/** ", 1 acknowledged" when platform-ext.config.json acknowledges warnings (D-33), as `check`'s summary counts them. */
function acknowledgedNote(current: PreviewState): string {
  return current.acknowledged > 0 ? `, ${current.acknowledged} acknowledged` : '';
}

function findingItem(finding: PreviewFinding): HTMLLIElement {
  const item = el('li', 'finding');
  const severity = el('span', 'finding__severity', finding.severity);
  severity.dataset['severity'] = finding.severity;
  const message = el('span', 'finding__message', finding.message);
  const where = el('span', 'finding__where');
  const place = [finding.file, finding.line !== undefined ? `${finding.line}:${finding.column ?? 1}` : undefined, finding.pointer]
    .filter((p) => p !== undefined)
    .join(' ');
  where.append(el('span', 'finding__rule', finding.rule), document.createTextNode(place === '' ? '' : `  ${place}`));
  item.append(severity, message, where);
  // The rule's fix, from the catalogue, as check prints it.
  if (finding.hint !== undefined) item.append(el('span', 'finding__hint', `Fix: ${finding.hint}`));
  return item;
}

export function renderFindings(current: PreviewState): void {
  const overlay = byId('findings');
  const list = byId('findings-list');
  const note = byId('warnings-note');
  if (current.problem !== null) {
    byId('findings-title').textContent = 'The project folder cannot be read';
    byId('findings-lead').textContent = current.problem;
    list.replaceChildren();
    overlay.hidden = false;
  } else if (!current.ok) {
    byId('findings-title').textContent = `The extension has ${plural(current.errors, 'error')}`;
    byId('findings-lead').textContent = 'Fix them and save: the preview checks again and starts the extension by itself.';
    list.replaceChildren(...current.findings.map(findingItem));
    overlay.hidden = false;
  } else {
    overlay.hidden = true;
    list.replaceChildren();
  }
  const warnings = current.findings.filter((f) => f.severity === 'warning');
  if (current.ok && warnings.length > 0) {
    const details = el('details');
    details.append(el('summary', undefined, `${plural(warnings.length, 'warning')} (the extension runs; the store review may ask about them)`));
    const ol = el('ol', 'findings__list');
    ol.append(...warnings.map(findingItem));
    details.append(ol);
    note.replaceChildren(details);
    note.hidden = false;
  } else {
    note.hidden = true;
    note.replaceChildren();
  }
}
