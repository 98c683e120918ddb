// The Capabilities panel: one row per declared capability, with a switch for the store
// user's grant (the service's grant or revoke-grant, pushed to the frame at once) and a
// choice of how its calls fail.
import { BRIDGE_ERROR_CODE_LIST, capabilityByKey } from '../../validator/internal.js';
import { byId, el, toggle } from './dom.js';
import { page, type PreviewState } from './page-state.js';
import { setGrant } from './store-panel.js';

/** What a capability's calls can be made to fail with: every call code (the handshake's is the Store panel's). */
const FAIL_CHOICES = BRIDGE_ERROR_CODE_LIST.filter((code) => code !== 'INITIALIZATION_TIMEOUT');

/** A select of the codes a capability's calls reject with ('' : they run). */
function failSelect(key: string): HTMLLabelElement {
  const wrap = el('label', 'capability__fail');
  wrap.append(el('span', undefined, 'Calls '));
  const select = el('select');
  select.dataset['failFor'] = key;
  // Named on its own: the wrapping label's text would include every option, "…NOT_GRANTED" among them.
  select.setAttribute('aria-label', `How calls to ${key} end`);
  select.append(new Option('succeed', ''));
  for (const code of FAIL_CHOICES) select.append(new Option(`fail: ${code}`, code));
  select.value = page.failing.has(key) ? 'REQUEST_FAILED' : (page.failCodes.get(key) ?? '');
  select.addEventListener('change', () => {
    page.failing.delete(key);
    page.failCodes.delete(key);
    if (select.value === 'REQUEST_FAILED') page.failing.add(key);
    else if (select.value !== '') page.failCodes.set(key, select.value);
  });
  wrap.append(select);
  return wrap;
}

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
    const grant = toggle('Granted', page.grants.has(key), (on) => setGrant(key, on));
    grant.querySelector('input')!.dataset['grant'] = key;
    toggles.append(grant, failSelect(key));
    row.append(toggles);
    box.append(row);
  }
  const undeclared = [...new Set([...current.options.deny, ...current.options.fail, ...Object.keys(current.options.failCodes ?? {})])].filter((k) => !page.declared.includes(k));
  if (undeclared.length > 0) {
    box.append(el('p', 'panel__help', `Not declared in the manifest, so never granted: ${undeclared.join(', ')}.`));
  }
}
