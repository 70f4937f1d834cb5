"""`studio bench live-view` and `studio bench startup` run end to end and print the JSON the README quotes.
Numbers are not judged here (the machine is shared); the shape and that the measurement really happened are."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pytestmark = [pytest.mark.gui, pytest.mark.browser, pytest.mark.slow]


def bench(*args: str) -> dict:
    done = subprocess.run([sys.executable, "-m", "studio", "bench", *args, "--json"], capture_output=True, text=True,
                          timeout=300, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_live_view_bench_paints_frames_and_times_clicks():
    result = bench("live-view", "--seconds", "1")
    assert result["viewport"] == [1280, 720] and result["widget"] == [1280, 720]
    assert result["frames_painted"] > 0 and result["frames_received"] >= result["frames_painted"]
    assert result["frames_dropped"] == result["frames_received"] - result["frames_painted"]
    assert result["clicks_reached_page"] == result["clicks"] == 30
    assert result["click_to_page_ms_median"] > 0 and result["painted_fps"] > 0


def test_startup_bench_reports_each_run():
    result = bench("startup", "--runs", "1")
    assert len(result["seconds_to_first_painted_frame"]) == 1 and result["median_s"] > 0
