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
    if (el.tagName === 'A') return el.hasAttribute('href') ? 'link' : '';
    if (el.tagName === 'BUTTON' || (el.tagName === 'INPUT' && ['submit', 'button', 'reset'].includes(el.type))) return 'button';
    return el.tagName.toLowerCase();
  };
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

  const actions = [...main.querySelectorAll('button, a[href], [role="button"], [role="link"], input[type="submit"], input[type="button"], [role="tab"]')]
    .filter((el) => visible(el) && !inChrome(el) && nameOf(el)).map(item);

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
  const fileInputs = [...document.querySelectorAll('input[type="file"]')].map((el) => ({ key: keyOf(el),
    role: 'file', name: labelOf(el), testId: el.getAttribute('data-testid'), href: null, accept: el.accept || null }));
  const liveRegions = [...document.querySelectorAll('[role="status"], [role="alert"], [aria-live]')].filter(visible)
    .map((el) => clean(el.textContent)).filter(Boolean);

  const password = [...document.querySelectorAll('input[type="password"]')].find(visible);
  const otp = [...document.querySelectorAll('input[autocomplete="one-time-code"], input[inputmode="numeric"]')].find(visible);
  const email = [...document.querySelectorAll('input[type="email"], input[autocomplete="username"], input[name*="email" i], input[name*="user" i]')].find(visible);
  const loginForm = (password || otp) && (password || otp).closest('form');
  const loginSubmit = loginForm && [...loginForm.querySelectorAll('button, input[type="submit"]')].find(visible);

  const roleWords = /\b(admin|administrator|viewer|editor|owner|member|manager|analyst|guest)\b/i;
  const roleHint = banner ? [...banner.querySelectorAll('span, small, em, strong, [class*="role" i], [class*="pill" i], [class*="badge" i]')]
    .map((el) => clean(el.textContent, 30)).find((text) => roleWords.test(text) && text.length < 30) || null : null;
  const tenantSelect = [...document.querySelectorAll('select')].find((el) => visible(el) && /workspace|tenant|organi[sz]ation|team/i.test(labelOf(el)));
  const flagsAttr = document.body.dataset.featureFlags || (document.querySelector('meta[name="feature-flags"]') || {}).content || '';

  const h1 = document.querySelector('h1');
  return {
    url: location.href, title: document.title, heading: h1 ? clean(h1.textContent, 80) : '',
    nav, actions: actions.slice(0, 60), forms, searchInputs, filters: filters.slice(0, 30), fileInputs, liveRegions,
    login: { hasPassword: !!password, hasOtp: !!otp && !password, emailLabel: email ? labelOf(email) : null,
      passwordLabel: password ? labelOf(password) : null, otpLabel: otp ? labelOf(otp) : null,
      submit: loginSubmit ? nameOf(loginSubmit) : null },
    roleHint: roleHint ? roleHint.match(roleWords)[1].toLowerCase() : null,
    tenant: tenantSelect ? { label: labelOf(tenantSelect), options: [...tenantSelect.options].map((o) => clean(o.textContent, 60)) } : null,
    flags: flagsAttr.split(',').map((f) => f.trim()).filter(Boolean),
    textSample: clean(main.innerText || '', 400),
  };
}
