"""Where the studio's static resources live, in a source checkout and in an installed wheel alike.

Two folders outside `studio/` install as package data (setup.py): `resources/` as the package `studio_resources`
(page scripts, the demo app, icons, stylesheet) and `projects/` as `studio_resources.projects` (the sample projects
and the demo's goal scenarios). Both are found through the import system, never relative to a repository, so the
studio runs the same from a clone and from `pipx install preflight-studio`.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

RESOURCES = "studio_resources"
SAMPLE_PROJECTS = "studio_resources.projects"
# The demo app's sample project; its goal scenarios are the ones `studio bench scenarios` runs.
DEMO_PROJECT = "demo-fintech"


def resource_path(*parts: str) -> Path:
    """Absolute path of a file or folder under `resources/` (installed as the `studio_resources` package)."""
    root = Path(str(files(RESOURCES)))
    return root.joinpath(*parts)


def sample_project_path(*parts: str) -> Path:
    """Absolute path of a file or folder under `projects/` (installed as the `studio_resources.projects` package)."""
    root = Path(str(files(SAMPLE_PROJECTS)))
    return root.joinpath(*parts)


def demo_scenarios() -> Path:
    """The folder of the demo's shipped goal scenarios (smoke/, exploration/, regression/)."""
    return sample_project_path(DEMO_PROJECT, "scenarios")
