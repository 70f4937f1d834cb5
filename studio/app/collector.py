"""Python's cycle collector in a window that records all day.

A full collection walks every object alive, and most of them are built at start (modules, Qt wrappers, the engine,
the browser connection) and live as long as the process; walking them made each full collection pause the window.
Once the first browser session runs, they are set aside (`gc.freeze`), so a full collection walks only what the day
added."""

from __future__ import annotations

import gc

_settled = False


def set_aside_startup_objects() -> None:
    """Collect once, then move every object alive out of the collector's way (once per process)."""
    global _settled
    if _settled:
        return
    _settled = True
    gc.collect()
    gc.freeze()
