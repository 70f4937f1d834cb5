"""Canvas games from npm, played with the keyboard, for the game evaluator (`studio game URL`): each on a host page of
ours that loads the package's own files, with faults planted into those files (or a file of theirs taken out), never
into our host pages.

- tetris-js 0.1.3 (MIT, Richard Klose and Maximilian Frercksen, 2014): a falling-blocks game on a 320x480 canvas,
  jQuery 1.11 (pinned too, MIT). Pieces fall by themselves from the first second; Left, Right and Down move, Up
  rotates, Space drops; a landed piece scores 1 and a full line 10 (shown beside the board); "game over" is drawn
  on the canvas and the game then ignores every key until the page is reloaded.
- planck-js 0.3.31 (MIT: its LICENSE.txt; package.json says zlib): the Breakout example (example/Breakout.js) of the
  physics engine's testbed (dist/planck-with-testbed.js, a prebuilt UMD bundle with Stage.js). The page waits
  ("Ready!") until Space or Enter launches the ball; Left and Right (or A and D) move the paddle; the score is the
  bricks broken; rows of bricks come down over time; "Gameover!" when the last ball is lost, and Space starts again.
"""

from __future__ import annotations

from tests.corpus.apps import Behaviour, CaseMatcher, CorpusApp, MissingFiles, Mount
from tests.corpus.faults import Fault, Patch
from tests.corpus.npm_apps import PinnedPackage

TETRIS_JS_PACKAGE = PinnedPackage("tetris-js", "0.1.3", "sha512-BQKg9BqVwsiE1fHtcU3TB0Bx0MEtUwiBE1bj/326L11aVRIHsbGBGc9d"
                                                        "w/W89giecp7gbYcS2HRUl9ez4NIe+w==")
JQUERY = PinnedPackage("jquery", "1.11.0", "sha512-hfN15gXeUqsx3HxHrHYzVzfWayuGwrCMONhvexiaIV/aUlLqC8Im+G7KrKTPkHzD7HCgeA"
                                           "aQ7VeHRn3Dlve8Hg==")
PLANCK = PinnedPackage("planck-js", "0.3.31", "sha512-fwKYnL92pF2nXdMPeBq/Aipu+m8LztcEcNjdcrQm/sWKDR01Ej0g121KS1oO7NW23Wn"
                                              "Rzxw24a7V4KI2JlFpSg==")

TETRIS_JS = "node_modules/tetris-js/assets/game.js"
TETRIS = CorpusApp(
    name="tetris", title="tetris.js (falling blocks on a canvas, keyboard only)", host="tetris",
    mounts=(Mount(TETRIS_JS_PACKAGE, source="assets", at="node_modules/tetris-js/assets"),
            Mount(JQUERY, source="dist", at="node_modules/jquery/dist")),
    entry="/", ready="#gamecanvas",
    faults=(
        MissingFiles("logic_missing", "the game's script is not served (404): an empty board, nothing falls",
                     files=(TETRIS_JS,)),
        Fault("rotate_ignored", "ArrowUp does not rotate the falling piece",
              (Patch(TETRIS_JS, "currObj.rotate();", "void 0;"),)),
    ),
    behaviours=(
        Behaviour("The board is drawn and a piece starts falling by itself, the next one previewed",
                  faults=("logic_missing",)),
        Behaviour("ArrowUp rotates the falling piece", faults=("rotate_ignored",)),
        Behaviour("ArrowLeft and ArrowRight move the piece sideways", matcher=CaseMatcher(("press",), r"arrow(left|right)")),
        Behaviour("Space drops the piece to the bottom", matcher=CaseMatcher(("press",), r"space")),
        Behaviour("A landed piece raises the score by 1", matcher=CaseMatcher(("press",), r"score|points")),
    ),
    notes="Real bugs of the package, left as they are: every move logs '[GAME] ...' to the console (its log level "
          "switch has a stray semicolon), and after 'game over' only a reload starts a new game.",
)

BREAKOUT_JS = "node_modules/planck-js/example/Breakout.js"
BREAKOUT = CorpusApp(
    name="breakout", title="Breakout (the planck.js testbed example, on a canvas)", host="breakout",
    mounts=(Mount(PLANCK, source="dist", at="node_modules/planck-js/dist"),
            Mount(PLANCK, source="example", at="node_modules/planck-js/example")),
    entry="/", ready="#stage",
    faults=(
        MissingFiles("logic_missing", "the game's script is not served (404): the engine draws an empty grey stage",
                     files=(BREAKOUT_JS,)),
        # testbed.keydown is the game's only use of Space/Enter: it launches the ball, and restarts after a game over.
        Fault("launch_ignored", "Space and Enter never launch the ball: the game stays at Ready!",
              (Patch(BREAKOUT_JS, "testbed.keydown = function() {\n    if (testbed.activeKeys.fire) {",
                     "testbed.keydown = function() {\n    if (false) {"),)),
        Fault("left_ignored", "ArrowLeft (and A) do not move the paddle",
              (Patch(BREAKOUT_JS, "if (testbed.activeKeys.left && !testbed.activeKeys.right) {", "if (false) {"),)),
    ),
    behaviours=(
        Behaviour("The stage shows the paddle, the ball and three rows of bricks, and says Ready!",
                  faults=("logic_missing",)),
        Behaviour("Space or Enter launches the ball", faults=("launch_ignored",)),
        Behaviour("ArrowLeft moves the paddle left", faults=("left_ignored",)),
        Behaviour("ArrowRight moves the paddle right", matcher=CaseMatcher(("press",), r"arrowright|\bd\b")),
        Behaviour("A broken brick raises the score", matcher=CaseMatcher(("press",), r"score")),
        Behaviour("Losing the last ball says Gameover! and Space starts again",
                  matcher=CaseMatcher(("press",), r"gameover|game over")),
    ),
    notes="Real bugs of the example, left as they are: bricks reaching the paddle never end the game (it compares "
          "the brick, not its row, with 10).",
)

APPS = (TETRIS, BREAKOUT)
