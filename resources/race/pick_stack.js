// The element inspector's reach beneath the pointer: every meaningful element at a point of the page, top first,
// through shadow roots and same-origin frames, and an element found again by its tree position (after a reload).
// Runs in the studio's isolated world on top of page_library.js (globalThis.__pfs); like it, it only reads the page.
(() => {
  if (globalThis.__pfsStack) return;
  const lib = globalThis.__pfs;
  const I = lib._internals;
  const DEPTH = 16; // shadow roots and frames nested deeper than this are not entered

  function parentOf(el) {
    if (el.parentElement) return el.parentElement;
    const root = el.getRootNode();
    if (root && root.host) return root.host;
    const view = el.ownerDocument.defaultView;
    return (view && view.frameElement) || null;
  }

  // As the library's own pick: the nearest control, else the nearest element worth a line in a snapshot.
  function nearestMeaningful(el) {
    for (let node = el; node && node.tagName !== 'HTML'; node = parentOf(node)) {
      if (I.INTERACTIVE.has(I.roleOf(node)) || node.isContentEditable) return node;
    }
    for (let node = el; node && node.tagName !== 'HTML'; node = parentOf(node)) {
      if (I.meaningful(node, I.roleOf(node))) return node;
    }
    return null;
  }

  // Every element painted at (x, y) of `root` (a document or a shadow root), topmost first; what a shadow root or a
  // same-origin frame holds comes before its host, as it is painted over it.
  function collect(root, x, y, out, seen, depth) {
    let hits;
    try { hits = root.elementsFromPoint(x, y); } catch (error) { return; }
    for (const el of hits) {
      if (seen.has(el) || !root.contains(el)) continue; // a shadow root also lists what lies outside it
      seen.add(el);
      if (depth < DEPTH && el.shadowRoot) collect(el.shadowRoot, x, y, out, seen, depth + 1);
      if (depth < DEPTH && el.tagName === 'IFRAME') {
        let doc = null;
        try { doc = el.contentDocument; } catch (error) { doc = null; }
        if (doc) {
          const box = el.getBoundingClientRect();
          collect(doc, x - box.left - el.clientLeft, y - box.top - el.clientTop, out, seen, depth + 1);
        }
      }
      out.push(el);
    }
  }

  function entry(el) {
    const ref = I.refOf(el);
    return { value: lib.info(ref).value, box: lib.rects([ref])[ref] };
  }

  globalThis.__pfsStack = {
    // The first entry is what the library's pick gives (what a plain click in pick mode inspects).
    at(x, y, limit) {
      const items = [];
      const taken = new Set();
      const top = lib.pick(x, y);
      if (top.status === 'ok') {
        const found = I.state.byRef.get(top.value.ref);
        const el = found && found.deref();
        if (el) { taken.add(el); items.push({ value: top.value, box: top.box }); }
      }
      const hits = [];
      collect(document, x, y, hits, new Set(), 0);
      for (const hit of hits) {
        if (items.length >= limit) break;
        const el = nearestMeaningful(hit);
        if (!el || taken.has(el) || el.tagName === 'BODY') continue;
        taken.add(el);
        items.push(entry(el));
      }
      return { status: 'ok', items, next: I.state.next };
    },
    // The element at a tree position as the library's domPath writes it ("1/3/s0/2": child indexes from <html>,
    // "s" entering a shadow root), or none.
    atPath(path) {
      let node = document.documentElement;
      for (const part of path ? path.split('/') : []) {
        if (!node) break;
        node = part[0] === 's' ? (node.shadowRoot ? node.shadowRoot.children[Number(part.slice(1))] : null)
          : node.children[Number(part)];
      }
      if (!node) return { status: 'none', next: I.state.next };
      const found = entry(node);
      return { status: 'ok', value: found.value, box: found.box, next: I.state.next };
    },
  };
})();
