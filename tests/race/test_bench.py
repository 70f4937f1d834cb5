"""`studio bench race|snapshot --json` as a developer runs them (small sizes): the JSON's shape, and that our
snapshot keeps what an agent needs. No timing is asserted; the numbers are for people to read."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def bench(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "studio", "bench", *args], capture_output=True, text=True,
                          timeout=240)


def test_bench_race_prints_its_numbers_as_one_json_object():
    done = bench("race", "--json", "--runs", "2")
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 1  # --json: one line, nothing else
    result = json.loads(done.stdout)
    assert result["benchmark"] == "race" and result["elements"] == 10
    assert result["samples_each"] == 20  # 10 elements, 2 runs each
    for key in ("preflight_check_ms_median", "preflight_check_ms_p90", "playwright_trial_click_ms_median",
                "ratio_preflight_over_trial_click"):
        assert isinstance(result[key], float) and result[key] > 0, key
    assert set(result["targets"]) == {"preflight_check_ms_median", "ratio_preflight_over_trial_click"}


def test_bench_snapshot_keeps_refs_roles_names_and_test_ids():
    done = bench("snapshot", "--json", "--runs", "1", "--sizes", "30,300")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["benchmark"] == "snapshot" and set(result["targets"]) == {"time_ratio", "size_ratio"}
    small, large = result["pages"]
    # 10 and 100 table rows of three controls each, and the two navigation links.
    assert (small["interactive_elements"], large["interactive_elements"]) == (32, 302)
    for page in (small, large):
        assert page["controls_with_refs"] == page["interactive_elements"] and page["keeps_refs"]
        assert page["keeps_roles_and_names"] and page["keeps_test_ids"]
        assert page["refs"] >= page["interactive_elements"]
        assert 0 < page["ours_chars"] and 0 < page["aria_snapshot_chars"] and page["size_ratio"] > 0


def test_bench_refuses_options_that_do_not_apply():
    done = bench("race", "--sizes", "100")
    assert done.returncode == 2 and done.stderr.strip() == "--sizes does not apply to `studio bench race`."
    bad = bench("snapshot", "--sizes", "many")
    assert bad.returncode == 2 and "--sizes must be page sizes separated by commas" in bad.stderr
