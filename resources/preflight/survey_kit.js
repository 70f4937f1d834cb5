// What the preflight's survey (survey.js) reads a page with, in the studio's isolated world beside the in-page library
// (page_library.js): the document with its open shadow roots and same-origin frames, visibility, landmarks, names as
// browsers compute them (the library's) and as a tester reads them, tree paths and CSS selectors that pick one element.
// Installs globalThis.__pfsSurveyKit(listened): a fresh kit per survey (the page changes between two).
(() => {
  if (globalThis.__pfsSurveyKit) return;
  const I = globalThis.__pfs._internals;
  const ROOT_LIMIT = 200; // shadow roots and frames entered; a page of thousands of components is read in part
  const CONTROLS = 'input, button, select, textarea, a[href], [role="button"], [role="link"], [role="checkbox"], '
    + '[role="radio"], [role="tab"], [role="menuitem"], [role="option"], [role="switch"], [contenteditable="true"]';
  // Classes that say how a thing looks right now, not what it is (a seat that is "selected", a row "is-open").
  const STATE_CLASS = /^(is-|has-)|^(active|selected|completed|complete|done|disabled|hidden|open|opened|closed|checked|current|focus|focused|hover|visible|expanded|collapsed|editing|new|error|success|loading|occupied|empty|over|dragging|drag-over|right|wrong)$/i;
  const WORD = /^[A-Za-z][A-Za-z_-]{1,40}$/;

  function clean(text, limit = 120) {
    const value = (text || '').replace(/\s+/g, ' ').trim();
    return value.length > limit ? value.slice(0, limit - 1) + '…' : value;
  }

  function make(listened) {
    // The roots to read: the document, then every open shadow root and same-origin frame document inside it.
    const roots = [];
    let shadows = 0;
    const enter = (root) => {
      roots.push(root);
      for (const el of root.querySelectorAll('*')) {
        if (roots.length >= ROOT_LIMIT) return;
        if (el.shadowRoot) { shadows += 1; enter(el.shadowRoot); }
        if (el.tagName === 'IFRAME') {
          let doc = null;
          try { doc = el.contentDocument; } catch (error) { doc = null; } // another origin's frame is not ours
          if (doc && doc.documentElement) enter(doc);
        }
      }
    };
    enter(document);
    const all = (selector) => roots.flatMap((root) => [...root.querySelectorAll(selector)]);
    const parentOf = I.parentOf;
    const closest = (el, selector) => {
      for (let node = el; node && node.nodeType === 1; node = parentOf(node)) if (node.matches(selector)) return node;
      return null;
    };
    const contains = (outer, el) => {
      for (let node = el; node; node = parentOf(node)) if (node === outer) return true;
      return false;
    };
    const frameOf = (el) => el.ownerDocument.defaultView && el.ownerDocument.defaultView.frameElement;
    const visible = (el) => {
      if (!el || !(el.checkVisibility ? el.checkVisibility({ visibilityProperty: true }) : el.offsetParent)) return false;
      if (closest(el, '[aria-hidden="true"]')) return false;
      const frame = frameOf(el);
      return !frame || visible(frame);
    };
    // The text a user reads in an element, its shadow roots included (a web component's items keep theirs there).
    const textOf = (el) => {
      if (!shadows) return el.textContent || '';
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
    };
    const shownText = (el) => (shadows ? textOf(el) : (el.innerText !== undefined ? el.innerText : el.textContent));

    // The landmark an element sits in, as a word: header, footer, navigation, sidebar, main, dialog; else page.
    const PLACES = { HEADER: 'header', FOOTER: 'footer', NAV: 'navigation', ASIDE: 'sidebar', MAIN: 'main', DIALOG: 'dialog' };
    const ROLE_PLACES = { banner: 'header', contentinfo: 'footer', navigation: 'navigation', complementary: 'sidebar',
      main: 'main', dialog: 'dialog', alertdialog: 'dialog' };
    const landmark = (el) => closest(el, 'header, footer, nav, aside, main, dialog, [role="banner"], [role="contentinfo"], '
      + '[role="navigation"], [role="complementary"], [role="main"], [role="dialog"], [role="alertdialog"]');
    const placeOf = (el) => {
      const mark = landmark(el);
      if (!mark) return 'page';
      return ROLE_PLACES[mark.getAttribute('role')] || PLACES[mark.tagName] || 'page';
    };

    // The words of a <label> without the text of the controls inside it.
    const labelWords = (label) => {
      const copy = label.cloneNode(true);
      copy.querySelectorAll('input, select, textarea, [aria-hidden="true"], .sr-only').forEach((n) => n.remove());
      return clean(copy.textContent);
    };
    // A label a tester reads for a field that no <label for> names: the label just before it in its container
    // (the field's previous sibling, or its wrapper's), when that label names no other control.
    const adjacentLabel = (el) => {
      for (let node = el, hops = 0; node && hops < 2; node = node.parentElement, hops += 1) {
        let before = node.previousElementSibling;
        while (before && !clean(before.textContent) && before.tagName !== 'LABEL') before = before.previousElementSibling;
        if (before && before.tagName === 'LABEL' && (!before.control || before.control === el)) return labelWords(before);
        // A heading just before a lone control names it (a "Price" heading over a range slider).
        if (before && /^H[2-6]$/.test(before.tagName) && clean(before.textContent).length <= 40) return clean(before.textContent);
        if (before && /^(SPAN|P|DIV|STRONG|B|DT)$/.test(before.tagName) && !before.querySelector(CONTROLS)
          && clean(before.textContent).length <= 40 && /:\s*$/.test(clean(before.textContent))) {
          return clean(before.textContent).replace(/:\s*$/, '');
        }
        if (node.parentElement && node.parentElement.children.length > 3) break;
      }
      return '';
    };
    // What Playwright's get_by_label finds the field by: aria-labelledby, aria-label, or its <label>s.
    const labelledName = (el) => {
      const by = el.getAttribute('aria-labelledby');
      if (by) {
        const root = el.getRootNode();
        const text = by.split(/\s+/).map((id) => ((root.getElementById ? root.getElementById(id) : null) || {}).textContent || '').join(' ');
        if (clean(text)) return clean(text);
      }
      if (el.getAttribute('aria-label')) return clean(el.getAttribute('aria-label'));
      if (el.labels && el.labels.length) return labelWords(el.labels[0]);
      return '';
    };
    // A field's name as a tester reads it: its label, else a label beside it, its placeholder, title or name.
    const fieldName = (el) => (labelledName(el) || adjacentLabel(el)
      || clean(el.getAttribute('placeholder') || el.getAttribute('title') || '')
      || ((el.type === 'checkbox' || el.type === 'radio') ? clean(I.besideText(el)) : '')
      || clean(el.getAttribute('name') || '')).replace(/\s*:$/, '');

    // The tree path the recorder's outcome probe and locators use (child indexes, shadow roots marked 's'); an element
    // of a same-origin frame has its frame's path, then 'f', then its own.
    const pathOf = (el) => {
      const own = I.domPath(el);
      const frame = frameOf(el);
      return frame ? pathOf(frame) + '/f/' + own : own;
    };
    const semanticClasses = (el) => [...el.classList].filter((name) => WORD.test(name) && !STATE_CLASS.test(name));
    const signature = (el) => el.tagName + '.' + semanticClasses(el).sort().join('.');
    const cssEscape = (value) => (globalThis.CSS && CSS.escape ? CSS.escape(value) : value.replace(/[^A-Za-z0-9_-]/g, '\\$&'));
    const countOf = (selector) => { try { return all(selector).length; } catch (error) { return 0; } };
    // A CSS selector that picks this element alone among every root (Playwright's CSS pierces open shadow roots),
    // by what it is (its id, name, title or classes), never by position; null when none does.
    const uniqueCss = (el) => {
      if (frameOf(el)) return null; // a page-level locator does not reach into frames
      const tag = el.tagName.toLowerCase();
      const tries = [];
      if (el.id && /^[A-Za-z][\w-]*$/.test(el.id)) tries.push('#' + el.id);
      for (const attr of ['name', 'title', 'aria-label', 'data-id', 'data-action', 'data-key']) {
        const value = el.getAttribute(attr);
        if (value && value.length <= 60 && !/["\\\n]/.test(value)) tries.push(`${tag}[${attr}="${value}"]`);
      }
      const classes = semanticClasses(el).map(cssEscape);
      if (classes.length) {
        tries.push(`${tag}.${classes.join('.')}`);
        const parent = el.parentElement;
        const parentClasses = parent ? semanticClasses(parent).map(cssEscape) : [];
        if (parentClasses.length) tries.push(`.${parentClasses[0]} > ${tag}.${classes.join('.')}`);
      }
      return tries.find((selector) => countOf(selector) === 1) || null;
    };
    // A CSS selector for every member of a group of alike elements (seats, draggable rows) and nothing else.
    const groupCss = (members, container) => {
      const first = members[0];
      if (frameOf(first)) return null;
      const tag = first.tagName.toLowerCase();
      const shared = members.map(semanticClasses).reduce((a, b) => a.filter((name) => b.includes(name)));
      const own = [];
      if (shared.length) own.push(`${tag}.${shared.map(cssEscape).join('.')}`);
      if (first.getAttribute('draggable') === 'true') own.push(`${tag}[draggable="true"]`);
      const scope = container ? uniqueCss(container) : null;
      const options = [...own, ...(scope ? own.map((selector) => `${scope} ${selector}`) : [])];
      return options.find((selector) => countOf(selector) === members.length) || null;
    };

    const isListened = (el) => !!listened && I.state.listened.has(el);
    return {
      roots, shadows, all, closest, contains, visible, textOf, shownText, placeOf, landmark, labelledName, fieldName,
      pathOf, semanticClasses, signature, uniqueCss, groupCss, clean, isListened, CONTROLS,
      parentOf, roleOf: I.roleOf, accessibleName: I.nameOf, testIdOf: I.testIdOf, INTERACTIVE: I.INTERACTIVE,
    };
  }

  globalThis.__pfsSurveyKit = make;
})();
