"""The `studio` command's entry point: the terminal front end with the window front end installed.

It sits above both front ends, so the CLI never imports Qt (the window loads only for `studio gui`, `studio demo`
with a display, and the window's benches) and the import-linter contracts can see every import.
"""

from __future__ import annotations

import logging
import sys
from logging.handlers import RotatingFileHandler
from pathlib import Path

from studio.cli import main as cli
from studio.cli import window
from studio.cli.window import WindowFrontEnd

LOG_BYTES = 1_000_000
LOG_BACKUPS = 3


def log_to_file(logger: logging.Logger | None = None) -> Path:
    """Also write `logger`'s records (the root logger's by default) to the log in the user's config folder.

    A window started from a launcher has no terminal: its warnings and stack traces would be lost. Calling it twice
    adds no second handler.
    """
    from studio.settings import log_path  # not for every command: only a window needs it

    logger = logger if logger is not None else logging.getLogger()
    path = log_path()
    if not any(isinstance(h, RotatingFileHandler) and Path(h.baseFilename) == path.absolute() for h in logger.handlers):
        path.parent.mkdir(parents=True, exist_ok=True)
        handler = RotatingFileHandler(path, maxBytes=LOG_BYTES, backupCount=LOG_BACKUPS, encoding="utf-8", delay=True)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        logger.addHandler(handler)
    return path


def _window() -> WindowFrontEnd:
    log_to_file()
    from studio.ui.front_end import WINDOW

    return WINDOW


def main(argv: list[str] | None = None) -> int:
    window.install(_window)
    return cli.main(argv)


if __name__ == "__main__":
    sys.exit(main())
