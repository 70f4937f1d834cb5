/* Serpent: a canvas snake game. `?seed=N` makes apple placement deterministic. */
(function () {
  'use strict';

  var CELL = 20, COLS = 30, ROWS = 30, HUD = 40;
  var COLORS = { field: '#10231a', grid: '#152c20', hud: '#0d1c14', body: '#5fd38d', head: '#c8f560',
                 apple: '#ff5a5f', text: '#ffffff', dim: '#8fb39b', title: '#dcff8a' };
  var LEVELS = [{ name: 'Garden', stepMs: 120 }];
  var canvas = document.getElementById('game');
  var ctx = canvas.getContext('2d');
  var buffer = document.createElement('canvas');
  buffer.width = canvas.width;
  buffer.height = canvas.height;
  var g = buffer.getContext('2d');
//#if !score_in_canvas
  var scoreText = document.getElementById('score');
//#endif

  function mulberry32(a) {
    return function () {
      a = (a + 0x6D2B79F5) | 0;
      var t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  var params = new URLSearchParams(location.search);
  var random = mulberry32(params.has('seed') ? Number(params.get('seed')) || 0 : Math.floor(Math.random() * 2147483647));

  var sprite = new Image();
  var spriteReady = false;
  sprite.onload = function () { spriteReady = true; };
  sprite.onerror = function () { console.error('Could not load sprite sheet: ' + sprite.src); };
//#if asset_404
  sprite.src = '/sprites.png';
//#else
  sprite.src = '/assets/sprites.png';
//#endif

  var DIRS = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] };
  var OPPOSITE = { up: 'down', down: 'up', left: 'right', right: 'left' };
  var KEYS = { ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right' };

  var state = 'ready';
  var snake = [], direction = 'right', nextDirection = 'right', apple = null, score = 0;
  var stepMs = 120, lastStep = 0, startedAt = 0;

  function setScore(value) {
    score = value;
//#if !score_in_canvas
    scoreText.textContent = 'Score: ' + score;
//#endif
  }

  function placeApple() {
    var free = [];
    for (var y = 0; y < ROWS; y++) {
      for (var x = 0; x < COLS; x++) {
        if (!snake.some(function (p) { return p[0] === x && p[1] === y; })) free.push([x, y]);
      }
    }
    apple = free[Math.floor(random() * free.length)];
  }

  function start(now) {
//#if crash_on_start
    var level = LEVELS[LEVELS.length];
//#else
    var level = LEVELS[0];
//#endif
    stepMs = level.stepMs;
    snake = [[5, 15], [4, 15], [3, 15]];
    direction = nextDirection = 'right';
    setScore(0);
    placeApple();
    lastStep = startedAt = now;
    state = 'playing';
  }

  function step() {
//#if !controls_ignored
    direction = nextDirection;
//#endif
    var head = snake[0], d = DIRS[direction];
    var next = [head[0] + d[0], head[1] + d[1]];
    var hitWall = next[0] < 0 || next[1] < 0 || next[0] >= COLS || next[1] >= ROWS;
    var hitSelf = snake.some(function (p) { return p[0] === next[0] && p[1] === next[1]; });
    if (hitWall || hitSelf) {
      state = 'over';
      return;
    }
    snake.unshift(next);
    if (apple && next[0] === apple[0] && next[1] === apple[1]) {
      setScore(score + 10);
      placeApple();
    } else {
      snake.pop();
    }
  }

  function cellRect(p) {
    return [p[0] * CELL, HUD + p[1] * CELL, CELL, CELL];
  }

  function drawOverlay(now, title, lines) {
    g.fillStyle = 'rgba(5, 12, 8, 0.72)';
    g.fillRect(0, HUD, buffer.width, buffer.height - HUD);
    g.textAlign = 'center';
    g.fillStyle = COLORS.title;
    g.font = 'bold 44px system-ui, sans-serif';
    g.fillText(title, buffer.width / 2, 300);
    g.font = '22px system-ui, sans-serif';
    g.globalAlpha = 0.55 + 0.45 * Math.sin(now / 250);
    g.fillStyle = COLORS.text;
    lines.forEach(function (line, i) { g.fillText(line, buffer.width / 2, 350 + i * 34); });
    g.globalAlpha = 1;
    g.textAlign = 'left';
  }

  function draw(now) {
    g.fillStyle = COLORS.hud;
    g.fillRect(0, 0, buffer.width, HUD);
    g.fillStyle = COLORS.text;
    g.font = 'bold 20px system-ui, sans-serif';
    g.fillText('SCORE ' + score, 14, 27);
    g.fillStyle = COLORS.dim;
    g.textAlign = 'right';
    g.fillText('SERPENT', buffer.width - 14, 27);
    g.textAlign = 'left';
    g.fillStyle = COLORS.field;
    g.fillRect(0, HUD, buffer.width, buffer.height - HUD);
    g.strokeStyle = COLORS.grid;
    g.lineWidth = 1;
    for (var i = 1; i < COLS; i++) {
      g.beginPath();
      g.moveTo(i * CELL + 0.5, HUD);
      g.lineTo(i * CELL + 0.5, buffer.height);
      g.moveTo(0, HUD + i * CELL + 0.5);
      g.lineTo(buffer.width, HUD + i * CELL + 0.5);
      g.stroke();
    }
    if (apple) {
      var r = cellRect(apple);
      if (spriteReady) {
        g.drawImage(sprite, r[0], r[1], CELL, CELL);
      } else {
        g.fillStyle = COLORS.apple;
        g.beginPath();
        g.arc(r[0] + CELL / 2, r[1] + CELL / 2, CELL / 2 - 2, 0, Math.PI * 2);
        g.fill();
      }
    }
    snake.forEach(function (p, k) {
      var r = cellRect(p);
      g.fillStyle = k === 0 ? COLORS.head : COLORS.body;
      g.fillRect(r[0] + 1, r[1] + 1, CELL - 2, CELL - 2);
    });
    if (state === 'ready') drawOverlay(now, 'SERPENT', ['Press Space to start', 'or click the board']);
    if (state === 'over') drawOverlay(now, 'Game over', ['Score: ' + score, 'Press Space to play again']);
    ctx.clearRect(0, 0, canvas.width, canvas.height);
//#if !blank_canvas
    ctx.drawImage(buffer, 0, 0);
//#endif
  }

  function frame(now) {
    if (state === 'playing') {
      var steps = 0;
      while (now - lastStep >= stepMs && state === 'playing' && steps < 5) {
        lastStep += stepMs;
        steps++;
        step();
      }
    }
    draw(now);
//#if freeze_after_start
    if (state !== 'playing' || now - startedAt < 1000) requestAnimationFrame(frame);
//#else
    requestAnimationFrame(frame);
//#endif
  }

  function begin() {
//#if never_starts
    if (state !== 'title' && state !== 'over') return;
//#endif
    if (state !== 'playing') start(performance.now());
  }

  window.addEventListener('keydown', function (event) {
    if (event.code === 'Space' || event.key === ' ') {
      event.preventDefault();
      begin();
      return;
    }
    var wanted = KEYS[event.key];
    if (!wanted) return;
    event.preventDefault();
    if (state === 'playing' && wanted !== OPPOSITE[direction]) nextDirection = wanted;
  });
  canvas.addEventListener('click', function () {
    canvas.focus();
    begin();
  });

  requestAnimationFrame(frame);
})();
