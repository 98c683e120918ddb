// The Capabilities panel: one row per declared capability, with a switch for the store
// user's grant (pushed to the frame at once) and one to make its calls fail.
import { capabilityByKey } from '../../validator/index.js';
import { byId, el, toggle } from './dom.js';
import { page, type PreviewState } from './page-state.js';

export function renderCapabilities(current: PreviewState): void {
  const box = byId('capabilities');
  box.replaceChildren();
  if (page.declared.length === 0) {
    box.append(el('p', 'empty-note', 'The manifest declares no capabilities: every bridge call rejects with CAPABILITY_NOT_GRANTED.'));
  }
  for (const key of page.declared) {
    const def = capabilityByKey(key);
    const row = el('div', 'capability');
    row.append(el('span', 'capability__key', key));
    row.append(el('span', 'capability__risk', def === undefined ? '' : `${def.risk} risk · ${def.method}()`));
    const toggles = el('div', 'capability__toggles');
    const grant = toggle('Granted', page.grants.has(key), (on) => {
      if (on) page.grants.add(key);
      else page.grants.delete(key);
      page.bridge?.pushGrants();
    });
    const fail = toggle('Fail calls', page.failing.has(key), (on) => {
      if (on) page.failing.add(key);
      else page.failing.delete(key);
    });
    toggles.append(grant, fail);
    row.append(toggles);
    box.append(row);
  }
  const undeclared = [...new Set([...current.options.deny, ...current.options.fail])].filter((k) => !page.declared.includes(k));
  if (undeclared.length > 0) {
    box.append(el('p', 'panel__help', `Not declared in the manifest, so never granted: ${undeclared.join(', ')}.`));
  }
}
