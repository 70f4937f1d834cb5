// Shared helpers for every page: JSON calls, toasts, the cart badge and buttons that navigate.
(function () {
  "use strict";

  async function api(method, url, body) {
    const init = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const response = await fetch(url, init);
    let data = {};
    try {
      data = await response.json();
    } catch (_) {
      data = { error: "The server sent an unexpected response. Try again." };
    }
    return { ok: response.ok, status: response.status, data };
  }

  function toast(message, kind) {
    const region = document.querySelector('[data-testid="toast-region"]');
    const item = document.createElement("div");
    item.className = "toast" + (kind === "error" ? " toast--error" : "");
    item.setAttribute("role", kind === "error" ? "alert" : "status");
    item.setAttribute("data-testid", "toast");
    item.textContent = message;
    region.appendChild(item);
    setTimeout(() => item.classList.add("is-leaving"), 2750);
    setTimeout(() => item.remove(), 3000);
    return item;
  }

  function setCartCount(count) {
    const badge = document.querySelector('[data-testid="cart-count"]');
    if (!badge) return;
    badge.textContent = String(count);
    badge.classList.remove("bump");
    void badge.offsetWidth; // restart the bump animation
    badge.classList.add("bump");
  }

  function escapeHtml(text) {
    return String(text).replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]);
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-href]");
    if (button) window.location.href = button.dataset.href;
  });

  window.lumen = { api, toast, setCartCount, escapeHtml };
})();
