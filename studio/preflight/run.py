"""PreflightRun: what every objective works with — the tester's page (a PageDriver on the runtime's live session,
and pages beside it for the sandbox), the job record, the budget, the answers, and the pages surveyed so far — plus
the helpers that count steps, keep evidence and report progress."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

from studio.browser.errors import BrowserError, PageUnresponsive, SessionClosedError
from studio.browser.session import BrowserSession
from studio.browser.urls import POLICY, is_allowed
from studio.llm.budget import Budget
from studio.llm.client import LanguageModel
from studio.llm.safety import OriginPolicy
from studio.models.catalog import PageCatalog
from studio.models.context import SKIPPED, Answer, ContextCollection, JobRecord, PendingQuestion
from studio.models.events import PreflightProgress
from studio.preflight.survey import Survey, survey_page
from studio.race.driver import PageDriver
from studio.runtime.live import LivePage
from studio.store.project import ProjectFile


class Blocked(Exception):
    """Nothing can be decided without the skipped answer (e.g. where the app runs): the job ends with this sentence."""


class OffTheApp(Blocked):
    """The app sent the browser to another origin and the tester did not allow it; the sentence says where."""


class NeedAnswers(Exception):
    """An objective cannot go on without the human: the job pauses with these questions (at most two)."""

    def __init__(self, questions: list[PendingQuestion]) -> None:
        super().__init__("; ".join(q.question.question for q in questions))
        self.questions = questions[:2]


# Answers the preflight must never write into the project file.
SECRET_KEYS = {"credentials.password", "credentials.totp_secret"}
SECRET_PLACEHOLDER = "(given; kept out of the project file)"
ALLOW, DONT_ALLOW = "Allow", "Don't allow"


def add_answers(job: JobRecord, answers: list[Answer], secrets: dict[str, str]) -> None:
    """Record the tester's answers in the job; secrets go to `secrets` (memory) and a placeholder to the job.

    An empty answer is a skipped one: it is kept as SKIPPED, so the job decides without it instead of asking again.
    """
    for answer in answers:
        # One answer per key: an answer given again (a resumed job, a corrected file) replaces the earlier one.
        job.context.answers = [given for given in job.context.answers if given.key != answer.key]
        if not answer.value.strip() or answer.value == SKIPPED:
            secrets.pop(answer.key, None)
            job.context.answers.append(Answer(key=answer.key, value=SKIPPED))
        elif answer.key in SECRET_KEYS:
            secrets[answer.key] = answer.value
            job.context.answers.append(Answer(key=answer.key, value=SECRET_PLACEHOLDER))
        else:
            job.context.answers.append(answer)


def record_questions(job: JobRecord, asked: NeedAnswers) -> None:
    """The questions of a pause join the job's record of the dialogue (seed 000's `questions`, beside `answers`);
    a question asked again is listed once."""
    for pending in asked.questions:
        if pending.question not in job.context.questions:
            job.context.questions.append(pending.question)


@dataclass
class PreflightRun:
    """One run of a preflight job on the tester's live page (a resumed job gets a fresh run)."""

    job: JobRecord
    live: LivePage  # the tester's page as a PageDriver (`driver`), and pages beside it (`open_beside`)
    budget: Budget
    project: ProjectFile | None = None
    secrets: dict[str, str] = field(default_factory=dict)
    catalogs: dict[str, PageCatalog] = field(default_factory=dict)
    fresh_browser: bool = True
    objective: str = "start"
    usage_key: str = "preflight_usage"  # where the job keeps its budget's usage across pauses
    model: LanguageModel | None = None  # optional: may help rank entry points; the browser still decides
    started: float = field(default_factory=time.monotonic)  # this run's start, for the duration it reports

    @property
    def context(self) -> ContextCollection:
        return self.job.context

    @property
    def session(self) -> BrowserSession:
        return self.live.session

    @property
    def driver(self) -> PageDriver:
        """The tester's page now (RaceError(context_closed) once the session ended)."""
        return self.live.driver

    def seconds(self) -> float:
        """How long this run has taken so far."""
        return round(time.monotonic() - self.started, 2)

    @property
    def try_forms(self) -> bool:
        """Whether the tester allowed this job to send the app's forms with sample data (writes reach the app)."""
        return bool(self.job.state.get("try_forms"))

    # -- answers ---------------------------------------------------------------------------------

    def answer(self, key: str) -> str | None:
        """An answer by key: secrets from memory, the rest from context_collection.answers (None if skipped)."""
        if key in self.secrets:
            return self.secrets[key]
        value = self.context.answer(key)
        return None if value in (SECRET_PLACEHOLDER, SKIPPED) else value

    def skipped(self, key: str) -> bool:
        """Whether the tester skipped this question (the latest answer to it): decide without it, do not ask again."""
        return key not in self.secrets and self.context.answer(key) == SKIPPED

    # -- evidence and progress -------------------------------------------------------------------

    def note(self, text: str) -> None:
        if text not in self.context.evidence.notes:
            self.context.evidence.notes.append(text)

    def progress(self, message: str) -> None:
        self.session.publish(PreflightProgress(job_id=self.job.id, objective=self.objective, message=message,
                                               step=self.budget.steps, max_steps=self.budget.limits.max_steps))

    def save(self) -> None:
        self.job.state[self.usage_key] = self.budget.usage()
        if self.project is not None:
            self.job = self.project.jobs.save(self.job)

    # -- the browser -------------------------------------------------------------------------------

    def url(self, path: str) -> str:
        """An absolute URL on the resolved base (paths are relative to it)."""
        return urljoin(self.context.resolved_base_url or self.job.start_url or "", path)

    @property
    def pin(self) -> OriginPolicy:
        """The origins this job is pinned to: the one the tester gave (or answered) and the ones they allowed. The
        preflight goes nowhere else without asking, and types answers nowhere else."""
        given = [u for u in (self.job.start_url, self.answer("base_url"), self.context.resolved_base_url) if u]
        policy = OriginPolicy(u for u in given if OriginPolicy.origin_of(u))
        for answer in self.context.answers:
            if answer.key.startswith("origin.") and answer.value == ALLOW:
                policy.allow(answer.key.removeprefix("origin."))
        return policy

    def may_open(self, url: str) -> bool:
        """Pages on the app's origins open freely; any other origin needs the tester's confirmation (asked once,
        the job pauses) — a stored case or a page may point anywhere, the preflight only goes where allowed."""
        if not is_allowed(url, allow_files=self.session.options.allow_file_urls):
            self.note(f"Did not open {url}: {POLICY}.")
            return False
        policy = self.pin
        origin = OriginPolicy.origin_of(url)
        if origin is None or not policy.allowed_origins or policy.allows(url):
            return True
        said = self._ask_origin(origin, f"{url} is on {origin}, outside the app "
                                        f"({', '.join(sorted(policy.allowed_origins))}). May the preflight open it?")
        if said == ALLOW:
            return True
        why = "the question was skipped" if said is None else "it was not allowed"
        self.note(f"Did not open {url}: {origin} is outside the app and {why}.")
        return False

    def stay_on_the_app(self, requested: str | None = None) -> None:
        """After a page opened: a redirect (HTTP or a script) to another origin is a finding, asked about once and
        never followed silently. Raises NeedAnswers (the question) or OffTheApp (not allowed); else returns."""
        policy, where = self.pin, self.driver.url
        origin = OriginPolicy.origin_of(where)
        if origin is None or not policy.allowed_origins or policy.allows(where):
            return
        finding = (f"{requested or 'The page'} sent the browser to {where}, on {origin}: another origin than the app's "
                   f"({', '.join(sorted(policy.allowed_origins))}).")
        said = self._ask_origin(origin, f"{finding} Is {origin} part of the app? Answers such as passwords and "
                                        "codes are only ever typed on the app's own origins.")
        if said == ALLOW:
            self.note(f"{finding} The tester allowed {origin} as part of the app.")
            return
        why = "the question was skipped" if said is None else "it was not allowed"
        self.note(f"{finding} It was not followed: {why}.")
        raise OffTheApp(f"{finding} It was not followed ({why}), so nothing behind it is checked; nothing was typed "
                        f"there. Start the job with the address where the app itself runs, or allow {origin}.")

    def _ask_origin(self, origin: str, question: str) -> str | None:
        """The tester's answer about `origin` (ALLOW, DONT_ALLOW or None when skipped); pauses to ask it once."""
        key = f"origin.{origin}"
        said = self.answer(key)
        if said is None and not self.skipped(key):
            raise NeedAnswers([PendingQuestion.make(
                key, "Leave the app?", question,
                "Pages outside the app's origin are not the app under test; going there needs your confirmation.",
                options=[ALLOW, DONT_ALLOW])])
        return said

    async def visit(self, url: str, reached_by: str = "", deep: bool = False, screenshot: bool = False,
                    must_stay: bool = False) -> tuple[int | None, Survey | None]:
        """Open `url` (one browser step), survey the page and keep it as evidence; (None, None) if unreachable or
        off the app (with `must_stay`, leaving the app without the tester's leave ends the job instead)."""
        if not self.may_open(url):
            return None, None
        self.budget.charge_step()
        self.budget.check()
        try:
            status = await self.session.goto(url, timeout_ms=15_000)
        except SessionClosedError:
            raise  # not the app's fault: the job ends and says so (see Preflight.run)
        except BrowserError as error:
            self.note(str(error))
            return None, None
        try:
            survey = await self.survey(reached_by, deep=deep, status=status, requested=url)
        except OffTheApp:
            if must_stay:
                raise
            return None, None
        except PageUnresponsive as stuck:
            self.note(str(stuck))
            await self.session.replace_stuck_page()  # the next visit starts in a page that answers
            return status, None
        if self.driver.url not in self.context.evidence.visited_urls:
            self.context.evidence.visited_urls.append(self.driver.url)
        if screenshot:
            await self.evidence_screenshot(survey.catalog)
        return status, survey

    async def survey(self, reached_by: str = "", deep: bool = False, status: int | None = None,
                     as_path: str | None = None, requested: str | None = None) -> Survey:
        """Survey the current page and keep its catalogue (under `as_path`, e.g. a wizard's '#step-2'); a page that
        left the app's origin (a redirect, at once or by a script meanwhile) is asked about first."""
        self.stay_on_the_app(requested)
        # A page that polls never goes idle; what it shows after 3 s is what we survey.
        await self.driver.wait_for_load("networkidle", timeout_ms=3000)
        self.stay_on_the_app(requested)  # a script may have moved it meanwhile
        survey = await survey_page(self.driver, reached_by=reached_by, deep=deep, status=status)
        self.stay_on_the_app(requested)  # the survey follows a navigation that started under it
        if as_path is not None:
            survey.catalog.path = as_path
        known = self.catalogs.get(survey.catalog.path)
        if known is None or deep or not known.actions:
            self.catalogs[survey.catalog.path] = survey.catalog
            if self.project is not None:
                self.project.jobs.save_catalog(self.job.id, survey.catalog)
        return survey

    async def evidence_screenshot(self, catalog: PageCatalog) -> None:
        try:
            await self.session.screenshot(f"preflight {catalog.path}")
        except BrowserError:
            return
        if self.project is not None:
            shots = [s for s in self.project.screenshots(self.session.id) if s.label == f"preflight {catalog.path}"]
            if shots:
                catalog.screenshot_id = shots[-1].id
                self.project.jobs.save_catalog(self.job.id, catalog)


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def now_ms() -> float:
    return time.time() * 1000
