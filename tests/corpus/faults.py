"""Seeded faults: a copy of an app whose built files are patched by exact, anchored replacement (mutation testing of
code nobody here wrote). An anchor must occur exactly once in its file, so a patch can never land somewhere else
when a pinned file changes: it fails with a sentence instead."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


class AnchorError(ValueError):
    """A patch's anchor is missing from its file, or occurs more than once."""


@dataclass(frozen=True)
class Patch:
    """Replace `anchor`, which must occur exactly once in `file` (a path relative to the site root)."""

    file: str
    anchor: str
    replacement: str


@dataclass(frozen=True)
class Fault:
    """A defect planted into an app: what a user would see, and the patches that plant it. `data_loss` marks a planted
    "data lost on reload" (the issue asks that every one be reported as a suspected defect, never asserted)."""

    name: str
    summary: str
    patches: tuple[Patch, ...]
    data_loss: bool = False


def apply(root: Path, fault: Fault) -> None:
    """Plant `fault` into the site at `root`; raises AnchorError naming the file and the anchor."""
    for patch in fault.patches:
        path = root / patch.file
        if not path.is_file():
            raise AnchorError(f"Fault {fault.name!r}: {patch.file} is not in the app (is the pinned version right?).")
        text = path.read_text(encoding="utf-8")
        found = text.count(patch.anchor)
        if found != 1:
            where = "does not occur" if found == 0 else f"occurs {found} times"
            raise AnchorError(f"Fault {fault.name!r}: the anchor {_short(patch.anchor)!r} {where} in {patch.file}; "
                              "it must occur exactly once.")
        # The site's files may be hard links to the extracted package: write a new file, never into the shared one.
        path.unlink()
        path.write_text(text.replace(patch.anchor, patch.replacement), encoding="utf-8")
        os.utime(path)


def _short(anchor: str) -> str:
    one_line = " ".join(anchor.split())
    return one_line if len(one_line) <= 70 else one_line[:67] + "..."
