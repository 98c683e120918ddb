// {{name}}: reads its settings and the store's theme, lists products and adds them to
// the cart through window.PLATFORM, the only way out of the sandboxed frame.
//
// Every bridge call returns a promise that can reject with an Error whose `code` is one
// of the contract's error codes. Visitors only ever see the friendly text below, never a
// raw message. The types come from contract-snapshot/platform.d.ts (see tsconfig.json),
// so the editor and `npm run build` check every call.

const platform = window.PLATFORM;

/** What a visitor reads for each error code. */
const MESSAGES = {
  CAPABILITY_NOT_GRANTED: 'This feature is not switched on for this store yet.',
  ADAPTER_UNAVAILABLE: 'This store does not offer that right now.',
  INITIALIZATION_TIMEOUT: 'The store took too long to respond. Please reload the page.',
  REQUEST_TIMEOUT: 'The store took too long to respond. Please try again.',
  TOO_MANY_REQUESTS: 'A lot is happening at once. Please try again in a moment.',
  REQUEST_FAILED: 'The store could not do that just now. Please try again.',
  // The last four mean a call was malformed: a bug to fix here, not the visitor's doing.
  INVALID_REQUEST: 'Something went wrong. Please try again later.',
  INVALID_PAYLOAD: 'Something went wrong. Please try again later.',
  PAYLOAD_TOO_LARGE: 'Something went wrong. Please try again later.',
  PAYLOAD_TOO_COMPLEX: 'Something went wrong. Please try again later.',
};

type ErrorCode = keyof typeof MESSAGES;
type Product = Awaited<ReturnType<typeof platform.catalog.products>>['products'][number];
type Theme = Awaited<ReturnType<typeof platform.theme.read>>;
type Settings = Readonly<Record<string, unknown>>;

/** Codes worth a "Try again" button: the next attempt may well succeed. */
const RETRYABLE: readonly ErrorCode[] = ['REQUEST_TIMEOUT', 'TOO_MANY_REQUESTS', 'REQUEST_FAILED'];

/** The element with `id`; index.html and this file must agree on the ids. */
function element(id: string): HTMLElement {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`index.html has no element with id "${id}"`);
  return found;
}

const heading = element('heading');
const cart = element('cart');
const notice = element('notice');
const retry = element('retry');
const list = element('products');

/** The contract's code of a rejected call; anything else (a bug in this file) counts as REQUEST_FAILED. */
function errorCode(error: unknown): ErrorCode {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' && error.code in MESSAGES) {
    return error.code as ErrorCode;
  }
  return 'REQUEST_FAILED';
}

/**
 * Shows a friendly message for a failed call; the code (never the raw message) goes to the
 * console for the developer. `again` is what "Try again" does, or null for no button.
 */
function showError(error: unknown, again: (() => void) | null): void {
  const code = errorCode(error);
  console.warn(`{{namespace}}: a bridge call failed with ${code}`);
  notice.textContent = MESSAGES[code];
  retry.hidden = again === null || !RETRYABLE.includes(code);
  retry.onclick = again;
}

/** A text setting, or `fallback` when it is missing or blank. */
function textSetting(settings: Settings, key: string, fallback: string): string {
  const value = settings[key];
  return typeof value === 'string' && value.trim() !== '' ? value : fallback;
}

/** A number setting, or `fallback` when it is missing. */
function numberSetting(settings: Settings, key: string, fallback: number): number {
  const value = settings[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

/** Uses the store's colours and fonts: each theme value is a CSS value. */
function applyTheme(theme: Theme): void {
  const style = document.documentElement.style;
  style.setProperty('--primary', theme.primary);
  style.setProperty('--background', theme.background);
  style.setProperty('--surface', theme.surface);
  style.setProperty('--text', theme.text);
  style.setProperty('--muted', theme.mutedText);
  style.setProperty('--button', theme.button);
  style.setProperty('--radius', theme.buttonRadius);
  style.setProperty('--heading-font', theme.headingFont);
  style.setProperty('--body-font', theme.bodyFont);
}

/**
 * One product card. The add button asks for `cart.manage` at click time: the store can
 * grant or withdraw a capability while the page is open.
 */
function productCard(product: Product): HTMLLIElement {
  const item = document.createElement('li');
  item.className = 'card';
  const picture = document.createElement('div');
  picture.className = 'card__picture';
  if (product.image !== '') {
    const image = document.createElement('img');
    image.src = product.image;
    image.alt = '';
    image.loading = 'lazy';
    picture.append(image);
  }
  const name = document.createElement('h2');
  name.className = 'card__name';
  name.textContent = product.name;
  const price = document.createElement('p');
  price.className = 'card__price';
  price.textContent = product.inStock ? product.price : `${product.price} · sold out`;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'card__add';
  button.textContent = product.inStock ? 'Add to cart' : 'Sold out';
  button.disabled = !product.inStock;
  button.addEventListener('click', () => void addToCart(product, button));
  item.append(picture, name, price, button);
  return item;
}

async function addToCart(product: Product, button: HTMLButtonElement): Promise<void> {
  if (!platform.capabilities().includes('cart.manage')) {
    notice.textContent = MESSAGES.CAPABILITY_NOT_GRANTED;
    retry.hidden = true;
    return;
  }
  button.disabled = true;
  try {
    const result = await platform.cart.manage('add', { productId: product.id, quantity: 1 });
    if (result.ok) {
      notice.textContent = `Added ${product.name} to your cart.`;
      cart.textContent = `Cart: ${result.itemCount} ${result.itemCount === 1 ? 'item' : 'items'} · ${result.total}`;
      cart.hidden = false;
    } else {
      notice.textContent = `${product.name} could not be added. Please try again.`;
    }
    retry.hidden = true;
  } catch (error) {
    showError(error, null);
  } finally {
    button.disabled = false;
  }
}

/** Lists the products the settings ask for. */
async function loadProducts(settings: Settings): Promise<void> {
  const count = numberSetting(settings, 'product_count', 4);
  list.setAttribute('aria-busy', 'true');
  notice.textContent = 'Loading products…';
  retry.hidden = true;
  try {
    const page = await platform.catalog.products({ limit: 12, includeOutOfStock: settings['show_out_of_stock'] === true });
    const products = page.products.slice(0, count);
    list.replaceChildren(...products.map(productCard));
    notice.textContent = products.length === 0 ? 'No products to show yet.' : '';
  } catch (error) {
    list.replaceChildren();
    showError(error, () => void loadProducts(settings));
  } finally {
    list.setAttribute('aria-busy', 'false');
  }
}

async function start(): Promise<void> {
  const { capabilities, settings } = await platform.ready;
  heading.textContent = textSetting(settings, 'heading', heading.textContent ?? '');
  list.dataset['layout'] = textSetting(settings, 'layout', 'grid');
  document.documentElement.style.setProperty('--accent', textSetting(settings, 'accent', '#2563eb'));
  if (capabilities.includes('site.theme.read')) {
    try {
      applyTheme(await platform.theme.read());
    } catch {
      // The built-in colours stay: nothing the visitor needs to know.
    }
  }
  await loadProducts(settings);
}

start().catch((error: unknown) => showError(error, null));
