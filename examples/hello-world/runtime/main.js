// Hello World Product Strip: reads its settings and the store theme, lists products,
// and adds them to the cart. Every bridge call can reject with an Error whose `code`
// is a contract error code; visitors only ever see friendly text.
import { cartMessage, friendlyError } from './lib/format.js';

const PLATFORM = window.PLATFORM;
const list = document.getElementById('products');
const status = document.getElementById('status');

function applyTheme(theme) {
  const root = document.documentElement.style;
  root.setProperty('--primary', theme.primary);
  root.setProperty('--background', theme.background);
  root.setProperty('--surface', theme.surface);
  root.setProperty('--text', theme.text);
  root.setProperty('--muted', theme.mutedText);
  root.setProperty('--button', theme.button);
  root.setProperty('--radius', theme.buttonRadius);
  root.setProperty('--heading-font', theme.headingFont);
  root.setProperty('--body-font', theme.bodyFont);
}

function renderProduct(product, canBuy) {
  const item = document.createElement('li');
  item.className = 'card';
  const image = document.createElement('img');
  image.src = product.image;
  image.alt = '';
  image.loading = 'lazy';
  const name = document.createElement('h3');
  name.textContent = product.name;
  const price = document.createElement('p');
  price.className = 'card__price';
  price.textContent = product.inStock ? product.price : `${product.price} · sold out`;
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = 'Add to cart';
  button.disabled = !canBuy || !product.inStock;
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      const result = await PLATFORM.cart.manage('add', { productId: product.id, quantity: 1 });
      status.textContent = cartMessage(result);
      PLATFORM.analytics.track('add_to_cart', { label: product.name }).catch(() => {});
    } catch (error) {
      status.textContent = friendlyError(error);
    } finally {
      button.disabled = false;
    }
  });
  item.append(image, name, price, button);
  return item;
}

async function start() {
  const { capabilities, settings } = await PLATFORM.ready;
  document.getElementById('heading').textContent = settings.heading;
  document.documentElement.style.setProperty('--accent', settings.accent);
  list.dataset.layout = settings.layout;

  if (capabilities.includes('site.theme.read')) {
    try {
      applyTheme(await PLATFORM.theme.read());
    } catch {
      // The store's own colours stay in place; nothing to tell the visitor.
    }
  }

  try {
    const limit = settings.product_count > 12 ? 24 : 12;
    const page = await PLATFORM.catalog.products({ limit, includeOutOfStock: settings.show_out_of_stock });
    const products = page.products.slice(0, settings.product_count);
    list.replaceChildren(...products.map((p) => renderProduct(p, capabilities.includes('cart.manage'))));
    status.textContent = products.length === 0 ? 'No products to show yet.' : '';
  } catch (error) {
    status.textContent = friendlyError(error);
  }
}

start().catch((error) => {
  status.textContent = friendlyError(error);
});
