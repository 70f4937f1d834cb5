// Feature flags a page can see, read in the page's own world (page_reads' evaluate): bootstrap globals of flag SDKs live
// on the page's window, which the studio's isolated world does not see. Read only; the file is one function expression.
() => {
  const clean = (text, limit = 120) => {
    const value = (text || '').replace(/\s+/g, ' ').trim();
    return value.length > limit ? value.slice(0, limit - 1) + '…' : value;
  };
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
  const flagsAttr = (document.body && document.body.dataset.featureFlags) || (document.querySelector('meta[name="feature-flags"]') || {}).content || '';
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

  return [...flags];
}
