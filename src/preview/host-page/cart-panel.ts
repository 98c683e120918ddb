// The Cart panel and the header's cart button: the mock store's cart, with a line per
// product to change its quantity, and the storefront's cart-updated event as a theme's
// header would follow it.
import type { CartUpdatedDetail } from '../../validator/internal.js';
import { byId, el, plural } from './dom.js';
import { page } from './page-state.js';

export function renderCart(): void {
  const snapshot = page.store.cart();
  byId('cart-count').textContent = String(snapshot.itemCount);
  byId('cart-total').textContent = snapshot.total;
  const box = byId('cart-lines');
  box.replaceChildren();
  if (snapshot.lines.length === 0) {
    box.append(el('p', 'empty-note', 'The cart is empty.'));
    return;
  }
  for (const line of snapshot.lines) {
    const row = el('div', 'cart-line');
    const image = el('img');
    image.src = line.product.image;
    image.alt = '';
    const name = el('div');
    name.append(el('div', undefined, line.product.name), el('div', 'field__help', `${line.product.price} each · ${line.total}`));
    const qty = el('div', 'cart-line__qty');
    const minus = el('button', 'button button--small', '−');
    minus.type = 'button';
    minus.setAttribute('aria-label', `One fewer ${line.product.name}`);
    minus.addEventListener('click', () => void page.store.adapters.cart.remove({ productId: line.product.id, quantity: 1 }).then(renderCart));
    const plus = el('button', 'button button--small', '+');
    plus.type = 'button';
    plus.setAttribute('aria-label', `One more ${line.product.name}`);
    plus.addEventListener('click', () => void page.store.adapters.cart.add({ productId: line.product.id, quantity: 1 }).then(renderCart));
    qty.append(minus, el('span', undefined, String(line.quantity)), plus);
    row.append(image, name, qty);
    box.append(row);
  }
  const total = el('div', 'cart-total');
  total.append(el('span', undefined, plural(snapshot.itemCount, 'item')), el('span', undefined, snapshot.total));
  box.append(total);
}

/** The storefront's cart-updated event (CART_UPDATED_EVENT), as a theme's header would follow it. */
export function onCartUpdated(event: Event): void {
  const detail = (event as CustomEvent<CartUpdatedDetail>).detail;
  renderCart();
  byId('cart-count').textContent = String(detail.itemCount);
  byId('cart-total').textContent = detail.total;
  // The count bumps; the class comes off when the animation ends (wireControls), so the
  // next update starts it again without forcing a layout to restart it.
  byId('cart-button').classList.add('is-bumped');
}
