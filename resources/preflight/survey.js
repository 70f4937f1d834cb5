// Preflight's page survey: what a tester would note on a first look at a page, in one read-only pass.
// Evaluated with page.evaluate(source) — the file is one function expression.
() => {
  const clean = (text, limit = 120) => {
    const value = (text || '').replace(/\s+/g, ' ').trim();
    return value.length > limit ? value.slice(0, limit - 1) + '…' : value;
  };
  const visible = (el) => el && (el.checkVisibility ? el.checkVisibility({ visibilityProperty: true }) : !!el.offsetParent)
    && !el.closest('[aria-hidden="true"]');
  const labelOf = (el) => {
    const by = el.getAttribute('aria-labelledby');
    if (by) {
      const text = by.split(/\s+/).map((id) => (document.getElementById(id) || {}).textContent || '').join(' ');
      if (clean(text)) return clean(text);
    }
    if (el.getAttribute('aria-label')) return clean(el.getAttribute('aria-label'));
    if (el.labels && el.labels.length) {
      // The label's own words, without the text of controls nested in it.
      const label = el.labels[0].cloneNode(true);
      label.querySelectorAll('input, select, textarea, [aria-hidden="true"], .sr-only').forEach((n) => n.remove());
      if (clean(label.textContent)) return clean(label.textContent);
    }
    return clean(el.getAttribute('placeholder') || el.getAttribute('title') || el.getAttribute('name') || '');
  };
  const nameOf = (el) => clean(el.getAttribute('aria-label') || el.innerText || el.textContent || el.value || '', 80);
  const roleOf = (el) => {
    const role = el.getAttribute('role');
    if (role) return role;
    if (el.tagName === 'A') return el.hasAttribute('href') ? 'link' : (clickableAnchorRole(el) ? 'button' : '');
    if (el.tagName === 'BUTTON' || (el.tagName === 'INPUT' && ['submit', 'button', 'reset'].includes(el.type))) return 'button';
    return el.tagName.toLowerCase();
  };
  const clickableAnchorRole = (el) => getComputedStyle(el).cursor === 'pointer';
  // One key per element, so an element listed twice (an action that is also a filter) is counted once.
  const keys = new Map();
  const keyOf = (el) => { if (!keys.has(el)) keys.set(el, keys.size + 1); return keys.get(el); };
  const item = (el) => ({ key: keyOf(el), role: roleOf(el), name: nameOf(el), testId: el.getAttribute('data-testid'),
    href: el.tagName === 'A' ? el.getAttribute('href') : null, pressed: el.getAttribute('aria-pressed'),
    disabled: !!el.disabled || el.getAttribute('aria-disabled') === 'true' });

  const banner = document.querySelector('header, [role="banner"]');
  const navRoot = (banner && banner.querySelector('nav, [role="navigation"]')) || document.querySelector('nav, [role="navigation"]');
  const nav = navRoot ? [...navRoot.querySelectorAll('a[href], [role="link"]')].filter(visible).map(item) : [];
  const inChrome = (el) => (navRoot && navRoot.contains(el)) || el.closest('footer, [role="contentinfo"]');
  const main = document.querySelector('main, [role="main"]') || document.body;

  // An <a> without href that looks clickable (a pointer cursor) is used as a button ("New Game").
  const clickableAnchor = (el) => el.tagName === 'A' && !el.hasAttribute('href') && getComputedStyle(el).cursor === 'pointer';
  const mainActions = [...main.querySelectorAll('button, a, [role="button"], [role="link"], input[type="submit"], input[type="button"], [role="tab"]')]
    .filter((el) => (el.tagName !== 'A' || el.hasAttribute('href') || el.hasAttribute('role') || clickableAnchor(el))
      && visible(el) && !inChrome(el) && nameOf(el));
  // A single-page app keeps controls outside <main> too (a header's toggle, a footer's "Clear" button): buttons
  // anywhere count, links outside <main> do not (they are the site's navigation and footer links).
  const chromeButtons = [...document.querySelectorAll('button, [role="button"], input[type="submit"], input[type="button"], a:not([href])')]
    .filter((el) => (el.tagName !== 'A' || clickableAnchor(el)) && visible(el) && !main.contains(el) && !(navRoot && navRoot.contains(el)) && nameOf(el)
      && !el.closest('form'));
  const actions = [...new Set([...mainActions, ...chromeButtons])].map(item);

  // Views of a single-page app: links to client-side routes (#/active, #!/done) or to the same page's other states.
  const hashRoute = (href) => /^#!?\//.test(href || '');
  const landmarkOf = (el) => {
    const mark = el.closest('header, footer, nav, aside, main, [role="banner"], [role="contentinfo"], [role="navigation"]');
    if (!mark) return 'page';
    const role = mark.getAttribute('role');
    return { header: 'header', footer: 'footer', nav: 'navigation', aside: 'sidebar', main: 'main' }[mark.tagName.toLowerCase()]
      || { banner: 'header', contentinfo: 'footer', navigation: 'navigation' }[role] || 'page';
  };
  const views = [...document.querySelectorAll('a[href]')].filter((el) => visible(el) && hashRoute(el.getAttribute('href')) && nameOf(el))
    .map((el) => ({ ...item(el), place: landmarkOf(el), selected: el.classList.contains('selected') || el.classList.contains('active')
      || el.getAttribute('aria-current') === 'page' || el.getAttribute('aria-selected') === 'true' }));

  // Text fields that stand alone, outside any form with a button: a new-item field that acts on Enter.
  const standalone = [...document.querySelectorAll('input, textarea, [contenteditable="true"]')].filter((el) => {
    if (!visible(el) || el.closest('[aria-hidden="true"]')) return false;
    if (el.tagName === 'INPUT' && !['text', 'search', '', 'email', 'url', 'tel', 'number'].includes((el.getAttribute('type') || '').toLowerCase())) return false;
    const form = el.closest('form');
    return !form || ![...form.querySelectorAll('button, input[type="submit"]')].some(visible);
  }).map((el) => ({ key: keyOf(el), role: el.tagName === 'TEXTAREA' || el.isContentEditable ? 'textbox'
      : ((el.type === 'search' || el.getAttribute('role') === 'searchbox') ? 'searchbox' : 'textbox'),
    name: labelOf(el), testId: el.getAttribute('data-testid'), href: null, place: landmarkOf(el),
    placeholder: el.getAttribute('placeholder') || null }));

  const fieldSpec = (el) => {
    const tag = el.tagName.toLowerCase();
    const type = tag === 'input' ? (el.type || 'text') : tag;
    return {
      key: keyOf(el), name: labelOf(el) || el.name || el.id || type, label: labelOf(el), type, tag,
      required: el.required || el.getAttribute('aria-required') === 'true',
      testId: el.getAttribute('data-testid'), htmlName: el.name || null,
      options: tag === 'select' ? [...el.options].map((o) => clean(o.textContent, 60)).filter(Boolean) : [],
    };
  };
  const fieldsIn = (root) => {
    const fields = [];
    const radioGroups = new Map();
    for (const el of root.querySelectorAll('input, select, textarea')) {
      if (!visible(el) || ['hidden', 'submit', 'button', 'reset', 'image'].includes(el.type)) continue;
      if (el.type === 'radio') {
        const key = el.name || 'radio';
        if (!radioGroups.has(key)) {
          const set = el.closest('fieldset, [role="radiogroup"]');
          const legend = set && (set.querySelector('legend') || null);
          const spec = { key: keyOf(el), name: clean((legend && legend.textContent) || (set && set.getAttribute('aria-label')) || key),
            type: 'radio', tag: 'input', required: false, testId: null, htmlName: key, options: [] };
          spec.label = spec.name;
          radioGroups.set(key, spec);
          fields.push(spec);
        }
        const group = radioGroups.get(key);
        group.options.push(labelOf(el));
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
  const forms = [...main.querySelectorAll('form')].filter(visible).map((form) => {
    const heading = form.querySelector('h1, h2, h3, legend');
    const submit = [...form.querySelectorAll('button, input[type="submit"]')].filter(visible)
      .find((b) => (b.type || '').toLowerCase() === 'submit') || [...form.querySelectorAll('button')].filter(visible).pop();
    return {
      name: clean(form.getAttribute('aria-label') || (heading && heading.textContent) || form.id || 'form', 80),
      fields: fieldsIn(form), submit: submit ? item(submit) : null,
      stepText: stepText(form.closest('section, main') || form), method: (form.getAttribute('method') || 'get').toLowerCase(),
    };
  }).filter((form) => form.fields.length || form.stepText);

  const searchInputs = [...document.querySelectorAll('input, [role="searchbox"]')].filter((el) => visible(el)
    && (el.type === 'search' || el.getAttribute('role') === 'searchbox' || /search/i.test(labelOf(el))))
    .map((el) => ({ key: keyOf(el), role: 'searchbox', name: labelOf(el), testId: el.getAttribute('data-testid'), href: null }));
  const filters = [...main.querySelectorAll('[aria-pressed], [role="tab"], select, a, button')].filter((el) => visible(el)
    && (el.hasAttribute('aria-pressed') || el.getAttribute('role') === 'tab'
      || /^(filter|sort|page)/i.test(el.getAttribute('data-testid') || '')
      || (el.tagName === 'SELECT' && /sort|filter|show/i.test(labelOf(el)))
      || (/^(next|previous|prev)( page)?$/i.test(nameOf(el)) && !el.closest('form')))).map(item);
  // A size limit the page states next to a file input ("up to 2 MB"), so cases need not invent one.
  const sizeLimit = (el) => {
    const described = (el.getAttribute('aria-describedby') || '').split(/\s+/)
      .map((id) => (document.getElementById(id) || {}).textContent || '').join(' ');
    const around = el.closest('.field, label, fieldset, form, section') || el.parentElement;
    const text = [labelOf(el), described, around ? clean(around.textContent, 400) : ''].join(' ');
    const match = text.match(/(?:max(?:imum)?|up to|less than|under|limit|at most|no (?:more|larger) than)[^.\d]{0,30}?(\d+(?:[.,]\d+)?)\s*(KB|MB|GB|kB|Mb|Gb)\b/i);
    return match ? `${match[1]} ${match[2].toUpperCase()}` : null;
  };
  const fileInputs = [...document.querySelectorAll('input[type="file"]')].map((el) => ({ key: keyOf(el),
    role: 'file', name: labelOf(el), testId: el.getAttribute('data-testid'), href: null, accept: el.accept || null,
    sizeLimit: sizeLimit(el) }));
  const liveRegions = [...document.querySelectorAll('[role="status"], [role="alert"], [aria-live]')].filter(visible)
    .map((el) => clean(el.textContent)).filter(Boolean);

  // Login: a password field, or real one-time-code evidence. A numeric field alone (an amount, a quantity) is not.
  const words = (text) => (text || '').replace(/([a-z])([A-Z])/g, '$1 $2');
  const codeWords = /(^|[^a-z])(otp|totp|2fa|mfa|one[-_ ]?time|verification[-_ ]?code|authenticator|security[-_ ]?code|authentication[-_ ]?code|passcode)([^a-z]|$)/i;
  const textLike = [...document.querySelectorAll('input')].filter((el) => visible(el)
    && !['hidden', 'password', 'submit', 'button', 'reset', 'image', 'checkbox', 'radio', 'file', 'email', 'search'].includes(el.type));
  const codeEvidence = (el) => el.getAttribute('autocomplete') === 'one-time-code'
    || codeWords.test(words([el.name, el.id, labelOf(el), el.getAttribute('placeholder') || ''].join(' ')));
  const password = [...document.querySelectorAll('input[type="password"]')].find(visible);
  const otp = textLike.find(codeEvidence);
  // Weak evidence, used only on the page reached right after submitting a password: a short field alone in its form.
  const codeCandidate = !otp && !password ? textLike.find((el) => {
    const form = el.closest('form');
    const max = el.maxLength;
    return form && max >= 4 && max <= 10 && textLike.filter((other) => form.contains(other)).length === 1;
  }) : null;
  const email = [...document.querySelectorAll('input[type="email"], input[autocomplete="username"], input[name*="email" i], input[name*="user" i]')].find(visible);
  const loginField = password || otp || codeCandidate;
  const loginForm = loginField && loginField.closest('form');
  const loginSubmit = loginForm && [...loginForm.querySelectorAll('button, input[type="submit"]')].find(visible);

  // The role, where the page shows it: a role badge or "Role: …" in the header or account menu, else a role word.
  const account = [...document.querySelectorAll('header, [role="banner"], [data-testid*="user" i], [data-testid*="account" i], [class*="account" i], [class*="user-menu" i], [aria-label*="account" i]')];
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
  const switchSelect = [...document.querySelectorAll('select')].find((el) => visible(el) && switchWords.test(labelOf(el)));
  let tenant = null;
  if (switchSelect) {
    tenant = { kind: 'select', label: labelOf(switchSelect), options: [...switchSelect.options].map((o) => clean(o.textContent, 60)).filter(Boolean).slice(0, 20),
      current: switchSelect.selectedIndex >= 0 ? clean(switchSelect.options[switchSelect.selectedIndex].textContent, 60) : null };
  } else {
    const trigger = [...document.querySelectorAll('[role="combobox"], button[aria-haspopup], [aria-haspopup="menu"], [aria-haspopup="listbox"]')]
      .find((el) => visible(el) && switchWords.test(el.getAttribute('aria-label') || labelOf(el) || ''));
    if (trigger) {
      const list = document.getElementById(trigger.getAttribute('aria-controls') || '') || trigger.parentElement;
      const items = list ? [...list.querySelectorAll('[role="menuitem"], [role="menuitemradio"], [role="option"]')] : [];
      tenant = { kind: 'menu', label: clean(trigger.getAttribute('aria-label') || labelOf(trigger), 60),
        options: items.map((el) => clean(el.textContent, 60)).filter(Boolean).slice(0, 20),
        current: clean(trigger.innerText || trigger.textContent, 60) || null };
    }
  }

  // Feature flags the page can see: bootstrapped attributes, flag SDK bootstrap globals, data-flag attributes and
  // flag-like localStorage keys. Read only (no SDK call, which could send events), bounded, errors ignored.
  const flags = new Set();
  const addFlag = (name, value = true) => {
    name = clean(String(name == null ? '' : name), 60);
    if (!name || name.startsWith('$') || flags.size >= 50) return;
    if (value === false || value === null || value === undefined || value === 0) return;
    if (typeof value === 'string' && /^(false|off|disabled|control|default|)$/i.test(value.trim())) return;
    flags.add(value === true || (typeof value === 'string' && /^(true|on|enabled)$/i.test(value)) ? name
      : (typeof value === 'object' ? name : `${name}=${clean(String(value), 40)}`));
  };
  const readFlags = (source, depth = 0) => {
    if (!source || typeof source !== 'object' || depth > 2) return;
    if (Array.isArray(source)) {
      for (const item of source.slice(0, 50)) {
        if (typeof item === 'string') addFlag(item);
        else if (item && typeof item === 'object') addFlag(item.name || item.key || item.id, 'enabled' in item ? item.enabled
          : ('value' in item ? item.value : ('on' in item ? item.on : true)));
      }
      return;
    }
    for (const nested of ['flags', 'features', 'toggles', 'featureFlags']) {
      if (source[nested] && typeof source[nested] === 'object') { readFlags(source[nested], depth + 1); return; }
    }
    for (const key of Object.keys(source).slice(0, 50)) {
      const value = source[key];
      if (value && typeof value === 'object' && !Array.isArray(value)) {
        const inner = ['value', 'enabled', 'on', 'defaultValue', 'variation'].find((k) => k in value);
        if (inner) addFlag(key, value[inner]);
      } else if (typeof value !== 'function') {
        addFlag(key, value);
      }
    }
  };
  const flagsAttr = document.body.dataset.featureFlags || (document.querySelector('meta[name="feature-flags"]') || {}).content || '';
  flagsAttr.split(',').map((f) => f.trim()).filter(Boolean).forEach((f) => addFlag(f));
  const globals = ['__FEATURE_FLAGS__', 'featureFlags', 'FEATURE_FLAGS', '__FLAGS__', '__LD_BOOTSTRAP__', 'LD_BOOTSTRAP',
    'ldBootstrap', 'ldFlags', '__UNLEASH_TOGGLES__', 'unleashToggles', '__GROWTHBOOK_FEATURES__', 'growthbookFeatures',
    'optimizelyFlags', '__SPLIT_TREATMENTS__'];
  for (const name of globals) {
    try { const value = Object.getOwnPropertyDescriptor(window, name); if (value && 'value' in value) readFlags(value.value); } catch (e) { /* not readable */ }
  }
  for (const name of ['unleash', 'unleashClient']) {  // an Unleash client keeps its toggles as data
    try { const client = window[name]; if (client && Array.isArray(client.toggles)) readFlags(client.toggles); } catch (e) { /* ignore */ }
  }
  for (const el of [...document.querySelectorAll('[data-flag], [data-feature], [data-feature-flag]')].slice(0, 50)) {
    addFlag(el.getAttribute('data-flag') || el.getAttribute('data-feature') || el.getAttribute('data-feature-flag'));
  }
  try {
    for (let i = 0; i < Math.min(localStorage.length, 100); i++) {
      const key = localStorage.key(i);
      if (!/flag|feature|toggle/i.test(key || '')) continue;
      const raw = localStorage.getItem(key) || '';
      let value;
      try { value = JSON.parse(raw.slice(0, 20000)); } catch (e) { value = raw; }
      if (value && typeof value === 'object') readFlags(value); else addFlag(key.replace(/^(feature|flag|toggle)[-_:.]?/i, '') || key, value);
    }
  } catch (e) { /* storage not readable here */ }

  // Links in the page that this user cannot see or use (hidden or disabled): pages that may be role-gated.
  const hiddenLinks = [...document.querySelectorAll('a[href]')].filter((el) => !visible(el)
      || el.getAttribute('aria-disabled') === 'true' || /\bdisabled\b/i.test(el.className || ''))
    .map((el) => ({ name: clean(el.textContent, 60), href: el.getAttribute('href') }))
    .filter((link) => link.href && !/^(#|mailto:|tel:|javascript:)/i.test(link.href)).slice(0, 20);

  // What makes a page a game, as a tester would notice: a large canvas, a board of cells, a score, game words.
  function gameSignals() {
    const area = Math.max(1, innerWidth * innerHeight);
    const canvases = [...document.querySelectorAll('canvas')].filter(visible).map((c) => {
      const r = c.getBoundingClientRect();
      return { width: Math.round(r.width), height: Math.round(r.height), share: Math.round(1000 * r.width * r.height / area) / 1000 };
    });
    // A board: a container whose many children have one size and fill rows and columns.
    let board = 0;
    for (const parent of [...document.querySelectorAll('div, table, ul, section')].slice(0, 3000)) {
      const kids = [...parent.children].filter((k) => k.offsetWidth > 8 && k.offsetHeight > 8);
      if (kids.length < 9 || kids.length > 400) continue;
      const sizes = new Set(kids.map((k) => `${k.offsetWidth}x${k.offsetHeight}`));
      const rows = new Set(kids.map((k) => k.offsetTop));
      const cols = new Set(kids.map((k) => k.offsetLeft));
      if (sizes.size <= 2 && rows.size >= 3 && cols.size >= 3) board = Math.max(board, kids.length);
    }
    const text = clean(document.body.innerText || '', 4000);
    const score = (text.match(/\b(score|points|best|high score|level|lives)\b\s*:?\s*\d+/i) || [])[0] || null;
    const words = [...new Set((text.match(/\b(new game|play again|try again|game over|you win|you lose|press (?:space|enter|any key)|click to (?:start|play)|tap to (?:start|play)|start game|arrow keys|wasd)\b/gi) || []).map((w) => w.toLowerCase()))];
    return { canvases, board, score, words };
  }

  const h1 = document.querySelector('h1');
  return {
    url: location.href, title: document.title, heading: h1 ? clean(h1.textContent, 80) : '',
    nav, actions: actions.slice(0, 60), forms, searchInputs, filters: filters.slice(0, 30), fileInputs, liveRegions,
    views: views.slice(0, 20), inputs: standalone.slice(0, 10), game: gameSignals(),
    login: { hasPassword: !!password, hasOtp: !!otp && !password, emailLabel: email ? labelOf(email) : null,
      passwordLabel: password ? labelOf(password) : null, otpLabel: otp ? labelOf(otp) : null,
      codeCandidateLabel: codeCandidate ? labelOf(codeCandidate) : null,
      submit: loginSubmit ? nameOf(loginSubmit) : null },
    roleHint: roleHint ? roleHint.toLowerCase() : null,
    tenant,
    flags: [...flags],
    hiddenLinks,
    textSample: clean(main.innerText || '', 400),
  };
}
