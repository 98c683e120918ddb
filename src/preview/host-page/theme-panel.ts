// The Theme panel: the mock store's theme fields, edited in place. The storefront around
// the frame follows them through the page's own custom properties (page.css).
import { THEME_FIELDS, type ThemeField } from '../mock-store.js';
import { byId, el } from './dom.js';
import { page } from './page-state.js';

/** Theme field -> the page's own custom property, so the storefront follows the theme panel. */
const THEME_TO_PAGE: Readonly<Record<ThemeField, string>> = {
  primary: '--store-primary',
  secondary: '--store-secondary',
  background: '--store-background',
  surface: '--store-surface',
  text: '--store-text',
  mutedText: '--store-muted',
  link: '--store-link',
  button: '--store-button',
  headingFont: '--store-heading-font',
  bodyFont: '--store-body-font',
  sectionGap: '--store-gap',
  buttonRadius: '--store-radius',
};

export function applyThemeToPage(): void {
  const theme = page.store.theme();
  for (const field of THEME_FIELDS) document.documentElement.style.setProperty(THEME_TO_PAGE[field], theme[field]);
}

export function renderTheme(): void {
  const box = byId('theme-fields');
  box.replaceChildren();
  const theme = page.store.theme();
  for (const field of THEME_FIELDS) {
    const wrap = el('div', 'field');
    const id = `theme-${field}`;
    const label = el('label', 'field__label', field);
    label.htmlFor = id;
    const row = el('div', 'field__row');
    const input = el('input');
    input.type = 'text';
    input.id = id;
    input.spellcheck = false;
    input.value = theme[field];
    const error = el('span', 'field__error');
    const isColour = !/Font$|sectionGap|buttonRadius/.test(field);
    const swatch = el('span', 'swatch');
    const paint = (): void => swatch.style.setProperty('background', page.store.theme()[field]);
    if (isColour) {
      paint();
      row.append(swatch);
    }
    input.addEventListener('input', () => {
      const problem = page.store.setTheme(field, input.value);
      wrap.dataset['invalid'] = String(problem !== null);
      error.textContent = problem === null ? '' : `Not used: ${problem}`;
      if (problem === null) {
        if (isColour) paint();
        applyThemeToPage();
      }
    });
    row.append(input);
    wrap.append(label, row, error);
    box.append(wrap);
  }
}
