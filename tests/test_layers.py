"""Architecture checks that run with the suite: the engine never imports Qt; the Qt binding we ship is sound."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_import_linter_contracts_hold():
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([str(lint)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_engine_imports_without_qt():
    code = (
        "import sys; import studio.browser.session, studio.store.project, studio.demo.server, "
        "studio.demo.run, studio.cli.main, studio.cli.doctor, studio.llm, studio.preflight.job, "
        "studio.runtime, studio.toolbelt; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'qasync', 'pyqtgraph')]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_signals_carrying_python_objects_do_not_corrupt_refcounts():
    # PySide6 6.12.0 decrements True/None on every emit to a Python slot and aborts CPython 3.11 after a
    # few thousand; the studio emits such signals constantly (busy flags, engine events).
    code = (
        "from PySide6.QtCore import QObject, Signal\n"
        "from PySide6.QtWidgets import QApplication, QCheckBox\n"
        "class O(QObject):\n    flag = Signal(bool)\n    thing = Signal(object)\n"
        "app = QApplication([]); o = O(); box = QCheckBox()\n"
        "o.flag.connect(lambda v: None); o.thing.connect(lambda v: None); box.toggled.connect(lambda v: None)\n"
        "for _ in range(20000):\n    o.flag.emit(True); o.thing.emit(None); box.setChecked(not box.isChecked())\n"
        "print('ok')\n"
    )
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0 and "ok" in done.stdout, done.stderr[-800:]


def test_every_engine_package_is_under_the_no_qt_contract():
    # A new engine package (say studio.game) must not escape the contract by being left off its list.
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    no_qt = next(c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "forbidden")
    covered = set(no_qt["source_modules"])
    engine = {f"studio.{p.stem if p.is_file() else p.name}" for p in (ROOT / "studio").iterdir()
              if (p.is_dir() and (p / "__init__.py").exists()) or (p.suffix == ".py" and p.stem != "__init__")}
    assert engine - {"studio.ui", "studio.app", "studio.__main__", "studio.entry"} <= covered, sorted(engine - covered)


def test_starting_the_studio_loads_neither_the_model_client_nor_the_exporter():
    # Every `studio` start paid ~1 s for openai and the exporter's JavaScript parser, needed only once a model
    # is configured or a test is exported.
    code = ("import sys, studio.ui.launcher; "
            "late = [m for m in ('openai', 'esprima', 'studio.export.project_writer') if m in sys.modules]; "
            "print(late); sys.exit(1 if late else 0)")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
