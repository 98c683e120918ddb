// The Settings panel: one control per manifest property, checked with validateSettings
// as the developer types. The frame gets the settings only while they are valid (a
// setting the store would refuse never reaches it); the form keeps the draft either way.
import { FindingList, validateSettings, type PropertyDef, type SettingValue } from '../../validator/internal.js';
import { byId, el } from './dom.js';
import { page } from './page-state.js';

/** The value a property starts with: its default, when it has a valid one. */
export function initialSettings(defs: readonly PropertyDef[], previous: Record<string, SettingValue>): Record<string, SettingValue> {
  const out: Record<string, SettingValue> = {};
  for (const def of defs) {
    const kept = previous[def.name];
    // A value the developer typed survives a manifest edit while it still fits the property.
    if (kept !== undefined && isValidSetting(def, kept)) out[def.name] = kept;
    else if (def.default !== undefined) out[def.name] = def.default;
  }
  return out;
}

function isValidSetting(def: PropertyDef, value: SettingValue): boolean {
  const findings = new FindingList();
  validateSettings([def], { [def.name]: value }, findings);
  return findings.items.length === 0;
}

/** Checks the draft; returns the messages by property name (an empty map: valid). */
export function checkDraft(): Map<string, string[]> {
  const problems = new Map<string, string[]>();
  const add = (name: string, message: string): void => {
    const list = problems.get(name) ?? [];
    list.push(message);
    problems.set(name, list);
  };
  const findings = new FindingList();
  validateSettings(page.properties, page.draft, findings);
  for (const finding of findings.items) {
    // Pointers are `/<name>` for one setting, `` for the whole object (its total size).
    const name = (finding.pointer ?? '').slice(1).replace(/~1/g, '/').replace(/~0/g, '~');
    add(name, finding.message);
  }
  for (const def of page.properties) {
    const value = page.draft[def.name];
    // D-8 for saved settings: a required string setting needs a non-whitespace character.
    if (def.required && typeof value === 'string' && value.trim() === '') add(def.name, 'Required: enter a value');
  }
  return problems;
}

export function renderSettingsForm(): void {
  const form = byId<HTMLFormElement>('settings-form');
  form.replaceChildren();
  if (page.properties.length === 0) {
    form.append(el('p', 'empty-note', 'The manifest defines no properties.'));
  }
  for (const def of page.properties) form.append(settingField(def));
  showSettingsProblems(checkDraft());
}

function settingField(def: PropertyDef): HTMLElement {
  const wrap = el('div', 'field');
  wrap.dataset['property'] = def.name;
  const id = `setting-${def.name}`;
  const label = el('label', 'field__label', def.label ?? def.name);
  label.htmlFor = id;
  const value = page.draft[def.name];
  let control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
  const update = (next: SettingValue | undefined): void => {
    if (next === undefined) delete page.draft[def.name];
    else page.draft[def.name] = next;
    settingsChanged();
  };
  switch (def.type) {
    case 'boolean': {
      const input = el('input');
      input.type = 'checkbox';
      input.checked = value === true;
      input.addEventListener('change', () => update(input.checked));
      control = input;
      const row = el('label', 'switch');
      row.append(input, el('span', undefined, def.label ?? def.name));
      row.htmlFor = id;
      control.id = id;
      wrap.append(row);
      if (def.help !== undefined) wrap.append(el('span', 'field__help', def.help));
      wrap.append(el('span', 'field__error'));
      return wrap;
    }
    case 'number': {
      const input = el('input');
      input.type = 'number';
      input.step = 'any';
      if (def.min !== undefined) input.min = String(def.min);
      if (def.max !== undefined) input.max = String(def.max);
      input.value = typeof value === 'number' ? String(value) : '';
      input.addEventListener('input', () => {
        const text = input.value.trim();
        // An empty box means "not set"; anything else must read as a finite number.
        update(text === '' ? undefined : Number(text));
      });
      control = input;
      break;
    }
    case 'select': {
      const select = el('select');
      if (def.default === undefined) select.append(new Option('(not set)', ''));
      for (const option of def.options ?? []) select.append(new Option(option.label, option.value));
      select.value = typeof value === 'string' ? value : '';
      select.addEventListener('change', () => update(select.value === '' && def.default === undefined ? undefined : select.value));
      control = select;
      break;
    }
    case 'textarea': {
      const area = el('textarea');
      area.value = typeof value === 'string' ? value : '';
      area.addEventListener('input', () => update(area.value));
      control = area;
      break;
    }
    default: {
      // text, color, url, image: free text, checked by the contract's value rules.
      const input = el('input');
      input.type = 'text';
      input.spellcheck = def.type === 'text';
      input.value = typeof value === 'string' ? value : '';
      if (def.type === 'color') {
        const row = el('div', 'field__row');
        const swatch = el('span', 'swatch');
        const paint = (): void => swatch.style.setProperty('background', input.value);
        paint();
        input.addEventListener('input', () => {
          paint();
          update(input.value);
        });
        control = input;
        control.id = id;
        row.append(swatch, input);
        wrap.append(label, row);
        if (def.help !== undefined) wrap.append(el('span', 'field__help', def.help));
        wrap.append(el('span', 'field__error'));
        return wrap;
      }
      if (def.type === 'url' || def.type === 'image') input.placeholder = '/page or https://…';
      input.addEventListener('input', () => update(input.value));
      control = input;
    }
  }
  control.id = id;
  wrap.append(label, control);
  if (def.help !== undefined) wrap.append(el('span', 'field__help', def.help));
  wrap.append(el('span', 'field__error'));
  return wrap;
}

function showSettingsProblems(problems: Map<string, string[]>): void {
  for (const field of byId('settings-form').querySelectorAll<HTMLElement>('.field')) {
    const messages = problems.get(field.dataset['property'] ?? '') ?? [];
    field.dataset['invalid'] = String(messages.length > 0);
    const error = field.querySelector('.field__error');
    if (error !== null) error.textContent = messages.join(' ');
  }
  const whole = problems.get('') ?? [];
  const box = byId('settings-errors');
  box.textContent = whole.join(' ');
  box.hidden = whole.length === 0;
}

function settingsChanged(): void {
  const problems = checkDraft();
  showSettingsProblems(problems);
  if (problems.size > 0) return; // the frame keeps the last valid settings
  page.settings = { ...page.draft };
  // The store saves them through the service (save-settings), which checks them too; an
  // upgrade then migrates what was saved here.
  try {
    page.lifecycle?.saveSettings(page.settings);
  } catch {
    // Refused (nothing launches, or the service's own check): the frame still gets the form's values.
  }
  page.bridge?.pushSettings();
}
