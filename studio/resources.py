"""Where the studio's static resources live, in a source checkout and in an installed wheel alike."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def resource_path(*parts: str) -> Path:
    """Absolute path of a file or folder under `resources/` (installed as the `studio_resources` package)."""
    root = Path(str(files("studio_resources")))
    return root.joinpath(*parts)
