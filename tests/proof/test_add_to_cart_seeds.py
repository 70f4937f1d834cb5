"""The issue's proof: record "add a named product to the cart" once, export it, and run the exported test
against 20 seeds of the demo app (random hydration delays, shuffled card order). It must pass 20 of 20, while
the naive `get_by_role("button", name="Add to Cart").nth(k)` test fails on some of the same seeds."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from studio.export import export_session
from studio.race.actions import ActionRunner
from studio.race.recorder import StepRecorder
from tests.race.conftest import ref_after

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.usefixtures("exports_on_the_worker_server")]

ROOT = Path(__file__).resolve().parents[2]
SEEDS = list(range(1, 21))
PRODUCT = "iPhone 15 Pro"

NAIVE_TEST = '''
import re
from playwright.sync_api import Page, expect


def test_add_iphone_naively(page: Page) -> None:
    page.goto("/products")
    page.get_by_role("button", name="Add to Cart").nth({k}).click()
    # Wait for whichever product's toast appears, then check it is ours (fails fast on the wrong product).
    toast = page.get_by_role("status").filter(has_text="added to cart")
    expect(toast).to_be_visible()
    text = toast.inner_text()
    print("NAIVE TOAST " + text.replace("\\n", " "))
    assert "{product} added to cart" in text
'''


def run_against_seeds(folder: Path, base_url: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DEMO_SEEDS": ",".join(map(str, SEEDS)), "PYTHONPATH": str(ROOT)}
    env.pop("PYTEST_ADDOPTS", None)
    return subprocess.run(
        [sys.executable, "-m", "pytest", str(folder), "-p", "tests.proof.seed_plugin", "--base-url", base_url,
         "-q", "-s", "-p", "no:cacheprovider"],
        cwd=folder, capture_output=True, text=True, env=env, timeout=600,
    )


def outcomes(run: subprocess.CompletedProcess) -> tuple[int, int]:
    passed = re.search(r"(\d+) passed", run.stdout)
    failed = re.search(r"(\d+) failed", run.stdout)
    return int(passed.group(1)) if passed else 0, int(failed.group(1)) if failed else 0


async def record_add_to_cart(race, base_url: str) -> tuple[list, int]:
    """Do it as an agent does: navigate, snapshot, click; read the facts; repeat until the click happens.
    Returns the steps and k, the iPhone button's position among all "Add to Cart" buttons when clicked."""
    steps: list = []
    recorder = StepRecorder(race, ActionRunner(race, timeout_ms=8000), "proof", steps.append)
    await recorder.navigate(base_url + "/products")
    for _ in range(10):
        text = (await race.snapshot()).text
        ref = ref_after(text, f'"{PRODUCT}"', '"Add to Cart"')
        position = [line for line in text.splitlines() if '"Add to Cart"' in line].index(
            next(line for line in text.splitlines() if f" {ref} " in line + " "))
        if (await recorder.act("click", ref)).acted:
            return steps, position
    raise AssertionError("the recorded click never happened")


async def test_exported_add_to_cart_passes_for_20_seeds_and_the_naive_one_does_not(race, demo, tmp_path):
    # Record on a slow load, so the recording meets the loading scrim (as a tester on a slow day would);
    # the runs then use the demo's own seeded random delays (300–900 ms) and shuffled order, seeds 1..20.
    demo.configure(seed=101, hydration_ms=(2500, 2500))
    steps, k = await record_add_to_cart(race, demo.base_url)
    demo.reset()
    click = steps[-1]
    assert any(o.type == "coverage" for o in click.observations), "the recording should have met the scrim"

    exported = tmp_path / "exported"
    export_session(steps, "python", exported, title=f"add {PRODUCT} to cart")
    code = next(exported.glob("test_*.py")).read_text()
    assert 'get_by_test_id("loading-scrim")' in code and ".nth(" not in code
    assert "wait_for_timeout" not in code and "time.sleep" not in code

    run = run_against_seeds(exported, demo.base_url)
    assert outcomes(run) == (20, 0), run.stdout[-3000:] + run.stderr[-2000:]
    orders = re.findall(r"SEED (\d+) ORDER (.+)", run.stdout)
    assert len(orders) == 20 and len({order for _, order in orders}) >= 15  # the seeds really shuffle the grid
    positions = {order.split("|").index(PRODUCT) for _, order in orders}
    assert len(positions) >= 5  # the product sat in many different places

    naive = tmp_path / "naive"
    naive.mkdir()
    for name in ("conftest.py", "pytest.ini"):
        (naive / name).write_text((exported / name).read_text())
    (naive / "test_naive.py").write_text(NAIVE_TEST.format(k=k, product=PRODUCT))
    naive_run = run_against_seeds(naive, demo.base_url)
    passed, failed = outcomes(naive_run)
    assert passed + failed == 20 and failed > 0, naive_run.stdout[-3000:]
    # Each failure is the wrong product landing in the cart, not a timeout or a crash.
    # (-s prints each run's marker line exactly once, whatever pytest's report layout on this machine.)
    toasts = re.findall(r"NAIVE TOAST (.+?) added to cart", naive_run.stdout)
    wrong = [name for name in toasts if name != PRODUCT]
    assert len(toasts) == 20, naive_run.stdout[-3000:]
    assert len(wrong) == failed and PRODUCT not in wrong, naive_run.stdout[-3000:]
    print(f"exported: 20/20 passed; naive nth({k}): {passed}/20 passed, {failed} failed "
          f"(it added {', '.join(sorted(set(wrong)))} instead)")
