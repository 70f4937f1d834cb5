"""Game evaluation (seed 002): an agent plays a browser game in the live browser in four phases — load & validation,
control discovery, gameplay exploration, evaluation & scoring — and scores it on five weighted metrics with evidence.

    evaluation = await GameEvaluation.on(runtime, url, options=GameOptions(seed=1))
    run = await runtime.jobs.run(evaluation)   # a GameRun (studio.models.game), recorded in the project

No Qt here: the CLI runs it directly, a Qt service runs the same JobWork on `runtime.jobs` and follows its events.
"""

from studio.game.evaluation import GAME_SECONDS, GAME_STEPS, GameEvaluation, game_budget
from studio.game.input_schema import GameUrlError, InputSchemaError, game_url, load_input_schema, parse_input_schema
from studio.game.run_context import GameOptions

__all__ = ["GAME_SECONDS", "GAME_STEPS", "GameEvaluation", "GameOptions", "GameUrlError", "InputSchemaError",
           "game_budget", "game_url", "load_input_schema", "parse_input_schema"]
