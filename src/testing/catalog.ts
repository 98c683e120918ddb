// A catalogue of the test's own products for the mock host (`data.products`), with a cart
// over it. The preview's mock store (src/preview/adapters.ts) serves its fixed sample
// catalogue; a publisher's test often needs other products (one sold-out item, a long
// name, a price format), so catalog.list and the three cart actions are answered here
// with the same rules as the preview's store: every word of `search` must appear in the
// name, ignoring case; pages of `limit`; `lastPage` at least 1; sold-out and unknown
// products and lines beyond the quantity bound are refused with `ok: false`, never thrown.
// Every other adapter (theme, booking, forms, SMS, waivers, analytics) stays the preview's.
import { CART_QUANTITY_MAX, CART_QUANTITY_MIN, CATALOG_LIMITS, CATALOG_PAGE_MIN } from '../validator/limits.js';
import type { CartDetails, CartResult, CatalogPage, CatalogProduct, CatalogQuery } from '../bridge/adapters.js';
import { formatCents, type CartLine, type CartSnapshot, type StoreActivity } from '../preview/adapters.js';

export interface CustomCatalog {
  list(query: CatalogQuery): Promise<CatalogPage>;
  add(details: CartDetails): Promise<CartResult>;
  remove(details: CartDetails): Promise<CartResult>;
  update(details: CartDetails): Promise<CartResult>;
  cart(): CartSnapshot;
  clearCart(): void;
}

interface Entry {
  readonly product: CatalogProduct;
  /** The price in cents, read from the product's formatted `price`, for cart totals. */
  readonly cents: number;
  readonly folded: string;
}

/**
 * The amount in a formatted price, in cents: the first number, with `,` as a thousands
 * separator and up to two decimals after `.` ("$1,234.50" -> 123450). Null when there is
 * none; the caller says which product it was.
 */
export function priceCents(price: string): number | null {
  const match = /(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?/.exec(price);
  if (match === null) return null;
  const whole = Number(match[1]!.replace(/,/g, ''));
  const fraction = match[2] === undefined ? 0 : Number(match[2].padEnd(2, '0'));
  const cents = whole * 100 + fraction;
  return Number.isSafeInteger(cents) ? cents : null;
}

/** `products` must already be checked (options.ts: checkProducts). */
export function createCustomCatalog(products: readonly CatalogProduct[], notify: (activity: StoreActivity) => void): CustomCatalog {
  const entries: Entry[] = products.map((product) => ({ product: Object.freeze({ ...product }), cents: priceCents(product.price)!, folded: product.name.toLowerCase() }));
  const byId = new Map(entries.map((e) => [e.product.id, e]));
  // Cart lines in the order they were first added: product id -> quantity.
  const lines = new Map<number, number>();

  function cart(): CartSnapshot {
    let itemCount = 0;
    let cents = 0;
    const out: CartLine[] = [];
    for (const [id, quantity] of lines) {
      const entry = byId.get(id)!;
      itemCount += quantity;
      cents += entry.cents * quantity;
      out.push({ product: entry.product, quantity, total: formatCents(entry.cents * quantity) });
    }
    return { lines: out, itemCount, total: formatCents(cents) };
  }

  function answer(action: 'add' | 'remove' | 'update', ok: boolean): CartResult {
    const snapshot = cart();
    notify({ kind: 'cart', action, ok });
    return { ok, itemCount: snapshot.itemCount, total: snapshot.total };
  }

  function quantityOf(details: CartDetails): number {
    const quantity = details.quantity ?? CART_QUANTITY_MIN;
    if (!Number.isInteger(quantity) || quantity < CART_QUANTITY_MIN || quantity > CART_QUANTITY_MAX) throw new Error('quantity out of range');
    return quantity;
  }

  return {
    async list(query) {
      const limit = query.limit ?? CATALOG_LIMITS[0];
      const page = query.page ?? CATALOG_PAGE_MIN;
      const words = (query.search ?? '').toLowerCase().split(/\s+/).filter((w) => w !== '');
      const includeOutOfStock = query.includeOutOfStock ?? true;
      const matches = entries.filter((e) => (includeOutOfStock || e.product.inStock) && words.every((w) => e.folded.includes(w)));
      const lastPage = Math.max(1, Math.ceil(matches.length / limit));
      return { products: matches.slice((page - 1) * limit, page * limit).map((e) => ({ ...e.product })), total: matches.length, page, lastPage };
    },
    async add(details) {
      const quantity = quantityOf(details);
      const entry = byId.get(details.productId);
      const next = (lines.get(details.productId) ?? 0) + quantity;
      if (entry === undefined || !entry.product.inStock || next > CART_QUANTITY_MAX) return answer('add', false);
      lines.set(details.productId, next);
      return answer('add', true);
    },
    async remove(details) {
      const quantity = quantityOf(details);
      const current = lines.get(details.productId);
      if (current === undefined) return answer('remove', false);
      if (current - quantity <= 0) lines.delete(details.productId);
      else lines.set(details.productId, current - quantity);
      return answer('remove', true);
    },
    async update(details) {
      const quantity = quantityOf(details);
      if (!lines.has(details.productId)) return answer('update', false);
      lines.set(details.productId, quantity);
      return answer('update', true);
    },
    cart,
    clearCart() {
      lines.clear();
    },
  };
}
