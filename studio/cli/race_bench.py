"""`studio bench race|snapshot`: our preflight check and snapshot against Playwright's own, as JSON.

The pages come from the runtime like any other work's; Playwright's own side of each comparison (a trial click, an
aria snapshot) is asked of the same page the driver holds.
"""

from __future__ import annotations

import asyncio
import json
import re
import statistics
import sys
import time

from studio.demo.server import DemoConfig, DemoServerThread
from studio.race.locators import resolve, synthesize
from studio.runtime import EngineRuntime
from studio.settings import StudioSettings

SIZES = (12, 100, 1000, 5000)  # a small page too: most pages a tester opens are small


def admin_page(interactive: int) -> str:
    """A realistic admin table: each row has text cells, a status badge and three controls."""
    rows = []
    for n in range(max(1, interactive // 3)):
        status = ("Active", "Invited", "Suspended")[n % 3]
        rows.append(
            f'<tr data-testid="user-row"><td><input type="checkbox" aria-label="Select user {n}"></td>'
            f"<td>User {n} Lastname</td><td>user{n}@example.com</td><td><span class=badge>{status}</span></td>"
            f"<td>Member since 20{10 + n % 15}, plan {('Free', 'Plus', 'Premium')[n % 3]}</td>"
            f'<td><a href="/users/{n}" data-testid="edit-user">Edit</a> '
            f'<button data-testid="delete-user">Delete</button></td></tr>'
        )
    return (
        "<!doctype html><title>Users</title><header><nav aria-label=Main><a href=/>Home</a> <a href=/users>Users</a>"
        "</nav></header><main><h1>Users</h1><p>Manage the people in your workspace.</p>"
        "<table><caption>All users</caption><thead><tr><th>Select</th><th>Name</th><th>Email</th><th>Status</th>"
        f"<th>Details</th><th>Actions</th></tr></thead><tbody>{''.join(rows)}</tbody></table></main>"
    )


def _ref(line: str) -> str:
    found = re.search(r" (e\d+)(?: |$)", line)
    if found is None:
        raise ValueError(f"no element ref in the snapshot line {line!r}")
    return found.group(1)


def _median_ms(samples: list[float]) -> float:
    return round(statistics.median(samples) * 1000, 2)


async def measure_race(repeats: int = 30) -> dict:
    """Median round trip of our preflight check vs Playwright's click(trial=True) on the same elements."""
    with DemoServerThread(config=DemoConfig(hydration_ms=(0, 0))) as demo:
        async with EngineRuntime(StudioSettings(), record=False) as runtime:
            driver = await runtime.open_page()
            page, race = driver.page, driver.race
            await driver.navigate(demo.base_url + "/products")
            await driver.wait_for("[data-testid=loading-scrim]", "hidden")
            await asyncio.sleep(0.5)  # let the cards' fade-in finish, so both sides see still elements
            text = (await race.snapshot()).text
            refs = [_ref(line) for line in text.splitlines() if '"Add to Cart"' in line][:6]
            refs += [_ref(line) for line in text.splitlines() if line.strip().startswith('link "') and "#nav-" in line][:4]
            ours, theirs = [], []
            for ref in refs:
                locator = await synthesize(race, ref)
                target = resolve(page, locator.steps)
                await race.observe_for_action(ref)  # warm both paths once
                await target.click(trial=True)
                for _ in range(repeats):
                    started = time.perf_counter()
                    await race.observe_for_action(ref)
                    ours.append(time.perf_counter() - started)
                    started = time.perf_counter()
                    await target.click(trial=True)
                    theirs.append(time.perf_counter() - started)
    return {
        "benchmark": "race",
        "page": "demo /products after hydration",
        "elements": len(refs),
        "samples_each": len(ours),
        "preflight_check_ms_median": _median_ms(ours),
        "preflight_check_ms_p90": round(sorted(ours)[int(len(ours) * 0.9)] * 1000, 2),
        "playwright_trial_click_ms_median": _median_ms(theirs),
        "ratio_preflight_over_trial_click": round(statistics.median(ours) / statistics.median(theirs), 3),
        "targets": {"preflight_check_ms_median": "<= 5", "ratio_preflight_over_trial_click": "<= 1"},
    }


def _fidelity(text: str, interactive: int) -> dict:
    """Whether the snapshot kept what an agent needs of the admin table: a ref, role and name on every control,
    and the rows' and controls' test ids."""
    controls = re.findall(r'^\s*(?:checkbox|link|button) "[^"]+" e\d+', text, re.MULTILINE)
    return {
        "controls_with_refs": len(controls),
        "keeps_refs": len(controls) == interactive,
        "keeps_roles_and_names": all(f in text for f in ('checkbox "Select user 0"', 'link "Edit"', 'button "Delete"')),
        "keeps_test_ids": all(f in text for f in ("#user-row", "#edit-user", "#delete-user")),
    }


async def measure_snapshot(repeats: int = 3, sizes: tuple[int, ...] = SIZES) -> dict:
    """Time and size of our snapshot and of Playwright's aria_snapshot on generated pages."""
    results = []
    async with EngineRuntime(StudioSettings(), record=False) as runtime:
        for size in sizes:
            driver = await runtime.open_page()
            page, race = driver.page, driver.race
            await page.set_content(admin_page(size))
            ours_text = (await race.snapshot()).text  # also installs the library (not timed)
            theirs_text = await page.locator("body").aria_snapshot()
            ours_t, theirs_t = [], []
            for _ in range(repeats):
                started = time.perf_counter()
                snap = await race.snapshot()
                ours_t.append(time.perf_counter() - started)
                started = time.perf_counter()
                theirs_text = await page.locator("body").aria_snapshot()
                theirs_t.append(time.perf_counter() - started)
            interactive = await driver.evaluate("document.querySelectorAll('a[href], button, input').length")
            results.append({
                "interactive_elements": interactive,
                "ours_ms": _median_ms(ours_t), "aria_snapshot_ms": _median_ms(theirs_t),
                "ours_chars": len(snap.text), "aria_snapshot_chars": len(theirs_text),
                "size_ratio": round(len(snap.text) / len(theirs_text), 3),
                "time_ratio": round(statistics.median(ours_t) / statistics.median(theirs_t), 3),
                "refs": snap.refCount, **_fidelity(snap.text, interactive),
            })
            assert len(ours_text) == len(snap.text)
            await driver.close()
    return {"benchmark": "snapshot", "pages": results,
            "targets": {"time_ratio": "<= 1", "size_ratio": "<= 0.6"}}


def main(target: str, seconds: float = 5.0, json_only: bool = False, runs: int | None = None,
         sizes: tuple[int, ...] | None = None) -> int:
    """`studio bench race|snapshot`: `runs` is the samples per element (race) or per page (snapshot)."""
    if target == "race":
        if sizes is not None:
            print("--sizes does not apply to `studio bench race`.", file=sys.stderr)
            return 2
        result = asyncio.run(measure_race(runs or 30))
    else:
        result = asyncio.run(measure_snapshot(runs or 3, sizes or SIZES))
    print(json.dumps(result, indent=None if json_only else 2))
    return 0
