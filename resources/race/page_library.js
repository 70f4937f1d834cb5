// Preflight Studio's in-page library. It runs in an isolated world: page scripts cannot see or change it,
// and it never changes the page (checks only read the DOM, layout and styles).
// Installed once per document; the engine calls globalThis.__pfs.<function>(...).
(() => {
  if (globalThis.__pfs) return;

  const state = { next: 1, byRef: new Map(), byElement: new WeakMap(), listened: new WeakSet() };

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
    'listitem',
  ]);
  // A list item's or table row's name is its text cut here: enough to tell items apart (on a 5000-control admin table
  // full row names make the snapshot 15 % larger); get_descendants on the item gives each part in full.
  const ITEM_NAME = 60;

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

  function textOf(el) {
    return el.innerText !== undefined ? el.innerText : el.textContent;
  }

  // The accessible name as browsers compute it (aria-labelledby, aria-label, <label for> and wrapping labels,
  // content for the roles named by it), with one addition: a checkbox or radio without any label is named by what
  // a tester reads beside it (TodoMVC's sibling <label>).
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
      if (el.labels && el.labels.length) return clean([...el.labels].map(textOf).join(' '));
      const titled = clean(el.getAttribute('title') || el.getAttribute('placeholder') || '');
      if (titled || (role !== 'checkbox' && role !== 'radio')) return titled;
      return clean(besideText(el));
    }
    if (tag === 'IMG') return clean(el.getAttribute('alt') || el.getAttribute('title') || '');
    if (role && NAME_FROM_CONTENT.has(role)) {
      const text = clean(textOf(el), role === 'row' || role === 'listitem' ? ITEM_NAME : 100);
      if (text) return text;
      const img = el.querySelector('img[alt]');
      if (img) return clean(img.getAttribute('alt'));
      // An icon drawn by an <svg> with a <title> (browsers name an icon-only button by it).
      const icon = el.querySelector('svg > title');
      if (icon && clean(icon.textContent)) return clean(icon.textContent);
    }
    if (tag === 'IFRAME') return clean(el.getAttribute('title') || '');
    if (tag === 'TABLE' && el.caption) return clean(el.caption.textContent);
    return clean(el.getAttribute('title') || '');
  }

  // The text beside an unlabelled checkbox or radio: a <label> of nobody else in its list item or row (the nearest
  // after it, else before it), else the first text after it there.
  function besideText(el) {
    const scope = el.closest('li, tr, [role="listitem"], [role="row"], [role="option"], [role="treeitem"]') || el.parentElement;
    if (!scope) return '';
    const labels = [...scope.querySelectorAll('label')].filter((label) => !label.control || label.control === el);
    const after = labels.find((label) => el.compareDocumentPosition(label) & Node.DOCUMENT_POSITION_FOLLOWING);
    const label = after || labels[labels.length - 1];
    if (label) return textOf(label);
    const walker = el.ownerDocument.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
    walker.currentNode = el;
    while (walker.nextNode()) {
      const text = clean(walker.currentNode.data);
      if (text) return text;
    }
    return '';
  }

  // What an element without a role says (a <label>, a status line, a score): its text when short.
  function shortText(el) {
    if (el.textContent.length > 1000) return '';
    return clean(textOf(el));
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
      ref: refOf(el), tag: el.tagName.toLowerCase(), role, name: nameOf(el, role) || (role ? '' : shortText(el)) || null,
      testId: testIdOf(el), id: el.id || null, classes: [...el.classList], childCount: el.children.length,
    };
    if (depth !== undefined) result.depth = depth;
    return result;
  }

  // -- what the snapshot (page_snapshot.js) shares ------------------------------------------------
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

  // The offset of the element's document in the top document (same-origin frames).
  function frameOffset(el) {
    let x = 0, y = 0;
    let win = el.ownerDocument.defaultView;
    while (win && win.frameElement) {
      const frame = win.frameElement;
      const frameRect = frame.getBoundingClientRect();
      x += frameRect.left + frame.clientLeft;
      y += frameRect.top + frame.clientTop;
      win = frame.ownerDocument.defaultView;
    }
    return { x, y };
  }

  // The part of a convex polygon inside the viewport (Sutherland–Hodgman against its four edges).
  function clipToViewport(points) {
    const edges = [
      (p) => p.x >= 0, (p) => p.x <= innerWidth, (p) => p.y >= 0, (p) => p.y <= innerHeight,
    ];
    const meet = (a, b, edge) => {
      // Where segment a→b crosses the edge's line.
      const bound = [0, innerWidth, 0, innerHeight][edge];
      const t = edge < 2 ? (bound - a.x) / (b.x - a.x) : (bound - a.y) / (b.y - a.y);
      return { x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t };
    };
    let list = points;
    for (let edge = 0; edge < 4 && list.length; edge++) {
      const inside = edges[edge];
      const out = [];
      for (let i = 0; i < list.length; i++) {
        const current = list[i], previous = list[(i + list.length - 1) % list.length];
        if (inside(current)) {
          if (!inside(previous)) out.push(meet(previous, current, edge));
          out.push(current);
        } else if (inside(previous)) {
          out.push(meet(previous, current, edge));
        }
      }
      list = out;
    }
    return list;
  }

  // Area and centroid of a polygon.
  function centroid(points) {
    let area = 0, x = 0, y = 0;
    for (let i = 0; i < points.length; i++) {
      const a = points[i], b = points[(i + 1) % points.length];
      const step = a.x * b.y - b.x * a.y;
      area += step;
      x += (a.x + b.x) * step;
      y += (a.y + b.y) * step;
    }
    area /= 2;
    return area ? { area: Math.abs(area), x: x / (6 * area), y: y / (6 * area) } : { area: 0, x: 0, y: 0 };
  }

  // Where to click: the middle of the first of the element's boxes whose part inside the viewport is more than a
  // pixel, as Playwright picks it (a link wrapped over two lines has a box per line, and the middle of their bounding
  // box can be the gap between them). `quads` are the element's transformed boxes from CDP (DOM.getContentQuads):
  // the point is the centre of the first one's part inside the viewport, which is the quad's middle when it is
  // wholly in view (Playwright's point, after it scrolled there) and still on the element when the viewport cuts it.
  // Also says whether the point needs the quads.
  function clickPointOf(el, quads) {
    if (quads) {
      for (const quad of quads) {
        const visible = clipToViewport([0, 2, 4, 6].map((i) => ({ x: quad[i], y: quad[i + 1] })));
        const middle = centroid(visible);
        if (middle.area > 0.99) return { point: { x: middle.x, y: middle.y }, needsQuads: false };
      }
      return { point: null, needsQuads: false };
    }
    const offset = frameOffset(el);
    let boxes = [...el.getClientRects()];
    if (!boxes.length) boxes = [el.getBoundingClientRect()];
    for (const box of boxes) {
      const x = box.left + offset.x, y = box.top + offset.y;
      const left = Math.max(x, 0), top = Math.max(y, 0);
      const right = Math.min(x + box.width, innerWidth), bottom = Math.min(y + box.height, innerHeight);
      if ((right - left) * (bottom - top) <= 0.99 || right <= left || bottom <= top) continue;
      const point = { x: (left + right) / 2, y: (top + bottom) / 2 };
      // A box is the bounding box of a transformed quad: its middle is the quad's own for a 2D transform, unless the
      // viewport cuts it (the cut box's middle can be in a corner the rotated element does not cover).
      const cut = left !== x || top !== y || right !== x + box.width || bottom !== y + box.height;
      const transform = transformOf(el);
      return { point, needsQuads: !!transform && (cut || transform === '3d') && el.ownerDocument === document };
    }
    return { point: null, needsQuads: false };
  }

  function clickPoint(el) {
    return clickPointOf(el).point;
  }

  // Whether the element or an ancestor is transformed: null, '2d', or '3d' (a perspective or 3D matrix).
  function transformOf(el) {
    let found = null;
    for (let node = el; node && node.nodeType === 1; node = parentOf(node)) {
      const style = getComputedStyle(node);
      if (style.transform.startsWith('matrix3d') || style.perspective !== 'none') return '3d';
      if (style.transform !== 'none' || style.rotate !== 'none' || style.scale !== 'none' || style.translate !== 'none') found = '2d';
    }
    return found;
  }

  // -- visibility ------------------------------------------------------------------------------
  // Visible as Playwright judges it: rendered (not display:none, not in a closed <details> or content-visibility:hidden
  // subtree), visibility:visible, and a non-empty box. Opacity 0 is visible (it still takes clicks).
  function isVisible(el) {
    const style = getComputedStyle(el);
    if (style.display === 'contents') {
      return [...el.childNodes].some((child) => (child.nodeType === 1 && isVisible(child))
        || (child.nodeType === 3 && child.data.trim()));
    }
    if (el.checkVisibility && !el.checkVisibility()) return false;
    if (style.visibility !== 'visible') return false;
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  }

  // The element that hides `el`: the nearest one (itself or an ancestor) with display:none, content-visibility:hidden
  // or a closed <details> around it; else the one visibility:hidden is inherited from.
  function hiderOf(el, style) {
    let child = null;
    for (let node = el; node && node.nodeType === 1; child = node, node = parentOf(node)) {
      const own = node === el ? style : getComputedStyle(node);
      if (own.display === 'none') return node;
      if (node !== el && own.contentVisibility === 'hidden') return node;
      if (node !== el && node.tagName === 'DETAILS' && !node.open && !(child && child.tagName === 'SUMMARY'
        && child === node.querySelector(':scope > summary'))) return node;
    }
    if (style.visibility === 'visible') return null;
    let setter = el;
    for (let node = parentOf(el); node && node.nodeType === 1 && getComputedStyle(node).visibility === style.visibility; node = parentOf(node)) {
      setter = node;
    }
    return setter;
  }

  // A control drawn by its label (a 1×1, transparent or clipped checkbox with a visible <label>): the label is what
  // a user clicks, and a click on it acts on the control.
  function clickTarget(el) {
    if (!el.labels || !el.labels.length) return el;
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    const drawnByLabel = style.opacity === '0' || box.width <= 1 || box.height <= 1
      || (style.clip !== 'auto' && style.clip !== '') || style.clipPath !== 'none';
    if (!drawnByLabel || !isVisible(el)) return el;
    return [...el.labels].find((label) => isVisible(label)) || el;
  }

  // -- observations ----------------------------------------------------------------------------
  function coverage(el, ref, now, point) {
    // elementCenter is the click point, where the hit test is made: the middle of the element's first box inside the
    // viewport (see clickPointOf). `el` is what is clicked: the element, or the label of a control drawn by it.
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
      targetElement: { ref: refOf(el), tag: el.tagName.toLowerCase(), testId: testIdOf(el) },
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
    // An <a> without href is not a link (it navigates nowhere; pages use it as a button): only an href or role=link is.
    for (let node = el; node; node = parentOf(node)) {
      if (((node.tagName === 'A' || node.tagName === 'AREA') && node.hasAttribute('href'))
        || (node.getAttribute && node.getAttribute('role') === 'link')) { link = node; break; }
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

  function visibility(el, ref, now) {
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    const hider = hiderOf(el, style);
    const hiderStyle = hider ? getComputedStyle(hider) : null;
    return {
      type: 'visibility', ref, observedAt: now, isVisible: isVisible(el), display: style.display,
      visibility: style.visibility, opacity: style.opacity, size: { width: box.width, height: box.height },
      hiddenBy: hider ? {
        ref: refOf(hider), tag: hider.tagName.toLowerCase(), testId: testIdOf(hider), display: hiderStyle.display,
        visibility: hiderStyle.visibility, isTarget: hider === el,
      } : null,
    };
  }

  function pointerEvents(el, ref, now) {
    const value = getComputedStyle(el).pointerEvents;
    return value === 'none' ? { type: 'pointer_events', ref, observedAt: now, pointerEvents: value } : null;
  }

  // mode "action": only the facts that stand between the action and its success.
  // mode "state": every fact about the element (observe_element_state).
  // `quads`: the click target's transformed boxes, fetched by the engine when a first call said it needs them.
  function observe(ref, mode, quads) {
    const now = Date.now();
    const found = resolve(ref);
    if (found.unknown) return { status: 'unknown' };
    if (found.gone) return { status: 'ok', observations: [{ type: 'attachment', ref, observedAt: now, isConnected: false }], point: null };
    const el = found.el;
    const list = [];
    const all = mode === 'state';
    if (all) list.push({ type: 'attachment', ref, observedAt: now, isConnected: true });
    const seen = visibility(el, ref, now);
    // A hidden element has no click point worth hit-testing (what is there is whatever lies under it).
    if (all || !seen.isVisible) list.push(seen);
    const target = clickTarget(el);
    const { point, needsQuads } = clickPointOf(target, quads || null);
    const view = viewport(target, ref, now);
    const cover = seen.isVisible ? coverage(target, ref, now, point) : null;
    if (cover && (all || !cover.isTargetOrDescendant)) list.push(cover);
    for (const animation of animations(target, ref, now, !all)) list.push(animation);
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
    return { status: 'ok', observations: list, point, inViewport: view.inViewport, needsQuads, next: state.next };
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
    if (el.tagName === 'INPUT') return TYPED_INPUTS.has(el.type) || VALUE_INPUTS.has(el.type) ? null : 'an <input type=' + el.type + '>';
    return 'a <' + el.tagName.toLowerCase() + '>';
  }

  // Inputs whose value keystrokes cannot enter in every locale (a date picker's segments, a colour well, a range):
  // set as Playwright's fill sets them, through the value setter, with the events a person's edit sends.
  const VALUE_INPUTS = new Set(['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range']);

  function setValue(el, value) {
    if (el.tagName !== 'INPUT' || !VALUE_INPUTS.has(el.type)) return { handled: false };
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
    setter.call(el, value);
    if (value && el.value !== value) return { handled: true, error: 'the ' + el.type + ' field does not take ' + JSON.stringify(value) };
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
    return { handled: true };
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
    // Elements with click listeners of the page's own scripts, which a world cannot see: the engine finds them
    // over CDP (DOMDebugger.getEventListeners) and hands them over before each snapshot.
    markClickListeners(nodes) { state.listened = new WeakSet(nodes); return nodes.length; },
    clickTargetOf: (ref) => { const found = resolve(ref); return found.el ? clickTarget(found.el) : null; },
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
      const target = clickTarget(el);
      const point = clickPoint(target);
      if (!point) target.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      return clickPoint(target);
    }),
    notTextEntry: (ref) => withEl(ref, notTextEntry),
    setValue: (ref, value) => withEl(ref, (el) => setValue(el, value)),
    documentUrl: (ref) => withEl(ref, (el) => el.ownerDocument.location.href),
    // Focused in its own root: a field inside a web component's shadow root has the focus there, its host in the document.
    focus: (ref) => withEl(ref, (el) => {
      el.focus();
      const active = el.getRootNode().activeElement;
      return active === el || el.contains(active);
    }),
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
    // Visible as Playwright means it (a non-empty box, not display:none or visibility:hidden); a removed element is not.
    visible(ref) {
      const found = resolve(ref);
      if (found.unknown) return { status: 'unknown' };
      if (found.gone) return { status: 'ok', value: false };
      const box = found.el.getBoundingClientRect(), el = found.el;
      return { status: 'ok', value: box.width > 0 && box.height > 0 && !(el.checkVisibility && !el.checkVisibility({ visibilityProperty: true })) };
    },
    liveTexts,
    // For page_snapshot.js, installed right after this file in the same world.
    _internals: {
      state, refOf, roleOf, nameOf, clean, shortText, testIdOf, meaningful, isVisible, clickTarget,
      INTERACTIVE, NAME_FROM_CONTENT, parentOf, domPath, besideText, textOf,
    },
  };
})();
