/* Slide: a 4x4 sliding-tile number puzzle. `?seed=N` makes the tiles that appear deterministic. */
(function () {
  'use strict';

  var SIZE = 4;
  var cells = Array.prototype.slice.call(document.querySelectorAll('.grid-cell'));
  var scoreValue = document.querySelector('.score-container .value');
  var bestValue = document.querySelector('.best-container .value');
  var message = document.querySelector('.game-message');
  var BEST_KEY = 'slide.best';

  function mulberry32(a) {
    return function () {
      a = (a + 0x6D2B79F5) | 0;
      var t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  var params = new URLSearchParams(location.search);
  var seed = params.has('seed') ? Number(params.get('seed')) || 0 : Math.floor(Math.random() * 2147483647);
  var random = mulberry32(seed);

  var grid = [];
  var score = 0;
  var best = Number(localStorage.getItem(BEST_KEY)) || 0;
  var over = false;

  function spawnTile() {
    var empty = [];
    grid.forEach(function (value, i) { if (!value) empty.push(i); });
    if (!empty.length) return;
    var at = empty[Math.floor(random() * empty.length)];
    grid[at] = random() < 0.9 ? 2 : 4;
  }

  function lines(direction) {
    var result = [];
    for (var a = 0; a < SIZE; a++) {
      var line = [];
      for (var b = 0; b < SIZE; b++) {
        if (direction === 'left') line.push(a * SIZE + b);
        else if (direction === 'right') line.push(a * SIZE + (SIZE - 1 - b));
        else if (direction === 'up') line.push(b * SIZE + a);
        else line.push((SIZE - 1 - b) * SIZE + a);
      }
      result.push(line);
    }
    return result;
  }

  function slide(direction) {
    var moved = false;
    var gained = 0;
    lines(direction).forEach(function (line) {
      var values = line.map(function (i) { return grid[i]; }).filter(Boolean);
      var merged = [];
      for (var i = 0; i < values.length; i++) {
        if (values[i] === values[i + 1]) {
          merged.push(values[i] * 2);
          gained += values[i] * 2;
          i++;
        } else {
          merged.push(values[i]);
        }
      }
      line.forEach(function (index, k) {
        var value = merged[k] || 0;
        if (grid[index] !== value) moved = true;
        grid[index] = value;
      });
    });
    return { moved: moved, gained: gained };
  }

  function canMove() {
    for (var i = 0; i < grid.length; i++) {
      if (!grid[i]) return true;
      var right = (i % SIZE) < SIZE - 1 ? grid[i + 1] : 0;
      var below = i + SIZE < grid.length ? grid[i + SIZE] : 0;
      if (grid[i] === right || grid[i] === below) return true;
    }
    return false;
  }

  function renderBoard() {
    cells.forEach(function (cell, i) {
      var value = grid[i];
      var tile = cell.firstElementChild;
      if (!value) {
        if (tile) tile.remove();
        return;
      }
      if (!tile || tile.textContent !== String(value)) {
        if (tile) tile.remove();
        tile = document.createElement('div');
        tile.className = 'tile tile-' + (value > 2048 ? 'super' : value);
        tile.textContent = String(value);
        cell.appendChild(tile);
      }
    });
    message.hidden = !over;
  }

  function renderScore() {
    if (score > best) {
      best = score;
      localStorage.setItem(BEST_KEY, String(best));
    }
    scoreValue.textContent = String(score);
    bestValue.textContent = String(best);
  }

  function newGame() {
    grid = [];
    for (var i = 0; i < SIZE * SIZE; i++) grid.push(0);
    score = 0;
    over = false;
    spawnTile();
    spawnTile();
    renderBoard();
    renderScore();
  }

  function move(direction) {
    if (over) return;
    var result = slide(direction);
    if (!result.moved) return;
    score += result.gained;
//#if !no_new_tile
    spawnTile();
//#endif
    over = !canMove();
    renderBoard();
//#if !score_not_updating
    renderScore();
//#endif
//#if console_error_on_move
    window.analytics.track('move', { direction: direction, score: score });
//#endif
  }

//#if keys_ignored
  var KEYS = { Up: 'up', Right: 'right', Down: 'down', Left: 'left',
//#else
  var KEYS = { ArrowUp: 'up', ArrowRight: 'right', ArrowDown: 'down', ArrowLeft: 'left',
//#endif
               w: 'up', d: 'right', s: 'down', a: 'left', W: 'up', D: 'right', S: 'down', A: 'left' };

  document.addEventListener('keydown', function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var direction = KEYS[event.key];
    if (!direction) return;
    event.preventDefault();
    move(direction);
  });

  function onRestart(event) {
//#if new_game_broken
    if (event.target.tagName !== 'BUTTON') return;
//#endif
    event.preventDefault();
    newGame();
  }

  document.querySelector('.restart-button').addEventListener('click', onRestart);
  document.querySelector('.retry-button').addEventListener('click', onRestart);

  newGame();
})();
