// Preflight Studio's outcome probe: a bounded reading of what a user sees, taken before and after each recorded step
// (the engine compares two readings). It runs in the studio's isolated world and only reads the DOM:
//   collections  repeating children of one parent (list items, table rows, cards, board cells) with their texts;
//   holders      short texts (counters, status lines, scores, values shown on a page); those inside an item say so;
//   heading      the page's first visible level-1 heading.
// It reads through open shadow roots (web components) and same-origin frames, as a user sees the page.
// Installed once per document; the engine calls globalThis.__pfsOutcomes.read().
(() => {
  if (globalThis.__pfsOutcomes) return;

  const LIMITS = { nodes: 8000, collections: 24, items: 80, holders: 200, holdersInItems: 120, itemText: 200,
    holderText: 80, key: 80 };
  const LIST_TAGS = new Set(['UL', 'OL', 'TBODY']);
  const LIST_ROLES = new Set(['list', 'listbox', 'grid', 'treegrid', 'rowgroup', 'feed', 'tablist', 'menu', 'tree',
    'radiogroup']);
  const ITEM_TAGS = new Set(['LI', 'TR', 'ARTICLE']);
  const TAG_ROLES = { LI: 'listitem', TR: 'row', ARTICLE: 'article', UL: 'list', OL: 'list', TBODY: 'rowgroup',
    TABLE: 'table', MAIN: 'main', NAV: 'navigation', ASIDE: 'complementary', DIALOG: 'dialog', FORM: 'form',
    H1: 'heading', H2: 'heading', H3: 'heading', H4: 'heading', H5: 'heading', H6: 'heading', OUTPUT: 'status',
    BUTTON: 'button', OPTION: 'option' };
  const LANDMARKS = new Set(['main', 'navigation', 'complementary', 'dialog', 'form', 'region', 'search', 'banner',
    'contentinfo']);
  const INLINE = new Set(['B', 'STRONG', 'EM', 'I', 'SPAN', 'SMALL', 'CODE', 'ABBR', 'TIME', 'MARK', 'SUB', 'SUP', 'S',
    'U', 'BDI', 'DATA', 'VAR', 'KBD', 'Q', 'CITE', 'DFN', 'BR']);
  const SKIP = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT', 'HEAD', 'CANVAS', 'VIDEO', 'AUDIO',
    'SELECT', 'TEXTAREA', 'INPUT', 'svg', 'SVG', 'OBJECT', 'PICTURE', 'IMG']);
  // Classes that say what a thing is (todo-list, score-container), not how it looks right now or a build hash.
  const STATE_CLASS = /^(is-|has-)|^(active|selected|completed|complete|done|disabled|hidden|open|opened|closed|checked|current|focus|focused|hover|visible|expanded|collapsed|editing|new|merged|error|success|loading)$/i;
  const WORD = /^[A-Za-z][A-Za-z_-]{2,40}$/;
  const LIVE = '[role="status"], [role="alert"], [role="log"], [aria-live="polite"], [aria-live="assertive"], output';

  function clean(text, limit) {
    const value = (text || '').replace(/\s+/g, ' ').trim();
    return value.length > limit ? value.slice(0, limit) : value;
  }

  function roleOf(el) {
    const explicit = (el.getAttribute('role') || '').trim().split(/\s+/)[0];
    if (explicit) return explicit;
    if (el.tagName === 'SECTION' && (el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby'))) return 'region';
    if (el.tagName === 'A') return el.hasAttribute('href') ? 'link' : null;
    return TAG_ROLES[el.tagName] || null;
  }

  function hidden(el) {
    if (el.closest('[aria-hidden="true"]')) return true;
    if (el.checkVisibility) return !el.checkVisibility({ visibilityProperty: true });
    const style = getComputedStyle(el);
    return style.display === 'none' || style.visibility === 'hidden';
  }

  function domPath(el) {
    const parts = [];
    for (let node = el; node; ) {
      const parent = node.parentElement || (node.parentNode && node.parentNode.host ? node.parentNode : null);
      if (!parent) break;
      if (parent.host) { parts.push('s' + [...parent.children].indexOf(node)); node = parent.host; continue; }
      parts.push([...parent.children].indexOf(node));
      node = parent;
    }
    // An element of a same-origin frame: the frame's path, then 'f', then its own (never a path of the top document).
    const frame = el.ownerDocument.defaultView && el.ownerDocument.defaultView.frameElement;
    return (frame ? domPath(frame) + '/f/' : '') + parts.reverse().join('/');
  }

  // The parent a user sees: across a shadow root to its host.
  function parentOf(el) {
    return el.parentElement || (el.parentNode && el.parentNode.host) || null;
  }

  // What is rendered inside: an open shadow root's children and the light ones, a same-origin frame's body.
  function childrenOf(el) {
    if (el.tagName === 'IFRAME') {
      try {
        const body = el.contentDocument && el.contentDocument.body;
        return body ? [body] : [];
      } catch (error) { return []; } // another origin's frame is not ours to read
    }
    return el.shadowRoot ? [...el.shadowRoot.children, ...el.children] : [...el.children];
  }

  // Elements inside `el`, its shadow roots included, in order (bounded).
  function descendants(el, limit = 400) {
    const found = [];
    const walk = (node) => {
      for (const kid of childrenOf(node)) {
        if (found.length >= limit || kid.tagName === 'IFRAME') continue;
        found.push(kid);
        walk(kid);
      }
    };
    walk(el);
    return found;
  }

  // Its text, the text of its shadow roots included (a web component's item keeps its words there).
  function textOf(el) {
    if (!shadowHosts || (!el.shadowRoot && !hasShadow(el))) return el.textContent || '';
    let text = '';
    const walk = (node) => {
      if (node.nodeType === 3) { text += node.data; return; }
      if (node.nodeType !== 1 && node.nodeType !== 11) return;
      if (node.tagName === 'SCRIPT' || node.tagName === 'STYLE') return;
      if (node.shadowRoot) node.shadowRoot.childNodes.forEach(walk);
      node.childNodes.forEach(walk);
    };
    walk(el);
    return text;
  }

  let shadowHosts = false; // whether the document hosts shadow roots (read() looks): without any, text is read fast
  function hasShadow(el) {
    for (const node of el.querySelectorAll('*')) if (node.shadowRoot) return true;
    return false;
  }

  function semanticClasses(el) {
    return [...el.classList].filter((name) => WORD.test(name) && !STATE_CLASS.test(name));
  }

  function dataWords(el) {
    const found = {};
    for (const attr of el.attributes) {
      if (attr.name.startsWith('data-') && attr.name !== 'data-testid' && WORD.test(attr.value)) found[attr.name] = attr.value;
      if (Object.keys(found).length >= 3) break;
    }
    return found;
  }

  // How locators can name a node: the engine builds and checks them with Playwright.
  function facts(el) {
    return {
      path: domPath(el), tag: el.tagName.toLowerCase(), role: roleOf(el), label: clean(el.getAttribute('aria-label'), 80) || null,
      testId: el.getAttribute('data-testid'), id: el.id || null, classes: semanticClasses(el), data: dataWords(el),
    };
  }

  function ancestry(el, levels) {
    const chain = [];
    for (let node = parentOf(el); node && node.tagName !== 'BODY' && chain.length < levels; node = parentOf(node)) {
      const item = facts(node);
      item.landmark = LANDMARKS.has(item.role || '');
      chain.push(item);
    }
    return chain;
  }

  function keyText(item) {
    const inside = descendants(item);
    const heading = inside.find((node) => /^H[1-6]$/.test(node.tagName) || node.getAttribute('role') === 'heading');
    if (heading && clean(textOf(heading), LIMITS.key)) return clean(textOf(heading), LIMITS.key);
    for (const node of inside) {
      if (childrenOf(node).length === 0 && !SKIP.has(node.tagName) && clean(node.textContent, LIMITS.key)) {
        return clean(node.textContent, LIMITS.key);
      }
    }
    return clean(textOf(item), LIMITS.key);
  }

  // The tag most children share, when they make a collection: list semantics, or three or more alike.
  function itemTagOf(el, kids) {
    if (LIST_TAGS.has(el.tagName) || LIST_ROLES.has(roleOf(el) || '')) {
      const tags = kids.map((kid) => kid.tagName);
      const best = tags.sort((a, b) => tags.filter((t) => t === b).length - tags.filter((t) => t === a).length)[0];
      return best || (el.tagName === 'TBODY' ? 'TR' : 'LI');
    }
    if (kids.length < 2) return null;
    const counts = {};
    for (const kid of kids) counts[kid.tagName] = (counts[kid.tagName] || 0) + 1;
    const [tag, count] = Object.entries(counts).sort((a, b) => b[1] - a[1])[0];
    const enough = ITEM_TAGS.has(tag) ? 2 : 3;
    return count >= enough && count * 3 >= kids.length * 2 ? tag : null;
  }

  function partsOf(kids) {
    const seen = {};
    let classed = 0;
    for (const kid of kids) {
      const names = semanticClasses(kid);
      if (names.length) classed += 1;
      for (const name of names) seen[name] = (seen[name] || 0) + 1;
    }
    return classed * 2 >= kids.length && !Object.values(seen).some((n) => n >= 2);
  }

  function collectionOf(el, kids, itemTag) {
    const all = [...el.children].filter((kid) => kid.tagName === itemTag);
    const shown = all.filter((kid) => !hidden(kid));
    const items = shown.slice(0, LIMITS.items).map((kid) => ({
      text: clean(textOf(kid), LIMITS.itemText), key: keyText(kid), path: domPath(kid),
    }));
    if (items.length && items.every((item) => !item.text) && items.length < 4) return null;
    const common = all.length ? all.map(semanticClasses).reduce((a, b) => a.filter((name) => b.includes(name))) : [];
    // Without list semantics, children that each carry a class of their own and share none are a widget's parts
    // (its slides, controls and progress bar: a <div> each), not items.
    const listed = LIST_TAGS.has(el.tagName) || LIST_ROLES.has(roleOf(el) || '');
    if (!listed && !common.length && partsOf(all)) return null;
    const sample = all[0];
    return Object.assign(facts(el), {
      itemTag: itemTag.toLowerCase(), itemRole: sample ? roleOf(sample) : (TAG_ROLES[itemTag] || null),
      itemClasses: common, total: all.length, items, ancestry: ancestry(el, 4),
    });
  }

  // An element holding one short text: only inline children, and words of its own or a single child ("<strong>2
  // </strong> items left"); a box of two labelled values ("Score 0") is read as its two values instead.
  function holderOf(el) {
    if (SKIP.has(el.tagName) || el.tagName === 'BODY') return null;
    for (const kid of el.children) {
      if (!INLINE.has(kid.tagName) || [...kid.children].some((inner) => !INLINE.has(inner.tagName))) return null;
    }
    const ownWords = [...el.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent.trim());
    if (el.children.length > 1 && !ownWords) return null;
    const text = clean(el.textContent, LIMITS.holderText + 1);
    if (!text || text.length > LIMITS.holderText) return null;
    return Object.assign(facts(el), { text, live: !!el.closest(LIVE), ancestry: ancestry(el, 2) });
  }

  function read() {
    // timeOrigin is the document's own: a reload or a new page changes it, a hash route does not.
    const state = { url: location.href, title: document.title, document: String(performance.timeOrigin),
      heading: null, collections: [], holders: [], truncated: false };
    let visited = 0;
    shadowHosts = !!document.body && hasShadow(document.body);
    function walk(el, inItem) {
      if (visited++ > LIMITS.nodes) { state.truncated = true; return; }
      if (SKIP.has(el.tagName) || hidden(el)) return;
      if (!state.heading && (el.tagName === 'H1' || (el.getAttribute('role') === 'heading' && el.getAttribute('aria-level') === '1'))) {
        const text = clean(el.textContent, LIMITS.holderText);
        if (text) state.heading = Object.assign(facts(el), { text, live: false, ancestry: [] });
      }
      const kids = childrenOf(el).filter((kid) => !SKIP.has(kid.tagName));
      const itemTag = itemTagOf(el, kids);
      let collected = false;
      if (itemTag && state.collections.length < LIMITS.collections) {
        const collection = collectionOf(el, kids, itemTag);
        if (collection) {
          state.collections.push(collection);
          collected = true;
        }
      }
      // Texts inside items are read too (a cart badge inside a header link), marked with their item, fewer of them.
      if (state.holders.length < (inItem ? LIMITS.holdersInItems : LIMITS.holders)) {
        const holder = holderOf(el);
        if (holder) {
          if (inItem) holder.item = inItem;
          state.holders.push(holder);
          return;
        }
      }
      for (const kid of kids) walk(kid, inItem || (collected && kid.tagName === itemTag ? domPath(kid) : null));
    }
    if (document.body) walk(document.body, null);
    return state;
  }

  // The short text under a point of the viewport (what a tester points at to assert a text): the nearest holder.
  function holderAt(x, y) {
    let hit = document.elementFromPoint(x, y);
    while (hit && hit.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    for (let el = hit; el && el.tagName !== 'BODY'; el = parentOf(el)) {
      const holder = holderOf(el);
      if (holder) return holder;
    }
    return null;
  }

  globalThis.__pfsOutcomes = { read, holderAt };
})();
