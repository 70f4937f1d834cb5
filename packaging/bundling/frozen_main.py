"""The desktop bundle's entry point: the `studio` command, frozen.

In a bundle `sys.executable` is the studio itself, not a Python. The studio starts itself again for a few jobs
(`studio doctor` probes Qt with `sys.executable -c …`, `studio bench startup` runs `sys.executable -m studio gui`,
the soak and scale benches start `-m` modules), so the bundle answers `-c CODE` and `-m MODULE` as Python would.
A project file given on its own (`studio FILE.studio`, `studio gui FILE.studio`: what a desktop entry, a macOS
document event or a Windows file association passes) opens in the window: the `studio` command itself does that.
"""

from __future__ import annotations

import os
import runpy
import sys


def _as_python(argv: list[str]) -> bool:
    """Run `-c CODE …` or `-m MODULE …` as Python does; False when argv is a studio command."""
    if len(argv) < 3 or argv[1] not in ("-c", "-m"):
        return False
    flag, target, rest = argv[1], argv[2], argv[3:]
    if flag == "-c":
        sys.argv = ["-c", *rest]
        code = compile(target, "<string>", "exec")
        exec(code, {"__name__": "__main__", "__builtins__": __builtins__})  # noqa: S102  (what `python -c` does)
    else:
        sys.argv = [argv[0], *rest]
        runpy.run_module(target, run_name="__main__", alter_sys=True)
    return True


def _restore_library_path() -> None:
    """Programs the studio starts (Playwright's Node.js, the browser) get the system's libraries, not the bundle's.

    PyInstaller's bootloader points LD_LIBRARY_PATH at the bundle for this process; a system Chromium loading the
    bundle's older GLib or X11 libraries can fail to start. This process has loaded its own libraries already."""
    if not sys.platform.startswith("linux") or not getattr(sys, "frozen", False):
        return
    original = os.environ.pop("LD_LIBRARY_PATH_ORIG", None)
    if original is None:
        os.environ.pop("LD_LIBRARY_PATH", None)
    else:
        os.environ["LD_LIBRARY_PATH"] = original


def main() -> int:
    _restore_library_path()
    if _as_python(sys.argv):
        return 0
    from studio.entry import main as studio

    return studio(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
