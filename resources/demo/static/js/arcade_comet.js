// Comet Dash: fly a ship with the arrow keys or W A S D, catch crystals, dodge homing comets. R restarts.
(function () {
  "use strict";
  const A = window.Arcade;
  const canvas = document.getElementById("comet-canvas");
  const W = canvas.width, H = canvas.height;
  const view = A.screen(canvas);
  const g = view.ctx;
  const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
  const scoreEl = $("score"), livesEl = $("lives"), levelEl = $("level"), statusEl = $("status");
  const MOVES = { ArrowLeft: [-1, 0], KeyA: [-1, 0], ArrowRight: [1, 0], KeyD: [1, 0],
                  ArrowUp: [0, -1], KeyW: [0, -1], ArrowDown: [0, 1], KeyS: [0, 1] };
  const held = new Set();
  const stars = Array.from({ length: 40 }, () => ({ x: A.random() * W, y: A.random() * H, r: 0.6 + A.random() }));
  let game = null;
  let last = 0;

  function newGame() {
    const rng = A.mulberry32(A.config.seed + 7);
    const comets = [0, 1, 2].map((i) => ({
      x: [60, W - 60, W / 2][i], y: [60, 70, H - 50][i],
      vx: (rng() - 0.5) * 160, vy: (rng() - 0.5) * 160, r: 14,
    }));
    return { status: "playing", rng, score: 0, lives: 3, level: 1, time: 0, hurt: 0,
             ship: { x: W / 2, y: H / 2 }, comets, crystal: null, caught: 0 };
  }

  function placeCrystal(s) {
    s.crystal = { x: 40 + s.rng() * (W - 80), y: 40 + s.rng() * (H - 80) };
  }

  function nudge(s, code, amount) {
    const d = MOVES[code];
    s.ship.x = Math.max(16, Math.min(W - 16, s.ship.x + d[0] * amount));
    s.ship.y = Math.max(16, Math.min(H - 16, s.ship.y + d[1] * amount));
  }

  function restart() {
    game = newGame();
    placeCrystal(game);
    statusEl.textContent = "Use the arrow keys to fly. Catch the crystals, dodge the comets.";
    hud();
    control.started();
  }

  function hud() {
    scoreEl.textContent = String(game.score);
    livesEl.textContent = String(game.lives);
    levelEl.textContent = String(game.level);
    window.__arcade = { game: "comet", status: game.status, score: game.score, lives: game.lives, level: game.level,
                        x: Math.round(game.ship.x), y: Math.round(game.ship.y), caught: game.caught };
  }

  function step(s, dt) {
    s.time += dt;
    s.hurt = Math.max(0, s.hurt - dt);
    for (const code of held) if (A.controlsWork) nudge(s, code, 220 * dt);
    const speed = 1 + (s.level - 1) * 0.25;
    for (const c of s.comets) {
      const dx = s.ship.x - c.x, dy = s.ship.y - c.y, dist = Math.hypot(dx, dy) || 1;
      c.vx += (dx / dist) * 50 * dt;
      c.vy += (dy / dist) * 50 * dt;
      const v = Math.hypot(c.vx, c.vy), top = 120 * speed;
      if (v > top) { c.vx *= top / v; c.vy *= top / v; }
      c.x += c.vx * dt;
      c.y += c.vy * dt;
      if (c.x < c.r || c.x > W - c.r) c.vx = -c.vx;
      if (c.y < c.r || c.y > H - c.r) c.vy = -c.vy;
      c.x = Math.max(c.r, Math.min(W - c.r, c.x));
      c.y = Math.max(c.r, Math.min(H - c.r, c.y));
      if (s.hurt <= 0 && Math.hypot(c.x - s.ship.x, c.y - s.ship.y) < c.r + 12) {
        s.lives -= 1;
        s.hurt = 1.2;
        c.vx = -c.vx * 1.5;
        c.vy = -c.vy * 1.5;
        if (s.lives <= 0) {
          s.status = "over";
          statusEl.textContent = `Game over! You scored ${s.score}. Press R or Restart to play again.`;
        }
      }
    }
    const k = s.crystal;
    if (k && Math.hypot(k.x - s.ship.x, k.y - s.ship.y) < 24) {
      s.score += 10;
      s.caught += 1;
      s.level = 1 + Math.floor(s.score / 50);
      placeCrystal(s);
    }
  }

  function sprite(index, x, y, size, fallback) {
    if (A.sheet.ready) {
      g.drawImage(A.sheet.image, index * 32, 0, 32, 32, x - size / 2, y - size / 2, size, size);
    } else {
      g.fillStyle = fallback;
      g.fillRect(x - size / 2 + 4, y - size / 2 + 4, size - 8, size - 8);
    }
  }

  function draw(s, now) {
    g.fillStyle = "#020617";
    g.fillRect(0, 0, W, H);
    g.fillStyle = "#cbd5e1";
    for (const star of stars) g.fillRect(star.x, (star.y + now * 0.004 * star.r) % H, star.r, star.r);
    if (s.crystal) sprite(1, s.crystal.x, s.crystal.y, 26, "#a78bfa");
    for (const c of s.comets) {
      g.fillStyle = "rgba(251, 146, 60, 0.35)";
      g.beginPath();
      g.arc(c.x - c.vx * 0.08, c.y - c.vy * 0.08, c.r * 0.8, 0, Math.PI * 2);
      g.fill();
      g.fillStyle = "#f97316";
      g.beginPath();
      g.arc(c.x, c.y, c.r, 0, Math.PI * 2);
      g.fill();
    }
    if (s.hurt <= 0 || Math.floor(s.hurt * 10) % 2) sprite(0, s.ship.x, s.ship.y, 30, "#38bdf8");
    g.fillStyle = "#f8fafc";
    g.font = "bold 18px system-ui, sans-serif";
    g.fillText(`SCORE ${s.score}`, 12, 24);
    if (s.status === "over") {
      g.fillStyle = "rgba(2, 6, 23, 0.75)";
      g.fillRect(0, 0, W, H);
      g.fillStyle = "#fca5a5";
      g.font = "bold 44px system-ui, sans-serif";
      g.textAlign = "center";
      g.fillText("GAME OVER", W / 2, H / 2);
      g.font = "20px system-ui, sans-serif";
      g.fillStyle = "#f8fafc";
      g.fillText("Press R to play again", W / 2, H / 2 + 36);
      g.textAlign = "left";
    }
    view.present();
  }

  const control = A.loop((now) => {
    const dt = Math.min(0.05, (now - (last || now)) / 1000);
    last = now;
    if (game.status === "playing") step(game, dt);
    draw(game, now);
    hud();
  });

  window.addEventListener("keydown", (event) => {
    if (event.code === "KeyR") {
      event.preventDefault();
      if (A.controlsWork) restart();
      return;
    }
    if (!MOVES[event.code]) return;
    event.preventDefault();
    if (!A.controlsWork || game.status !== "playing") return;
    nudge(game, event.code, 14);
    held.add(event.code);
  });
  window.addEventListener("keyup", (event) => held.delete(event.code));
  window.addEventListener("blur", () => held.clear());
  $("restart").addEventListener("click", () => { restart(); canvas.focus(); });
  A.troubles(() => game && game.status === "playing");
  restart();
})();
