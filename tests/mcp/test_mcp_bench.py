"""`studio bench mcp-click --json` as a developer runs it (few runs): one JSON object with the latencies of a click
through `studio mcp`, with and without recording. No timing is asserted; the numbers are for people to read."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_bench_mcp_click_prints_its_numbers_as_one_json_object():
    done = subprocess.run([sys.executable, "-m", "studio", "bench", "mcp-click", "--json", "--runs", "2"],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 1
    result = json.loads(done.stdout)
    assert result["benchmark"] == "mcp-click" and result["samples_each"] == 2
    for key in ("click_ms_median", "click_ms_p90", "recording_click_ms_median", "recording_click_ms_p90",
                "recording_click_back_to_back_ms_median", "click_back_to_back_ms_median", "check_ms_median"):
        assert isinstance(result[key], float) and result[key] > 0, key
    assert set(result["targets"]) == {"click_ms_median", "recording_click_ms_median"}
