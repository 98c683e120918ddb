// The call log, the store activity list and the toasts: one log entry per bridge call
// (its payload and answer formatted only when opened), a line per thing the mock store did
// that a real store would show or record, and a toast when the store would open another
// flow (booking, waiver, messages). Both lists are batched lists (batched-list.ts).
import type { CallLogEntry } from '../../bridge/host.js';
import { STORE_SMS_NUMBER, type StoreActivity } from '../mock-store.js';
import { batchedList, type BatchedList } from './batched-list.js';
import { renderCart } from './cart-panel.js';
import { byId, el, plural, setText } from './dom.js';

/** Most log entries kept: the log is for reading, not for an archive. */
const LOG_MAX_ENTRIES = 200;
/** How long a toast stays, and how many show at once. */
const TOAST_MS = 4500;
const TOASTS_MAX = 3;

/** JSON for the log, cut to a readable size (a catalog page with images is long). */
function preview(value: unknown, max = 1200): string {
  let text: string;
  try {
    text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' && v.startsWith('data:') && v.length > 60 ? `${v.slice(0, 40)}…` : v), 2) ?? 'undefined';
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}\n…` : text;
}

type CallEntry = Extract<CallLogEntry, { kind: 'call' }>;

/** The call each rendered log entry shows: its payload and answer are formatted only when opened. */
const logEntryCalls = new WeakMap<HTMLButtonElement, CallEntry>();

/**
 * One line per call: a button (capability and action, outcome, duration) that opens the
 * payload and the answer below it.
 */
function logEntry(entry: CallEntry): HTMLElement {
  const item = el('li', 'log-entry');
  const head = el('button', 'log-entry__head');
  head.type = 'button';
  head.setAttribute('aria-expanded', 'false');
  const outcome = el('span', 'log-entry__outcome', entry.ok ? 'ok' : entry.code);
  outcome.dataset['outcome'] = entry.ok ? 'ok' : 'error';
  head.append(
    el('span', 'log-entry__call', `${entry.capability ?? '?'} · ${entry.action ?? '?'}`),
    outcome,
    el('span', 'log-entry__ms', `${entry.durationMs < 10 ? entry.durationMs.toFixed(1) : Math.round(entry.durationMs)} ms`),
  );
  logEntryCalls.set(head, entry);
  item.append(head);
  return item;
}


/** Rewrites an entry built by logEntry for another call: closed, with that call's line. */
function rewriteLogEntry(item: Element, entry: CallEntry): Element {
  const head = item.firstElementChild;
  if (!(head instanceof HTMLButtonElement) || head.childElementCount !== 3) return logEntry(entry);
  // An opened entry's details belong to the call it showed before.
  while (head.nextSibling !== null) head.nextSibling.remove();
  head.setAttribute('aria-expanded', 'false');
  const call = head.children[0]!;
  const outcome = head.children[1] as HTMLElement;
  const ms = head.children[2]!;
  setText(call, `${entry.capability ?? '?'} · ${entry.action ?? '?'}`);
  setText(outcome, entry.ok ? 'ok' : entry.code);
  outcome.dataset['outcome'] = entry.ok ? 'ok' : 'error';
  setText(ms, `${entry.durationMs < 10 ? entry.durationMs.toFixed(1) : Math.round(entry.durationMs)} ms`);
  logEntryCalls.set(head, entry);
  return item;
}

/** Opens or closes a log entry's payload and answer (formatted on first opening: a catalog page's JSON is long). */
function onLogClick(event: MouseEvent): void {
  const head = event.target instanceof Element ? event.target.closest('.log-entry__head') : null;
  if (!(head instanceof HTMLButtonElement)) return;
  const open = head.getAttribute('aria-expanded') !== 'true';
  head.setAttribute('aria-expanded', String(open));
  let details = head.nextElementSibling;
  if (details === null) {
    const entry = logEntryCalls.get(head);
    if (entry === undefined) return;
    details = el('div', 'log-entry__details');
    details.append(
      el('pre', undefined, `payload ${preview(entry.payload)}`),
      el('pre', undefined, entry.ok ? `result ${preview(entry.result)}` : `error ${entry.code}: ${entry.message}`),
    );
    head.after(details);
  }
  (details as HTMLElement).hidden = !open;
}

function showLogCount(total: number): void {
  byId('log-count').textContent = String(total);
  const more = byId('log-more');
  const older = total - Math.min(total, LOG_MAX_ENTRIES);
  more.textContent = older > 0 ? `and ${plural(older, 'earlier call')} not shown (the log keeps the last ${LOG_MAX_ENTRIES})` : '';
  more.hidden = older === 0;
}

/** The two lists, made by startLogs once the page's markup is there. */
let callLog: BatchedList<CallEntry> | null = null;
let activityLog: BatchedList<string> | null = null;

/** Makes the call log and the activity list (page.ts main, before the first check). */
export function startLogs(): void {
  const log = byId('log');
  callLog = batchedList(log, byId<HTMLDetailsElement>('panel-log'), LOG_MAX_ENTRIES, logEntry, rewriteLogEntry, showLogCount);
  log.addEventListener('click', onLogClick);
  activityLog = batchedList(byId('activity'), byId<HTMLDetailsElement>('panel-activity'), LOG_MAX_ENTRIES, (text) => el('li', undefined, text), setText, () => undefined);
}

/** Empties the call log (its Clear button). */
export function clearCallLog(): void {
  callLog?.clear();
  byId('log-dropped').textContent = '';
}

/** The host bridge's onCall (frame.ts): a call goes to the log, a dropped message to the line above it. */
export function logCall(entry: CallLogEntry): void {
  if (entry.kind === 'dropped') {
    byId('log-dropped').textContent = `${plural(entry.dropped, 'malformed message')} dropped (last: ${entry.reason})`;
    return;
  }
  callLog?.add(entry);
}

function toast(title: string, text: string): void {
  const box = el('div', 'toast');
  box.append(el('strong', undefined, title), document.createTextNode(text));
  const stack = byId('toasts');
  stack.append(box);
  while (stack.children.length > TOASTS_MAX) stack.firstElementChild?.remove();
  setTimeout(() => box.remove(), TOAST_MS);
}

/** The mock store's onActivity (page.ts newStore): the cart panel, a toast, a line in the activity list. */
export function showActivity(activity: StoreActivity): void {
  let text: string;
  switch (activity.kind) {
    case 'cart':
      renderCart();
      return;
    case 'booking-opened':
      text = `Booking flow opened at ${activity.url}`;
      toast('The store would open its booking flow', activity.url);
      break;
    case 'waiver-opened':
      text = `Waiver flow opened at ${activity.url}`;
      toast('The store would open its waiver flow', activity.url);
      break;
    case 'sms-opened':
      text = `Messages app opened to ${activity.to}${activity.message === '' ? '' : `: “${activity.message}”`}`;
      toast(`The visitor's messages app would open to ${STORE_SMS_NUMBER}`, activity.message);
      break;
    case 'form-submitted':
      text = `${activity.form === 'contact' ? 'Contact' : 'Newsletter'} form ${activity.ok ? 'accepted' : 'refused (the store wants a valid email and, for contact, a message)'}`;
      break;
    case 'analytics':
      text = activity.tracked ? `Analytics event "${activity.event}" recorded` : `Analytics event "${activity.event}" not recorded: no consent`;
      break;
  }
  activityLog?.add(text);
}
