// The products grid hydrates like a client-rendered shop: placeholders under a scrim, then fresh cards fade in.
(function () {
  "use strict";
  const grid = document.querySelector('[data-testid="product-grid"]');
  const scrim = document.querySelector('[data-testid="loading-scrim"]');
  const errorBox = document.querySelector('[data-testid="products-error"]');
  const ICONS = {
    phone: '<rect x="7" y="2.5" width="10" height="19" rx="2.5"/><path d="M11 18.5h2"/>',
    laptop: '<rect x="4" y="5" width="16" height="11" rx="1.5"/><path d="M2 19h20"/>',
    tablet: '<rect x="4.5" y="2.5" width="15" height="19" rx="2"/><path d="M11 18.5h2"/>',
    audio: '<path d="M4 14v-2a8 8 0 0 1 16 0v2"/><rect x="3" y="14" width="4" height="6" rx="1.5"/><rect x="17" y="14" width="4" height="6" rx="1.5"/>',
    watch: '<rect x="6.5" y="6.5" width="11" height="11" rx="3"/><path d="M9 6.5l1-4h4l1 4M9 17.5l1 4h4l1-4M12 9.5V12l1.5 1.5"/>',
    ereader: '<rect x="5" y="2.5" width="14" height="19" rx="2"/><path d="M8.5 7h7M8.5 10.5h7M8.5 14h4"/>',
    speaker: '<rect x="6" y="2.5" width="12" height="19" rx="3"/><circle cx="12" cy="14" r="3.5"/><path d="M12 6.5h.01"/>',
    console: '<rect x="2.5" y="7" width="19" height="10" rx="5"/><path d="M7 10.5v3M5.5 12h3M15.5 11h.01M17.5 13h.01"/>',
    accessory: '<path d="M12 2.5c-3.6 0-6 2.7-6 6.5v6a6 6 0 0 0 12 0V9c0-3.8-2.4-6.5-6-6.5z"/><path d="M12 2.5v6"/>',
  };
  const params = new URLSearchParams(window.location.search);
  const query = new URLSearchParams();
  for (const key of ["seed", "delay"]) if (params.has(key)) query.set(key, params.get(key));

  function price(value) {
    return value.toLocaleString("en-US", { style: "currency", currency: "USD" });
  }

  function buildCard(product, entering) {
    const esc = lumen.escapeHtml;
    const card = document.createElement("article");
    card.className = "product-card " + (entering ? "is-entering" : "is-updated");
    card.setAttribute("data-testid", "product-card");
    card.setAttribute("aria-labelledby", `product-${product.id}-name`);
    card.dataset.productId = product.id;
    card.innerHTML = `
      <div class="product-media media-${esc(product.category)}" aria-hidden="true"><svg viewBox="0 0 24 24">${ICONS[product.category] || ICONS.accessory}</svg></div>
      <h3 id="product-${esc(product.id)}-name">${esc(product.name)}</h3>
      <div class="product-meta"><span class="price" data-testid="product-price">${price(product.price)}</span><span class="rating" aria-label="Rated ${product.rating} out of 5">★ ${product.rating.toFixed(1)}</span></div>
      <p class="product-blurb">${esc(product.blurb)}</p>
      ${product.inCart ? `<p class="in-cart" data-testid="in-cart">In cart: ${product.inCart}</p>` : ""}
      <button type="button" class="btn btn-primary" data-testid="add-to-cart">Add to Cart</button>`;
    card.querySelector("button").addEventListener("click", (event) => addToCart(product, event.currentTarget));
    return card;
  }

  async function addToCart(product, button) {
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
    let result;
    try {
      result = await lumen.api("POST", "/api/cart/add", { productId: product.id });
    } catch (_) {
      result = { ok: false, data: { error: "You appear to be offline." } };
    }
    if (!result.ok) {
      button.disabled = false;
      button.removeAttribute("aria-busy");
      lumen.toast(`Couldn't add ${product.name} to your cart. ${result.data.error || ""}`.trim(), "error");
      return;
    }
    const { cart, product: updated } = result.data;
    lumen.setCartCount(cart.count);
    lumen.toast(`${product.name} added to cart`);
    // A fresh element replaces the card, as a framework re-render would; old handles to it detach.
    const fresh = buildCard({ ...product, inCart: updated.inCart }, false);
    const current = grid.querySelector(`[data-product-id="${CSS.escape(product.id)}"]`);
    if (current) current.replaceWith(fresh);
  }

  async function hydrate() {
    const result = await lumen.api("GET", "/api/products" + (query.toString() ? `?${query}` : ""));
    if (!result.ok) throw new Error(result.data.error || "The product list could not be loaded.");
    const cards = result.data.products.map((product) => buildCard(product, true));
    grid.replaceChildren(...cards);
    grid.dataset.state = "hydrated";
    grid.setAttribute("aria-busy", "false");
    await Promise.all(cards.flatMap((card) => card.getAnimations().map((animation) => animation.finished)));
    scrim.remove();
    grid.dataset.state = "ready";
  }

  hydrate().catch((error) => {
    scrim.remove();
    errorBox.textContent = `${error.message} Reload the page to try again.`;
    errorBox.hidden = false;
  });
})();
