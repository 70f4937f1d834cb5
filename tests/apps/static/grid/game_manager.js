/* Slide: a 4x4 sliding-tile number puzzle. The game's logic, its input and its rendering; /application.js starts it.
   `?seed=N` makes the tiles that appear deterministic. */
function GameManager(size) {
  'use strict';
  this.size = size;
  this.cells = Array.prototype.slice.call(document.querySelectorAll('.grid-cell'));
  this.scoreValue = document.querySelector('.score-container .value');
  this.bestValue = document.querySelector('.best-container .value');
  this.message = document.querySelector('.game-message');

  var params = new URLSearchParams(location.search);
  var seed = params.has('seed') ? Number(params.get('seed')) || 0 : Math.floor(Math.random() * 2147483647);
  this.random = GameManager.mulberry32(seed);
  this.best = Number(localStorage.getItem(GameManager.BEST_KEY)) || 0;
  this.frame = 0;        // the pending animation frame while tiles slide, 0 when idle
  this.animated = [];    // the tiles being animated

  this.bindButtons();
//#if !controls_unbound
  this.listen();
//#endif
  this.restart();
}

GameManager.BEST_KEY = 'slide.best';
GameManager.SLIDE_MS = 80;    // tiles slide to their new cells...
GameManager.SETTLE_MS = 40;   // ...then merged tiles pop and the new tile grows in

GameManager.mulberry32 = function (a) {
  'use strict';
  return function () {
    a = (a + 0x6D2B79F5) | 0;
    var t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

// -- input ----------------------------------------------------------------------------------------------------

GameManager.prototype.listen = function () {
  'use strict';
  var self = this;
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
//#if !tall_page
    event.preventDefault();
//#endif
    self.move(direction);
  });
};

GameManager.prototype.bindButtons = function () {
  'use strict';
  var self = this;
  function onRestart(event) {
//#if new_game_broken
    if (event.target.tagName !== 'BUTTON') return;
//#endif
    event.preventDefault();
    self.restart();
  }
  document.querySelector('.restart-button').addEventListener('click', onRestart);
  document.querySelector('.retry-button').addEventListener('click', onRestart);
};

// -- the rules ------------------------------------------------------------------------------------------------

GameManager.prototype.restart = function () {
  'use strict';
  this.stopAnimation();
  this.grid = [];
  for (var i = 0; i < this.size * this.size; i++) this.grid.push(0);
  this.score = 0;
  this.over = false;
  this.spawnTile();
  this.spawnTile();
  this.renderBoard();
  this.renderScore();
};

GameManager.prototype.spawnTile = function () {
  'use strict';
  var empty = [];
  this.grid.forEach(function (value, i) { if (!value) empty.push(i); });
  if (!empty.length) return -1;
  var at = empty[Math.floor(this.random() * empty.length)];
  this.grid[at] = this.random() < 0.9 ? 2 : 4;
  return at;
};

GameManager.prototype.lines = function (direction) {
  'use strict';
  var size = this.size, result = [];
  for (var a = 0; a < size; a++) {
    var line = [];
    for (var b = 0; b < size; b++) {
      if (direction === 'left') line.push(a * size + b);
      else if (direction === 'right') line.push(a * size + (size - 1 - b));
      else if (direction === 'up') line.push(b * size + a);
      else line.push((size - 1 - b) * size + a);
    }
    result.push(line);
  }
  return result;
};

// Slides every line towards `direction`; where each tile came from is kept for the animation.
GameManager.prototype.slide = function (direction) {
  'use strict';
  var grid = this.grid, moved = false, gained = 0, moves = [];
  this.lines(direction).forEach(function (line) {
    var tiles = line.filter(function (i) { return grid[i]; }).map(function (i) { return { value: grid[i], from: i }; });
    var merged = [];
    for (var i = 0; i < tiles.length; i++) {
      if (tiles[i + 1] && tiles[i].value === tiles[i + 1].value) {
        merged.push({ value: tiles[i].value * 2, from: tiles[i + 1].from, merged: true });
        gained += tiles[i].value * 2;
        i++;
      } else {
        merged.push({ value: tiles[i].value, from: tiles[i].from, merged: false });
      }
    }
    line.forEach(function (index, k) {
      var tile = merged[k];
      var value = tile ? tile.value : 0;
      if (grid[index] !== value) moved = true;
      grid[index] = value;
      if (tile) moves.push({ to: index, from: tile.from, merged: tile.merged });
    });
  });
  return { moved: moved, gained: gained, moves: moves };
};

GameManager.prototype.canMove = function () {
  'use strict';
  var grid = this.grid, size = this.size;
  for (var i = 0; i < grid.length; i++) {
    if (!grid[i]) return true;
    var right = (i % size) < size - 1 ? grid[i + 1] : 0;
    var below = i + size < grid.length ? grid[i + size] : 0;
    if (grid[i] === right || grid[i] === below) return true;
  }
  return false;
};

GameManager.prototype.move = function (direction) {
  'use strict';
  if (this.over) return;
  var result = this.slide(direction);
  if (!result.moved) return;
  this.score += result.gained;
  var spawned = -1;
//#if !no_new_tile
  spawned = this.spawnTile();
//#endif
  this.over = !this.canMove();
  this.renderBoard();
  this.animate(result.moves, spawned);
//#if !score_not_updating
  this.renderScore();
//#endif
//#if console_error_on_move
  window.analytics.track('move', { direction: direction, score: this.score });
//#endif
};

// -- rendering ------------------------------------------------------------------------------------------------

// The board is rendered in its final state at once; `animate` then eases the tiles in from where they were.
GameManager.prototype.renderBoard = function () {
  'use strict';
  var grid = this.grid;
  this.cells.forEach(function (cell, i) {
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
  this.message.hidden = !this.over;
};

GameManager.prototype.renderScore = function () {
  'use strict';
  if (this.score > this.best) {
    this.best = this.score;
    localStorage.setItem(GameManager.BEST_KEY, String(this.best));
  }
  this.scoreValue.textContent = String(this.score);
  this.bestValue.textContent = String(this.best);
};

// ~120 ms of requestAnimationFrame after a move: the tiles slide, merged tiles pop, the new tile grows in. No frame
// is requested once it is done: between moves the page is idle.
GameManager.prototype.animate = function (moves, spawned) {
  'use strict';
  var self = this, cells = this.cells, items = [];
  this.stopAnimation();
  moves.forEach(function (move) {
    var tile = cells[move.to].firstElementChild;
    if (!tile || (move.from === move.to && !move.merged)) return;
    items.push({ tile: tile, merged: move.merged,
                 dx: cells[move.from].offsetLeft - cells[move.to].offsetLeft,
                 dy: cells[move.from].offsetTop - cells[move.to].offsetTop });
  });
  var grown = spawned >= 0 ? cells[spawned].firstElementChild : null;
  if (grown) items.push({ tile: grown, grows: true });
  if (!items.length) return;

  var slideMs = GameManager.SLIDE_MS, settleMs = GameManager.SETTLE_MS, started = null;
  function paint(elapsed) {
    var slid = Math.min(1, elapsed / slideMs), eased = 1 - (1 - slid) * (1 - slid);
    var settled = Math.max(0, Math.min(1, (elapsed - slideMs) / settleMs));
    items.forEach(function (item) {
      var style = item.tile.style;
      if (item.grows) {
        style.transform = 'scale(' + settled.toFixed(3) + ')';
        return;
      }
      var scale = item.merged ? 1 + 0.2 * Math.sin(Math.PI * settled) : 1;
      style.zIndex = '2';
      style.transform = 'translate(' + (item.dx * (1 - eased)).toFixed(1) + 'px, ' + (item.dy * (1 - eased)).toFixed(1)
        + 'px)' + (scale !== 1 ? ' scale(' + scale.toFixed(3) + ')' : '');
    });
  }
  function step(now) {
    if (started === null) started = now;
    var elapsed = now - started;
    if (elapsed >= slideMs + settleMs) {
      self.frame = 0;
      self.stopAnimation();
      return;
    }
    paint(elapsed);
    self.frame = requestAnimationFrame(step);
  }
  this.animated = items;
  paint(0);
  this.frame = requestAnimationFrame(step);
};

GameManager.prototype.stopAnimation = function () {
  'use strict';
  if (this.frame) cancelAnimationFrame(this.frame);
  this.frame = 0;
  this.animated.forEach(function (item) {
    item.tile.style.transform = '';
    item.tile.style.zIndex = '';
  });
  this.animated = [];
};
