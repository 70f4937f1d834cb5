// Star Catcher: a seeded canvas game. Fixed 60 Hz steps keep a run replayable for a given seed and input.
(function () {
  "use strict";
  const canvas = document.getElementById("game-canvas");
  const ctx = canvas.getContext("2d");
  const W = canvas.width;
  const H = canvas.height;
  const STEP = 1 / 60;
  const $ = (testid) => document.querySelector(`[data-testid="${testid}"]`);
  const scoreEl = $("score");
  const livesEl = $("lives");
  const bestEl = $("best-score");
  const startScreen = $("start-screen");
  const overScreen = $("game-over");
  const statusEl = $("game-status");
  const playButton = $("play-button");
  const againButton = $("play-again-button");
  const KEYS = {
    ArrowLeft: "left", KeyA: "left", ArrowRight: "right", KeyD: "right",
    ArrowUp: "up", KeyW: "up", ArrowDown: "down", KeyS: "down", Space: "fire",
  };
  const held = new Set();
  const tapped = new Set();
  let config = null;
  let sprites = null;
  let backdrop = [];
  let game = null;
  let lastTime = 0;
  let carry = 0;
  let shownScore = -1;
  let shownLives = -1;

  window.__game = { status: "loading" };

  function mulberry32(seed) {
    let a = seed >>> 0;
    return function () {
      a = (a + 0x6d2b79f5) | 0;
      let t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, v));

  async function load() {
    playButton.disabled = true;
    const params = new URLSearchParams(window.location.search);
    const query = new URLSearchParams();
    for (const key of ["seed", "speed"]) if (params.has(key)) query.set(key, params.get(key));
    const response = await fetch("/api/game/config" + (query.toString() ? `?${query}` : ""));
    config = await response.json();
    try {
      const spriteResponse = await fetch(config.spritesUrl);
      if (!spriteResponse.ok) throw new Error(`HTTP ${spriteResponse.status}`);
      sprites = await spriteResponse.json();
    } catch (error) {
      console.error(`[${config.name}] Could not load ${config.spritesUrl} (${error.message}); drawing fallback shapes.`);
      sprites = null;
    }
    const rng = mulberry32(config.seed ^ 0x9e3779b9);
    backdrop = Array.from({ length: 70 }, () => ({ x: rng() * W, y: rng() * H, r: 0.4 + rng() * 1.4, phase: rng() * 6.28 }));
    draw(null, 0);
    playButton.disabled = false;
    publish();
  }

  function newGame() {
    return {
      status: "playing", rng: mulberry32(config.seed), fx: mulberry32(config.seed + 1),
      tick: 0, time: 0, score: 0, lives: config.lives,
      player: { x: W / 2, y: H - 40 }, items: [], lasers: [], particles: [],
      spawnClock: 0, spawned: 0, cooldown: 0, invulnerable: 0, survival: 0,
      caught: 0, shot: 0, fired: 0, hits: 0, startedAt: performance.now(),
    };
  }

  function burst(g, x, y, color, count) {
    for (let i = 0; i < count; i++) {
      const angle = g.fx() * Math.PI * 2;
      const speed = 40 + g.fx() * 120;
      g.particles.push({ x, y, vx: Math.cos(angle) * speed, vy: Math.sin(angle) * speed, life: 0.6, color });
    }
  }

  function spawn(g) {
    g.spawned += 1;
    const aimed = g.spawned % config.aimedEvery === 0;
    const kind = aimed || g.rng() >= 0.55 ? "meteor" : "star";
    const x = aimed ? g.player.x : 20 + g.rng() * (W - 40);
    g.items.push({
      kind, x, y: -20, vy: 80 + g.rng() * 60 + g.time * 2, spin: (g.rng() - 0.5) * 4, angle: 0,
      r: kind === "star" ? 11 : 13 + g.rng() * 5,
    });
  }

  function injectFaults(g) {
    if (g.tick % 90 === 45) {
      console.error(`[${config.name}] Texture atlas is missing frame "meteor_${(g.tick / 90) | 0}"; drawing a placeholder.`);
    }
    if (g.tick === 60) {
      // A real-looking bug: a physics hook that runs on a body that no longer exists.
      const applyWind = (body) => { body.velocity.x += 0.5; };
      window.setTimeout(() => applyWind(g.items[999]), 0);
    }
  }

  function wants(action) {
    for (const [code, name] of Object.entries(KEYS)) if (name === action && (held.has(code) || tapped.has(code))) return held.has(code) ? 1 : 4;
    return 0;
  }

  function step(g) {
    g.tick += 1;
    g.time += STEP;
    const p = g.player;
    p.x = clamp(p.x + (wants("right") - wants("left")) * 260 * STEP, 24, W - 24);
    p.y = clamp(p.y + (wants("down") - wants("up")) * 200 * STEP, H * 0.45, H - 24);
    g.cooldown -= STEP;
    g.invulnerable -= STEP;
    if (wants("fire") && g.cooldown <= 0) {
      g.lasers.push({ x: p.x, y: p.y - 18 });
      g.cooldown = 0.22;
      g.fired += 1;
    }
    tapped.clear();
    if (config.fault === "console_errors") injectFaults(g);

    g.spawnClock += STEP * 1000;
    const interval = Math.max(320, config.spawnEveryMs - g.time * 6);
    while (g.spawnClock >= interval) {
      g.spawnClock -= interval;
      spawn(g);
    }
    for (const laser of g.lasers) laser.y -= 420 * STEP;
    for (const item of g.items) {
      item.y += item.vy * STEP;
      item.angle += item.spin * STEP;
    }
    for (const laser of g.lasers) {
      const target = g.items.find((i) => i.kind === "meteor" && Math.abs(i.x - laser.x) < i.r + 3 && Math.abs(i.y - laser.y) < i.r + 8);
      if (target) {
        target.dead = laser.dead = true;
        g.score += 5;
        g.shot += 1;
        burst(g, target.x, target.y, "#fb923c", 14);
      }
    }
    for (const item of g.items) {
      if (item.dead || Math.hypot(item.x - p.x, item.y - p.y) > item.r + 16) continue;
      item.dead = true;
      if (item.kind === "star") {
        g.score += 10;
        g.caught += 1;
        burst(g, item.x, item.y, "#fde047", 12);
      } else if (g.invulnerable <= 0) {
        g.lives -= 1;
        g.hits += 1;
        g.invulnerable = 1.2;
        burst(g, p.x, p.y, "#f87171", 20);
        if (g.lives <= 0) g.status = "over";
      }
    }
    g.items = g.items.filter((i) => !i.dead && i.y < H + 30);
    g.lasers = g.lasers.filter((l) => !l.dead && l.y > -20);
    for (const q of g.particles) {
      q.x += q.vx * STEP;
      q.y += q.vy * STEP;
      q.life -= STEP;
    }
    g.particles = g.particles.filter((q) => q.life > 0);
    g.survival += STEP;
    if (g.survival >= 1) {
      g.survival -= 1;
      g.score += 1;
    }
  }

  // ---- drawing -------------------------------------------------------------------------------------
  function drawBackground(time) {
    const sky = ctx.createLinearGradient(0, 0, 0, H);
    sky.addColorStop(0, "#070b1f");
    sky.addColorStop(1, "#1e1b4b");
    ctx.fillStyle = sky;
    ctx.fillRect(0, 0, W, H);
    for (const s of backdrop) {
      const y = (s.y + time * 12 * s.r) % H;
      ctx.globalAlpha = 0.45 + 0.45 * Math.sin(s.phase + time * 2);
      ctx.fillStyle = "#e0e7ff";
      ctx.beginPath();
      ctx.arc(s.x, y, s.r, 0, Math.PI * 2);
      ctx.fill();
    }
    ctx.globalAlpha = 1;
    const glow = ctx.createRadialGradient(W / 2, H + 120, 20, W / 2, H + 120, 260);
    glow.addColorStop(0, "rgba(99, 102, 241, .45)");
    glow.addColorStop(1, "rgba(99, 102, 241, 0)");
    ctx.fillStyle = glow;
    ctx.fillRect(0, 0, W, H);
  }

  function drawStar(item) {
    if (!sprites) {
      ctx.fillStyle = "#d4d4d8";
      ctx.fillRect(item.x - 8, item.y - 8, 16, 16);
      return;
    }
    const s = sprites.star;
    ctx.save();
    ctx.translate(item.x, item.y);
    ctx.rotate(item.angle);
    ctx.shadowColor = s.glow;
    ctx.shadowBlur = 14;
    ctx.fillStyle = s.fill;
    ctx.beginPath();
    for (let i = 0; i < 10; i++) {
      const r = i % 2 ? s.radius * 0.45 : s.radius;
      const a = (i * Math.PI) / 5 - Math.PI / 2;
      ctx.lineTo(Math.cos(a) * r, Math.sin(a) * r);
    }
    ctx.closePath();
    ctx.fill();
    ctx.restore();
  }

  function drawMeteor(item) {
    ctx.save();
    ctx.translate(item.x, item.y);
    if (!sprites) {
      ctx.fillStyle = "#71717a";
      ctx.beginPath();
      ctx.arc(0, 0, item.r, 0, Math.PI * 2);
      ctx.fill();
      ctx.restore();
      return;
    }
    const s = sprites.meteor;
    const trail = ctx.createLinearGradient(0, -item.r * 3, 0, 0);
    trail.addColorStop(0, "rgba(251, 146, 60, 0)");
    trail.addColorStop(1, "rgba(251, 146, 60, .45)");
    ctx.fillStyle = trail;
    ctx.beginPath();
    ctx.moveTo(-item.r * 0.7, 0);
    ctx.lineTo(0, -item.r * 3);
    ctx.lineTo(item.r * 0.7, 0);
    ctx.fill();
    ctx.rotate(item.angle);
    ctx.fillStyle = s.fill;
    ctx.beginPath();
    for (let i = 0; i < 9; i++) {
      const a = (i / 9) * Math.PI * 2;
      const r = item.r * (0.85 + 0.15 * Math.sin(i * 2.3));
      ctx.lineTo(Math.cos(a) * r, Math.sin(a) * r);
    }
    ctx.closePath();
    ctx.fill();
    ctx.fillStyle = s.crater;
    for (const [cx, cy, cr] of [[-4, -3, 3.5], [5, 4, 2.5], [2, -6, 2]]) {
      ctx.beginPath();
      ctx.arc(cx, cy, cr, 0, Math.PI * 2);
      ctx.fill();
    }
    ctx.restore();
  }

  function drawPlayer(g, time) {
    const p = g ? g.player : { x: W / 2, y: H - 40 };
    if (g && g.invulnerable > 0 && Math.floor(g.invulnerable * 10) % 2 === 0) return;
    ctx.save();
    ctx.translate(p.x, p.y);
    if (!sprites) {
      ctx.fillStyle = "#60a5fa";
      ctx.fillRect(-20, -12, 40, 24);
      ctx.restore();
      return;
    }
    const s = sprites.player;
    ctx.fillStyle = `rgba(251, 191, 36, ${0.6 + 0.4 * Math.sin(time * 40)})`;
    ctx.beginPath();
    ctx.moveTo(-7, 12);
    ctx.lineTo(0, 22 + 4 * Math.sin(time * 30));
    ctx.lineTo(7, 12);
    ctx.fill();
    ctx.fillStyle = s.fill;
    ctx.beginPath();
    ctx.moveTo(0, -18);
    ctx.lineTo(22, 12);
    ctx.lineTo(8, 8);
    ctx.lineTo(0, 14);
    ctx.lineTo(-8, 8);
    ctx.lineTo(-22, 12);
    ctx.closePath();
    ctx.fill();
    ctx.fillStyle = s.accent;
    ctx.beginPath();
    ctx.ellipse(0, -2, 4, 7, 0, 0, Math.PI * 2);
    ctx.fill();
    ctx.restore();
  }

  function draw(g, time) {
    drawBackground(time);
    if (g) {
      ctx.fillStyle = sprites ? sprites.laser.fill : "#e5e7eb";
      for (const laser of g.lasers) ctx.fillRect(laser.x - 2, laser.y - 7, 4, 14);
      for (const item of g.items) (item.kind === "star" ? drawStar : drawMeteor)(item);
      for (const q of g.particles) {
        ctx.globalAlpha = Math.max(0, q.life / 0.6);
        ctx.fillStyle = q.color;
        ctx.beginPath();
        ctx.arc(q.x, q.y, 2.2, 0, Math.PI * 2);
        ctx.fill();
      }
      ctx.globalAlpha = 1;
    }
    drawPlayer(g, time);
  }

  // ---- loop and HUD --------------------------------------------------------------------------------
  function publish() {
    const g = game;
    window.__game = g
      ? { status: g.status, score: g.score, lives: g.lives, x: Math.round(g.player.x), y: Math.round(g.player.y), tick: g.tick,
          seed: config.seed, speed: config.speed, items: g.items.length, fired: g.fired, caught: g.caught, shot: g.shot, hits: g.hits, fault: config.fault }
      : { status: config ? "ready" : "loading", score: 0, lives: config ? config.lives : 3, seed: config && config.seed, fault: config && config.fault };
    if (g && g.score !== shownScore) scoreEl.textContent = String((shownScore = g.score));
    const lives = g ? g.lives : config.lives;
    if (lives !== shownLives) {
      shownLives = lives;
      livesEl.innerHTML = `<span aria-hidden="true">${"♥".repeat(Math.max(0, lives))}${"♡".repeat(Math.max(0, config.lives - lives))}</span><span class="visually-hidden">${lives} ${lives === 1 ? "life" : "lives"}</span>`;
    }
  }

  function frame(now) {
    if (!game || game.status !== "playing") return;
    carry += Math.min(0.1, (now - lastTime) / 1000) * config.speed;
    lastTime = now;
    let steps = 0;
    while (carry >= STEP && steps < 600 && game.status === "playing") {
      step(game);
      carry -= STEP;
      steps += 1;
    }
    draw(game, game.time);
    publish();
    if (game.status === "playing") window.requestAnimationFrame(frame);
    else finish(game);
  }

  async function finish(g) {
    $("final-score").textContent = String(g.score);
    overScreen.hidden = false;
    statusEl.textContent = `Game over. You scored ${g.score} points.`;
    againButton.focus();
    const response = await fetch("/api/game/score", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ score: g.score, seed: config.seed, durationMs: Math.round(g.time * 1000) }),
    });
    const result = await response.json();
    bestEl.textContent = String(result.best);
    $("score-rank").textContent = `Rank #${result.rank} of ${result.plays} plays`;
    window.__game.submitted = true;
  }

  function start() {
    startScreen.hidden = true;
    overScreen.hidden = true;
    game = newGame();
    shownScore = -1;
    carry = 0;
    lastTime = performance.now();
    statusEl.textContent = "Playing. Use the Arrow keys or W A S D to move and Space to fire.";
    canvas.focus();
    publish();
    window.requestAnimationFrame(frame);
  }

  window.addEventListener("keydown", (event) => {
    const action = KEYS[event.code];
    if (!action || !game || game.status !== "playing") return;
    event.preventDefault();
    held.add(event.code);
    tapped.add(event.code);
  });
  window.addEventListener("keyup", (event) => held.delete(event.code));
  window.addEventListener("blur", () => held.clear());
  playButton.addEventListener("click", start);
  againButton.addEventListener("click", start);

  load();
})();
