// What told the tester to wait while they recorded: a scrim over the page, a spinner, "Loading products…". Such a
// thing is often gone by the time the tester clicks, so the click's own preflight sees nothing in its way, and an
// exported test without a wait for it fails on the next, slower run. This watch, installed in every document of a
// recording tab, notes each one it sees (every 150 ms) with when it was first and last seen; the recorder reads the
// ones gone before each step. Read-only: it never changes the page.
(() => {
  if (window.__studioLoadingSeen) return;
  const seen = new Map();
  const WORDS = /\b(loading|please wait|spinner|scrim|overlay|busy|skeleton)\b/i;
  const TEXT = /^\s*(loading|please wait|fetching|one moment)\b/i;

  const visible = (el) => {
    const box = el.getBoundingClientRect();
    if (box.width < 4 || box.height < 4) return false;
    const style = getComputedStyle(el);
    return style.visibility !== 'hidden' && style.display !== 'none' && Number(style.opacity) > 0.05;
  };
  const ownText = (el) => (el.innerText || el.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 80);
  const covers = (el) => {
    const box = el.getBoundingClientRect();
    const position = getComputedStyle(el).position;
    return (position === 'fixed' || position === 'absolute') &&
      box.width * box.height >= 0.25 * innerWidth * innerHeight;
  };
  const named = (el) => {
    const testId = el.getAttribute('data-testid');
    const marks = `${testId || ''} ${el.id || ''} ${typeof el.className === 'string' ? el.className : ''}`;
    const role = el.getAttribute('role');
    if (el.getAttribute('aria-busy') === 'true' || role === 'progressbar' || WORDS.test(marks)) return true;
    // A short text of its own ("Loading products…"): read only on small elements, so a scan stays cheap.
    const text = el.childElementCount <= 1 ? (el.textContent || '') : '';
    return text.length < 60 && TEXT.test(text);
  };
  const note = (el, now) => {
    const entry = {
      testId: el.getAttribute('data-testid'), id: el.id || null, role: el.getAttribute('role'),
      tag: el.tagName.toLowerCase(), text: ownText(el), covers: covers(el),
    };
    const key = entry.testId || (entry.id && `#${entry.id}`) || `${entry.tag}:${entry.text}`;
    const known = seen.get(key);
    if (known) { known.last = now; known.element = new WeakRef(el); }
    else seen.set(key, { ...entry, first: now, last: now, element: new WeakRef(el) });
  };
  const scan = () => {
    if (!document.body) return;
    const now = Date.now();
    const noted = [];
    const take = (el) => {
      // One wait per indicator: the "Loading products…" text inside a scrim is the scrim's.
      if (noted.some((outer) => outer.contains(el))) return;
      noted.push(el);
      note(el, now);
    };
    const found = document.querySelectorAll(
      '[aria-busy="true"], [role="progressbar"], [data-testid], [id], [class], p, span, div');
    let looked = 0;
    for (const el of found) {
      if (++looked > 4000) break; // a huge page: the usual suspects come early enough
      if (named(el) && visible(el)) take(el);
    }
    // Whatever covers the middle of the viewport and is not the page's own layout (fixed or absolute, large).
    let hit = document.elementFromPoint(innerWidth / 2, innerHeight / 2);
    while (hit && hit !== document.body && hit !== document.documentElement) {
      if (covers(hit) && visible(hit)) { take(hit); break; }
      hit = hit.parentElement;
    }
  };
  // Gone: no longer in the page, or no longer shown. A grid that was only busy (aria-busy) and still shows is not
  // gone, and an exported test must not wait for it to disappear.
  const gone = (entry) => {
    const el = entry.element.deref();
    return !el || !el.isConnected || !visible(el);
  };
  setInterval(scan, 150);
  document.addEventListener('DOMContentLoaded', scan);
  // The indicators seen since `sinceMs` (epoch ms) that are gone now, with how long each was seen.
  window.__studioLoadingSeen = (sinceMs) => {
    scan();
    const now = Date.now();
    return [...seen.values()]
      .filter((e) => e.last >= sinceMs && e.last < now - 100 && gone(e))
      .map(({ element, ...e }) => ({ ...e, seconds: Math.max(0.15, (e.last - e.first) / 1000) }));
  };
})();
