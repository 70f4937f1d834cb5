/* Blocks: a falling-blocks game drawn on a canvas. `?seed=N` makes the order of the pieces deterministic. */
(function () {
  'use strict';

  var COLS = 10, ROWS = 20, CELL = 30, WELL_X = 20, WELL_Y = 20, SIDE_X = 350;
  var COLORS = { I: '#31c7ef', O: '#f7d308', T: '#ad4d9c', S: '#42b642', Z: '#ef2029', J: '#5a65ad', L: '#ef7921',
                 page: '#12131f', well: '#05060d', grid: '#141728', text: '#f2f2f7', dim: '#8a8fb0' };
  var SHAPES = {
    I: [[0, 0, 0, 0], [1, 1, 1, 1], [0, 0, 0, 0], [0, 0, 0, 0]],
    O: [[1, 1], [1, 1]],
    T: [[0, 1, 0], [1, 1, 1], [0, 0, 0]],
    S: [[0, 1, 1], [1, 1, 0], [0, 0, 0]],
    Z: [[1, 1, 0], [0, 1, 1], [0, 0, 0]],
    J: [[1, 0, 0], [1, 1, 1], [0, 0, 0]],
    L: [[0, 0, 1], [1, 1, 1], [0, 0, 0]]
  };
  var LINE_POINTS = [0, 100, 300, 500, 800];
  var KEYS = { ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'rotate', ArrowDown: 'down', ' ': 'drop',
               Spacebar: 'drop', Enter: 'again' };

  var canvas = document.getElementById('well');
  var ctx = canvas.getContext('2d');
  var scoreText = document.getElementById('score');
  var linesText = document.getElementById('lines');
  var levelText = document.getElementById('level');

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

  var well, bag, piece, nextType, score, lines, level, dropMs, lastDrop, over;

  // -- pieces -------------------------------------------------------------------------------------------------

  function takeFromBag() {  // every piece once in each run of seven, in a shuffled order
    if (!bag.length) {
      bag = 'IJLOSTZ'.split('');
      for (var i = bag.length - 1; i > 0; i--) {
        var j = Math.floor(random() * (i + 1));
        var swap = bag[i]; bag[i] = bag[j]; bag[j] = swap;
      }
    }
    return bag.shift();
  }

  function spawn() {
    var type = nextType;
    nextType = takeFromBag();
    var shape = SHAPES[type].map(function (row) { return row.slice(); });
    var top = 0;
    while (!shape[top].some(Boolean)) top++;
    piece = { type: type, shape: shape, x: Math.floor((COLS - shape.length) / 2), y: -top, turns: 0 };
    if (collides(piece.shape, piece.x, piece.y)) over = true;  // the well is full up to the top
  }

  function collides(shape, x, y) {
    for (var r = 0; r < shape.length; r++) {
      for (var c = 0; c < shape.length; c++) {
        if (!shape[r][c]) continue;
        var X = x + c, Y = y + r;
        if (X < 0 || X >= COLS || Y >= ROWS) return true;
        if (Y >= 0 && well[Y][X]) return true;
      }
    }
    return false;
  }

  function turned(shape) {  // a quarter turn clockwise
    var n = shape.length;
    return shape.map(function (row, r) { return row.map(function (_, c) { return shape[n - 1 - c][r]; }); });
  }

  // -- moves --------------------------------------------------------------------------------------------------

  function shift(dx) {
    if (!collides(piece.shape, piece.x + dx, piece.y)) piece.x += dx;
  }

  function rotate() {
    var shape = turned(piece.shape);
    var kicks = [0, -1, 1, -2, 2];  // against a wall, try the turn a little to the side
    for (var k = 0; k < kicks.length; k++) {
      if (collides(shape, piece.x + kicks[k], piece.y)) continue;
      piece.turns = (piece.turns + 1) % 4;
//#if !rotate_ignored
      piece.shape = shape;
      piece.x += kicks[k];
//#endif
      return;
    }
  }

  function fall() {
    if (!collides(piece.shape, piece.x, piece.y + 1)) {
      piece.y++;
      return true;
    }
    lock();
    return false;
  }

  function hardDrop() {
    while (fall()) { /* down to the floor or the stack, then lock */ }
  }

  function lock() {
    piece.shape.forEach(function (row, r) {
      row.forEach(function (filled, c) {
        if (!filled) return;
        if (piece.y + r < 0) over = true;
        else well[piece.y + r][piece.x + c] = piece.type;
      });
    });
    clearLines();
    if (!over) spawn();
  }

  function clearLines() {
    var cleared = 0;
    for (var r = ROWS - 1; r >= 0; r--) {
      if (well[r].every(Boolean)) {
        well.splice(r, 1);
        well.unshift(emptyRow());
        cleared++;
        r++;  // the row that fell into place is checked too
      }
    }
    if (cleared) award(cleared);
  }

  function award(cleared) {
//#if score_frozen
    var score = score + LINE_POINTS[cleared] * level;
//#else
    score += LINE_POINTS[cleared] * level;
//#endif
    lines += cleared;
    level = 1 + Math.floor(lines / 10);
    dropMs = Math.max(100, 800 - (level - 1) * 70);
  }

  // -- the game -----------------------------------------------------------------------------------------------

  function emptyRow() {
    var row = [];
    for (var c = 0; c < COLS; c++) row.push(null);
    return row;
  }

  function newGame(now) {
    well = [];
    for (var r = 0; r < ROWS; r++) well.push(emptyRow());
    bag = [];
    nextType = takeFromBag();
    score = 0;
    lines = 0;
    level = 1;
    dropMs = 800;
    lastDrop = now;
    over = false;
    spawn();
  }

  function renderPanel() {  // the side panel is only written when what it says changes
    var says = [[scoreText, 'Score ' + score], [linesText, 'Lines ' + lines], [levelText, 'Level ' + level]];
    says.forEach(function (pair) {
      if (pair[0].textContent !== pair[1]) pair[0].textContent = pair[1];
    });
  }

  function drawCell(x, y, size, color) {
    ctx.fillStyle = color;
    ctx.fillRect(x + 1, y + 1, size - 2, size - 2);
    ctx.fillStyle = 'rgba(255, 255, 255, 0.25)';
    ctx.fillRect(x + 1, y + 1, size - 2, 3);
  }

  function drawLabel(label, value, y) {
    ctx.fillStyle = COLORS.dim;
    ctx.font = 'bold 14px system-ui, sans-serif';
    ctx.fillText(label, SIDE_X, y);
    ctx.fillStyle = COLORS.text;
    ctx.font = 'bold 26px system-ui, sans-serif';
    ctx.fillText(String(value), SIDE_X, y + 30);
  }

  function draw() {
    ctx.fillStyle = COLORS.page;
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = COLORS.well;
    ctx.fillRect(WELL_X, WELL_Y, COLS * CELL, ROWS * CELL);
    ctx.strokeStyle = COLORS.grid;
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (var c = 1; c < COLS; c++) {
      ctx.moveTo(WELL_X + c * CELL + 0.5, WELL_Y);
      ctx.lineTo(WELL_X + c * CELL + 0.5, WELL_Y + ROWS * CELL);
    }
    for (var r = 1; r < ROWS; r++) {
      ctx.moveTo(WELL_X, WELL_Y + r * CELL + 0.5);
      ctx.lineTo(WELL_X + COLS * CELL, WELL_Y + r * CELL + 0.5);
    }
    ctx.stroke();
    well.forEach(function (row, y) {
      row.forEach(function (type, x) {
        if (type) drawCell(WELL_X + x * CELL, WELL_Y + y * CELL, CELL, COLORS[type]);
      });
    });
    if (!over) {
      piece.shape.forEach(function (row, y) {
        row.forEach(function (filled, x) {
          if (filled && piece.y + y >= 0) {
            drawCell(WELL_X + (piece.x + x) * CELL, WELL_Y + (piece.y + y) * CELL, CELL, COLORS[piece.type]);
          }
        });
      });
    }
    drawLabel('SCORE', score, 50);
    drawLabel('LINES', lines, 120);
    drawLabel('LEVEL', level, 190);
    ctx.fillStyle = COLORS.dim;
    ctx.font = 'bold 14px system-ui, sans-serif';
    ctx.fillText('NEXT', SIDE_X, 260);
    SHAPES[nextType].forEach(function (row, y) {
      row.forEach(function (filled, x) {
        if (filled) drawCell(SIDE_X + x * 20, 275 + y * 20, 20, COLORS[nextType]);
      });
    });
    if (over) {
      ctx.fillStyle = 'rgba(0, 0, 0, 0.75)';
      ctx.fillRect(WELL_X, WELL_Y, COLS * CELL, ROWS * CELL);
      ctx.textAlign = 'center';
      ctx.fillStyle = COLORS.text;
      ctx.font = 'bold 40px system-ui, sans-serif';
      ctx.fillText('GAME OVER', WELL_X + COLS * CELL / 2, 300);
      ctx.font = '18px system-ui, sans-serif';
      ctx.fillText('Press Enter to play again', WELL_X + COLS * CELL / 2, 340);
      ctx.textAlign = 'left';
    }
  }

  function frame(now) {
    if (!over && now - lastDrop >= dropMs) {
      lastDrop = now;
      fall();
    }
    draw();
    renderPanel();
    requestAnimationFrame(frame);
  }

  window.addEventListener('keydown', function (event) {
    var action = KEYS[event.key];
    if (!action || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    if (over) {
      if (action === 'again') newGame(performance.now());
    } else if (action === 'left') shift(-1);
    else if (action === 'right') shift(1);
    else if (action === 'rotate') rotate();
    else if (action === 'drop') hardDrop();
    else if (action === 'down') {
      fall();
      lastDrop = performance.now();
    }
    draw();
    renderPanel();
  });

  newGame(performance.now());
  renderPanel();
  draw();
  requestAnimationFrame(frame);
})();
