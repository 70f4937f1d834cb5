"""Objective 2: reach a stable app state — get past a login wall (TOTP included), note the tenant, role and
feature flags the app shows, and find what the role cannot reach.

Credentials come from answers (secrets are held in memory only) or from STUDIO_LOGIN_* environment variables.
"""

from __future__ import annotations

import asyncio
import os
import re

import pyotp
from playwright.async_api import Error as PlaywrightError

from studio.models.context import PendingQuestion
from studio.preflight.run import NeedAnswers, PreflightRun, origin_of
from studio.preflight.survey import Survey

EMAIL, PASSWORD, TOTP, TENANT = "credentials.email", "credentials.password", "credentials.totp_secret", "tenant"
ENV = {EMAIL: "STUDIO_LOGIN_EMAIL", PASSWORD: "STUDIO_LOGIN_PASSWORD", TOTP: "STUDIO_LOGIN_TOTP_SECRET"}
PRIVILEGED_PATHS = ("/admin",)
ADMIN_ROLES = {"admin", "administrator", "owner"}


def credential(run: PreflightRun, key: str) -> str | None:
    return run.answer(key) or os.environ.get(ENV[key]) or None


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
    status, survey = await run.visit(context.resolved_base_url, reached_by="the base URL", screenshot=True)
    if survey is None:
        context.auth_state.blockers = [f"{context.resolved_base_url} stopped answering."]
        raise NeedAnswers([PendingQuestion.make("base_url", "Base URL", f"{context.resolved_base_url} stopped "
                           "answering. Where does the app run now?", "The app cannot be reached.", kind="text")])
    if survey.is_login_page:
        context.auth_state.requires_login = True
        survey = await _log_in(run, survey)
    elif _login_wall_seen_before(run):
        # Signed in already (this browser kept the session of an earlier job): the app still has a login wall.
        context.auth_state.requires_login = True
        context.auth_state.hints = "Signed in already (session kept from an earlier job in this project)."
    context.auth_state.blockers = []
    _read_environment(run, survey)
    if survey.tenant and len(survey.tenant["options"]) > 1 and not run.answer(TENANT):
        raise NeedAnswers([PendingQuestion.make(
            TENANT, "Workspace", f"The app offers several {survey.tenant['label'].lower()} choices. Which one should "
            "the tests use?", "Test cases depend on the workspace's data.", options=survey.tenant["options"])])
    await _probe_privileged_pages(run)


def _login_wall_seen_before(run: PreflightRun) -> bool:
    if run.project is None:
        return False
    origin = origin_of(run.context.resolved_base_url)
    return any(job.id != run.job.id and job.context.auth_state.requires_login
               and origin_of(job.context.resolved_base_url or "") == origin for job in run.project.jobs.list())


async def _log_in(run: PreflightRun, survey: Survey) -> Survey:
    context = run.context
    login_path = survey.catalog.path.split("?")[0]
    login = survey.login
    context.auth_state.hints = (f"Login form at {login_path}: {login.get('emailLabel') or 'user field'}, "
                                f"{login.get('passwordLabel') or 'password'}, button {login.get('submit') or 'submit'}"
                                + ("; a one-time code follows for accounts with 2FA." if login.get("hasOtp") else "."))
    email, password = credential(run, EMAIL), credential(run, PASSWORD)
    if not (email and password):
        context.auth_state.blockers = [f"A login is required at {login_path} and no account was given."]
        raise NeedAnswers(_credentials_questions(login_path, "Every page behind the login needs an account; without "
                                                 "one preflight can only map the public pages."))
    run.progress(f"Signing in as {email}")
    page = run.page
    try:
        await page.get_by_label(login.get("emailLabel") or "Email", exact=True).fill(email)
        await page.get_by_label(login.get("passwordLabel") or "Password", exact=True).fill(password)
        run.budget.charge_step()
        before = page.url
        await page.get_by_role("button", name=login.get("submit") or "Sign in", exact=True).click()
        await _settle(run, before)
    except PlaywrightError as error:
        context.auth_state.blockers = [f"The login form could not be used: {str(error).splitlines()[0]}"]
        raise NeedAnswers(_credentials_questions(login_path, context.auth_state.blockers[0])) from error
    survey = await run.survey("signing in")
    if survey.login.get("hasOtp"):
        context.auth_state.hints += " The account uses a one-time code (TOTP)."
        survey = await _one_time_code(run, survey)
    if survey.is_login_page:
        said = "; ".join(survey.catalog.live_regions) or "the login page came back"
        context.auth_state.blockers = [f"Signing in as {email} did not work: {said.rstrip('.')}."]
        run.secrets.pop(PASSWORD, None)
        raise NeedAnswers(_credentials_questions(login_path, context.auth_state.blockers[0]))
    run.note(f"Signed in as {email} at {login_path}; landed on {survey.catalog.path}.")
    return survey


async def _one_time_code(run: PreflightRun, survey: Survey) -> Survey:
    secret = credential(run, TOTP)
    if not secret:
        run.context.auth_state.blockers = ["The account needs a one-time code (two-factor authentication)."]
        raise NeedAnswers([PendingQuestion.make(
            TOTP, "Two-factor code", "The account asks for a one-time code. What is its authenticator secret "
            "(base32, to generate codes), or a current 6-digit code?", "Without a code the login cannot finish.",
            kind="secret")])
    code = secret if re.fullmatch(r"\d{6}", secret) else pyotp.TOTP(secret.replace(" ", "")).now()
    page = run.page
    run.progress("Entering the one-time code")
    try:
        await page.get_by_label(survey.login.get("otpLabel") or "Authentication code", exact=True).fill(code)
        run.budget.charge_step()
        before = page.url
        await page.get_by_role("button", name=survey.login.get("submit") or "Verify", exact=True).click()
        await _settle(run, before)
    except (PlaywrightError, ValueError) as error:
        run.secrets.pop(TOTP, None)
        raise NeedAnswers([PendingQuestion.make(TOTP, "Two-factor code", f"The code could not be used "
                           f"({str(error).splitlines()[0]}). What is the authenticator secret?",
                           "The login cannot finish without it.", kind="secret")]) from error
    return await run.survey("the one-time code")


async def _settle(run: PreflightRun, before: str | None = None, timeout_s: float = 10.0) -> None:
    """After a submit: wait until the page moved on (new URL) or answered in place (a code field, an alert)."""
    page = run.page
    deadline = asyncio.get_running_loop().time() + timeout_s
    while before is not None and asyncio.get_running_loop().time() < deadline:
        if page.url != before:
            break
        try:
            answered = await page.evaluate(_ANSWERED_IN_PLACE)
        except PlaywrightError:
            answered = False  # the page is navigating: loop until its URL changes
        if answered:
            break
        await asyncio.sleep(0.1)
    try:
        await page.wait_for_load_state("networkidle", timeout=5000)
    except PlaywrightError:
        pass


_ANSWERED_IN_PLACE = """() => {
  const shown = el => !!el && el.checkVisibility();
  const code = document.querySelector('input[autocomplete="one-time-code"]');
  const alert = [...document.querySelectorAll('[role="alert"]')].some(el => shown(el) && el.textContent.trim());
  return shown(code) || alert;
}"""


def _read_environment(run: PreflightRun, survey: Survey) -> None:
    environment = run.context.environment
    if survey.role_hint:
        environment.role = survey.role_hint
    if survey.flags:
        environment.feature_flags = survey.flags
        run.note(f"Feature flags the page announces: {', '.join(survey.flags)}.")
    tenant = run.answer(TENANT)
    if tenant:
        environment.tenant = tenant


async def _probe_privileged_pages(run: PreflightRun) -> None:
    """A role without an admin badge may still open admin pages; find out instead of guessing.

    A gated page is a permissions fact for the gaps objective; it blocks the job only when the request is
    about that area, and then the human is asked which role to use (seed: "required role unknown").
    """
    environment = run.context.environment
    if environment.role in ADMIN_ROLES:
        return
    gated = run.job.state.setdefault("gated_pages", [])
    for path in PRIVILEGED_PATHS:
        status, survey = await run.visit(run.url(path), reached_by=f"a direct visit to {path}")
        if status in (401, 403):
            environment.role = environment.role or "viewer"
            heading = survey.catalog.heading if survey else "access denied"
            gated.append({"path": path, "status": status, "heading": heading})
            run.note(f"{path} answers {status} ({heading}) for this account and is not in its navigation.")
            if path.strip("/") in run.job.request.lower() and not run.answer("role"):
                run.context.auth_state.blockers.append(
                    f"The request is about {path}, which answers {status} for this account.")
                raise NeedAnswers([PendingQuestion.make(
                    "role", "Role", f"{path} is closed to this account ({status} {heading}). Which role should the "
                    "tests use? Give an account with that role as the login.", "The requested area needs another "
                    "role.", options=["admin", "Keep this role (test that access is denied)"])])
        elif status is not None and status < 400 and survey is not None and not survey.is_login_page:
            environment.role = environment.role or "admin"
