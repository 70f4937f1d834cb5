// Game evaluation's eyes in the page (seed 002): installed before the game's own scripts (an init script) and
// read-only towards the game. It counts the animation frames the game draws and the long tasks it runs, remembers
// which canvases got a 2D or WebGL context, and answers questions: what the page shows (score, level, lives, game
// words), where the play surface is, whether the game waits for a Play click, and the load timings. It can also
// outline boxes for a screenshot and remove them again.
(() => {
  const KEY = "__studioGameProbe";
  if (window[KEY]) return;
  const counts = { frames: 0, lastStamp: -1, longTasks: 0, longTaskMs: 0 };
  const contexts = new WeakMap();
  const nativeRaf = window.requestAnimationFrame.bind(window);
  const nativeCancel = window.cancelAnimationFrame.bind(window);
  const nativeSetTimeout = window.setTimeout.bind(window);
  const nativePerfNow = performance.now.bind(performance);
  const dateOrigin = Date.now() - nativePerfNow();

  // Game time. Normally it is real time. While the evaluator steps the game, animation frames run only when it
  // says, each one 1/60 s of game time later (performance.now and Date.now follow), so the same moves give the same
  // frames on any machine, however busy; real time resumes where game time stopped.
  const clock = { stepping: false, now: 0, shift: 0, queue: [], nextId: 1, frameMs: 1000 / 60 };
  performance.now = function now() { return clock.stepping ? clock.now : nativePerfNow() - clock.shift; };
  Date.now = function now() { return Math.floor(dateOrigin + performance.now()); };
  window.requestAnimationFrame = function requestAnimationFrame(callback) {
    if (clock.stepping) {
      const id = -(clock.nextId++);
      clock.queue.push([id, callback]);
      return id;
    }
    return nativeRaf(function (stamp) {
      if (clock.stepping) { clock.queue.push([0, callback]); return undefined; }  // stepping began meanwhile
      if (stamp !== counts.lastStamp) {
        counts.lastStamp = stamp;
        counts.frames += 1;
      }
      return callback(stamp - clock.shift);
    });
  };
  window.cancelAnimationFrame = function cancelAnimationFrame(id) {
    if (id < 0) { clock.queue = clock.queue.filter(([queued]) => queued !== id); return; }
    nativeCancel(id);
  };

  function advance() {
    clock.now += clock.frameMs;
    const due = clock.queue;
    clock.queue = [];
    if (!due.length) return false;
    counts.frames += 1;
    for (const [, callback] of due) {
      try { callback(clock.now); } catch (error) { nativeSetTimeout(() => { throw error; }); }
    }
    return true;
  }

  function stepping(on) {
    if (on && !clock.stepping) {
      clock.now = nativePerfNow() - clock.shift;
      clock.stepping = true;
    } else if (!on && clock.stepping) {
      clock.stepping = false;
      clock.shift = nativePerfNow() - clock.now;
      const due = clock.queue;
      clock.queue = [];
      for (const [, callback] of due) window.requestAnimationFrame(callback);
    }
    return clock.stepping;
  }

  // A key or button held for the length of a press: many games read keys held at each frame (a set filled on
  // keydown and emptied on keyup), so while the game is stepped, a release lets two frames run first (capture
  // phase on window: before the game's own release handlers).
  const HELD_FRAMES = 2;
  // Named so that reading the page's own keyboard listeners leaves it out (studio/preflight/keyboard.py).
  function __studioHeldFrames() {
    if (!clock.stepping) return;
    for (let frame = 0; frame < HELD_FRAMES; frame += 1) advance();
  }
  for (const type of ["keyup", "mouseup", "pointerup", "touchend"]) window.addEventListener(type, __studioHeldFrames, true);

  // `frames` frames of game time, spread over `ms` of real time (so timers and transitions move as usual).
  function run(frames, ms) {
    if (!clock.stepping) return Promise.resolve({ stepping: false, frames: 0, now: performance.now() });
    const gap = frames > 0 ? ms / frames : 0;
    return new Promise((resolve) => {
      let done = 0;
      let drew = 0;
      const next = () => {
        if (done >= frames || !clock.stepping) {
          // Resolved once the last stepped frame is on screen, so a picture taken next shows it.
          const reply = { stepping: clock.stepping, frames: drew, now: clock.now };
          nativeRaf(() => nativeRaf(() => resolve(reply)));
          return;
        }
        done += 1;
        if (advance()) drew += 1;
        nativeSetTimeout(next, gap);
      };
      next();
    });
  }
  // Text a game draws on its canvas (a score, "GAME OVER"): the latest draw of each place, so the evaluator reads a
  // score drawn as text the way it reads the page's own text. A canvas that draws its digits as images stays unread.
  const drawn = new Map();
  let drawnLast = 0;
  for (const proto of [window.CanvasRenderingContext2D && CanvasRenderingContext2D.prototype,
                       window.OffscreenCanvasRenderingContext2D && OffscreenCanvasRenderingContext2D.prototype]) {
    if (!proto) continue;
    for (const name of ["fillText", "strokeText"]) {
      const native = proto[name];
      if (typeof native !== "function") continue;
      proto[name] = function drawText(text, x, y, ...rest) {
        try {
          const said = String(text).trim();
          if (said) {  // an off-screen buffer's text too: double-buffered games copy it onto the canvas shown
            drawnLast = counts.frames;
            drawn.set(`${Math.round(x / 16)}:${Math.round(y / 16)}`, { text: said.slice(0, 80), frame: counts.frames });
            if (drawn.size > 200) drawn.delete(drawn.keys().next().value);
          }
        } catch (error) { /* reading must never break the game's drawing */ }
        return native.call(this, text, x, y, ...rest);
      };
    }
  }
  function canvasText() {
    // The places drawn in the latest pass (and the one before: a HUD drawn every other frame).
    return [...drawn.values()].filter((item) => item.frame >= drawnLast - 1).map((item) => item.text).join("\n");
  }

  // The page's scroll held while the game is played: arrow keys and Space scroll a page by default, and a page that
  // moves under the camera is not the game answering. A scroll is undone at once and counted.
  const held = { on: false, x: 0, y: 0, undone: 0 };
  window.addEventListener("scroll", () => {
    if (!held.on || (window.scrollX === held.x && window.scrollY === held.y)) return;
    held.undone += 1;
    window.scrollTo(held.x, held.y);
  }, true);
  function holdScroll(on) {
    held.on = Boolean(on);
    held.x = window.scrollX;
    held.y = window.scrollY;
    return held.undone;
  }
  function settle() {
    // Undo a scroll now (the scroll event may not have run yet) and take the focus off a clicked button or link: its
    // focus ring and pressed look are the control's, not the game's.
    if (held.on && (window.scrollX !== held.x || window.scrollY !== held.y)) {
      held.undone += 1;
      window.scrollTo(held.x, held.y);
    }
    const active = document.activeElement;
    const pressable = "button, a, [role=button], input[type=button], input[type=submit]";
    if (active && active !== document.body && active.matches(pressable)) {
      active.blur();
    }
    return held.undone;
  }

  const nativeGetContext = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function getContext(kind, ...rest) {
    const context = nativeGetContext.call(this, kind, ...rest);
    if (context && !contexts.has(this)) contexts.set(this, String(kind).toLowerCase());
    return context;
  };
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        counts.longTasks += 1;
        counts.longTaskMs += entry.duration;
      }
    }).observe({ type: "longtask", buffered: true });
  } catch (error) { /* long tasks are not reported by every browser */ }

  const GAME_WORDS = /\b(game ?over|you lose|you lost|you died|you win|you won|victory|level complete|level up|try again|play again|paused|press start|press space|press enter|press any key|click to start|tap to start|click to play|tap to play|new game|restart|continue|loading)\b/gi;
  const START_NAME = /^\s*(play|play now|play game|start|start game|begin|go|let'?s go|tap to (start|play)|click to (start|play)|press start|enter game)\s*$/i;
  const START_TEXT = /\b(click|tap|touch)( anywhere)? to (start|play|begin)|press (any key|space|enter) to (start|play|begin)|tap to unmute|click to (enable|turn on) (sound|audio)|enable (sound|audio)|sound on\b/i;
  const COUNTERS = ["score", "points", "level", "lives", "life", "health", "hp", "coins", "best", "wave", "stage", "moves", "time"];

  function visible(el) {
    if (!el || !el.getBoundingClientRect) return false;
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) return false;
    const s = getComputedStyle(el);
    return s.visibility !== "hidden" && s.display !== "none" && Number(s.opacity) > 0.05;
  }

  function box(el) {
    const r = el.getBoundingClientRect();
    return { x: r.x + window.scrollX, y: r.y + window.scrollY, width: r.width, height: r.height };
  }

  function pageText() {
    return (document.body ? document.body.innerText || "" : "").slice(0, 20000);
  }

  function counters(text, fromPage = true) {
    const found = {};
    const lines = text.split("\n").map((line) => line.trim()).filter(Boolean);
    lines.forEach((line, i) => {
      for (const word of COUNTERS) {
        if (found[word] !== undefined) continue;
        const inline = line.match(new RegExp(`\\b${word}\\b\\s*[:\\-]?\\s*(\\d[\\d,]*)`, "i"));
        if (inline) { found[word] = Number(inline[1].replace(/,/g, "")); continue; }
        if (new RegExp(`^${word}$`, "i").test(line) && i + 1 < lines.length && /^\d[\d,]*\b/.test(lines[i + 1])) {
          found[word] = Number(lines[i + 1].match(/^\d[\d,]*/)[0].replace(/,/g, ""));
        }
      }
    });
    for (const word of fromPage ? COUNTERS : []) {
      if (found[word] !== undefined) continue;
      const el = document.querySelector(`[id*="${word}" i], [data-testid*="${word}" i], [class*="${word}" i]`);
      const match = el && visible(el) ? (el.textContent || "").match(/\d[\d,]*/) : null;
      if (match) found[word] = Number(match[0].replace(/,/g, ""));
    }
    return found;
  }

  function signature(text) {
    let hash = 0;
    for (let i = 0; i < text.length; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
    return hash;
  }

  function state() {
    const text = pageText();
    const drawnText = canvasText();
    const counted = counters(text);
    const drawnCounters = drawnText ? counters(drawnText, false) : {};
    for (const [name, value] of Object.entries(drawnCounters)) if (counted[name] === undefined) counted[name] = value;
    const both = drawnText ? `${text}\n${drawnText}` : text;
    const words = [...new Set((both.match(GAME_WORDS) || []).map((w) => w.toLowerCase()))];
    const drawnWords = [...new Set((drawnText.match(GAME_WORDS) || []).map((w) => w.toLowerCase()))];
    return {
      url: location.href, title: document.title, textLength: text.trim().length, textSignature: signature(both),
      elements: document.body ? document.body.getElementsByTagName("*").length : 0,
      counters: counted, canvasCounters: Object.keys(drawnCounters), canvasText: drawnText.slice(0, 400), words, drawnWords,
      frames: counts.frames, longTasks: counts.longTasks, longTaskMs: Math.round(counts.longTaskMs),
      scroll: [window.scrollX, window.scrollY], scrollsUndone: held.undone,
    };
  }

  function surface() {
    const area = window.innerWidth * window.innerHeight;
    const canvases = [...document.querySelectorAll("canvas")].filter(visible).map((c) => {
      const b = box(c);
      return { box: b, kind: contexts.get(c) || "unknown", share: (b.width * b.height) / area,
               width: c.width, height: c.height };
    }).sort((a, b) => b.share - a.share);
    const big = canvases.find((c) => c.share >= 0.1 || (c.box.width >= 200 && c.box.height >= 150));
    if (big) {
      const webgl = /webgl|experimental-webgl|webgpu/.test(big.kind);
      return { kind: webgl ? "webgl" : "canvas", box: big.box, context: big.kind, width: big.width, height: big.height };
    }
    let board = null;
    for (const el of document.querySelectorAll("body *")) {
      const kids = [...el.children].filter(visible);
      if (kids.length < 9) continue;
      const sizes = new Set(kids.map((k) => `${Math.round(k.offsetWidth)}x${Math.round(k.offsetHeight)}`));
      const rows = new Set(kids.map((k) => Math.round(k.getBoundingClientRect().top)));
      const cols = new Set(kids.map((k) => Math.round(k.getBoundingClientRect().left)));
      if (sizes.size <= 2 && rows.size >= 3 && cols.size >= 3 && (!board || kids.length > board.cells)) {
        board = { box: box(el), cells: kids.length };
      }
    }
    if (board) return { kind: "board", box: board.box, cells: board.cells };
    const main = document.querySelector("main") || document.body;
    const b = main ? box(main) : { x: 0, y: 0, width: window.innerWidth, height: window.innerHeight };
    return { kind: "page", box: { x: b.x, y: b.y, width: Math.min(b.width, window.innerWidth),
                                  height: Math.min(b.height, window.innerHeight) } };
  }

  function interaction() {
    const reasons = [];
    let start = null;
    for (const el of document.querySelectorAll("button, a, [role=button], input[type=button], input[type=submit]")) {
      const name = (el.innerText || el.value || el.getAttribute("aria-label") || "").trim();
      if (visible(el) && START_NAME.test(name) && name.length <= 40) {
        start = start || name;
        reasons.push(`a "${name}" button`);
        break;
      }
    }
    const said = pageText().match(START_TEXT);
    if (said) reasons.push(`the page says "${said[0]}"`);
    return { reasons, start };
  }

  function timing() {
    const nav = performance.getEntriesByType("navigation")[0];
    const paints = Object.fromEntries(performance.getEntriesByType("paint").map((p) => [p.name, p.startTime]));
    return {
      domContentLoaded: nav ? nav.domContentLoadedEventEnd : null, load: nav ? nav.loadEventEnd : null,
      firstPaint: paints["first-paint"] ?? null, firstContentfulPaint: paints["first-contentful-paint"] ?? null,
    };
  }

  // Keys the page tells its player about: <kbd> texts and phrases such as "arrow keys", "WASD", "press Space".
  function keyHints() {
    const found = [];
    for (const el of document.querySelectorAll("kbd")) {
      const text = (el.innerText || el.textContent || "").trim();
      if (text && text.length <= 12 && visible(el)) found.push(text);
    }
    const text = pageText();
    if (/\barrow keys?\b|\barrows\b/i.test(text)) found.push("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown");
    // A keys table: "Up: rotate", "Left / Right: move", "Down — drop".
    for (const match of text.matchAll(/\b(left|right|up|down)\b(?:\s*arrow)?(?:\s*(?:\/|,|and|or)\s*(left|right|up|down)\b)?\s*[:=\-–—]\s*[a-z]/gi)) {
      for (const side of [match[1], match[2]]) if (side) found.push(`Arrow${side[0].toUpperCase()}${side.slice(1).toLowerCase()}`);
    }
    if (/\bwasd\b|\bw\s*,?\s*a\s*,?\s*s\s*,?\s*(and\s+|or\s+)?d\b/i.test(text)) found.push("W", "A", "S", "D");
    for (const match of text.matchAll(/\b(?:press|hit|tap|use)\s+(?:the\s+)?(space(?:bar)?|enter|escape|esc|shift|[a-z])\b(?!\w)/gi)) {
      found.push(match[1]);
    }
    return [...new Set(found)];
  }

  function painted() {
    return new Promise((resolve) => nativeRaf(() => nativeRaf(() => resolve(true))));
  }

  function outline(items) {
    clearOutline();
    const layer = document.createElement("div");
    layer.id = "__studio-game-outline";
    layer.style.cssText = "position:absolute;left:0;top:0;pointer-events:none;z-index:2147483647";
    for (const item of items) {
      const frame = document.createElement("div");
      frame.style.cssText = `position:absolute;left:${item.x}px;top:${item.y}px;width:${item.width}px;` +
        `height:${item.height}px;outline:3px solid #f43f5e;outline-offset:1px;background:rgba(244,63,94,.08)`;
      const label = document.createElement("span");
      label.textContent = item.label;
      label.style.cssText = "position:absolute;left:0;top:-20px;font:bold 12px sans-serif;color:#fff;" +
        "background:#f43f5e;padding:1px 5px;border-radius:3px;white-space:nowrap";
      frame.appendChild(label);
      layer.appendChild(frame);
    }
    document.documentElement.appendChild(layer);
    return items.length;
  }

  function clearOutline() {
    const old = document.getElementById("__studio-game-outline");
    if (old) old.remove();
    return true;
  }

  Object.defineProperty(window, KEY, {
    value: { counts, state, surface, interaction, timing, keyHints, painted, outline, clearOutline, stepping, run,
             holdScroll, settle,
             gameTime: () => (clock.stepping ? clock.now : null) },
    enumerable: false,
  });
})();
