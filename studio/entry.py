"""The `studio` command's entry point: the terminal front end with the window front end installed.

It sits above both front ends, so the CLI never imports Qt (the window loads only for `studio gui`, `studio demo`
with a display, and the window's benches) and the import-linter contracts can see every import.
"""

from __future__ import annotations

import sys

from studio.cli import main as cli
from studio.cli import window
from studio.cli.window import WindowFrontEnd


def _window() -> WindowFrontEnd:
    from studio.ui.front_end import WINDOW

    return WINDOW


def main(argv: list[str] | None = None) -> int:
    window.install(_window)
    return cli.main(argv)


if __name__ == "__main__":
    sys.exit(main())
