// Preflight's page survey: what a tester would note on a first look at a page, in one read-only pass through the
// document, its open shadow roots and same-origin frames. Runs in the studio's isolated world after the in-page
// library and survey_kit.js, as `(source)(listened)`: `listened` says the library holds the elements page scripts gave
// click listeners (found over CDP, as for a snapshot). Feature flags are read apart, in the page's world (flags.js).
(listened) => {
  const K = globalThis.__pfsSurveyKit(listened);
  const { all, closest, contains, visible, clean, placeOf } = K;
  const GROUP_AT = 5; // alike clickable elements (seats, cards, draggable rows) listed as one control with a count

  // One key per element, so an element listed twice (an action that is also a filter) is counted once.
  const keys = new Map();
  const keyOf = (el) => { if (!keys.has(el)) keys.set(el, keys.size + 1); return keys.get(el); };
  const reported = new Set(); // elements some list below holds
  const pointer = (el) => getComputedStyle(el).cursor === 'pointer';
  // The role a tester would give it: the browser's, else 'button' for an <a> without href that looks clickable.
  const roleOf = (el) => {
    if (el.tagName === 'A' && !el.hasAttribute('href') && !el.getAttribute('role')) return pointer(el) ? 'button' : '';
    return K.roleOf(el) || el.tagName.toLowerCase();
  };
  // Nameless controls (an icon-only button) are told apart by their place: "button 2 in the header".
  const described = (el, role) => {
    const mark = K.landmark(el);
    const peers = all(el.tagName.toLowerCase()).filter((other) => (mark ? contains(mark, other) : !K.landmark(other))
      && (roleOf(other) === role || other === el) && visible(other));
    return `${role} ${Math.max(1, peers.indexOf(el) + 1)} in the ${placeOf(el)}`;
  };
  // Last resort for an element nothing else names: the n-th of its role inside its landmark (in the document itself:
  // an order through shadow roots and frames is not one a locator shares).
  const LANDMARK_ROLES = ['banner', 'main', 'contentinfo', 'navigation', 'complementary', 'dialog'];
  const nthOf = (el, role) => {
    if (el.getRootNode() !== document || !K.INTERACTIVE.has(role)) return null;
    const mark = K.landmark(el);
    const scope = mark ? K.roleOf(mark) || mark.getAttribute('role') : null;
    if (mark && !LANDMARK_ROLES.includes(scope)) return null;
    const peers = [...(mark || document).querySelectorAll('*')].filter((other) => K.roleOf(other) === role && visible(other));
    const index = peers.indexOf(el);
    return index < 0 ? null : { scope, role, index };
  };
  // The repeating item a control sits in (a list item, a row, a card), told apart by its text: "the checkbox of the
  // 'Buy milk' item".
  const itemOf = (el) => {
    let node = K.parentOf(el);
    for (let hops = 0; node && node.nodeType === 1 && hops < 6; hops += 1, node = K.parentOf(node)) {
      const role = K.roleOf(node);
      if (role === 'listitem' || role === 'row' || role === 'article') {
        const text = clean(K.textOf(node), 61);
        return text && text.length <= 60 ? { role, text } : null;
      }
    }
    return null;
  };
  const ownText = (el) => { const text = clean(K.shownText(el), 81); return text.length <= 80 ? text : ''; };
  const item = (el, role = roleOf(el), extra = {}) => {
    reported.add(el);
    const aria = K.roleOf(el);
    const accName = aria && aria === role ? clean(K.accessibleName(el, aria), 200) : '';
    const name = clean(accName || (role === 'button' || role === 'link' ? ownText(el) : '') || el.getAttribute('title')
      || el.value || '', 80);
    const testId = K.testIdOf(el);
    const css = accName || testId ? null : K.uniqueCss(el);
    return { key: keyOf(el), path: K.pathOf(el), role, name: name || described(el, role), accName, testId,
      href: el.tagName === 'A' ? el.getAttribute('href') : null, pressed: el.getAttribute('aria-pressed'),
      disabled: !!el.disabled || el.getAttribute('aria-disabled') === 'true', place: placeOf(el),
      css, nth: accName || testId || css ? null : nthOf(el, aria), inItem: testId ? null : itemOf(el), ...extra };
  };

  const banner = all('header, [role="banner"]')[0];
  const navs = all('nav, [role="navigation"]');
  const navRoot = (banner && navs.find((nav) => contains(banner, nav))) || navs[0] || null;
  const inNav = (el) => !!navRoot && contains(navRoot, el);
  const nav = navRoot ? all('a[href], [role="link"]').filter((el) => inNav(el) && visible(el)).map((el) => item(el)) : [];
  const inChrome = (el) => inNav(el) || !!closest(el, 'footer, [role="contentinfo"]');
  const main = all('main, [role="main"]')[0] || document.body;
  const inMain = (el) => contains(main, el);

  // An <a> without href that looks clickable (a pointer cursor) is used as a button ("New Game").
  const clickableAnchor = (el) => el.tagName === 'A' && !el.hasAttribute('href') && pointer(el);
  const mainActions = all('button, a, [role="button"], [role="link"], input[type="submit"], input[type="button"], [role="tab"]')
    .filter((el) => inMain(el) && (el.tagName !== 'A' || el.hasAttribute('href') || el.hasAttribute('role') || clickableAnchor(el))
      && visible(el) && !inChrome(el));
  // A single-page app keeps controls outside <main> too (a header's toggle, a footer's "Clear" button): buttons
  // anywhere count, links outside <main> do not (they are the site's navigation and footer links).
  const chromeButtons = all('button, [role="button"], input[type="submit"], input[type="button"], a:not([href])')
    .filter((el) => (el.tagName !== 'A' || clickableAnchor(el)) && visible(el) && !inMain(el) && !inNav(el) && !closest(el, 'form'));
  const actions = [...new Set([...mainActions, ...chromeButtons])].slice(0, 60).map((el) => item(el));

  // Views of a single-page app: links to client-side routes (#/active, #!/done) or to the same page's other states.
  const hashRoute = (href) => /^#!?\//.test(href || '');
  const views = all('a[href]').filter((el) => visible(el) && hashRoute(el.getAttribute('href'))).slice(0, 20)
    .map((el) => item(el, roleOf(el), { selected: el.classList.contains('selected') || el.classList.contains('active')
      || el.getAttribute('aria-current') === 'page' || el.getAttribute('aria-selected') === 'true' }));

  // A field as a catalogue lists it: what a tester reads as its name, and what Playwright finds it by.
  const TEXT_TYPES = ['text', 'search', '', 'email', 'url', 'tel', 'number'];
  const fieldItem = (el) => {
    reported.add(el);
    const labelled = K.labelledName(el);
    const testId = K.testIdOf(el);
    return { labelled, path: K.pathOf(el), css: labelled || testId ? null : K.uniqueCss(el), testId };
  };
  // Text fields that stand alone, outside any form with a button: a new-item field that acts on Enter.
  const standalone = all('input, textarea, [contenteditable="true"]').filter((el) => {
    if (!visible(el)) return false;
    if (el.tagName === 'INPUT' && !TEXT_TYPES.includes((el.getAttribute('type') || '').toLowerCase())) return false;
    const form = closest(el, 'form');
    return !form || ![...form.querySelectorAll('button, input[type="submit"]')].some(visible);
  }).slice(0, 10).map((el) => {
    const field = fieldItem(el);
    return { key: keyOf(el), path: field.path, role: el.tagName === 'TEXTAREA' || el.isContentEditable ? 'textbox'
      : ((el.type === 'search' || el.getAttribute('role') === 'searchbox') ? 'searchbox' : 'textbox'),
    name: K.fieldName(el), accName: clean(K.accessibleName(el, K.roleOf(el))), testId: field.testId, href: null,
    place: placeOf(el), placeholder: el.getAttribute('placeholder') || null, css: field.css };
  });

  const optionsOf = (el) => [...el.options].map((o) => clean(o.textContent, 60)).filter(Boolean).slice(0, 30);
  const fieldSpec = (el) => {
    const tag = el.tagName.toLowerCase();
    const type = tag === 'input' ? (el.type || 'text') : tag;
    const field = fieldItem(el);
    const name = K.fieldName(el);
    return {
      key: keyOf(el), name: name || el.name || el.id || type, label: name, labelText: field.labelled, type, tag,
      required: el.required || el.getAttribute('aria-required') === 'true', testId: field.testId,
      htmlName: el.name || null, path: field.path, css: field.css, autocomplete: el.getAttribute('autocomplete'),
      options: tag === 'select' ? optionsOf(el) : [],
    };
  };
  const fieldsIn = (root) => {
    const fields = [];
    const radioGroups = new Map();
    for (const el of root.querySelectorAll('input, select, textarea')) {
      if (!visible(el) || ['hidden', 'submit', 'button', 'reset', 'image'].includes(el.type)) continue;
      if (el.type === 'radio') {
        const key = el.name || 'radio';
        reported.add(el);
        if (!radioGroups.has(key)) {
          const set = closest(el, 'fieldset, [role="radiogroup"]');
          const legend = set && (set.querySelector('legend') || null);
          const spec = { key: keyOf(el), name: clean((legend && legend.textContent) || (set && set.getAttribute('aria-label')) || key),
            type: 'radio', tag: 'input', required: false, testId: null, htmlName: key, options: [], path: K.pathOf(el),
            labelText: '', css: null };
          spec.label = spec.name;
          radioGroups.set(key, spec);
          fields.push(spec);
        }
        const group = radioGroups.get(key);
        group.options.push(K.fieldName(el));
        group.required = group.required || el.required;
        continue;
      }
      fields.push(fieldSpec(el));
    }
    return fields;
  };
  const stepText = (root) => {
    // textContent, not innerText: a CSS text-transform would turn "Step 1 of 3" into "STEP 1 OF 3".
    const match = (root.textContent || '').match(/(?:Step|Шаг)\s*(\d+)\s*(?:of|из)\s*(\d+)/i);
    return match ? match[0] : null;
  };
  const submitOf = (form) => [...form.querySelectorAll('button, input[type="submit"]')].filter(visible)
    .find((b) => (b.type || '').toLowerCase() === 'submit') || [...form.querySelectorAll('button')].filter(visible).pop();
  const formHeading = (form) => form.querySelector('h1, h2, h3, legend');
  // A registration form (two password fields, a new password, a password among four fields or more, or an account's
  // fields under a submit or heading that says it creates one) is not a login: it is a form whose validation is
  // tested, and every field of it is expected to be filled (client-side checks seldom say `required`).
  const registerWords = /\b(sign[- ]?up|register|registration|create (?:an |your |new )?account|join|new account|get started)\b/i;
  const NOT_TEXT = ['hidden', 'submit', 'button', 'reset', 'image', 'checkbox', 'radio', 'file', 'range', 'color'];
  const textLike = all('input').filter((el) => visible(el) && !['password', 'email', 'search', ...NOT_TEXT].includes(el.type));
  const containerOf = (el) => closest(el, 'form') || (() => {
    // A form without <form>: the nearest ancestor holding a button and another field.
    for (let node = el.parentElement; node && node !== document.body; node = node.parentElement) {
      if (node.querySelector('button, input[type="submit"]') && node.querySelectorAll('input, select, textarea').length > 1) return node;
    }
    return null;
  })();
  const registration = (container) => {
    if (!container) return null;
    const fields = [...container.querySelectorAll('input, select, textarea')].filter((el) => visible(el) && !NOT_TEXT.includes(el.type));
    const secrets = fields.filter((el) => el.type === 'password');
    const submit = submitOf(container);
    const heading = formHeading(container) || (container.previousElementSibling && /^H[1-3]$/.test(container.previousElementSibling.tagName)
      ? container.previousElementSibling : null);
    const said = [submit && (submit.value || submit.textContent), heading && heading.textContent, container.getAttribute('aria-label')].join(' ');
    const account = secrets.length || fields.some((el) => el.type === 'email');
    const evidence = secrets.length >= 2 ? 'two password fields'
      : secrets.some((el) => el.getAttribute('autocomplete') === 'new-password') ? 'a new-password field'
        : secrets.length && fields.length >= 4 ? `a password among ${fields.length} fields`
          : (account && registerWords.test(said) && fields.length >= 2) ? `"${clean(said, 40)}"` : null;
    return evidence ? { evidence, fields: fields.length, name: clean((heading && heading.textContent) || said, 60) } : null;
  };
  const forms = all('form').filter((form) => inMain(form) && visible(form)).map((form) => {
    const heading = formHeading(form);
    const submit = submitOf(form);
    const fields = fieldsIn(form);
    const signUp = registration(form);
    if (signUp) fields.forEach((field) => { if (!['checkbox', 'radio'].includes(field.type)) field.required = true; });
    return {
      name: clean(form.getAttribute('aria-label') || (heading && heading.textContent) || form.id || 'form', 80),
      fields, submit: submit ? item(submit) : null, registration: signUp,
      stepText: stepText(closest(form, 'section, main') || form), method: (form.getAttribute('method') || 'get').toLowerCase(),
    };
  }).filter((form) => form.fields.length || form.stepText);

  const searchInputs = all('input, [role="searchbox"]').filter((el) => visible(el)
    && (el.type === 'search' || el.getAttribute('role') === 'searchbox' || /search/i.test(K.fieldName(el))))
    .map((el) => { const field = fieldItem(el); return { key: keyOf(el), path: field.path, role: 'searchbox',
      name: K.fieldName(el), accName: field.labelled, testId: field.testId, href: null, css: field.css }; });
  const filters = all('[aria-pressed], [role="tab"], select, a, button').filter((el) => inMain(el) && visible(el)
    && (el.hasAttribute('aria-pressed') || el.getAttribute('role') === 'tab'
      || /^(filter|sort|page)/i.test(K.testIdOf(el) || '')
      || (el.tagName === 'SELECT' && /sort|filter|show/i.test(K.fieldName(el)))
      || (/^(next|previous|prev)( page)?$/i.test(clean(K.accessibleName(el, K.roleOf(el)))) && !closest(el, 'form'))))
    .slice(0, 30).map((el) => (el.tagName === 'SELECT' ? { ...item(el), name: K.fieldName(el) || item(el).name } : item(el)));
  // A size limit the page states next to a file input ("up to 2 MB"), so cases need not invent one.
  const sizeLimit = (el) => {
    const root = el.getRootNode();
    const described = (el.getAttribute('aria-describedby') || '').split(/\s+/)
      .map((id) => ((root.getElementById && id ? root.getElementById(id) : null) || {}).textContent || '').join(' ');
    const around = el.closest('.field, label, fieldset, form, section') || el.parentElement;
    const text = [K.fieldName(el), described, around ? clean(around.textContent, 400) : ''].join(' ');
    const match = text.match(/(?:max(?:imum)?|up to|less than|under|limit|at most|no (?:more|larger) than)[^.\d]{0,30}?(\d+(?:[.,]\d+)?)\s*(KB|MB|GB|kB|Mb|Gb)\b/i);
    return match ? `${match[1]} ${match[2].toUpperCase()}` : null;
  };
  const fileInputs = all('input[type="file"]').map((el) => { const field = fieldItem(el); return { key: keyOf(el),
    path: field.path, role: 'file', name: K.fieldName(el), accName: field.labelled, testId: field.testId, href: null,
    accept: el.accept || null, sizeLimit: sizeLimit(el), css: field.css }; });
  const liveRegions = all('[role="status"], [role="alert"], [aria-live]').filter(visible)
    .map((el) => clean(K.textOf(el))).filter(Boolean);

  // Controls no list above holds: fields outside forms (a product filter's checkboxes, a movie <select>), elements
  // clickable by behaviour (a click listener, an onclick, a pointer cursor of their own, a tab stop), draggable items,
  // and every other element with an interactive role (menu items, options, site links outside <main>).
  const controls = [];
  const fieldControl = (el) => {
    const role = K.roleOf(el) || el.tagName.toLowerCase();
    const field = fieldItem(el);
    // The name a browser gives a field: its labels, else its title or placeholder (not the text beside it).
    const accName = field.labelled || clean(el.getAttribute('title') || el.getAttribute('placeholder') || '');
    controls.push({ key: keyOf(el), path: field.path, role, name: K.fieldName(el) || described(el, role),
      accName, testId: field.testId, href: null, place: placeOf(el), css: field.css, inItem: accName ? null : itemOf(el),
      foundBy: 'tag', type: el.tagName === 'INPUT' ? (el.type || 'text') : el.tagName.toLowerCase(),
      options: el.tagName === 'SELECT' ? optionsOf(el) : [], checked: el.type === 'checkbox' || el.type === 'radio' ? el.checked : null });
  };
  for (const el of all('input, select, textarea')) {
    if (reported.has(el) || !visible(el)) continue;
    if (['hidden', 'submit', 'button', 'reset', 'image'].includes(el.type)) continue;
    fieldControl(el);
  }
  // Elements clickable by behaviour, as the snapshot finds them, with the reason.
  const why = (el, style, parentStyle) => {
    if (K.isListened(el)) return 'listener';
    if (el.hasAttribute('onclick')) return 'onclick';
    if (el.getAttribute('draggable') === 'true') return 'draggable';
    if (el.hasAttribute('tabindex') && el.tabIndex >= 0) return 'tabindex';
    if (style.cursor === 'pointer' && (!parentStyle || parentStyle.cursor !== 'pointer')) return 'pointer';
    return null;
  };
  const candidates = [];
  const styles = new Map(); // a parent's style is read for each of its children
  const styleOf = (el) => { let style = styles.get(el); if (!style) { style = getComputedStyle(el); styles.set(el, style); } return style; };
  const SKIP = new Set(['HTML', 'HEAD', 'BODY', 'SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT', 'OPTION', 'svg', 'path', 'LINK', 'META', 'TITLE']);
  let scanned = 0;
  for (const root of K.roots) {
    for (const el of root.querySelectorAll('*')) {
      if (SKIP.has(el.tagName) || reported.has(el) || ++scanned > 8000) continue;
      const role = K.roleOf(el);
      if (role && K.INTERACTIVE.has(role)) continue; // the sweep below
      const parent = K.parentOf(el);
      const reason = why(el, styleOf(el), parent && parent.nodeType === 1 ? styleOf(parent) : null);
      if (!reason || !visible(el)) continue;
      if (el.tagName === 'LABEL' && el.control && visible(el.control)) continue; // it acts on its control, listed already
      if (el.querySelector(K.CONTROLS)) continue; // a card around its buttons is not one more control
      candidates.push({ el, reason });
    }
  }
  // A listener on a container of alike cells (seats, a board) stands for each cell: one group of them.
  const groups = [];
  const grouped = new Set();
  for (const { el, reason } of candidates) {
    if (reason !== 'listener') continue;
    const leaves = [...el.querySelectorAll('*')].filter((leaf) => !leaf.children.length && visible(leaf));
    const bySignature = new Map();
    for (const leaf of leaves) bySignature.set(K.signature(leaf), [...(bySignature.get(K.signature(leaf)) || []), leaf]);
    const cells = [...bySignature.values()].sort((a, b) => b.length - a.length)[0];
    if (cells && cells.length >= 3) {
      groups.push({ container: el, members: cells, reason });
      cells.forEach((cell) => grouped.add(cell));
      grouped.add(el);
    }
  }
  const lone = candidates.filter(({ el }) => !grouped.has(el));
  const bySignature = new Map();
  for (const entry of lone) {
    const signature = K.signature(entry.el) + (entry.reason === 'draggable' ? ':drag' : '');
    bySignature.set(signature, [...(bySignature.get(signature) || []), entry]);
  }
  const commonPath = (paths) => {
    const split = paths.map((path) => path.split('/'));
    const common = [];
    for (let i = 0; split.every((parts) => i < parts.length - 1 && parts[i] === split[0][i]); i++) common.push(split[0][i]);
    return common.join('/');
  };
  const wordOf = (el) => (K.semanticClasses(el)[0] || el.tagName.toLowerCase()).replace(/[-_]+/g, ' ');
  const clickRole = (reason) => (reason === 'draggable' ? 'draggable' : 'clickable');
  for (const entries of bySignature.values()) {
    if (entries.length >= GROUP_AT) {
      groups.push({ container: null, members: entries.map((entry) => entry.el), reason: entries[0].reason });
      continue;
    }
    for (const { el, reason } of entries) {
      reported.add(el);
      const text = ownText(el);
      const name = clean(el.getAttribute('aria-label') || text || el.getAttribute('title') || '', 80);
      const testId = K.testIdOf(el);
      controls.push({ key: keyOf(el), path: K.pathOf(el), role: clickRole(reason), name: name || described(el, wordOf(el)),
        accName: '', text: text || null, testId, href: null, place: placeOf(el), css: testId ? null : K.uniqueCss(el),
        foundBy: reason, draggable: el.getAttribute('draggable') === 'true' });
    }
  }
  for (const { container, members, reason } of groups) {
    members.forEach((member) => reported.add(member));
    const paths = members.map(K.pathOf);
    controls.push({ key: keyOf(container || members[0]), path: container ? K.pathOf(container) : commonPath(paths),
      role: clickRole(reason), name: wordOf(members[0]), accName: '', testId: null, href: null,
      place: placeOf(members[0]), css: K.groupCss(members, container), foundBy: reason, count: members.length,
      draggable: members[0].getAttribute('draggable') === 'true',
      samples: members.slice(0, 3).map((member) => ownText(member)).filter(Boolean) });
  }
  // Every other element with an interactive role the page shows: nothing the snapshot lists goes unlisted.
  const INTERACTIVE_SELECTOR = 'a[href], button, summary, [role], [contenteditable="true"]';
  for (const el of all(INTERACTIVE_SELECTOR)) {
    if (reported.has(el) || controls.length >= 120) continue;
    const role = K.roleOf(el);
    if (!role || !K.INTERACTIVE.has(role) || !visible(el)) continue;
    if (role === 'option' && closest(el, 'select')) continue;
    controls.push({ ...item(el, role), foundBy: 'role' });
  }
  // A control drawn by its label (the control itself hidden): the label is what a user clicks.
  for (const label of all('label')) {
    if (reported.has(label) || !label.control || visible(label.control) || !visible(label)) continue;
    const text = ownText(label);
    reported.add(label);
    controls.push({ key: keyOf(label), path: K.pathOf(label), role: 'clickable', name: text || described(label, 'label'),
      accName: '', text: text || null, testId: K.testIdOf(label), href: null, place: placeOf(label),
      css: K.uniqueCss(label), foundBy: 'label' });
  }

  // Login: a password field outside a registration form, or real one-time-code evidence; a numeric field alone (an
  // amount, a quantity) is not.
  const words = (text) => (text || '').replace(/([a-z])([A-Z])/g, '$1 $2');
  const codeWords = /(^|[^a-z])(otp|totp|2fa|mfa|one[-_ ]?time|verification[-_ ]?code|authenticator|security[-_ ]?code|authentication[-_ ]?code|passcode)([^a-z]|$)/i;
  const passwords = all('input[type="password"]').filter(visible);
  let signUp = null;
  const password = passwords.find((el) => {
    const found = registration(containerOf(el));
    if (found && !signUp) signUp = found;
    return !found;
  });
  const codeEvidence = (el) => el.getAttribute('autocomplete') === 'one-time-code'
    || codeWords.test(words([el.name, el.id, K.fieldName(el), el.getAttribute('placeholder') || ''].join(' ')));
  const otp = textLike.find(codeEvidence);
  // Weak evidence, used only on the page reached right after submitting a password: a short field alone in its form.
  const codeCandidate = !otp && !password && !signUp ? textLike.find((el) => {
    const form = closest(el, 'form');
    const max = el.maxLength;
    return form && max >= 4 && max <= 10 && textLike.filter((other) => form.contains(other)).length === 1;
  }) : null;
  const loginForm = password && containerOf(password);
  const userSelector = 'input[type="email"], input[autocomplete="username"], input[name*="email" i], input[name*="user" i]';
  const email = (loginForm && [...loginForm.querySelectorAll(userSelector)].find(visible)) || all(userSelector).find(visible);
  const loginField = password || otp || codeCandidate;
  const loginContainer = loginField && containerOf(loginField);
  const loginSubmit = loginContainer && [...loginContainer.querySelectorAll('button, input[type="submit"]')].find(visible);
  const nameOf = (el) => clean(K.accessibleName(el, K.roleOf(el)) || el.value || K.shownText(el), 80);

  // The role, where the page shows it: a role badge or "Role: …" in the header or account menu, else a role word.
  const account = all('header, [role="banner"], [data-testid*="user" i], [data-testid*="account" i], [class*="account" i], [class*="user-menu" i], [aria-label*="account" i]');
  const roleWords = /\b(admin|administrator|viewer|editor|owner|member|manager|analyst|guest|superuser|moderator|auditor|contributor)\b/i;
  let roleHint = null;
  for (const root of account) {
    const tagged = [...root.querySelectorAll('[data-role], [class*="role" i], [data-testid*="role" i], [aria-label^="role" i]')]
      .map((el) => clean(el.getAttribute('data-role') || el.textContent, 40)).find((text) => text && text.length < 40);
    const said = [...root.querySelectorAll('*')].slice(0, 300).map((el) => (clean(el.textContent, 60).match(/^role\s*:\s*(.{2,30})$/i) || [])[1])
      .find(Boolean);
    const pill = [...root.querySelectorAll('span, small, em, strong, [class*="pill" i], [class*="badge" i]')]
      .map((el) => clean(el.textContent, 30)).find((text) => roleWords.test(text) && text.length < 30);
    roleHint = tagged || said || (pill && pill.match(roleWords)[1]) || null;
    if (roleHint) break;
  }

  // A workspace / tenant / organization switcher: a select, or a combobox/menu button with its items.
  const switchWords = /workspace|tenant|organi[sz]ation|\bteam\b|\baccount\b|\bproject\b/i;
  const switchSelect = all('select').find((el) => visible(el) && switchWords.test(K.fieldName(el)));
  let tenant = null;
  if (switchSelect) {
    tenant = { kind: 'select', label: K.fieldName(switchSelect), options: optionsOf(switchSelect).slice(0, 20),
      current: switchSelect.selectedIndex >= 0 ? clean(switchSelect.options[switchSelect.selectedIndex].textContent, 60) : null };
  } else {
    const trigger = all('[role="combobox"], button[aria-haspopup], [aria-haspopup="menu"], [aria-haspopup="listbox"]')
      .find((el) => visible(el) && switchWords.test(el.getAttribute('aria-label') || K.fieldName(el) || ''));
    if (trigger) {
      const root = trigger.getRootNode();
      const list = (root.getElementById && trigger.getAttribute('aria-controls') ? root.getElementById(trigger.getAttribute('aria-controls')) : null)
        || trigger.parentElement;
      const items = list ? [...list.querySelectorAll('[role="menuitem"], [role="menuitemradio"], [role="option"]')] : [];
      tenant = { kind: 'menu', label: clean(trigger.getAttribute('aria-label') || K.fieldName(trigger), 60),
        options: items.map((el) => clean(el.textContent, 60)).filter(Boolean).slice(0, 20),
        current: clean(trigger.innerText || trigger.textContent, 60) || null };
    }
  }

  // Links in the page that this user cannot see or use (hidden or disabled): pages that may be role-gated.
  const hiddenLinks = all('a[href]').filter((el) => !visible(el)
      || el.getAttribute('aria-disabled') === 'true' || /\bdisabled\b/i.test(el.className || ''))
    .map((el) => ({ name: clean(el.textContent, 60), href: el.getAttribute('href') }))
    .filter((link) => link.href && !/^(#|mailto:|tel:|javascript:)/i.test(link.href)).slice(0, 20);

  // What makes a page a game, as a tester would notice: a large canvas, a board of cells, a score, game words.
  function gameSignals() {
    const area = Math.max(1, innerWidth * innerHeight);
    const canvases = all('canvas').filter(visible).map((c) => {
      const r = c.getBoundingClientRect();
      return { width: Math.round(r.width), height: Math.round(r.height), share: Math.round(1000 * r.width * r.height / area) / 1000 };
    });
    // A board: a container whose many children have one size and fill rows and columns.
    let board = 0;
    for (const parent of all('div, table, ul, section').slice(0, 3000)) {
      const kids = [...parent.children].filter((k) => k.offsetWidth > 8 && k.offsetHeight > 8);
      if (kids.length < 9 || kids.length > 400) continue;
      const sizes = new Set(kids.map((k) => `${k.offsetWidth}x${k.offsetHeight}`));
      const rows = new Set(kids.map((k) => k.offsetTop));
      const cols = new Set(kids.map((k) => k.offsetLeft));
      if (sizes.size <= 2 && rows.size >= 3 && cols.size >= 3) board = Math.max(board, kids.length);
    }
    const text = clean(K.shownText(document.body), 4000);
    const score = (text.match(/\b(score|points|best|high score|level|lives)\b\s*:?\s*\d+/i) || [])[0] || null;
    const found = [...new Set((text.match(/\b(new game|play again|try again|game over|you win|you lose|press (?:space|enter|any key)|click to (?:start|play)|tap to (?:start|play)|start game|arrow keys|wasd)\b/gi) || []).map((w) => w.toLowerCase()))];
    return { canvases, board, score, words: found };
  }

  // Headings, the page's own first: level 1 before 2 before 3, each in document order (a name is chosen from them).
  const levelOf = (el) => Number(el.getAttribute('aria-level') || (/^H[1-6]$/.test(el.tagName) ? el.tagName[1] : 2));
  const headings = all('h1, h2, h3, [role="heading"]').filter((el) => levelOf(el) <= 3 && visible(el))
    .map((el, index) => ({ level: levelOf(el), index, text: clean(K.textOf(el), 80) })).filter((h) => h.text)
    .sort((a, b) => a.level - b.level || a.index - b.index).slice(0, 12).map((h) => h.text);
  const h1 = all('h1')[0];
  return {
    url: location.href, title: document.title, heading: h1 ? clean(K.textOf(h1), 80) : '', headings,
    nav, actions, forms, searchInputs, filters, fileInputs, liveRegions,
    views, inputs: standalone, controls, game: gameSignals(),
    login: { hasPassword: !!password, hasOtp: !!otp && !password, emailLabel: email ? K.fieldName(email) : null,
      passwordLabel: password ? K.fieldName(password) : null, otpLabel: otp ? K.fieldName(otp) : null,
      codeCandidateLabel: codeCandidate ? K.fieldName(codeCandidate) : null,
      submit: loginSubmit ? nameOf(loginSubmit) : null, registration: signUp },
    roleHint: roleHint ? roleHint.toLowerCase() : null,
    tenant,
    hiddenLinks,
    textSample: clean(K.shownText(main), 400),
    roots: K.roots.length, shadowRoots: K.shadows,
  };
}
