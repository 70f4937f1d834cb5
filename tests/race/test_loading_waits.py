"""A wait the page showed it needed is exported even when the step itself found nothing in its way (issue 22): the
tester waited out "Loading products…" before clicking, so the click's preflight saw no scrim, and the exported test
had no wait for it; on a slower run the scrim was still up and the test failed."""

from __future__ import annotations

import asyncio

import pytest

from studio.export import export_session
from studio.race.actions import ActionRunner
from studio.race.recorder import StepRecorder
from tests.race.conftest import ref_after

pytestmark = pytest.mark.browser


async def test_a_scrim_waited_out_before_a_click_becomes_a_wait_in_the_export(race, page, demo, tmp_path):
    demo.configure(hydration_ms=(6000, 6000), seed=4)
    steps = []
    recorder = StepRecorder(race, ActionRunner(race), "s1", steps.append)
    await recorder.navigate(demo.base_url + "/products")
    # The tester waits until the products can be clicked.
    await page.get_by_test_id("loading-scrim").wait_for(state="hidden", timeout=20000)
    await asyncio.sleep(0.3)
    ref = ref_after((await race.snapshot()).text, '"iPhone 15 Pro"', '"Add to Cart"')
    assert (await recorder.act("click", ref)).acted

    click = steps[-1]
    assert not any(o.type == "coverage" for o in click.observations)  # nothing was in its way when it was done
    (seen, *_) = click.loading_seen
    assert seen.test_id == "loading-scrim" and 2.0 <= seen.seconds <= 8.0, click.loading_seen

    python = export_session(steps, "python", tmp_path / "py").files
    code = next(p for p in python if p.name.startswith("test_")).read_text()
    timeout = int(max(10_000, round(seen.seconds * 2000, -3)))
    wait = f'expect(page.get_by_test_id("loading-scrim")).to_be_hidden(timeout={timeout:_})'
    assert wait in code and code.index(wait) < code.index("add_to_cart.click()"), code
    assert '# The page showed the loading scrim ("Loading products…") for ' in code
    assert code.count("to_be_hidden") == 1  # the text inside the scrim is the scrim's; the grid that was busy stays
    typescript = export_session(steps, "typescript", tmp_path / "ts").files
    spec = next(p for p in typescript if p.name.endswith(".spec.ts")).read_text()
    assert f"toBeHidden({{ timeout: {timeout} }})" in spec
