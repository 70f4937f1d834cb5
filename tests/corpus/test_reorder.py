"""A list sorted by dragging (SortableJS on our host page): New Suite drags an item onto another, writes the case
that checks the new order and what the page said about the move, and checks the order is still there after a
reload; on the copy that forgets the order, that is a suspected defect (data_lost_on_reload), never an assertion."""

from __future__ import annotations

import pytest

from tests.corpus.catalog import APPS
from tests.corpus.studio_run import new_suite

pytestmark = [pytest.mark.corpus, pytest.mark.slow]

APP = APPS["sortable"]


def _steps(case: dict) -> list[dict]:
    return list(case.get("steps") or [])


def test_a_sortable_list_is_dragged_checked_in_order_and_its_order_kept(corpus_site, worker_chromium, tmp_path):
    run = new_suite(corpus_site(APP).url(APP.entry), tmp_path / "healthy.studio")
    drags = [case for case in run.cases if any(step["action"] == "drag" for step in _steps(case))]
    assert drags, run.stderr_tail
    checks = {outcome["kind"] for case in drags for step in _steps(case) for outcome in step.get("outcomes") or []}
    assert "texts" in checks  # every item, in the order the drag left them
    assert any("Moved" in str(outcome.get("why", "")) for case in drags for step in _steps(case)
               for outcome in step.get("outcomes") or [])  # what the page said about the move
    assert any("still there after a reload" in case["title"] for case in run.cases)
    assert not [f for f in run.findings if f.get("kind") == "data_lost_on_reload"]

    forgetful = new_suite(corpus_site(APP, "order_not_saved").url(APP.entry), tmp_path / "forgetful.studio")
    [lost] = [f for f in forgetful.findings if f.get("kind") == "data_lost_on_reload"]
    assert "old order" in lost["summary"]
