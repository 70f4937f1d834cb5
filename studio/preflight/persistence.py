"""What a reload keeps: after adding items, the page is opened again and they must still be there. Items a reload
loses are a suspected defect (users of a list expect what they added to stay): reported as a finding, with a case
that checks that they stay — it fails today, and says so — never one that takes them being gone as expected."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from studio.models.behaviour import Behaviour
from studio.models.context import Finding
from studio.models.outcomes import VisibleOutcome
from studio.models.testcase import CaseStep
from studio.preflight.findings import report_finding
from studio.race.errors import RaceError
from studio.wording import plural

if TYPE_CHECKING:
    from studio.preflight.probes import Prober


def said(step: CaseStep) -> str:
    """A step as evidence reads it: `fill What needs to be done? "First sample item"`."""
    return " ".join(part for part in (step.action, step.target or step.url or "", f'"{step.data}"' if step.data
                                      else "") if part)


def reload_tried(prober: Prober, kept: Callable[[Behaviour], bool]) -> bool:
    """Whether this page's reload was tried already: a behaviour `kept` says so, or a data loss was reported."""
    return any(kept(b) for b in prober.behaviours) or any(
        f.kind == "data_lost_on_reload" and f.page_url == prober.url for f in prober.run.context.findings)


async def try_persistence(prober: Prober, adds: list[CaseStep]) -> None:
    """Reload after adding: the items must still be there. Items a reload loses are a suspected defect (users of
    a list expect what they added to stay): it is reported, and the case checks that they stay — it fails today,
    and says so — never that they are gone."""
    name = "Added items are still there after a reload"
    # Only what was typed is data a user added; rows a sort or a page of a table showed are views a reload may reset.
    typed = [step.data.strip() for step in adds if step.action == "fill" and step.data and step.data.strip()]
    if not typed:
        return
    if reload_tried(prober, lambda b: b.kind == "persist"):
        return  # once per page
    ready = await prober.attempt(adds, name)
    if ready is None:
        return
    driver, observer = ready
    try:
        reload = await prober.act(driver, observer, CaseStep(action="reload", target="the page"))
    except RaceError as error:
        prober.run.note(f"{prober.catalog.path}: {name} could not be tried: {str(error).splitlines()[0]}")
        return
    lost = list({key: (key, locator) for key, locator in observer.lost_on_reload
                 if any(value in key or key in value for value in typed)}.values())
    if not lost:
        prober.keep("persist", name, adds, [reload])
        return
    keys = ", ".join(f'"{key}"' for key, _ in lost)
    summary = (f"On {prober.catalog.path}, {plural(len(lost), 'item')} added before a reload were gone after it ({keys}): "
               "users of a list expect what they added to stay.")
    expected = [VisibleOutcome(locator=locator, why=f'"{key}" is still listed after the reload.')
                for key, locator in lost if locator is not None]
    finding = Finding(kind="data_lost_on_reload", summary=summary, page_url=prober.url,
                      evidence=[*map(said, adds), "reload the page", f"gone after the reload: {keys}"])
    if not expected:
        report_finding(prober.run, finding)
        return
    step = reload.model_copy(update={"outcomes": [*reload.outcomes, *expected],
                                     "expected": " ".join(o.why for o in expected)})
    # The case checks what users expect (the items stay): it fails today, and is marked so.
    report_finding(prober.run, finding, expected=Behaviour(
        kind="persist", name=name, page=prober.catalog.path, setup=adds, steps=[step],
        summary=" ".join(o.why for o in expected)))
