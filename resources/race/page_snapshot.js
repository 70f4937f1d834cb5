// The snapshot of Preflight Studio's in-page library (page_library.js, installed just before this file in the same
// isolated world). One line per element an agent acts on or reads: controls, and elements clickable without being
// links or buttons; landmarks, headings, lists, list items and table rows with their text; live regions; short text
// (a counter, a status line; a score named by its label, "Score: 0"); boards of short cells in one line. Names count
// what CSS draws in ::before and ::after, as browsers' names do. Prose is left to get_descendants.
(() => {
  const pfs = globalThis.__pfs;
  if (!pfs || pfs.snapshot) return;
  const { state, refOf, roleOf, nameOf, clean, shortText, testIdOf, meaningful, isVisible, clickTarget, textOf,
    INTERACTIVE, NAME_FROM_CONTENT } = pfs._internals;

  const SHORT_TEXT = 80; // longer text is prose
  const CELL_TEXT = 16; // the longest text of one cell of a board
  const BOARD = 'Board'; // the name of a board the page does not name
  const BOARD_CELLS = 400; // the most cells of a board (20×20)
  const BOARD_ELEMENTS = 1200; // an element with more inside is no board
  const BOARD_CHARS = 600; // a board's rows are cut here
  const STRUCTURE = new Set(['list', 'listitem', 'row']);
  // Inside these, an interactive element is a container, not a leaf.
  const NESTED = '[data-testid], input, button, a[href], select, textarea';
  const CONTROLS = 'input, button, select, textarea, a[href], [role="button"], [role="link"], [role="checkbox"], '
    + '[role="radio"], [role="tab"], [role="menuitem"], [role="option"], [role="switch"]';

  function stateParts(el, role) {
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
    return parts;
  }

  // Clickable without being a control: a pointer cursor of its own (not inherited), a click listener, an onclick
  // attribute or a tab stop — and no control inside (a card around its buttons is not one more control).
  function clickable(el, role, cursor, parentCursor) {
    if (INTERACTIVE.has(role) || el.tagName === 'BODY' || el.tagName === 'HTML') return false;
    // A label acts on its control, listed on its own line; unless the control is not shown, and the label is the way.
    if (el.tagName === 'LABEL' && el.control) return !isVisible(el.control);
    const marked = (cursor === 'pointer' && parentCursor !== 'pointer') || state.listened.has(el)
      || el.hasAttribute('onclick') || (el.hasAttribute('tabindex') && el.tabIndex >= 0);
    return marked && !el.querySelector(CONTROLS);
  }

  const shown = (el) => !el.checkVisibility || el.checkVisibility({ visibilityProperty: true });

  function liveRegion(el, role) {
    if (role) return false;
    const live = el.getAttribute('aria-live');
    return live === 'polite' || live === 'assertive';
  }

  // What is rendered inside: a same-origin frame's document, an open shadow root and the light DOM, only the summary
  // of a closed <details>, nothing of a content-visibility:hidden element.
  function childNodesOf(node) {
    if (node.tagName === 'IFRAME') {
      try {
        const doc = node.contentDocument;
        return doc && doc.documentElement ? [doc.documentElement] : [];
      } catch (error) { return []; } // a cross-origin frame is not ours to read
    }
    if (node.tagName === 'DETAILS' && !node.open) {
      const summary = node.querySelector(':scope > summary');
      return summary ? [summary] : [];
    }
    return node.shadowRoot ? [...node.shadowRoot.childNodes, ...node.childNodes] : node.childNodes;
  }

  // -- what CSS draws: ::before and ::after --------------------------------------------------------------------------
  // Browsers name an element by its content with what its ::before and ::after draw (a close button drawn as
  // `::before { content: "×" }` is "×"); innerText leaves it out. Private-use code points are an icon font's glyphs,
  // which nobody reads as words.
  const ICON_GLYPHS = /[\uE000-\uF8FF]|[\uDB80-\uDBFF][\uDC00-\uDFFF]/g;
  // In a computed `content`: a function (url(), counter(), attr()), a quoted string, or the slash before alt text.
  const CONTENT_PART = /([\w-]+)\(((?:[^()"']|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')*)\)|"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|(\/)/g;
  const ITEM_ROLES = new Set(['row', 'listitem', 'cell', 'columnheader', 'rowheader']); // named by a cut of their text
  const LABELLED_TAGS = new Set(['INPUT', 'SELECT', 'TEXTAREA', 'IMG', 'IFRAME']); // never named by content
  const NOTHING_DRAWN = Object.freeze({ before: '', after: '' });
  let drawnSeen = new WeakMap(); // what each element's ::before and ::after draw, read once a walk
  let rootsDrawing = new WeakMap(); // which elements of a document or shadow root CSS draws text around, once a walk

  function unescapeCss(text) {
    return text.replace(/\\([0-9a-fA-F]{1,6}\s?|[\s\S])/g, (all, code) => (/^[0-9a-fA-F]/.test(code)
      ? String.fromCodePoint(Math.min(parseInt(code, 16), 0x10FFFF) || 0xFFFD) : code));
  }

  // The text `el`'s ::before or ::after shows ('' when none): its strings and attr() values, or its alternative
  // text when it has one (`content: "★" / "Starred"`); counters and images are not read. Spaced off from the
  // element's text unless it flows inline, as browsers join it.
  function generated(el, which) {
    const style = getComputedStyle(el, which);
    const content = style.content;
    if (!content || content === 'none' || content === 'normal') return '';
    if (style.display === 'none' || style.visibility === 'hidden') return ''; // a tooltip until hovered
    let parts = [];
    for (const part of content.matchAll(CONTENT_PART)) {
      if (part[5]) parts = []; // what follows the slash is the alternative text
      else if (part[1] === 'attr') parts.push(el.getAttribute(part[2].trim().split(/\s+/)[0]) || '');
      else if (!part[1]) parts.push(unescapeCss(part[3] !== undefined ? part[3] : part[4]));
    }
    const text = parts.join('').replace(ICON_GLYPHS, '');
    if (!text.trim()) return '';
    return style.display.startsWith('inline') ? text : ' ' + text + ' ';
  }

  // Whether a `content` value of a style rule shows any text (an icon font's glyphs and clearfix's "" show none).
  function showsText(content) {
    if (/\b(attr|var|counters?)\(/.test(content)) return true;
    for (const part of content.matchAll(CONTENT_PART)) {
      const text = part[1] ? '' : unescapeCss(part[3] !== undefined ? part[3] || '' : part[4] || '');
      if (text.replace(ICON_GLYPHS, '').trim()) return true;
    }
    return false;
  }

  // The selectors of a rule's list, split at its top-level commas (not those inside :is(a, b)).
  function selectorsOf(list) {
    const found = [];
    let depth = 0, from = 0;
    for (let i = 0; i < list.length; i++) {
      const char = list[i];
      if (char === '(' || char === '[') depth += 1;
      else if (char === ')' || char === ']') depth -= 1;
      else if (char === ',' && depth === 0) { found.push(list.slice(from, i)); from = i + 1; }
    }
    found.push(list.slice(from));
    return found;
  }

  // Adds to `into` a selector of the elements each rule of `rules` draws text around; false when that cannot be told
  // (a nested rule's `&`).
  function drawingRules(rules, into) {
    for (const rule of rules) {
      const selector = rule.selectorText || '';
      if (rule.cssRules && rule.cssRules.length && !drawingRules(rule.cssRules, into)) return false; // @media, @layer
      if (rule.styleSheet && !drawingRules(rule.styleSheet.cssRules, into)) return false; // @import
      const content = rule.style && rule.style.content;
      if (!content || !/:(before|after)/i.test(selector) || !showsText(content)) continue;
      if (selector.includes('&')) return false;
      for (const one of selectorsOf(selector)) {
        if (!/:(before|after)/i.test(one)) continue;
        const host = one.replace(/::?(before|after)\b/gi, '').trim();
        into.push(!host || /[>+~]$/.test(host) ? host + ' *' : host);
      }
    }
    return true;
  }

  const ANY = '*';
  // The elements of `root` (a document or a shadow root) whose ::before or ::after may draw text, as a selector: null
  // when none does (most pages: an icon font's glyphs and clearfix's "" are no text), ANY when it cannot be told
  // (another origin's sheet). Reading what an element's pseudo-elements draw costs four times a look at its own style.
  function drawingSelector(root) {
    let found = rootsDrawing.get(root);
    if (found !== undefined) return found;
    const selectors = [];
    let known = true;
    for (const sheet of [...(root.styleSheets || []), ...(root.adoptedStyleSheets || [])]) {
      try { known = drawingRules(sheet.cssRules, selectors); } catch (error) { known = false; } // another origin's
      if (!known) break;
    }
    found = !known || selectors.length > 200 ? ANY : selectors.length ? selectors.join(', ') : null;
    if (found && found !== ANY) {
      try { document.createElement('div').matches(found); } catch (error) { found = ANY; }
    }
    rootsDrawing.set(root, found);
    return found;
  }

  function drawn(el) {
    const drawing = drawingSelector(el.getRootNode());
    if (!drawing || (drawing !== ANY && !el.matches(drawing))) return NOTHING_DRAWN;
    let found = drawnSeen.get(el);
    if (!found) {
      found = { before: generated(el, '::before'), after: generated(el, '::after') };
      drawnSeen.set(el, found);
    }
    return found;
  }

  // The element's text with what its ::before and ::after draw around it.
  function withDrawn(el, text) {
    const { before, after } = drawn(el);
    return before || after ? clean(before + text + after, Infinity) : text;
  }

  // The name of an entry named by its content (a button, a link, a heading, a status), with what CSS draws in it.
  function contentName(el, role, name) {
    if (!NAME_FROM_CONTENT.has(role) || ITEM_ROLES.has(role) || LABELLED_TAGS.has(el.tagName)) return name;
    if (el.hasAttribute('aria-labelledby') || (el.getAttribute('aria-label') || '').trim()) return name;
    const { before, after } = drawn(el);
    if (before || after) return clean(before + textOf(el) + after) || name;
    if (name) return name;
    // An icon-only control drawn by a child: `<button><span class="close"></span></button>`.
    const inside = el.getElementsByTagName('*');
    for (let i = 0; i < inside.length && i < 6; i++) {
      const { before: first, after: last } = drawn(inside[i]);
      const text = clean(first + last);
      if (text) return text;
    }
    return name;
  }

  // -- read-outs: a number a person reads by its label ---------------------------------------------------------------
  const NUMBER = /^[+\-−]?(?:\d{1,3}(?:[,.'\u00a0\u202f]\d{3})+|\d+)(?:[.,]\d+)?%?$/;
  const DELTA = /^[+\-−]\s?\d[\d,.]*$/; // "+4" floating off a score as it grows
  const READOUTS = new Set(['status', 'timer', 'log', 'marquee']);
  const taken = []; // elements whose text became a read-out's label this walk: their own lines would say it twice

  // A label a person reads a number by: a word or three without digits, ending in a letter or a colon ("Score",
  // "Best:", "Moves left"; not "Cart," of "Cart, 0 items"), else null.
  function labelText(text) {
    const label = clean(text, Infinity).replace(/\s*[:：]$/, '');
    return label && label.length <= 24 && /[\p{L})]$/u.test(label) && !/\d/.test(label) && label.split(' ').length <= 3
      ? label : null;
  }

  // Whether the words of a phrase go on after `el` ("Cart, <span>0</span> items"): then its number is no read-out.
  function phraseGoesOn(el) {
    for (let next = el.nextSibling; next; next = next.nextSibling) {
      if (next.nodeType === 3) {
        if (next.data.trim()) return true;
      } else if (next.nodeType === 1 && clean(next.textContent)) {
        const control = next.matches(CONTROLS) || next.querySelector(CONTROLS);
        return !control && getComputedStyle(next).display.startsWith('inline');
      }
    }
    return false;
  }

  // The number `el` shows (`text`: its text), or null: its text, or its own text when each child only says by how much
  // it just grew ("0" with a "+4" child).
  function numberIn(el, text) {
    if (!/\d/.test(text)) return null;
    if (NUMBER.test(text)) return text;
    if (!/[+\-−]\s?\d/.test(text)) return null; // no "+4" in it
    let own = '';
    for (const node of el.childNodes) {
      if (node.nodeType === 3) own += node.data;
      else if (node.nodeType === 1 && clean(node.textContent) && !DELTA.test(clean(node.textContent))) return null;
    }
    own = clean(own);
    return NUMBER.test(own) ? own : null;
  }

  // The label written just before `el` ("Score: <output>0</output>", "<span>Best</span><b>0</b>"), through up to
  // two wrappers that hold nothing else, or what such a wrapper's ::before draws: {label, from} (from: the element
  // the label came from, or null for text or CSS), or null. None when the words go on after it ("Cart, 0 items").
  function labelBefore(el) {
    let node = el;
    for (let up = 0; up < 3; up++) {
      if (phraseGoesOn(node)) return null;
      for (let prev = node.previousSibling; prev; prev = prev.previousSibling) {
        if (prev.nodeType === 3) {
          if (!prev.data.trim()) continue;
          const label = labelText(prev.data);
          return label ? { label, from: null } : null;
        }
        if (prev.nodeType !== 1 || !shown(prev)) continue;
        const text = clean(prev.textContent, Infinity); // as written: a label's text-transform is no part of its words
        if (!text) continue;
        const label = prev.querySelector(CONTROLS) ? null : labelText(text);
        return label ? { label, from: prev } : null;
      }
      const parent = node.parentElement;
      if (!parent || parent.tagName === 'BODY') return null;
      const label = labelText(drawn(parent).before);
      if (label) return { label, from: null };
      if (clean(textOf(parent), Infinity) !== clean(textOf(node), Infinity)) return null; // not a mere wrapper
      node = parent;
    }
    return null;
  }

  // "Score: 0" for a number whose label the page puts elsewhere: its aria-label or title, what its ::before or ::after
  // draws (2048's `.score-container::after { content: "Score" }`), or, for an element with a line of its own
  // (`beside`), the label just before it. {name, from} (see labelBefore), or null when `el` reads as no such number.
  function readoutOf(el, role, text, beside) {
    if (role && !READOUTS.has(role)) return null;
    const number = numberIn(el, text);
    if (number === null) return null;
    const { before, after } = drawn(el);
    const label = labelText(nameOf(el, role)) || labelText(before) || labelText(after);
    if (label) return { name: label + ': ' + number, from: null };
    const found = beside ? labelBefore(el) : null;
    return found ? { name: found.label + ': ' + number, from: found.from } : null;
  }

  // -- boards: same-size cells on a grid -----------------------------------------------------------------------------
  // The visible elements inside `el` (through open shadow roots), in document order, with their boxes; null when there
  // are more than BOARD_ELEMENTS.
  function visibleBoxes(el) {
    const found = [];
    const visit = (node) => {
      const kids = node.shadowRoot ? [...node.shadowRoot.children, ...node.children] : node.children;
      for (const kid of kids) {
        if (found.length > BOARD_ELEMENTS) return;
        if (kid.tagName === 'IFRAME' || kid.getAttribute('aria-hidden') === 'true') continue;
        if (!shown(kid)) {
          if (getComputedStyle(kid).display === 'contents') visit(kid);
          continue;
        }
        found.push({ el: kid, rect: kid.getBoundingClientRect() });
        visit(kid);
      }
    };
    visit(el);
    return found.length > BOARD_ELEMENTS ? null : found;
  }

  // The size shared by most boxes small enough to be a cell of a 3×3 grid in `outer` (the larger of two as common).
  // `outer` spans the boxes too: a layer of tiles is often a box of no size they overflow.
  function cellSize(boxes, outer) {
    let left = outer.left, top = outer.top, right = outer.right, bottom = outer.bottom;
    for (const { rect } of boxes) {
      left = Math.min(left, rect.left); top = Math.min(top, rect.top);
      right = Math.max(right, rect.right); bottom = Math.max(bottom, rect.bottom);
    }
    const spanX = right - left, spanY = bottom - top;
    const counts = new Map();
    for (const { rect } of boxes) {
      if (rect.width < 6 || rect.height < 6) continue;
      if (rect.width > spanX / 3 + 2 || rect.height > spanY / 3 + 2) continue;
      const key = Math.round(rect.width) + 'x' + Math.round(rect.height);
      counts.set(key, (counts.get(key) || 0) + 1);
    }
    let best = null;
    for (const key of counts.keys()) {
      const [width, height] = key.split('x').map(Number);
      let count = 0;
      for (const [other, n] of counts) {
        const [w, h] = other.split('x').map(Number);
        if (Math.abs(w - width) <= 2 && Math.abs(h - height) <= 2) count += n;
      }
      const larger = best && count === best.count && width * height > best.width * best.height;
      if (!best || count > best.count || larger) best = { width, height, count };
    }
    return best && best.count >= 9 ? best : null;
  }

  // The middles of the lanes (rows or columns) `values` fall in, in order: values nearer than `gap` share one.
  function lanes(values, gap) {
    const sorted = [...values].sort((a, b) => a - b);
    const found = [];
    for (const value of sorted) {
      const lane = found[found.length - 1];
      if (!lane || value - lane.last >= gap) found.push({ sum: value, n: 1, last: value });
      else { lane.sum += value; lane.n += 1; lane.last = value; }
    }
    return found.map((lane) => lane.sum / lane.n);
  }

  function laneOf(middles, value, gap) {
    for (let i = 0; i < middles.length; i++) if (Math.abs(middles[i] - value) < gap) return i;
    return -1;
  }

  let boardsSeen = new WeakMap(); // each element's board (or null), read once a walk: a board's rows ask for it too

  // A board inside `el`: cells of one size filling a grid of at least 3×3 (rows of divs, a CSS grid, or tiles in a
  // layer of their own over empty cells, as 2048 draws them), and every text inside on one cell, in an element of the
  // cells' size (a tile) that fits it. Its rows of cell texts ('' when empty), or null. A cell is the outermost element
  // of its size: a tile inside a cell is read in its cell, even while a script slides it there from another; a tile of
  // a layer of its own sliding by a CSS transition or animation is read on the cell nearest to it, if any.
  function boardOf(el) {
    if (!boardsSeen.has(el)) boardsSeen.set(el, readBoard(el));
    return boardsSeen.get(el);
  }

  function readBoard(el) {
    const boxes = visibleBoxes(el);
    if (!boxes || boxes.length < 9) return null;
    const moving = new Set();
    for (const animation of el.getAnimations({ subtree: true })) {
      const effect = animation.effect; // (a finished animation that holds its last frame moves nothing)
      const runs = animation.playState === 'running' || animation.playState === 'pending';
      if (runs && effect && effect.target && !effect.pseudoElement) moving.add(effect.target);
    }
    const up = (node) => node.parentElement || (node.parentNode && node.parentNode.host);
    const moves = (node) => {
      for (let at = node; at && at !== el; at = up(at)) if (moving.has(at)) return true;
      return false;
    };
    const still = boxes.filter((box) => !moves(box.el));
    const size = cellSize(still, el.getBoundingClientRect());
    if (!size) return null;
    const fits = (rect) => Math.abs(rect.width - size.width) <= 2 && Math.abs(rect.height - size.height) <= 2;
    const boxOf = new Map(boxes.map((box) => [box.el, box]));
    const cellOf = (node) => { // the outermost element of the cells' size around `node` (or itself), or null
      let found = null;
      for (let at = node; at && at !== el; at = up(at)) {
        const around = boxOf.get(at);
        if (around && fits(around.rect)) found = around;
      }
      return found;
    };
    const cells = still.filter((box) => fits(box.rect) && cellOf(box.el) === box);
    const middle = ({ rect }) => ({ x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 });
    const columns = lanes(cells.map((box) => middle(box).x), size.width / 2);
    const rows = lanes(cells.map((box) => middle(box).y), size.height / 2);
    if (rows.length < 3 || columns.length < 3 || rows.length * columns.length > BOARD_CELLS) return null;
    const placeOf = (box) => {
      const { x, y } = middle(box);
      const row = laneOf(rows, y, size.height / 2), column = laneOf(columns, x, size.width / 2);
      return row < 0 || column < 0 ? -1 : row * columns.length + column;
    };
    // Cells fill the grid (but those a tile's pop or glow animates this instant).
    const filled = new Set(cells.map(placeOf));
    filled.delete(-1);
    if (filled.size < rows.length * columns.length * 0.75) return null;
    for (const node of el.childNodes) if (node.nodeType === 3 && node.data.trim()) return null;
    const texts = rows.map(() => columns.map(() => ''));
    let any = false;
    for (const box of boxes) {
      if (![...box.el.childNodes].some((node) => node.nodeType === 3 && node.data.trim())) continue;
      // The text's cell, or a tile over one; a tile that a running animation scales has no size to go by: its middle.
      const tile = cellOf(box.el) || (moves(box.el) ? box : null);
      const place = tile ? placeOf(tile) : -1;
      if (place < 0) {
        if (moves(box.el)) continue; // on its way between two cells
        return null; // a text beside the cells: more than a board
      }
      const text = clean(textOf(tile.el), Infinity);
      if (text.length > CELL_TEXT) return null;
      texts[Math.floor(place / columns.length)][place % columns.length] = text; // of tiles on one cell, the last drawn
      any = any || !!text;
    }
    return any ? { rows: rows.length, columns: columns.length, texts } : null;
  }

  // A board found in a layer of tiles that fills its grid may be part of a larger one drawn over its parent's cells
  // (2048's tiles filling three rows and columns of its four): the parent's board then, else this one.
  function boardHere(el) {
    const board = boardOf(el);
    if (!board || board.texts.some((row) => row.some((text) => !text))) return board;
    for (let up = el.parentElement, k = 0; up && k < 2; up = up.parentElement, k++) {
      const around = boardOf(up);
      if (around && around.rows * around.columns > board.rows * board.columns) return null;
    }
    return board;
  }

  // Whether `el`'s short texts (`held`) are part of a board around it: a row of its cells (one of three or more
  // elements of one shape), or a layer of tiles placed over its cells (2048's tile container beside its grid).
  function partOfBoard(el, held) {
    if (!held.length || held.length > BOARD_CELLS || held.some((block) => block.text.length > CELL_TEXT)) return false;
    const parent = el.parentElement;
    if (!parent) return false;
    // (Looks at the row's siblings or at one tile cost far less than reading a board.)
    const shape = (node) => node.tagName + '.' + node.getAttribute('class');
    let alike = 0;
    for (const sibling of parent.children) if (shape(sibling) === shape(el)) alike += 1;
    let placed = false;
    for (let at = held[0].el; at && at !== el && !placed && alike < 3; at = at.parentElement) {
      const style = getComputedStyle(at);
      placed = style.position === 'absolute' || style.position === 'fixed' || style.transform !== 'none';
    }
    if (alike < 3 && !placed) return false;
    for (let up = parent, k = 0; up && k < 2; up = up.parentElement, k++) if (boardOf(up)) return true;
    return false;
  }

  // A cell as a board line shows it: · when empty, quoted when it has a space or could be read as a mark of the line.
  const cellText = (text) => (!text ? '·' : /[\s"]/.test(text) || text === '·' || text === '/' || text === '…'
    ? JSON.stringify(text) : text);

  // "4×4: 2 · · · / · 4 · · / …": the rows of cells (· an empty one), cut at BOARD_CHARS characters.
  function boardLine(board) {
    const rows = [];
    let length = 0;
    for (const row of board.texts) {
      const text = row.map(cellText).join(' ');
      if (length + text.length > BOARD_CHARS) { rows.push('…'); break; }
      rows.push(text);
      length += text.length + 3;
    }
    return board.rows + '×' + board.columns + ': ' + rows.join(' / ');
  }

  // Four or more children of one shape (a keypad of divs, a row of days), each with at most a short text.
  function isBoard(kids) {
    if (kids.length < 4 || !kids.some((kid) => kid.sum.text)) return false;
    const shape = (node) => node.tagName + '.' + (typeof node.className === 'string' ? node.className : '');
    const first = shape(kids[0].el);
    const alike = kids.filter((kid) => shape(kid.el) === first).length;
    return alike >= kids.length * 0.8 && kids.every((kid) => kid.sum.text !== null && kid.sum.text.length <= CELL_TEXT);
  }

  // "4×4: · 2 · · / …" when the cells are laid out in rows of equal length, else "5 items: a b c d e"; · is empty.
  function boardText(kids) {
    const cells = kids.slice(0, 100).map((kid) => cellText(kid.sum.text));
    const more = kids.length > 100 ? ' …' : '';
    const top = kids[0].el.getBoundingClientRect().top;
    let columns = 0;
    while (columns < kids.length && Math.abs(kids[columns].el.getBoundingClientRect().top - top) < 1) columns += 1;
    if (columns > 1 && columns < kids.length && kids.length % columns === 0 && kids.length <= 100) {
      const rows = [];
      for (let i = 0; i < cells.length; i += columns) rows.push(cells.slice(i, i + columns).join(' '));
      return (kids.length / columns) + '×' + columns + ': ' + rows.join(' / ');
    }
    return kids.length + ' items: ' + cells.join(' ') + more;
  }

  const NO_BLOCKS = Object.freeze([]);
  // What an element inside a named one without any entry tells its parent (one object for thousands of table cells).
  const UNNAMED_NOTHING = Object.freeze({
    entries: 0, text: null, lines: 0, block: true, held: NO_BLOCKS, count: 0, readouts: 0,
  });
  const CLOCK_EVERY = 64; // elements walked between two looks at the clock (reading it costs too)

  // What an element's children add up to for it (`gather`: whether their text is read at all).
  function tally(gather) {
    return {
      entries: 0, text: '', long: !gather, lineCount: 0, run: false, ownText: false, held: [], kids: [], cut: false,
      count: 0, readouts: 0,
    };
  }

  // One walk of the page from <body>, or of the rest of it from where the last walk stopped (`resume`), until the
  // clock passes `deadline` (performance.now()) or its lines reach `chars` characters: a page of 200,000 elements
  // takes longer to walk than a page is given to answer, and far more than one answer can hold. Returns its lines,
  // the refs they list, and where to go on (`resume`: the elements open when it stopped, each with the child it
  // was at) or null when it reached the end.
  function walkPage(lines, resume, deadline, chars) {
    let count = 0, written = 0, visited = 0;
    let last = null; // the role and name of the last line written
    let stopped = null;
    const open = []; // the elements whose children are being walked, outermost first
    drawnSeen = new WeakMap();
    rootsDrawing = new WeakMap();
    boardsSeen = new WeakMap();
    taken.length = 0;

    function write(slot, el, role, indent, name, extra) {
      let line = indent + (role || el.tagName.toLowerCase());
      if (role === 'heading') line += (el.getAttribute('aria-level') || el.tagName.slice(1));
      if (name) line += ' ' + JSON.stringify(name);
      line += ' ' + refOf(el);
      const testId = testIdOf(el);
      if (testId) line += ' #' + testId;
      const parts = role === 'text' ? extra : stateParts(el, role).concat(extra);
      lines[slot] = parts.length ? line + ' [' + parts.join(', ') + ']' : line;
      written += lines[slot].length + 1;
      count += 1;
      last = { role, name };
    }

    // Writes the text blocks held: a label and the number just after it as one read-out ("Score: 0", on the
    // number's ref), a label a read-out took not at all. Returns how many lines it wrote.
    function flush(held) {
      let wrote = 0;
      for (let i = 0; i < held.length; i++) {
        const block = held[i], next = held[i + 1];
        if (taken.some((label) => label.contains(block.el))) continue;
        const label = next && block.el.nextElementSibling === next.el && NUMBER.test(next.text)
          && !phraseGoesOn(next.el) ? labelText(block.text) : null;
        if (label) {
          write(block.slot, next.el, 'text', block.indent, label + ': ' + next.text, []);
          i += 1;
        } else {
          write(block.slot, block.el, 'text', block.indent, block.text, []);
        }
        wrote += 1;
      }
      return wrote;
    }

    // Whether the walk stops before the next element: once it does, it keeps where it was (a copy of `open`).
    function full() {
      if (stopped) return true;
      visited += 1;
      if (written < chars && (visited % CLOCK_EVERY !== 0 || performance.now() < deadline)) return false;
      stopped = open.map((frame) => ({ ...frame }));
      return true;
    }

    // Walks `frame.nodes` (the children of `frame.el`) from `from`, adding up into `sum` what they tell it. While
    // it runs, the frame is open: `index` is the child being walked, where a stopped walk goes on.
    function walkChildren(frame, from, sum) {
      open.push(frame);
      const nodes = frame.nodes;
      for (let i = from; i < nodes.length && !stopped; i++) {
        frame.index = i;
        const node = nodes[i];
        if (node.nodeType === 3) {
          if (!frame.gather) continue;
          if (!node.data.trim()) { sum.text += ' '; continue; }
          sum.ownText = true;
          if (!sum.run) { sum.lineCount += 1; sum.run = true; }
          if (!sum.long) sum.text += node.data;
        } else if (node.nodeType === 1) {
          const kid = walk(node, frame.inner, frame.cursor, !frame.gather);
          if (!kid) continue;
          sum.entries += kid.entries;
          if (!frame.gather) continue;
          sum.kids.push({ el: node, sum: kid });
          sum.count += 1 + kid.count;
          sum.readouts += kid.readouts;
          for (const block of kid.held) sum.held.push(block);
          if (kid.text === null) sum.long = true;
          else if (kid.text && !sum.long) sum.text += kid.block ? ' ' + kid.text + ' ' : kid.text;
          if (kid.block) { sum.lineCount += kid.lines; sum.run = false; } else if (kid.text && !sum.run) { sum.lineCount += 1; sum.run = true; }
        }
        if (sum.text.length > SHORT_TEXT * 4) sum.long = true;
      }
      open.pop();
      // Cut short, its text and its cells are not all there: it is neither one short text nor a board.
      if (stopped) { sum.long = true; sum.cut = true; }
      return sum;
    }

    // Writes the element's line (at a slot taken before its children, so lines stay in document order) and returns
    // what its parent needs: how many lines were written inside, its text (null when long), how many lines of text
    // it spans, whether it is a block, and the text blocks inside it not written yet: the parent may read them as
    // its own text (a counter "2 items left" is one line, not "2" and "items left"). Inside an element named by its
    // content (a list item, a row, a button) no text stands alone: the name holds it.
    function walk(el, indent, parentCursor, named) {
      if (full()) return null;
      // Not shown, or hidden from assistive technology: nor is anything inside (the walk never enters it).
      if (el.getAttribute('aria-hidden') === 'true') return null;
      const style = getComputedStyle(el);
      const display = style.display, shown = style.visibility; // each read of a computed style costs
      if (display === 'none' || shown === 'hidden' || shown === 'collapse') return null;
      const cursor = style.cursor;
      const role = roleOf(el);
      const isClickable = clickable(el, role, cursor, parentCursor);
      const live = liveRegion(el, role);
      const entry = meaningful(el, role) || STRUCTURE.has(role) || isClickable || live;
      const block = !display.startsWith('inline') && display !== 'contents';
      // A line's place, taken before the children's: an entry's, or a text block's (never inside a named element).
      const slot = entry || !named ? lines.length : -1;
      if (slot >= 0) lines.push(null);
      if (entry) refOf(el); // refs count up in document order

      if (entry && INTERACTIVE.has(role) && role !== 'listbox' && !el.querySelector(NESTED)) {
        // Interactive leaves carry their own name; their inner markup adds nothing an agent can act on.
        // Only an input can be drawn by its label; `labels` of anything else would cost a walk of the whole document
        // the first time it is read (seconds on a page of 20,000 buttons).
        const target = el.tagName === 'INPUT' && el.labels && el.labels.length ? clickTarget(el) : el;
        const name = contentName(el, role, nameOf(el, role));
        write(slot, el, role, indent, name, target !== el ? ['via label ' + refOf(target)] : []);
        return { entries: 1, text: null, lines: 1, block, held: [], count: 0, readouts: 0 };
      }

      const inner = entry ? indent + ' ' : indent;
      const claims = entry && (NAME_FROM_CONTENT.has(role) || live);
      // Inside an element named by its content no text block is written: its text is not gathered (the walk's
      // main cost on a big table).
      const gather = !named && !claims;
      const nodes = block && style.contentVisibility === 'hidden' ? [] : childNodesOf(el);
      const sum = walkChildren({ el, nodes, index: 0, inner, cursor, gather }, 0, tally(gather));
      const { long, lineCount, ownText, held, kids, cut } = sum;
      let entries = sum.entries;
      const whole = long ? null : clean(sum.text, Infinity);
      const short = whole !== null && whole.length <= SHORT_TEXT ? whole : null;

      if (named && !entry) {
        return entries ? { entries, text: null, lines: 0, block, held: NO_BLOCKS, count: 0, readouts: 0 } : UNNAMED_NOTHING;
      }
      const board = gather && !entries && !cut && whole && sum.count >= 9 ? boardHere(el) : null;
      if (entry) {
        let name = nameOf(el, role);
        let claimed = claims || named;
        // Its text, when it may name it (a read-out's number, or the text of an element without a name). Inside a
        // named element its text was not gathered: read it.
        const readout = !role || READOUTS.has(role);
        const content = entries || cut || board || (name && !readout) || (!readout && !isClickable && !live) ? null
          : gather ? short : clean(shortText(el), Infinity);
        const readable = content !== null && content.length <= SHORT_TEXT;
        const read = readable && readout ? readoutOf(el, role, content, true) : null;
        if (board) {
          name = name || BOARD;
        } else if (read) {
          name = read.name;
          claimed = true;
          if (read.from) taken.push(read.from);
        } else if (!name && readable && (!role || isClickable || live)) {
          const own = withDrawn(el, content);
          if (own && own.length <= SHORT_TEXT) { name = own; claimed = true; }
        } else {
          name = contentName(el, role, name);
        }
        if (role === 'listitem' && entries === 1 && last && (last.role === 'link' || last.role === 'button') && last.name === name) {
          // A list item that only wraps one link or button (a menu): the link's line says it all.
          for (let i = slot + 1; i < lines.length; i++) if (lines[i] !== null) lines[i] = lines[i].slice(1);
          return { entries, text: null, lines: lineCount, block, held: [], count: 0, readouts: 0 };
        }
        const extra = [];
        if (isClickable) extra.push('clickable');
        if (live) extra.push('live');
        if (board) extra.push(boardLine(board));
        else if (!entries && !cut && isBoard(kids)) extra.push(boardText(kids));
        else if (!claimed) entries += flush(held);
        write(slot, el, role, indent, name, extra);
        return { entries: entries + 1, text: null, lines: lineCount, block, held: [], count: 0, readouts: 0 };
      }
      if (board || (!entries && !cut && isBoard(kids))) {
        const name = nameOf(el, role) || (board ? BOARD : '');
        write(slot, el, role, indent, name, [board ? boardLine(board) : boardText(kids)]);
        return { entries: 1, text: null, lines: lineCount, block, held: [], count: 0, readouts: 0 };
      }
      // Its text as a person reads it: with what CSS draws around it, a number with the label it has elsewhere.
      let text = short, readouts = sum.readouts;
      if (short !== null && !entries && !cut) {
        const read = readoutOf(el, role, short, false);
        if (read) readouts = 1;
        text = read ? read.name : withDrawn(el, short);
        if (text.length > SHORT_TEXT) text = null;
      }
      if (!entries && text && lineCount <= 2 && readouts < 2) {
        // A label's text is its control's name already, a caption its table's.
        const alone = !(el.tagName === 'LABEL' && el.control) && el.tagName !== 'CAPTION';
        const blocks = alone ? [{ slot, el, indent, text }] : [];
        return { entries: 0, text, lines: lineCount, block, held: blocks, count: sum.count, readouts };
      }
      // Too long or too many lines to be one text (or two read-outs, "Score: 0" and "Best: 8"): its blocks stand
      // alone, unless they are words of its own running text (prose, left out whole).
      if (!ownText && !named) {
        if (!entries && !cut && whole && partOfBoard(el, held)) {
          // Its texts are cells of a board around it: the board reads them (or writes them, if it is no board after
          // all).
          return { entries: 0, text: whole, lines: lineCount, block, held, count: sum.count, readouts };
        }
        entries += flush(held);
      }
      return { entries, text: entries ? null : text, lines: lineCount, block, held: [], count: sum.count, readouts };
    }

    if (resume) {
      // The rest of the innermost open element's children, then of each element around it; their own lines came
      // with the walk before. The elements around stay open, so that a walk stopped again knows where it was.
      for (let k = resume.length - 1; k >= 0 && !stopped; k--) {
        open.length = 0;
        open.push(...resume.slice(0, k));
        const frame = { ...resume[k] };
        const sum = walkChildren(frame, k === resume.length - 1 ? frame.index : frame.index + 1, tally(frame.gather));
        if (frame.gather) flush(sum.held); // its text is long: the blocks stand alone
      }
    } else if (document.body) {
      const sum = walk(document.body, '', 'auto', false);
      if (sum) flush(sum.held);
    }
    return { lines: lines.filter((line) => line !== null), refCount: count, resume: stopped };
  }

  const header = () => ['# ' + document.title + ' — ' + location.href, '# role "name" ref #testid [states]'];

  function answer(piece, parts) {
    return {
      text: piece.lines.join('\n'), refCount: piece.refCount, url: location.href, title: document.title,
      next: state.next, first: piece.first, more: piece.resume !== null, elements: parts ? parts.elements : null,
    };
  }

  // `listened`: whether the engine has just handed over the elements with click listeners (else none listens).
  // Without `options`, the whole page in one walk. With them ({offset, partChars, budgetMs, largePage}), one walk
  // takes at most `budgetMs`, and a page of more than `largePage` elements is walked in pieces of about
  // `partChars` characters: the piece holding line `offset` (kept from an earlier call, or walked on from the
  // piece before it). The pieces are kept until the next snapshot from line 0; `first` is a piece's first line,
  // `more` whether pieces follow, `elements` the page's element count (null when it came whole). `lost` instead:
  // `offset` is no line of the snapshot as it is now (the page changed or navigated since the part before).
  function snapshot(listened, options) {
    if (!listened) state.listened = new WeakSet();
    if (!options) {
      const piece = walkPage(header(), null, Infinity, Infinity);
      return { text: piece.lines.join('\n'), refCount: piece.refCount, url: location.href, title: document.title, next: state.next };
    }
    const { offset, partChars, budgetMs, largePage } = options;
    const deadline = performance.now() + budgetMs;
    const parts = state.parts;
    if (offset > 0 && parts) {
      const tail = parts.pieces[parts.pieces.length - 1];
      const end = tail.first + tail.lines.length;
      const held = parts.pieces.find((piece) => offset >= piece.first && offset < piece.first + piece.lines.length);
      if (held) return answer(held, parts);
      if (offset === end && !tail.resume) return answer(tail, parts);
      if (offset === end && tail.resume.every((frame) => frame.el.isConnected)) {
        const piece = walkPage([], tail.resume, deadline, partChars);
        piece.first = end;
        parts.pieces.push(piece);
        return answer(piece, parts);
      }
      return { lost: true, next: state.next };
    }
    const elements = document.getElementsByTagName('*').length;
    const piece = walkPage(header(), null, deadline, elements > largePage ? partChars : Infinity);
    piece.first = 0;
    state.parts = piece.resume ? { pieces: [piece], elements } : null;
    return piece.resume && offset >= piece.lines.length ? { lost: true, next: state.next } : answer(piece, state.parts);
  }

  pfs.snapshot = snapshot;
})();
