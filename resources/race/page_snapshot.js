// The snapshot of Preflight Studio's in-page library (page_library.js, installed just before this file in the same
// isolated world). One line per element an agent acts on or reads: controls, and elements clickable without being
// links or buttons; landmarks, headings, lists, list items and table rows with their text; live regions; short text
// (a counter, a score, a status line); boards of short cells in one line. Prose is left to get_descendants.
(() => {
  const pfs = globalThis.__pfs;
  if (!pfs || pfs.snapshot) return;
  const { state, refOf, roleOf, nameOf, clean, shortText, testIdOf, meaningful, isVisible, clickTarget,
    INTERACTIVE, NAME_FROM_CONTENT } = pfs._internals;

  const SHORT_TEXT = 80; // longer text is prose
  const CELL_TEXT = 16; // the longest text of one cell of a board
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

  // Four or more children of one shape (a game board, a keypad of divs, a calendar), each with at most a short text.
  function isBoard(kids) {
    if (kids.length < 4 || !kids.some((kid) => kid.sum.text)) return false;
    const shape = (node) => node.tagName + '.' + (typeof node.className === 'string' ? node.className : '');
    const first = shape(kids[0].el);
    const alike = kids.filter((kid) => shape(kid.el) === first).length;
    return alike >= kids.length * 0.8 && kids.every((kid) => kid.sum.text !== null && kid.sum.text.length <= CELL_TEXT);
  }

  // "4×4: · 2 · · / …" when the cells are laid out in rows of equal length, else "5 items: a b c d e"; · is empty.
  function boardText(kids) {
    const cells = kids.slice(0, 100).map((kid) => (!kid.sum.text ? '·' : /\s/.test(kid.sum.text) ? JSON.stringify(kid.sum.text) : kid.sum.text));
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
  const UNNAMED_NOTHING = Object.freeze({ entries: 0, text: null, lines: 0, block: true, held: NO_BLOCKS });
  const CLOCK_EVERY = 64; // elements walked between two looks at the clock (reading it costs too)

  // What an element's children add up to for it (`gather`: whether their text is read at all).
  function tally(gather) {
    return { entries: 0, text: '', long: !gather, lineCount: 0, run: false, ownText: false, held: [], kids: [], cut: false };
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

    function flush(held) {
      for (const block of held) write(block.slot, block.el, 'text', block.indent, block.text, []);
      return held.length;
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
        write(slot, el, role, indent, nameOf(el, role), target !== el ? ['via label ' + refOf(target)] : []);
        return { entries: 1, text: null, lines: 1, block, held: [] };
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

      if (named && !entry) return entries ? { entries, text: null, lines: 0, block, held: NO_BLOCKS } : UNNAMED_NOTHING;
      if (entry) {
        let name = nameOf(el, role);
        let claimed = claims || named;
        if (!name && !entries && !cut && (!role || isClickable || live)) {
          // (Inside a named element its text was not gathered: read it.)
          const own = gather ? short : clean(shortText(el), Infinity);
          if (own && own.length <= SHORT_TEXT) { name = own; claimed = true; }
        }
        if (role === 'listitem' && entries === 1 && last && (last.role === 'link' || last.role === 'button') && last.name === name) {
          // A list item that only wraps one link or button (a menu): the link's line says it all.
          for (let i = slot + 1; i < lines.length; i++) if (lines[i] !== null) lines[i] = lines[i].slice(1);
          return { entries, text: null, lines: lineCount, block, held: [] };
        }
        const extra = [];
        if (isClickable) extra.push('clickable');
        if (live) extra.push('live');
        if (!entries && !cut && isBoard(kids)) extra.push(boardText(kids));
        else if (!claimed) entries += flush(held);
        write(slot, el, role, indent, name, extra);
        return { entries: entries + 1, text: null, lines: lineCount, block, held: [] };
      }
      if (!entries && !cut && isBoard(kids)) {
        write(slot, el, role, indent, nameOf(el, role), [boardText(kids)]);
        return { entries: 1, text: null, lines: lineCount, block, held: [] };
      }
      if (!entries && short && lineCount <= 2) {
        // A label's text is its control's name already, a caption its table's.
        const alone = !(el.tagName === 'LABEL' && el.control) && el.tagName !== 'CAPTION';
        return { entries: 0, text: short, lines: lineCount, block, held: alone ? [{ slot, el, indent, text: short }] : [] };
      }
      // Too long or too many lines to be one text: its blocks stand alone, unless they are words of its own running
      // text (prose, left out whole).
      if (!ownText && !named) entries += flush(held);
      return { entries, text: entries ? null : short, lines: lineCount, block, held: [] };
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
