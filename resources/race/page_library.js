// Preflight Studio's in-page library. It runs in an isolated world: page scripts cannot see or change it,
// and it never changes the page (checks only read the DOM, layout and styles).
// Installed once per document; the engine calls globalThis.__pfs.<function>(...).
(() => {
  if (globalThis.__pfs) return;

  const state = { next: 1, byRef: new Map(), byElement: new WeakMap() };

  // -- refs -----------------------------------------------------------------------------------
  function refOf(el) {
    let ref = state.byElement.get(el);
    if (!ref) {
      ref = 'e' + state.next++;
      state.byElement.set(el, ref);
      state.byRef.set(ref, new WeakRef(el));
    }
    return ref;
  }

  // {el} for a live element, {gone: true} for an element that was removed, {unknown: true} otherwise.
  function resolve(ref) {
    const weak = state.byRef.get(ref);
    if (!weak) return { unknown: true };
    const el = weak.deref();
    if (!el || !el.isConnected) return { gone: true };
    return { el };
  }

  // -- roles and names (the subset of ARIA that locators and snapshots need) ------------------
  const INPUT_ROLES = {
    button: 'button', submit: 'button', reset: 'button', image: 'button', checkbox: 'checkbox',
    radio: 'radio', range: 'slider', number: 'spinbutton', search: 'searchbox', email: 'textbox',
    tel: 'textbox', text: 'textbox', url: 'textbox', password: 'textbox', '': 'textbox',
  };
  const SECTIONING = 'article, aside, main, nav, section';
  const TAG_ROLES = {
    BUTTON: 'button', TEXTAREA: 'textbox', H1: 'heading', H2: 'heading', H3: 'heading', H4: 'heading',
    H5: 'heading', H6: 'heading', NAV: 'navigation', MAIN: 'main', ASIDE: 'complementary', DIALOG: 'dialog',
    UL: 'list', OL: 'list', LI: 'listitem', TABLE: 'table', TR: 'row', TD: 'cell', TH: 'columnheader',
    OPTION: 'option', PROGRESS: 'progressbar', FIELDSET: 'group', OUTPUT: 'status', ARTICLE: 'article',
    SUMMARY: 'button', DETAILS: 'group', HR: 'separator', IFRAME: 'iframe',
  };
  const INTERACTIVE = new Set([
    'button', 'link', 'checkbox', 'radio', 'textbox', 'searchbox', 'combobox', 'listbox', 'option', 'slider',
    'spinbutton', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'treeitem',
  ]);
  const LANDMARKS = new Set([
    'banner', 'navigation', 'main', 'complementary', 'contentinfo', 'region', 'form', 'search', 'dialog',
    'alertdialog', 'alert', 'status', 'log', 'progressbar', 'table', 'tablist', 'menu', 'menubar', 'iframe',
  ]);
  const NAME_FROM_CONTENT = new Set([
    'button', 'link', 'heading', 'checkbox', 'radio', 'option', 'tab', 'menuitem', 'menuitemcheckbox',
    'menuitemradio', 'treeitem', 'cell', 'columnheader', 'rowheader', 'switch', 'status', 'alert', 'tooltip', 'row',
  ]);

  function roleOf(el) {
    const explicit = (el.getAttribute('role') || '').trim().split(/\s+/)[0];
    if (explicit) return explicit;
    const tag = el.tagName;
    if (tag === 'A' || tag === 'AREA') return el.hasAttribute('href') ? 'link' : null;
    if (tag === 'INPUT') {
      const type = (el.getAttribute('type') || '').toLowerCase();
      if (type === 'hidden') return null;
      if (type === 'search' || type === '' || type === 'text' || type === 'email' || type === 'tel' || type === 'url') {
        if (el.getAttribute('list')) return 'combobox';
      }
      return INPUT_ROLES[type] || 'textbox';
    }
    if (tag === 'SELECT') return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
    if (tag === 'IMG') return el.getAttribute('alt') === '' ? 'presentation' : 'img';
    if (tag === 'HEADER') return el.closest(SECTIONING) ? null : 'banner';
    if (tag === 'FOOTER') return el.closest(SECTIONING) ? null : 'contentinfo';
    if (tag === 'SECTION') return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') ? 'region' : null;
    if (tag === 'FORM') return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') || el.hasAttribute('name') ? 'form' : null;
    return TAG_ROLES[tag] || null;
  }

  function clean(text, limit = 100) {
    const value = (text || '').replace(/\s+/g, ' ').trim();
    return value.length > limit ? value.slice(0, limit - 1) + '…' : value;
  }

  function textByIds(el, ids) {
    const root = el.getRootNode();
    return ids.split(/\s+/).map((id) => {
      const target = root.getElementById ? root.getElementById(id) : document.getElementById(id);
      return target ? target.textContent : '';
    }).join(' ');
  }

  function nameOf(el, role) {
    const labelledBy = el.getAttribute('aria-labelledby');
    if (labelledBy) {
      const text = clean(textByIds(el, labelledBy));
      if (text) return text;
    }
    const label = el.getAttribute('aria-label');
    if (label && label.trim()) return clean(label);
    const tag = el.tagName;
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') {
      const type = (el.getAttribute('type') || '').toLowerCase();
      if (tag === 'INPUT' && (type === 'submit' || type === 'button' || type === 'reset')) return clean(el.value);
      if (el.labels && el.labels.length) return clean([...el.labels].map((l) => l.innerText || l.textContent).join(' '));
      return clean(el.getAttribute('title') || el.getAttribute('placeholder') || '');
    }
    if (tag === 'IMG') return clean(el.getAttribute('alt') || el.getAttribute('title') || '');
    if (role && NAME_FROM_CONTENT.has(role)) {
      // A row's name is all its cells: 60 characters tell rows apart (on a 5000-control admin table the full
      // names make the snapshot 15 % larger); get_descendants on the row gives each cell's text in full.
      const text = clean(el.innerText !== undefined ? el.innerText : el.textContent, role === 'row' ? 60 : 100);
      if (text) return text;
      const img = el.querySelector('img[alt]');
      if (img) return clean(img.getAttribute('alt'));
    }
    if (tag === 'IFRAME') return clean(el.getAttribute('title') || '');
    if (tag === 'TABLE' && el.caption) return clean(el.caption.textContent);
    return clean(el.getAttribute('title') || '');
  }

  function testIdOf(el) {
    return el.getAttribute('data-testid');
  }

  function hidden(el) {
    if (el.closest('[aria-hidden="true"]')) return true;
    if (el.checkVisibility) return !el.checkVisibility({ visibilityProperty: true });
    const style = getComputedStyle(el);
    return style.display === 'none' || style.visibility === 'hidden';
  }

  function info(el, depth) {
    const role = roleOf(el);
    const result = {
      ref: refOf(el), tag: el.tagName.toLowerCase(), role, name: nameOf(el, role) || null,
      testId: testIdOf(el), id: el.id || null, classes: [...el.classList], childCount: el.children.length,
    };
    if (depth !== undefined) result.depth = depth;
    return result;
  }

  // -- snapshot --------------------------------------------------------------------------------
  function stateText(el, role) {
    const parts = [];
    if (el.disabled || el.getAttribute('aria-disabled') === 'true') parts.push('disabled');
    if (role === 'checkbox' || role === 'radio' || role === 'switch') {
      if (el.checked || el.getAttribute('aria-checked') === 'true') parts.push('checked');
    }
    const expanded = el.getAttribute('aria-expanded');
    if (expanded === 'true') parts.push('expanded');
    else if (expanded === 'false') parts.push('collapsed');
    if (el.selected || el.getAttribute('aria-selected') === 'true') parts.push('selected');
    if (el.getAttribute('aria-busy') === 'true') parts.push('busy');
    if ((role === 'textbox' || role === 'searchbox' || role === 'combobox' || role === 'spinbutton') && el.value) {
      // Never put what was typed into a password field into a snapshot.
      parts.push(el.type === 'password' ? 'filled' : 'value=' + JSON.stringify(clean(el.value, 40)));
    }
    return parts.length ? ' [' + parts.join(', ') + ']' : '';
  }

  function meaningful(el, role) {
    if (testIdOf(el)) return true;
    if (!role) return el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable);
    if (INTERACTIVE.has(role) || LANDMARKS.has(role)) return true;
    if (role === 'heading') return true;
    if (role === 'img') return !!el.getAttribute('alt');
    return false;
  }

  function children(node) {
    const list = [];
    if (node.shadowRoot) list.push(...node.shadowRoot.children);
    list.push(...node.children);
    return list;
  }

  function snapshot() {
    const lines = ['# ' + document.title + ' — ' + location.href, '# role "name" ref #testid [states]'];
    let count = 0;
    function walk(el, indent) {
      if (hidden(el)) return;
      const role = roleOf(el);
      let inner = indent;
      if (meaningful(el, role)) {
        count += 1;
        let line = indent + (role || el.tagName.toLowerCase());
        if (role === 'heading') line += (el.getAttribute('aria-level') || el.tagName.slice(1));
        const name = nameOf(el, role);
        if (name) line += ' ' + JSON.stringify(name);
        line += ' ' + refOf(el);
        const testId = testIdOf(el);
        if (testId) line += ' #' + testId;
        line += stateText(el, role);
        lines.push(line);
        inner = indent + ' ';
        // Interactive leaves carry their own name; their inner markup adds nothing an agent can act on.
        if (INTERACTIVE.has(role) && role !== 'listbox' && !el.querySelector('[data-testid], input, button, a[href], select, textarea')) return;
      }
      if (el.tagName === 'IFRAME') {
        try {
          const doc = el.contentDocument;
          if (doc && doc.documentElement) walk(doc.documentElement, inner);
        } catch (error) { /* a cross-origin frame is not ours to read */ }
        return;
      }
      for (const child of children(el)) walk(child, inner);
    }
    if (document.body) walk(document.body, '');
    return { text: lines.join('\n'), refCount: count, url: location.href, title: document.title, next: state.next };
  }

  // -- exploration -----------------------------------------------------------------------------
  function parentOf(el) {
    if (el.parentElement) return el.parentElement;
    const root = el.getRootNode();
    if (root && root.host) return root.host; // cross a shadow boundary
    const frame = el.ownerDocument.defaultView && el.ownerDocument.defaultView.frameElement;
    return frame || null;
  }

  function ancestors(el) {
    const list = [];
    for (let node = parentOf(el); node && node.tagName !== 'HTML'; node = parentOf(node)) list.push(info(node));
    return list;
  }

  function siblings(el) {
    const parent = el.parentElement || (el.getRootNode() && el.getRootNode().host && el.getRootNode());
    if (!parent) return [];
    return [...parent.children].filter((node) => node !== el).map((node) => info(node));
  }

  function descendants(el, maxDepth, limit) {
    const list = [];
    function walk(node, depth) {
      for (const child of children(node)) {
        if (list.length >= limit) return;
        list.push(info(child, depth));
        if (depth < maxDepth) walk(child, depth + 1);
      }
    }
    walk(el, 1);
    return list;
  }

  // -- geometry across frames ------------------------------------------------------------------
  // The element's box in top-document viewport coordinates (same-origin frames add their offsets).
  function topRect(el) {
    const rect = el.getBoundingClientRect();
    let x = rect.left, y = rect.top;
    let win = el.ownerDocument.defaultView;
    while (win && win.frameElement) {
      const frame = win.frameElement;
      const frameRect = frame.getBoundingClientRect();
      x += frameRect.left + frame.clientLeft;
      y += frameRect.top + frame.clientTop;
      win = frame.ownerDocument.defaultView;
    }
    return { x, y, width: rect.width, height: rect.height };
  }

  // The element that receives a click at a top-document point, following shadow roots and same-origin
  // frames as Playwright's own hit-target check does.
  function hitTarget(x, y) {
    let doc = document;
    let hit = doc.elementFromPoint(x, y);
    for (let guard = 0; hit && guard < 32; guard++) {
      if (hit.shadowRoot) {
        const inner = hit.shadowRoot.elementFromPoint(x, y);
        if (inner && inner !== hit) { hit = inner; continue; }
      }
      if (hit.tagName === 'IFRAME') {
        let frameDoc = null;
        try { frameDoc = hit.contentDocument; } catch (error) { frameDoc = null; }
        if (frameDoc) {
          const frameRect = hit.getBoundingClientRect();
          x -= frameRect.left + hit.clientLeft;
          y -= frameRect.top + hit.clientTop;
          const inner = frameDoc.elementFromPoint(x, y);
          if (inner) { doc = frameDoc; hit = inner; continue; }
        }
      }
      break;
    }
    return hit;
  }

  function containsDeep(outer, node) {
    for (let current = node; current; current = parentOf(current)) if (current === outer) return true;
    return false;
  }

  function clickPoint(el) {
    const box = topRect(el);
    const left = Math.max(box.x, 0), top = Math.max(box.y, 0);
    const right = Math.min(box.x + box.width, innerWidth), bottom = Math.min(box.y + box.height, innerHeight);
    if (right <= left || bottom <= top) return null;
    return { x: (left + right) / 2, y: (top + bottom) / 2 };
  }

  // -- observations ----------------------------------------------------------------------------
  function coverage(el, ref, now) {
    // elementCenter is the click point: the centre of the element's part inside the viewport, where the hit test
    // is made (the box centre when the element is wholly in view).
    const point = clickPoint(el);
    if (!point) return null;
    const hit = hitTarget(point.x, point.y);
    if (!hit) return null;
    const style = getComputedStyle(hit);
    const className = typeof hit.className === 'string' ? hit.className : (hit.getAttribute('class') || '');
    return {
      type: 'coverage', ref, observedAt: now, elementCenter: point,
      elementAtPoint: {
        ref: refOf(hit), tag: hit.tagName.toLowerCase(), testId: testIdOf(hit), id: hit.id || null,
        className: className || null, zIndex: style.zIndex, opacity: style.opacity, display: style.display,
      },
      targetElement: { ref, tag: el.tagName.toLowerCase(), testId: testIdOf(el) },
      isTargetOrDescendant: hit === el || containsDeep(el, hit),
    };
  }

  // Properties whose animation moves, resizes, shows or hides an element (what Playwright's "stable" is about).
  const GEOMETRY = /^(transform|translate|rotate|scale|opacity|visibility|display|top|left|right|bottom|inset|width|height|margin|padding|all)/;

  function movesElement(animation) {
    let properties = [];
    if (animation.transitionProperty) properties = [animation.transitionProperty];
    else if (animation.effect && animation.effect.getKeyframes) {
      for (const frame of animation.effect.getKeyframes()) {
        properties.push(...Object.keys(frame).filter((k) => !['offset', 'easing', 'composite', 'computedOffset'].includes(k)));
      }
    }
    return properties.length === 0 || properties.some((name) => GEOMETRY.test(name.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase())));
  }

  function animations(el, ref, now, geometryOnly) {
    // The element's own animations, and those of ancestors that move or fade it: one observation per animated
    // element, each under the acted element's ref, with animatedElement naming the one that runs them.
    const found = [];
    for (let node = el; node && node.tagName !== 'HTML'; node = parentOf(node)) {
      const running = node.getAnimations ? node.getAnimations().filter((a) => (a.playState === 'running' || a.playState === 'pending')
        && (!geometryOnly || movesElement(a))) : [];
      if (!running.length) continue;
      const style = getComputedStyle(node);
      found.push({
        type: 'animation', ref, observedAt: now,
        animations: running.map((a) => ({
          // A CSS transition has no name (the seed's `a.animationName || null`); transitionProperty says what moves.
          playState: a.playState, animationName: a.animationName || null, id: a.id || null,
          startTime: a.startTime === null ? null : Number(a.startTime), currentTime: a.currentTime === null ? null : Number(a.currentTime),
        })),
        computedStyle: {
          transition: style.transition, transitionProperty: style.transitionProperty, transitionDuration: style.transitionDuration,
          animation: style.animation, animationName: style.animationName, animationDuration: style.animationDuration,
        },
        animatedElement: { ref: refOf(node), tag: node.tagName.toLowerCase(), testId: testIdOf(node) },
      });
    }
    return found;
  }

  function navigation(el, ref, now) {
    let link = null;
    for (let node = el; node; node = parentOf(node)) {
      if (node.tagName === 'A' || (node.getAttribute && node.getAttribute('role') === 'link')) { link = node; break; }
    }
    if (!link) return null;
    return {
      type: 'navigation', ref, observedAt: now, element: { ref, tag: el.tagName.toLowerCase() },
      linkAncestor: {
        ref: refOf(link), tag: link.tagName.toLowerCase(), href: link.getAttribute('href'), target: link.getAttribute('target'),
        role: link.getAttribute('role'), isTarget: link === el,
      },
    };
  }

  function viewport(el, ref, now) {
    const box = topRect(el);
    const visibleWidth = Math.max(0, Math.min(box.x + box.width, innerWidth) - Math.max(box.x, 0));
    const visibleHeight = Math.max(0, Math.min(box.y + box.height, innerHeight) - Math.max(box.y, 0));
    const area = box.width * box.height;
    const ratio = area > 0 ? (visibleWidth * visibleHeight) / area : 0;
    return {
      type: 'viewport', ref, observedAt: now, inViewport: ratio > 0, intersectionRatio: Math.round(ratio * 1000) / 1000,
      boundingBox: box, viewport: { width: innerWidth, height: innerHeight }, scroll: { x: scrollX, y: scrollY },
    };
  }

  function inputState(el, ref, now) {
    const tag = el.tagName;
    if (tag !== 'INPUT' && tag !== 'SELECT' && tag !== 'TEXTAREA' && tag !== 'BUTTON') return null;
    const type = tag === 'INPUT' ? (el.type || 'text') : null;
    const checkable = type === 'checkbox' || type === 'radio';
    return {
      type: 'input_state', ref, observedAt: now, tag: tag.toLowerCase(), inputType: type,
      disabled: !!el.disabled || !!el.closest('fieldset[disabled]'), readOnly: !!el.readOnly,
      value: type === 'password' ? null : (tag === 'BUTTON' ? null : clean(el.value, 200)),
      checked: checkable ? !!el.checked : null,
    };
  }

  function ariaState(el, ref, now) {
    const busy = el.closest('[aria-busy="true"]');
    const disabled = el.closest('[aria-disabled="true"]');
    const hiddenBy = el.closest('[aria-hidden="true"]');
    const inert = el.closest('[inert]');
    if (!busy && !disabled && !hiddenBy && !inert) return null;
    const setter = [busy, disabled, hiddenBy, inert].find((node) => node && node !== el);
    return {
      type: 'aria_state', ref, observedAt: now, ariaBusy: !!busy, ariaDisabled: !!disabled, ariaHidden: !!hiddenBy,
      inert: !!inert, setBy: setter ? refOf(setter) : null,
    };
  }

  function pointerEvents(el, ref, now) {
    const value = getComputedStyle(el).pointerEvents;
    return value === 'none' ? { type: 'pointer_events', ref, observedAt: now, pointerEvents: value } : null;
  }

  // mode "action": only the facts that stand between the action and its success.
  // mode "state": every fact about the element (observe_element_state).
  function observe(ref, mode) {
    const now = Date.now();
    const found = resolve(ref);
    if (found.unknown) return { status: 'unknown' };
    if (found.gone) return { status: 'ok', observations: [{ type: 'attachment', ref, observedAt: now, isConnected: false }], point: null };
    const el = found.el;
    const list = [];
    const all = mode === 'state';
    if (all) list.push({ type: 'attachment', ref, observedAt: now, isConnected: true });
    const view = viewport(el, ref, now);
    const cover = coverage(el, ref, now);
    if (cover && (all || !cover.isTargetOrDescendant)) list.push(cover);
    for (const animation of animations(el, ref, now, !all)) list.push(animation);
    const nav = navigation(el, ref, now);
    if (nav) list.push(nav);
    if (all) list.push(view);
    const input = inputState(el, ref, now);
    // Disabled stops every action; readonly only stops typing (the engine keeps what matters to each action).
    if (input && (all || input.disabled || input.readOnly)) list.push(input);
    const aria = ariaState(el, ref, now);
    if (aria) list.push(aria);
    const pointer = pointerEvents(el, ref, now);
    if (pointer) list.push(pointer);
    return { status: 'ok', observations: list, point: clickPoint(el), inViewport: view.inViewport, next: state.next };
  }

  // -- helpers for actions, locators, the inspector and the recorder ----------------------------
  function nearestMeaningful(el) {
    for (let node = el; node && node.tagName !== 'HTML'; node = parentOf(node)) {
      const role = roleOf(node);
      if (INTERACTIVE.has(role) || node.isContentEditable) return node;
    }
    for (let node = el; node && node.tagName !== 'HTML'; node = parentOf(node)) {
      if (meaningful(node, roleOf(node))) return node;
    }
    return el;
  }

  function headingText(el) {
    const heading = el.querySelector('h1, h2, h3, h4, h5, h6, [role="heading"]');
    if (heading) return clean(heading.textContent, 80);
    const first = [...el.querySelectorAll('*')].find((node) => node.children.length === 0 && clean(node.textContent));
    return first ? clean(first.textContent, 60) : null;
  }

  // The element's position in the tree (child indexes from the root, shadow roots marked): the same node
  // gives the same path in every world, however it moves on screen.
  function domPath(el) {
    const parts = [];
    for (let node = el; node; ) {
      const parent = node.parentElement || (node.parentNode && node.parentNode.host ? node.parentNode : null);
      if (!parent) break;
      if (parent.host) { parts.push('s' + [...parent.children].indexOf(node)); node = parent.host; continue; }
      parts.push([...parent.children].indexOf(node));
      node = parent;
    }
    return parts.reverse().join('/');
  }

  function describe(el) {
    const base = info(el);
    const chain = [];
    for (let node = parentOf(el); node && node.tagName !== 'BODY' && node.tagName !== 'HTML'; node = parentOf(node)) {
      const item = info(node);
      item.headingText = headingText(node);
      chain.push(item);
    }
    return Object.assign(base, {
      label: el.labels && el.labels.length ? clean([...el.labels].map((l) => l.textContent).join(' ')) : null,
      placeholder: el.getAttribute('placeholder'), text: clean(el.textContent, 80) || null,
      inputType: el.tagName === 'INPUT' ? (el.type || 'text') : null, secret: el.type === 'password' || el.autocomplete === 'one-time-code',
      box: topRect(el), path: domPath(el), ancestors: chain,
    });
  }

  function liveTexts() {
    return [...document.querySelectorAll('[role="status"], [role="alert"], [aria-live="polite"], [aria-live="assertive"], output')]
      .filter((node) => !hidden(node))
      .map((node) => ({ role: roleOf(node) || 'status', text: clean(node.textContent, 200) }))
      .filter((entry) => entry.text);
  }

  // Input types whose value is typed (Playwright's fill refuses the others, e.g. checkbox, file, button).
  const TYPED_INPUTS = new Set(['text', 'search', 'email', 'tel', 'url', 'password', 'number', 'date', 'time',
    'datetime-local', 'month', 'week']);

  // null when the element takes typed text, else how to name it in a sentence ('a <button>').
  function notTextEntry(el) {
    if (el.isContentEditable || el.tagName === 'TEXTAREA') return null;
    if (el.tagName === 'INPUT') return TYPED_INPUTS.has(el.type) ? null : 'an <input type=' + el.type + '>';
    return 'a <' + el.tagName.toLowerCase() + '>';
  }

  function withEl(ref, fn) {
    const found = resolve(ref);
    if (found.unknown) return { status: 'unknown' };
    if (found.gone) return { status: 'gone' };
    const value = fn(found.el);
    return { status: 'ok', value, next: state.next };
  }

  globalThis.__pfs = {
    setStart(start) { if (start > state.next) state.next = start; return state.next; },
    snapshot,
    info: (ref) => withEl(ref, (el) => info(el)),
    ancestors: (ref) => withEl(ref, ancestors),
    siblings: (ref) => withEl(ref, siblings),
    descendants: (ref, maxDepth, limit) => withEl(ref, (el) => descendants(el, maxDepth, limit)),
    describe: (ref) => withEl(ref, describe),
    observe,
    rects: (refs) => Object.fromEntries(refs.map((ref) => {
      const found = resolve(ref);
      return [ref, found.el ? topRect(found.el) : null];
    })),
    pick(x, y) {
      const hit = hitTarget(x, y);
      if (!hit) return { status: 'none' };
      const target = nearestMeaningful(hit);
      return { status: 'ok', value: info(target), box: topRect(target), next: state.next };
    },
    query(selector) {
      let matches;
      try { matches = document.querySelectorAll(selector); } catch (error) { return { status: 'bad_selector', message: String(error.message || error) }; }
      if (!matches.length) return { status: 'none' };
      return { status: 'ok', value: info(matches[0]), count: matches.length, next: state.next };
    },
    scrollIntoView: (ref) => withEl(ref, (el) => {
      const point = clickPoint(el);
      if (!point) el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      return clickPoint(el);
    }),
    notTextEntry: (ref) => withEl(ref, notTextEntry),
    focus: (ref) => withEl(ref, (el) => { el.focus(); return document.activeElement === el || el.contains(document.activeElement); }),
    selectOption: (ref, wanted) => withEl(ref, (el) => {
      if (el.tagName !== 'SELECT') return { error: 'not a <select> element' };
      const option = [...el.options].find((o) => o.value === wanted || clean(o.textContent) === wanted);
      if (!option) return { error: 'no option ' + JSON.stringify(wanted) + '; options: ' + [...el.options].map((o) => JSON.stringify(clean(o.textContent))).join(', ') };
      el.value = option.value;
      el.dispatchEvent(new Event('input', { bubbles: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
      return { value: option.value };
    }),
    checked: (ref) => withEl(ref, (el) => !!el.checked || el.getAttribute('aria-checked') === 'true'),
    liveTexts,
  };
})();
