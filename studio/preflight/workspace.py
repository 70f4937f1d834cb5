"""The workspace (tenant, organization, team) the tests run in: found on the page, chosen by the tester when
there are several, selected in the browser, and read back into context_collection.environment."""

from __future__ import annotations

import asyncio
import re

from studio.models.context import PendingQuestion
from studio.models.locator import LocatorSpec, LocatorStep
from studio.preflight.run import NeedAnswers, PreflightRun
from studio.preflight.survey import Survey
from studio.race.driver import PageDriver
from studio.race.errors import RaceError

TENANT = "tenant"
TENANT_WORDS = re.compile(r"tenant|organi[sz]ation", re.IGNORECASE)


def _store(run: PreflightRun, label: str, current: str | None) -> None:
    """Put the current choice where the seed has it: tenant/organization -> tenant, workspace/team -> workspace."""
    environment = run.context.environment
    if TENANT_WORDS.search(label):
        environment.tenant = current
    else:
        environment.workspace = current


async def choose_workspace(run: PreflightRun, survey: Survey) -> Survey:
    """Read the switcher; with several options ask which one (once), select it and read what the app now shows."""
    switcher = survey.tenant
    if not switcher:
        return survey
    label, options, current = switcher["label"] or "Workspace", switcher.get("options") or [], switcher.get("current")
    wanted = run.answer(TENANT)
    if len(options) > 1 and wanted is None and not run.skipped(TENANT):
        raise NeedAnswers([PendingQuestion.make(
            TENANT, label.capitalize(), f"The app offers several {label.lower()} choices ({', '.join(options)}). "
            "Which one should the tests use?", f"Test cases depend on the {label.lower()}'s data.", options=options)])
    if run.skipped(TENANT):
        run.note(f"The {label.lower()} question was skipped; the tests use the current one ({current}).")
    if wanted and wanted != current:
        survey = await _select(run, switcher, wanted) or survey
        current = (survey.tenant or {}).get("current") or current
        if current != wanted:
            run.note(f"Could not switch the {label.lower()} to {wanted!r}; the app still shows {current!r}.")
    _store(run, label, current)
    if current:
        run.note(f"{label}: {current}.")
    return survey


def _role(role: str, name: str, exact: bool = True) -> LocatorSpec:
    return LocatorSpec(strategy="role", steps=[LocatorStep(kind="role", role=role, name=name, exact=exact)])


async def _choice(driver: PageDriver, wanted: str, timeout_s: float = 5.0) -> LocatorSpec:
    """The opened menu's entry for `wanted`: a menu item, or a listbox option (whichever the menu shows first)."""
    entries = [_role("menuitem", wanted), _role("option", wanted)]
    deadline = asyncio.get_running_loop().time() + timeout_s
    while True:
        for entry in entries:
            if await driver.count(entry):
                return entry
        if asyncio.get_running_loop().time() > deadline:
            raise RaceError("no_match", f"The switcher's menu shows no entry {wanted!r}.")
        await asyncio.sleep(0.05)


async def _select(run: PreflightRun, switcher: dict, wanted: str) -> Survey | None:
    driver = run.driver
    run.progress(f"Switching the {switcher['label'].lower()} to {wanted}")
    run.budget.charge_step()
    try:
        if switcher.get("kind") == "select":
            label = LocatorSpec(strategy="label", steps=[LocatorStep(kind="label", value=switcher["label"],
                                                                     exact=True)])
            await driver.must("select", label, value=wanted)
        else:
            await driver.must("click", _role("button", switcher["label"], exact=False))
            await driver.must("click", await _choice(driver, wanted))
    except RaceError as error:
        run.note(f"The {switcher['label'].lower()} switcher could not be used: {str(error).splitlines()[0]}")
        return None
    # The app may reload, navigate or update in place: read the switcher until it shows the choice (bounded).
    deadline = asyncio.get_running_loop().time() + 10
    while True:
        survey = await run.survey(f"the {switcher['label'].lower()} switcher")
        if (survey.tenant or {}).get("current") == wanted or asyncio.get_running_loop().time() > deadline:
            return survey
        await asyncio.sleep(0.2)
