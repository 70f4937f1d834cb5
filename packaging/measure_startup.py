"""Compare how fast two `studio` commands start: the desktop bundle's and the virtual environment's.

    xvfb-run -s "-screen 0 1366x768x24" python packaging/measure_startup.py /usr/bin/studio .venv/bin/studio

Each measurement is one `studio bench startup --runs 1 --json` (process start to the window's first painted frame
of a page), run by that very `studio`. A cold run first drops the studio's own files from the page cache (its folder;
for a virtual environment also the checkout and the base Python's library), so they are read from disk again as
after a reboot; the browser and the system libraries both share stay cached. Warm runs follow the cold ones;
the commands take turns, so a change in the machine's load is shared.
Prints JSON: each command's cold and warm seconds and their medians.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def own_folders(studio: Path) -> list[Path]:
    """The folders a `studio` command reads its code from: the bundle's folder, or the venv, its base Python and
    the checkout an editable install points at."""
    real = studio.resolve()
    if (real.parent / "_internal").is_dir():
        return [real.parent]
    venv = real.parent.parent
    folders = [venv, ROOT / "studio", ROOT / "resources"]
    python = (real.parent / "python").resolve()
    base_lib = python.parent.parent / "lib"
    return folders + ([base_lib] if base_lib.is_dir() else [])


def evict(folders: list[Path]) -> int:
    """Drop these folders' files from the page cache (POSIX_FADV_DONTNEED); returns how many files."""
    count = 0
    for folder in folders:
        for path in folder.rglob("*"):
            if path.is_symlink() or not path.is_file():
                continue
            try:
                descriptor = os.open(path, os.O_RDONLY)
            except OSError:
                continue
            try:
                os.posix_fadvise(descriptor, 0, 0, os.POSIX_FADV_DONTNEED)
                count += 1
            finally:
                os.close(descriptor)
    return count


def startup_seconds(studio: Path) -> float:
    done = subprocess.run([str(studio), "bench", "startup", "--runs", "1", "--json"], check=False, capture_output=True,
                          text=True, timeout=300)
    if done.returncode != 0:
        raise SystemExit(f"{studio} bench startup failed: {done.stderr.strip()[-800:]}")
    return float(json.loads(done.stdout.strip().splitlines()[-1])["seconds_to_first_painted_frame"][0])


def measure(studios: list[Path], cold: int, warm: int) -> list[dict]:
    """Cold runs, then warm runs, taking turns between the commands so a change in the machine's load hits all."""
    folders = {studio: own_folders(studio) for studio in studios}
    times: dict[Path, dict[str, list[float]]] = {studio: {"cold": [], "warm": []} for studio in studios}
    for kind, rounds in (("cold", cold), ("warm", warm)):
        for _ in range(rounds):
            for studio in studios:
                if kind == "cold":
                    evict(folders[studio])
                times[studio][kind].append(startup_seconds(studio))
    return [{
        "studio": str(studio), "evicted": [str(folder) for folder in folders[studio]],
        **{f"{kind}_s": runs for kind, runs in times[studio].items()},
        **{f"{kind}_median_s": round(statistics.median(runs), 2) if runs else None
           for kind, runs in times[studio].items()},
    } for studio in studios]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("studios", nargs="+", help="`studio` commands to compare (paths or names on PATH)")
    parser.add_argument("--cold", type=int, default=3, help="cold runs of each (default 3)")
    parser.add_argument("--warm", type=int, default=3, help="warm runs of each (default 3)")
    args = parser.parse_args(argv)
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        print("No display: run this under a real or virtual one (xvfb-run -s \"-screen 0 1366x768x24\" …), so the "
              "window starts as it does for a user.", file=sys.stderr)
        return 2
    os.environ.setdefault("QT_QPA_PLATFORM", "wayland" if os.environ.get("WAYLAND_DISPLAY") else "xcb")
    studios = []
    for name in args.studios:
        found = shutil.which(name)
        if found is None:
            print(f"{name} is not a command here; give the path of a `studio`.", file=sys.stderr)
            return 2
        studios.append(Path(found))
    results = measure(studios, args.cold, args.warm)
    print(json.dumps({"benchmark": "startup (studio bench startup, one run a process)",
                      "load_average": os.getloadavg(), "results": results}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
