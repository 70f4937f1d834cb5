// Shared by the arcade games: the page's config, a seeded random generator, the sprite sheet and the fault knobs.
(function () {
  "use strict";
  const config = JSON.parse(document.getElementById("arcade-config").textContent);
  const faults = new Set(config.faults || []);

  function mulberry32(seed) {
    let a = seed >>> 0;
    return function () {
      a = (a + 0x6d2b79f5) | 0;
      let t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  // The screen a game draws on: an off-screen buffer copied onto the canvas once per frame.
  function screen(canvas) {
    const buffer = document.createElement("canvas");
    buffer.width = canvas.width;
    buffer.height = canvas.height;
    const shown = canvas.getContext("2d");
    return {
      ctx: buffer.getContext("2d"),
      present() {
        if (faults.has("blank_canvas")) return;
        shown.drawImage(buffer, 0, 0);
      },
    };
  }

  // A frame loop; with the frozen_loop fault it stops for good 1.5 s after `started()` is called.
  function loop(frame) {
    let startedAt = null;
    function tick(now) {
      frame(now);
      if (faults.has("frozen_loop") && startedAt !== null && now - startedAt > 1500) return;
      window.requestAnimationFrame(tick);
    }
    window.requestAnimationFrame(tick);
    return { started() { if (startedAt === null) startedAt = performance.now(); } };
  }

  // A physics hook run on a body that was already removed: a real-looking uncaught error, every 3 s of play.
  function troubles(isPlaying) {
    if (!faults.has("throw_errors")) return;
    let count = 0;
    window.setInterval(() => {
      if (!isPlaying()) return;
      count += 1;
      const bodies = [];
      const applyDrag = (body) => { body.velocity.x *= 0.98; };
      applyDrag(bodies[count]);
    }, 3000);
  }

  const sprites = new Image();
  const sheet = { ready: false, image: sprites };
  sprites.onload = () => { sheet.ready = true; };
  sprites.onerror = () => console.error("Could not load the sprite sheet " + config.sprites + "; drawing plain shapes.");
  sprites.src = config.sprites;

  window.Arcade = {
    config, faults, random: mulberry32(config.seed), mulberry32, screen, loop, troubles, sheet,
    controlsWork: !faults.has("dead_controls"),
  };
})();
