"""The package type-checks: mypy, configured in pyproject.toml ([tool.mypy]), finds nothing in studio/."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_mypy_passes_on_the_package():
    done = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"mypy found problems:\n{done.stdout}{done.stderr}"
