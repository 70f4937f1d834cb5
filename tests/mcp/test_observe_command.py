"""`studio observe` as a tester runs it: a real subprocess, a real Chromium, the demo app."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.mcp.conftest import closed_port

pytestmark = pytest.mark.browser


def observe(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "studio", "observe", *args], capture_output=True, text=True,
                          timeout=120, env=dict(os.environ))


@pytest.fixture
def hydrating_products(demo) -> str:
    demo.configure(hydration_ms=(2500, 2500), shuffle_products=False)
    return demo.base_url + "/products"


def test_prints_one_fact_per_line_for_the_first_match(hydrating_products):
    done = observe(hydrating_products, "--selector", "[data-testid=add-to-cart]")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("12 elements match '[data-testid=add-to-cart]'")
    assert "observing the first, button.btn.btn-primary [data-testid=add-to-cart]" in lines[0]
    assert "attachment: connected to the document" in lines
    coverage = next(line for line in lines if line.startswith("coverage: "))
    assert coverage.startswith("coverage: covered by div.loading-scrim [data-testid=loading-scrim]")
    assert "z-index 9999" in coverage and " at (" in coverage
    assert any(line.startswith("input state: <button> enabled") for line in lines)


def test_json_is_the_seeds_observation_array(hydrating_products):
    done = observe(hydrating_products, "--selector", "article:first-child button", "--json", "--action", "click")
    assert done.returncode == 0, done.stderr
    facts = json.loads(done.stdout)
    coverage = next(fact for fact in facts if fact["type"] == "coverage")
    assert coverage["elementAtPoint"]["testId"] == "loading-scrim" and coverage["isTargetOrDescendant"] is False
    # --action click keeps what the click's preflight would stop on; the viewport fact is not among them.
    assert "viewport" not in {fact["type"] for fact in facts}
    assert "1 element matches" in done.stderr


def test_a_link_reports_where_it_goes(demo):
    done = observe(demo.base_url + "/help", "--selector", "a[href='/products']")
    assert done.returncode == 0, done.stderr
    assert "navigation: the element is a link to /products" in done.stdout.splitlines()


@pytest.mark.parametrize("selector, sentence", [
    (".no-such-thing", "No element matches '.no-such-thing' on "),
    ("[[[", "'[[[' is not a valid CSS selector"),
])
def test_no_match_or_a_bad_selector_exits_2_with_a_sentence(demo, selector, sentence):
    done = observe(demo.base_url + "/help", "--selector", selector)
    assert done.returncode == 2
    assert done.stderr.startswith(sentence) and "Traceback" not in done.stderr
    assert done.stdout == ""


@pytest.mark.parametrize("selector, kind", [(".no-such-thing", "no_match"), ("[[[", "bad_input")])
def test_with_json_a_failure_is_the_typed_error_json_and_exit_2(demo, selector, kind):
    done = observe(demo.base_url + "/help", "--selector", selector, "--json")
    assert done.returncode == 2
    reply = json.loads(done.stdout)
    assert reply == {"error": {"type": kind, "message": done.stderr.strip()}}  # the MCP tools' error shape
    assert reply["error"]["message"].endswith(".") and "Traceback" not in done.stderr


def test_an_unreachable_url_exits_2_with_a_sentence():
    url = f"http://127.0.0.1:{closed_port()}/"
    done = observe(url, "--selector", "button")
    assert done.returncode == 2
    assert done.stderr.strip() == (f"Could not open {url}: nothing answers at that address (connection refused). "
                                   "Check that the app is running and the URL is right.")
