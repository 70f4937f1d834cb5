"""`studio --version` names the distribution and its installed version, and a bare source tree still has one."""

from __future__ import annotations

import shutil
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import studio

ROOT = Path(__file__).resolve().parents[2]


def test_studio_version_prints_the_distribution_and_its_installed_version(tmp_path):
    done = subprocess.run([sys.executable, "-m", "studio", "--version"], check=False, cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"preflight-studio {version('preflight-studio')}\n"
    # pyproject.toml takes the version from the source, so the two never disagree.
    assert version("preflight-studio") == studio.__version__


def test_without_an_installed_distribution_the_version_is_the_source_s(tmp_path):
    # The package's top module alone, on a Python that sees no site-packages (-S), so no installed preflight-studio.
    (tmp_path / "studio").mkdir()
    shutil.copy(ROOT / "studio" / "__init__.py", tmp_path / "studio")
    done = subprocess.run([sys.executable, "-S", "-c", "import studio; print(studio.installed_version())"],
                          check=False, cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == studio.__version__
