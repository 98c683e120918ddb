// Small DOM helpers the panels share: finding and making elements, setting text, a switch,
// and plurals for the lines they show.

/** The page's element with this id; the page's markup (page.html) has every one the code asks for. */
export function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`the page has no #${id}`);
  return element as T;
}

/** A new element, with a class and text when given (text as textContent, never markup). */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (className !== undefined) element.className = className;
  if (text !== undefined) element.textContent = text;
  return element;
}

/** `n word`, with an `s` unless n is 1. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Sets one element's only text, keeping its text node (no node is created or dropped). */
export function setText(element: Element, text: string): Element {
  const node = element.firstChild;
  if (node !== null && node.nodeType === Node.TEXT_NODE && node.nextSibling === null) (node as Text).data = text;
  else element.textContent = text;
  return element;
}

/** A small labelled switch (a checkbox) that calls `onChange` with its new state. */
export function toggle(label: string, checked: boolean, onChange: (on: boolean) => void): HTMLLabelElement {
  const wrap = el('label', 'switch switch--small');
  const input = el('input');
  input.type = 'checkbox';
  input.checked = checked;
  input.addEventListener('change', () => onChange(input.checked));
  wrap.append(input, el('span', undefined, label));
  return wrap;
}
