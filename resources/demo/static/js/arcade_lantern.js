// Lantern Drift: press Play, then Space, the up arrow or a click on the sky lifts the lantern through the gaps.
(function () {
  "use strict";
  const A = window.Arcade;
  const canvas = document.getElementById("lantern-canvas");
  const W = canvas.width, H = canvas.height, GAP = 150, SPEED = 120;
  const view = A.screen(canvas);
  const g = view.ctx;
  const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
  const scoreEl = $("score"), bestEl = $("best"), statusEl = $("status");
  const startScreen = $("start-screen"), overScreen = $("game-over");
  let game = null, best = 0, last = 0;

  function newGame() {
    const rng = A.mulberry32(A.config.seed + 11);
    const pillars = [0, 1, 2].map((i) => ({ x: W + 80 + i * 240, gapY: 90 + rng() * (H - 180 - GAP) }));
    return { status: "ready", rng, y: H / 2, vy: 0, score: 0, pillars, time: 0 };
  }

  function start() {
    game = newGame();
    startScreen.hidden = true;
    overScreen.hidden = true;
    statusEl.textContent = "Get ready: press Space to lift the lantern.";
    control.started();
    publish();
  }

  // Like most flying games, the flight begins with the first lift; until then the lantern hovers.
  function lift() {
    if (!game || game.status === "over" || !A.controlsWork) return;
    if (game.status === "ready") {
      game.status = "playing";
      statusEl.textContent = "Flying. Press Space to lift the lantern.";
    }
    game.vy = -260;
  }

  function publish() {
    scoreEl.textContent = String(game ? game.score : 0);
    window.__arcade = { game: "lantern", status: game ? game.status : "ready", score: game ? game.score : 0,
                        y: game ? Math.round(game.y) : null };
  }

  function step(s, dt) {
    s.time += dt;
    s.vy = Math.min(420, s.vy + 620 * dt);
    s.y += s.vy * dt;
    for (const p of s.pillars) {
      p.x -= SPEED * dt;
      if (!p.passed && p.x + 30 < 160) { p.passed = true; s.score += 1; }
      if (p.x < -60) { p.x += 720; p.gapY = 90 + s.rng() * (H - 180 - GAP); p.passed = false; }
      const inColumn = 160 + 14 > p.x && 160 - 14 < p.x + 60;
      if (inColumn && (s.y - 14 < p.gapY || s.y + 14 > p.gapY + GAP)) s.status = "over";
    }
    if (s.y > H - 14 || s.y < 14) s.status = "over";
    if (s.status === "over") finish(s);
  }

  function finish(s) {
    best = Math.max(best, s.score);
    bestEl.textContent = String(best);
    $("final-score").textContent = String(s.score);
    overScreen.hidden = false;
    statusEl.textContent = `Game over. You passed ${s.score} gaps.`;
  }

  function draw(s, now) {
    const sky = g.createLinearGradient(0, 0, 0, H);
    sky.addColorStop(0, "#1e1b4b");
    sky.addColorStop(1, "#0f172a");
    g.fillStyle = sky;
    g.fillRect(0, 0, W, H);
    const y = s ? s.y : H / 2 + Math.sin(now / 500) * 12;
    if (s) {
      g.fillStyle = "#334155";
      for (const p of s.pillars) {
        g.fillRect(p.x, 0, 60, p.gapY);
        g.fillRect(p.x, p.gapY + GAP, 60, H - p.gapY - GAP);
      }
    }
    if (A.sheet.ready) g.drawImage(A.sheet.image, 64, 0, 32, 32, 160 - 16, y - 16, 32, 32);
    else { g.fillStyle = "#f59e0b"; g.fillRect(160 - 12, y - 12, 24, 24); }
    g.fillStyle = "#1e293b";
    g.fillRect(0, H - 8, W, 8);
    view.present();
  }

  const control = A.loop((now) => {
    const dt = Math.min(0.05, (now - (last || now)) / 1000);
    last = now;
    if (game && game.status === "playing") step(game, dt);
    if (game && game.status === "ready") game.y = H / 2 + Math.sin(now / 300) * 6;
    draw(game, now);
    publish();
  });

  document.addEventListener("keydown", (event) => {
    if (event.code !== "Space" && event.code !== "ArrowUp") return;
    event.preventDefault();
    lift();
  });
  canvas.addEventListener("click", lift);
  $("play").addEventListener("click", start);
  $("play-again").addEventListener("click", start);
  A.troubles(() => game && game.status !== "over");
})();
