"""A page that stops answering while the preflight tries one of its controls — a key handler stuck in a loop, a
click whose handler never returns — is handled as a page stuck on load is (PreflightRun.visit): it is named in one
sentence (a suspected defect: users do not expect a page to freeze when they type), its page is left for a fresh
one, that control is skipped from then on, and the preflight goes on with the rest of the page and the app.

A step that merely failed (an element that is not there, a locator that timed out, a click something covered) keeps
its own handling. One short evaluation tells the two apart: a page whose scripts still yield answers `1` at once,
while a busy loop holds every script of its page, the studio's own included.
"""

from __future__ import annotations

from studio.browser.errors import BrowserError
from studio.models.context import Finding
from studio.models.testcase import CaseStep
from studio.preflight.findings import report_finding
from studio.preflight.persistence import said
from studio.preflight.run import PreflightRun
from studio.preflight.sandbox import Sandbox
from studio.race.driver import PageDriver
from studio.race.errors import RaceError

PROBE_S = 2.0  # a page that answers at all answers a trivial evaluation within milliseconds
DONE = {"fill": "typed into", "click": "clicked", "dblclick": "double-clicked", "hover": "hovered",
        "check": "checked", "drag": "dragged"}
MOVES = {"navigate": "while it loaded", "reload": "while it reloaded", "back": "when the browser went back"}


class ControlHangs(RaceError):
    """The page stopped answering during a step on `control`: the try ends there and no later try acts on it. A
    RaceError (kind timeout), so a try that says why it could not be tried says this."""

    def __init__(self, control: str, message: str) -> None:
        super().__init__("timeout", message)
        self.control = control


async def answers(driver: PageDriver) -> bool:
    """Whether the page still runs scripts: False only when a trivial evaluation times out (a closed page or one
    that navigated answers True: whatever failed there is not a hang)."""
    try:
        await driver.evaluate("1", during="checking that the page still answers", seconds=PROBE_S)
    except RaceError as error:
        return error.kind != "timeout"
    return True


def control_of(step: CaseStep) -> str:
    """What a step acts on, as tries tell controls apart: its locator, or the key pressed on the page (a page that
    stopped answering while it loaded is its navigate step: no later try can open it either)."""
    if step.locator is not None:
        return step.locator.python()
    return f"{step.action} {step.data or ''}".strip()


def while_doing(step: CaseStep) -> str:
    """The step in words, after "stopped answering": "when 'New note' was typed into"."""
    target = step.target or "the page"
    if not target.startswith(("'", '"', "the ", "The ")):
        target = f"'{target}'"
    if step.action == "press":
        return f"when {step.data or 'a key'} was pressed " + (f"in {target}" if step.locator is not None
                                                              else "on the page")
    if step.action == "select":
        return f"when '{step.data}' was chosen in {target}"
    if step.action in DONE:
        return f"when {target} was {DONE[step.action]}"
    return MOVES.get(step.action, f"during the {step.action} of {target}")


def hung_sentence(path: str, when: str, then: str) -> str:
    """The suspected defect in one sentence: where, on what, what the preflight did instead, and what to look at."""
    return (f"On {path}, the page stopped answering {when} (a script on it seems stuck in a loop); the preflight "
            f"{then}, so check what the page's scripts do there.")


async def leave_stuck_page(run: PreflightRun, path: str, step: CaseStep, error: RaceError) -> bool:
    """The tester's page, after `step` on it failed with `error`: when the page no longer answers, it is reported
    and replaced as a page stuck on load is (PreflightRun.visit), and True; False when it still answers."""
    if await answers(run.driver):
        return False
    report_finding(run, Finding(kind="other", page_url=run.driver.url,
                                evidence=[said(step), str(error).splitlines()[0]],
                                summary=hung_sentence(path, while_doing(step), "left that page and went on")))
    await run.session.replace_stuck_page()  # the next visit starts in a page that answers
    return True


class Hangs:
    """The controls a page stopped answering on, for the tries of one page (a Prober's)."""

    def __init__(self, run: PreflightRun, box: Sandbox, path: str, url: str) -> None:
        self.run, self.box, self.path, self.url = run, box, path, url
        self.controls: dict[str, str] = {}  # control -> how the page stopped answering on it

    def check(self, step: CaseStep) -> None:
        """Raise ControlHangs for a step on a control the page stopped answering on before: it is not tried again
        (each try would cost a page-call timeout and a frozen page)."""
        control = control_of(step)
        if control in self.controls:
            raise ControlHangs(control, f"The page stopped answering {self.controls[control]} earlier, so that "
                                        "control is skipped.")

    async def judge(self, driver: PageDriver, step: CaseStep, error: RaceError | BrowserError) -> None:
        """After `step` failed with `error`: when the page no longer answers, report it, close that page and raise
        ControlHangs; otherwise return, and the caller handles `error` as before."""
        if isinstance(error, ControlHangs) or await answers(driver):
            return
        control, when = control_of(step), while_doing(step)
        self.controls[control] = when
        report_finding(self.run, Finding(
            kind="other", page_url=self.url, evidence=[said(step), str(error).splitlines()[0]],
            summary=hung_sentence(self.path, when, "stopped trying that page" if step.action in MOVES
                                  else "skipped that control and tried the rest")))
        await self.box.discard()  # the stuck page's context: the next try opens a fresh one
        raise ControlHangs(control, f"The page stopped answering {when}, so that control is skipped.") from error
