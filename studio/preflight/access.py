"""Objective 2: reach a stable app state — get past a login wall (TOTP included), choose the workspace, note the
role and feature flags the app shows, and find what the role cannot reach (see roles.py).

Credentials come from answers (secrets are held in memory only) or from STUDIO_LOGIN_* environment variables. A
skipped login question means "go on without it": only the public pages are mapped and the blocker is recorded.
"""

from __future__ import annotations

import asyncio
import os
import re

import pyotp

from studio.models.context import JobRecord, PendingQuestion
from studio.models.locator import LocatorSpec, LocatorStep
from studio.models.testcase import CaseStep
from studio.preflight.hangs import leave_stuck_page
from studio.preflight.roles import probe_privileged_pages
from studio.preflight.run import Blocked, NeedAnswers, PreflightRun, origin_of
from studio.preflight.survey import Survey
from studio.preflight.workspace import choose_workspace
from studio.race.driver import PageDriver
from studio.race.errors import RaceError
from studio.toolbelt import AnswerRefused, type_answer

EMAIL, PASSWORD, TOTP = "credentials.email", "credentials.password", "credentials.totp_secret"
ENV = {EMAIL: "STUDIO_LOGIN_EMAIL", PASSWORD: "STUDIO_LOGIN_PASSWORD", TOTP: "STUDIO_LOGIN_TOTP_SECRET"}


def credential(run: PreflightRun, key: str) -> str | None:
    return run.answer(key) or os.environ.get(ENV[key]) or None


def _label(text: str) -> LocatorSpec:
    return LocatorSpec(strategy="label", steps=[LocatorStep(kind="label", value=text, exact=True)])


def _button(name: str) -> LocatorSpec:
    return LocatorSpec(strategy="role", steps=[LocatorStep(kind="role", role="button", name=name, exact=True)])


def _credentials_questions(login_path: str, why: str) -> list[PendingQuestion]:
    return [
        PendingQuestion.make(EMAIL, "Login", f"The app asks for a login at {login_path}. Which account (email or "
                             "user name) should preflight use?", why, kind="text"),
        PendingQuestion.make(PASSWORD, "Login", "And its password? (kept in memory for this run, never written to "
                             "the project file)", why, kind="secret"),
    ]


async def reach_stable_state(run: PreflightRun) -> None:
    context = run.context
    run.objective = "reach_stable_state"
    run.progress("Opening the app's home")
    status, survey = await run.visit(context.resolved_base_url, reached_by="the base URL", screenshot=True,
                                     must_stay=True)
    if survey is None:
        if run.skipped("base_url"):
            raise Blocked(f"{context.resolved_base_url} stopped answering and the question where the app runs was "
                          "skipped. Start the job again once the app is up.")
        context.auth_state.blockers = [f"{context.resolved_base_url} stopped answering."]
        raise NeedAnswers([PendingQuestion.make("base_url", "Base URL", f"{context.resolved_base_url} stopped "
                           "answering. Where does the app run now?", "The app cannot be reached.", kind="text")])
    context.auth_state.blockers = []
    if survey.registration and not survey.is_login_page:
        found = survey.registration
        run.note(f"{survey.catalog.path} shows a registration form ('{found.get('name') or 'sign up'}': "
                 f"{found.get('evidence')}), not a login: no account is needed, and its validation is to be tested.")
    if survey.is_login_page:
        context.auth_state.requires_login = True
        survey = await _log_in(run, survey)
    elif (earlier := _login_wall_seen_before(run)) is not None:
        # Signed in already (this browser kept the session of an earlier job): the app still has a login wall.
        context.auth_state.requires_login = True
        if earlier.state.get("login_path"):
            run.job.state.setdefault("login_path", earlier.state["login_path"])
        context.auth_state.hints = "Signed in already (session kept from an earlier job in this project)."
    signed_out = survey.is_login_page
    _read_environment(run, survey)
    if signed_out:
        return  # the login was skipped: roles and workspaces are behind it
    survey = await choose_workspace(run, survey)
    await probe_privileged_pages(run, survey)


def _login_wall_seen_before(run: PreflightRun) -> JobRecord | None:
    """The latest earlier job on this origin that met a login wall (its login path is this app's too)."""
    if run.project is None:
        return None
    origin = origin_of(run.context.resolved_base_url)
    return next((job for job in reversed(run.project.jobs.all()) if job.id != run.job.id
                 and job.context.auth_state.requires_login
                 and origin_of(job.context.resolved_base_url or "") == origin), None)


def _go_on_signed_out(run: PreflightRun, survey: Survey, sentence: str) -> Survey:
    """A skipped login question: record the blocker and go on with the public pages only."""
    run.context.auth_state.blockers.append(sentence)
    run.note(sentence)
    return survey


async def _log_in(run: PreflightRun, survey: Survey) -> Survey:
    context = run.context
    login_path = survey.catalog.path.split("?")[0]
    run.job.state["login_path"] = login_path  # the playground's signed-out cases expect this page
    login = survey.login
    context.auth_state.hints = (f"Login form at {login_path}: {login.get('emailLabel') or 'user field'}, "
                                f"{login.get('passwordLabel') or 'password'}, button {login.get('submit') or 'submit'}"
                                + ("; a one-time code follows for accounts with 2FA." if login.get("hasOtp") else "."))
    email, password = credential(run, EMAIL), credential(run, PASSWORD)
    if not (email and password):
        if run.skipped(EMAIL) or run.skipped(PASSWORD):
            return _go_on_signed_out(run, survey, f"The login at {login_path} was skipped: only the public pages "
                                     "are mapped; pages behind the login are not checked.")
        context.auth_state.blockers = [f"A login is required at {login_path} and no account was given."]
        raise NeedAnswers(_credentials_questions(login_path, "Every page behind the login needs an account; without "
                                                 "one preflight can only map the public pages."))
    run.progress(f"Signing in as {email}")
    driver = run.driver
    try:
        if login.get("hasPassword"):
            pin = run.pin
            await type_answer(driver, _label(login.get("emailLabel") or "Email"), email, pin, "email")
            await type_answer(driver, _label(login.get("passwordLabel") or "Password"), password, pin, "password")
            run.budget.charge_step()
            before = await _page_state(driver)
            await driver.must("click", _button(login.get("submit") or "Sign in"))
            await _settle(run, before)
    except AnswerRefused as refused:
        return _go_on_signed_out(run, survey, str(refused))
    except RaceError as error:
        # A login field whose key handler never returns: reported, the page replaced, and the public pages mapped
        # (asking for the account again would not help).
        typing = CaseStep(action="fill", target="the sign-in form", data="the account's email and password")
        if await leave_stuck_page(run, login_path, typing, error):
            return _go_on_signed_out(run, survey, f"The login at {login_path} stopped answering while it was "
                                     "filled in, so only the public pages are mapped (see the suspected defect).")
        context.auth_state.blockers = [f"The login form could not be used: {str(error).splitlines()[0]}"]
        raise NeedAnswers(_credentials_questions(login_path, context.auth_state.blockers[0])) from error
    survey = await run.survey("signing in")
    code_label = survey.code_label(after_password=bool(login.get("hasPassword")))
    if code_label and not survey.login.get("hasPassword"):
        context.auth_state.hints += " The account uses a one-time code (TOTP)."
        survey = await _one_time_code(run, survey, code_label)
    if survey.is_login_page:
        if context.auth_state.blockers:
            return survey  # the code question was skipped: the blocker says so
        said = "; ".join(survey.catalog.live_regions) or "the login page came back"
        context.auth_state.blockers = [f"Signing in as {email} did not work: {said.rstrip('.')}."]
        run.secrets.pop(PASSWORD, None)
        raise NeedAnswers(_credentials_questions(login_path, context.auth_state.blockers[0]))
    run.note(f"Signed in as {email} at {login_path}; landed on {survey.catalog.path}.")
    return survey


async def _one_time_code(run: PreflightRun, survey: Survey, label: str) -> Survey:
    secret = credential(run, TOTP)
    if not secret:
        if run.skipped(TOTP):
            return _go_on_signed_out(run, survey, "The one-time code question was skipped: the login cannot finish, "
                                     "so only the public pages are mapped.")
        run.context.auth_state.blockers = ["The account needs a one-time code (two-factor authentication)."]
        raise NeedAnswers([PendingQuestion.make(
            TOTP, "Two-factor code", "The account asks for a one-time code. What is its authenticator secret "
            "(base32, to generate codes), or a current 6-digit code?", "Without a code the login cannot finish.",
            kind="secret")])
    code = secret if re.fullmatch(r"\d{6}", secret) else pyotp.TOTP(secret.replace(" ", "")).now()
    driver = run.driver
    run.progress("Entering the one-time code")
    try:
        await type_answer(driver, _label(label), code, run.pin, "one-time code")
        run.budget.charge_step()
        before = await _page_state(driver)
        await driver.must("click", _button(survey.login.get("submit") or "Verify"))
        await _settle(run, before)
    except AnswerRefused as refused:
        return _go_on_signed_out(run, survey, str(refused))
    except (RaceError, ValueError) as error:
        run.secrets.pop(TOTP, None)
        raise NeedAnswers([PendingQuestion.make(TOTP, "Two-factor code", f"The code could not be used "
                           f"({str(error).splitlines()[0]}). What is the authenticator secret?",
                           "The login cannot finish without it.", kind="secret")]) from error
    return await run.survey("the one-time code")


async def _page_state(driver: PageDriver) -> dict:
    """What a submit can change without leaving the page: its URL, a shown code field, the alerts' text."""
    try:
        return {"url": driver.url, **await driver.evaluate(_IN_PLACE_STATE, during="reading the login form")}
    except RaceError:
        return {"url": driver.url, "code": False, "alert": ""}


async def _settle(run: PreflightRun, before: dict | None = None, timeout_s: float = 10.0) -> None:
    """After a submit: wait until the page moved on (new URL) or answered in place — a code field or an alert that
    was not there before. A code field already shown before the submit (the code step itself) is no answer: the
    verification may still be on its way, and reading the page then would find the login page again."""
    driver = run.driver
    deadline = asyncio.get_running_loop().time() + timeout_s
    while before is not None and asyncio.get_running_loop().time() < deadline:
        if driver.url != before["url"]:
            break
        try:
            now = await driver.evaluate(_IN_PLACE_STATE, during="waiting for the sign-in to answer")
        except RaceError as error:
            if error.kind in ("timeout", "context_closed"):
                raise  # a stuck or closed page is no answer to wait for
            now = None  # the page is navigating: loop until its URL changes
        if now and ((now["code"] and not before["code"]) or (now["alert"] and now["alert"] != before["alert"])):
            break
        await asyncio.sleep(0.1)
    await driver.wait_for_load("networkidle", timeout_ms=5000)


_IN_PLACE_STATE = """() => {
  const shown = el => !!el && el.checkVisibility();
  const code = [...document.querySelectorAll('input')].find(el => el.autocomplete === 'one-time-code'
    || /otp|totp|2fa|mfa|one.?time|verification|authenticat|security.?code|passcode/i.test(el.name + ' ' + el.id));
  const alert = [...document.querySelectorAll('[role="alert"]')].filter(el => shown(el))
    .map(el => el.textContent.trim()).filter(Boolean).join(' | ');
  return {code: shown(code), alert};
}"""


def _read_environment(run: PreflightRun, survey: Survey) -> None:
    environment = run.context.environment
    if survey.role_hint:
        environment.role = survey.role_hint
        run.note(f"The page shows the role: {survey.role_hint}.")
    if survey.flags:
        environment.feature_flags = survey.flags
        run.note(f"Feature flags the page announces: {', '.join(survey.flags)}.")
