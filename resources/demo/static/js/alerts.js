// The alert centre: loads alerts from the API, filters them with toggle buttons, marks read and dismisses.
(function () {
  "use strict";
  const list = document.querySelector('[data-testid="alert-list"]');
  const empty = document.querySelector('[data-testid="alerts-empty"]');
  const summary = document.querySelector('[data-testid="unread-summary"]');
  const errorBox = document.querySelector('[data-testid="alerts-error"]');
  const markAll = document.querySelector('[data-testid="mark-all-read"]');
  const filters = Array.from(document.querySelectorAll("[data-filter]"));
  const ICONS = {
    security: '<path d="M12 3l8 4v5c0 4.5-3.4 8.3-8 9-4.6-.7-8-4.5-8-9V7z"/><path d="M12 8v5M12 16h.01"/>',
    credit: '<path d="M4 19V5M4 19h16"/><path d="M8 15l4-4 3 3 5-6"/>',
  };
  let alerts = [];
  let now = Date.now();
  let filter = "all";

  function ago(iso) {
    const minutes = Math.max(0, Math.round((now - Date.parse(iso)) / 60000));
    if (minutes < 1) return "Just now";
    if (minutes < 60) return `${minutes} minute${minutes === 1 ? "" : "s"} ago`;
    const hours = Math.round(minutes / 60);
    if (hours < 24) return `${hours} hour${hours === 1 ? "" : "s"} ago`;
    const days = Math.round(hours / 24);
    return `${days} day${days === 1 ? "" : "s"} ago`;
  }

  function matches(alert) {
    if (filter === "unread") return !alert.read;
    if (filter === "security" || filter === "credit") return alert.category === filter;
    return true;
  }

  function item(alert) {
    const li = document.createElement("li");
    li.className = "alert-item" + (alert.read ? "" : " is-unread");
    li.setAttribute("data-testid", "alert-item");
    li.dataset.alertId = alert.id;
    li.dataset.category = alert.category;
    li.dataset.read = String(alert.read);
    const titleId = `alert-${alert.id}-title`;
    const esc = lumen.escapeHtml;
    li.innerHTML = `
      <span class="alert-icon ${alert.category}" aria-hidden="true"><svg viewBox="0 0 24 24">${ICONS[alert.category]}</svg></span>
      <div>
        <h2 id="${titleId}">${esc(alert.title)}</h2>
        <p class="alert-body">${esc(alert.body)}</p>
        <p class="alert-meta">
          ${alert.read ? "" : '<span class="unread-dot" aria-hidden="true"></span><span class="visually-hidden">Unread.</span>'}
          <span class="pill pill--${alert.category}">${alert.category === "security" ? "Security" : "Credit"}</span>
          <time datetime="${esc(alert.createdAt)}">${ago(alert.createdAt)}</time>
        </p>
      </div>
      <div class="alert-actions">
        ${alert.read ? "" : `<button type="button" class="btn btn-ghost btn-sm" data-action="read" data-testid="mark-read" aria-describedby="${titleId}">Mark as read</button>`}
        <button type="button" class="btn btn-danger-ghost btn-sm" data-action="dismiss" data-testid="dismiss" aria-describedby="${titleId}">Dismiss</button>
      </div>`;
    return li;
  }

  function render() {
    const shown = alerts.filter(matches);
    list.replaceChildren(...shown.map(item));
    list.setAttribute("aria-busy", "false");
    empty.hidden = shown.length > 0;
    const unread = alerts.filter((a) => !a.read).length;
    summary.textContent = unread ? `You have ${unread} unread of ${alerts.length}.` : `You're all caught up — ${alerts.length} total.`;
    markAll.disabled = unread === 0;
    for (const button of filters) button.setAttribute("aria-pressed", String(button.dataset.filter === filter));
  }

  function accept(result) {
    if (!result.ok) {
      errorBox.textContent = result.data.error || "Something went wrong. Reload the page and try again.";
      errorBox.hidden = false;
      return;
    }
    errorBox.hidden = true;
    alerts = result.data.alerts;
    if (result.data.now) now = result.data.now;
    render();
  }

  list.addEventListener("click", async (event) => {
    const button = event.target.closest("button[data-action]");
    if (!button) return;
    const id = button.closest("[data-alert-id]").dataset.alertId;
    button.disabled = true;
    accept(await lumen.api("POST", `/api/alerts/${encodeURIComponent(id)}/${button.dataset.action}`));
  });

  markAll.addEventListener("click", async () => accept(await lumen.api("POST", "/api/alerts/read-all")));

  for (const button of filters) {
    button.addEventListener("click", () => {
      filter = button.dataset.filter;
      render();
    });
  }

  lumen.api("GET", "/api/alerts").then(accept);
})();
