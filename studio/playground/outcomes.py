"""What a playground job came to, in the tester's words: the sentence its end message says (what came out, what
blocks, which confidences are low and why), the next steps offered as buttons, and the job's own name ("New Suite
for “Disputes”"). No Qt: every kind and status is tested without a window; the studio's front turns each
NextStep's intent into an action."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from studio.models.context import SKIPPED, JobRecord
from studio.models.nothing import NOTHING, NothingProduced
from studio.preflight.nothing import LOGIN, TRY_FORMS

# The jobs as the Playground bar names them; sentences use these names, never the engine's kinds.
JOB_NAMES: dict[str, str] = {"preflight": "Preflight", "new_testsuite": "New Suite", "new_test_case": "New Cases",
                             "edit_test_case": "Edit Cases"}

LOW = 0.5  # a confidence below this is said in words
LOGIN_KEYS = ("credentials.email", "credentials.password", "credentials.totp_secret")
# Which preflight objective measured each confidence (an unmeasured one is not "low", just not there yet).
MEASURED_BY = {"base_url": "resolve_base_url", "entry_points": "find_entry_points", "coverage": "detect_gaps"}
STOPPED_WORDS = ("Cancelled by the tester", "Stopped before it finished", "Discarded by the tester")


@dataclass(frozen=True)
class NextStep:
    """A button under the outcome: `intent` says what it does (start, open_cases, review_edits, narrow, show_jobs,
    answer, try_forms), with what it needs."""

    label: str
    intent: str
    kind: str = ""
    request: str = ""
    case_ids: tuple[str, ...] = ()
    job_id: str = ""


@dataclass(frozen=True)
class Outcome:
    """The end message of a job: its sentence, how loud it is (info, warning, error), and the next steps."""

    text: str
    level: str
    steps: tuple[NextStep, ...] = ()


@dataclass(frozen=True)
class CaseFacts:
    """What the project says about the job's cases: the suite each new case went to ("" for none) and the names of
    the suites the job made."""

    filed: Mapping[str, int] = field(default_factory=dict)
    suites: Sequence[str] = ()


def job_title(kind: str, request: str = "") -> str:
    """A job in words: "New Suite for “Disputes”", or "Preflight" without a request."""
    name = JOB_NAMES.get(kind, kind.replace("_", " ").capitalize())
    return f"{name} for “{request}”" if request else name


def plural(count: int, noun: str, many: str | None = None) -> str:
    """"1 case", "3 cases", "1 entry point", "2 entry points"."""
    return f"{count} {noun if count == 1 else many or noun + 's'}"


def outcome(job: JobRecord, facts: CaseFacts | None = None) -> Outcome:
    """The end message of `job` (completed, cancelled, failed or out of budget)."""
    facts = facts or CaseFacts()
    if job.status == "completed" and job.result.get("outcome") == NOTHING:
        return _nothing(job)
    if job.status == "completed":
        return _completed(job, facts)
    title = job_title(job.kind, job.request)
    again = _again(job)
    kept = _kept(job)
    if job.status == "cancelled":
        if job.message.startswith("Discarded"):
            return Outcome(f"Discarded {title}; {kept}.", "info")
        why = "" if job.message.startswith(STOPPED_WORDS) else f" ({_clause(job.message)})"
        return Outcome(f"{title} was cancelled{why}; {kept}.", "info", (again, *_open_new(job)))
    if job.status == "budget_exhausted":
        return Outcome(f"{title} stopped at its budget: {_sentence(job.message)} {kept.capitalize()}. Narrow the "
                       "request and start it again to go on.", "warning",
                       (NextStep("Narrow the request", "narrow"), again))
    if job.status == "interrupted":
        return Outcome(f"{title} is kept waiting; resume it from Jobs to go on from where it stopped.", "info",
                       (NextStep("Show Jobs", "show_jobs"),))
    if job.status == "paused":
        return Outcome(f"{title} waits for your answers.", "warning",
                       (NextStep("Answer Questions", "answer", job_id=job.id),))
    reason = _sentence(job.message) if job.message else "No reason was recorded; see the log."
    return Outcome(f"{title} failed: {reason} {kept.capitalize()}.", "error", (again,))


def auth_words(job: JobRecord) -> str:
    """Context's auth state line: signed in (as whom), not signed in (why), or a login is required."""
    auth = job.context.auth_state
    blockers = f" · {plural(len(auth.blockers), 'blocker')}" if auth.blockers else ""
    who = signed_in_as(job)
    if who is not None:
        if who:
            return f"signed in as {who}"
        return "signed in (kept from an earlier job)" if auth.hints.startswith("Signed in already") else "signed in"
    if login_skipped(job):
        return "not signed in: the login was skipped" + blockers
    if not auth.requires_login:
        return ("blocked" + blockers) if auth.blockers else "no login seen"
    return ("not signed in" + blockers) if auth.blockers else "login required"


def signed_in_as(job: JobRecord) -> str | None:
    """Who the job signed in as ("" when it is signed in but the account is not known), None when it is not."""
    auth, context = job.context.auth_state, job.context
    if not auth.requires_login or auth.blockers or "reach_stable_state" not in job.state.get("done", []):
        return None
    email = context.answer("credentials.email")
    if email and email != SKIPPED:
        return email
    for note in context.evidence.notes:
        found = re.match(r"Signed in as (\S+) at ", note)
        if found:
            return found.group(1)
    return ""


def login_skipped(job: JobRecord) -> bool:
    return any(answer.key in LOGIN_KEYS and answer.value == SKIPPED for answer in job.context.answers)


def low_confidences(job: JobRecord) -> list[str]:
    """Each measured confidence below LOW, in words with its cause: "the entry point is a guess (confidence 0.15):
    the login was skipped"."""
    context, done = job.context, set(job.state.get("done", []))
    why = _why_unsure(job)
    said = []
    if "resolve_base_url" in done and context.confidence.base_url < LOW:
        said.append(f"the app's address is a guess (confidence {context.confidence.base_url:.2f})")
    if "find_entry_points" in done and context.confidence.entry_points < LOW:
        if context.candidate_entry_points:
            said.append(f"the entry point is a guess (confidence {context.confidence.entry_points:.2f}): {why}")
        else:
            said.append(f"no entry point was found for the request (confidence 0.00): {why}")
    if "detect_gaps" in done and context.confidence.coverage < LOW:
        cause = ": the login was skipped" if login_skipped(job) and not said else ""  # said once is enough
        said.append(f"the coverage gaps could not all be checked (confidence {context.confidence.coverage:.2f}){cause}")
    return said


# -- completed jobs ----------------------------------------------------------------------------------------


def _completed(job: JobRecord, facts: CaseFacts) -> Outcome:
    if job.kind == "preflight":
        return _preflight(job)
    if job.kind == "edit_test_case":
        return _edited(job)
    return _written(job, facts)


def _preflight(job: JobRecord) -> Outcome:
    context = job.context
    title = job_title(job.kind, job.request)
    who = signed_in_as(job)
    found = [f"signed in as {who}"] if who else []
    found.append(f"{plural(len(context.ui_map.key_pages), 'page')} mapped")
    sure = [point for point in context.candidate_entry_points if point.confidence >= LOW]
    if len(sure) == 1:
        found.append(f"entry point {sure[0].label} ({sure[0].url or 'no address'})")
    elif sure:
        found.append(plural(len(sure), "entry point"))
    if context.discovered_flows_summary:
        found.append(f"{plural(len(context.discovered_flows_summary), 'flow')} walked")
    found.append(f"{plural(len(context.coverage_gaps), 'coverage gap')} to write cases for")
    stale = _impacted(job)
    if context.detected_changes:
        found.append(f"{plural(len(context.detected_changes), 'change')} in the app that make "
                     f"{plural(len(stale), 'case')} stale")
    head = f"{title} finished" + (" without signing in (only the public pages)" if login_skipped(job) else "")
    text = f"{head}: {', '.join(found)}." + _problems(job)
    steps: list[NextStep] = []
    if _login_missing(job):
        steps.append(NextStep("Answer the login question", "start", job.kind, job.request))
    if stale:
        steps.append(NextStep(f"Open the {plural(len(stale), 'stale case')}", "open_cases", case_ids=stale))
        steps.append(NextStep(f"Edit the {plural(len(stale), 'stale case')}", "start", "edit_test_case",
                              job.request, case_ids=stale))
    area = job.request or (sure[0].label if sure else "")
    steps.append(NextStep(job_title("new_test_case", area), "start", "new_test_case", area))
    warn = _login_missing(job) or bool(low_confidences(job)) or bool(stale) or _undecided(job)
    return Outcome(text, "warning" if warn else "info", tuple(steps[:3]))


def _nothing(job: JobRecord) -> Outcome:
    """A job that finished with nothing to show: a problem, with what it tried and why, never "finished"."""
    said = NothingProduced.model_validate(job.result)
    title = job_title(job.kind, job.request)
    text = " ".join([f"{title} {said.what}.", said.tried.sentence(), *(reason.said() for reason in said.reasons)])
    text += _findings_said(job)
    steps = [NextStep("Answer the login question", "start", job.kind, job.request)] if any(
        reason.next_step == LOGIN for reason in said.reasons) else []
    if any(reason.next_step == TRY_FORMS for reason in said.reasons):
        steps.append(NextStep("Allow Try Forms", "try_forms", job.kind, job.request))
    steps += [NextStep("Narrow the request", "narrow"), _again(job)]
    return Outcome(text, "error", tuple(steps[:3]))


def _written(job: JobRecord, facts: CaseFacts) -> Outcome:
    """New Cases and New Suite: how many cases (and suites) were written, where they were filed."""
    title = job_title(job.kind, job.request)
    cases = tuple(job.result.get("cases") or [])
    made = len(job.result.get("suites") or [])
    duplicates = len(job.result.get("skipped") or [])
    notes = [_sentence(note) for note in job.result.get("notes") or []]
    if not cases and not made:
        why = str(job.result.get("summary") or job.message or "")
        why = why.removeprefix("Created no cases: ") if why.startswith("Created no cases: ") else ""
        text = f"{title} wrote no cases: {_clause(why) + '.' if why else 'nothing new was found to write.'}"
        steps = [NextStep("Answer the login question", "start", job.kind, job.request)] if _login_missing(job) else []
        if duplicates:
            text += f" {plural(duplicates, 'case')} already in the project {'was' if duplicates == 1 else 'were'} " \
                    "skipped."
        return Outcome(" ".join([text, *notes]) + _problems(job, blockers=False), "warning", tuple(steps))
    filed = _filings(job, facts)
    parts = []
    if made and job.kind == "new_testsuite":
        named = f" ({', '.join(facts.suites)})" if facts.suites else ""
        parts.append(f"{plural(made, 'suite')} made{named}")
    parts.append(f"{plural(len(cases), 'case')} written{_filed(filed)}")
    if duplicates:
        parts.append(f"{plural(duplicates, 'duplicate')} skipped")
    text = f"{title} finished: {', '.join(parts)}." + "".join(f" {note}" for note in notes) + _problems(job)
    opened: tuple[NextStep, ...] = (
        (NextStep(f"Open the {plural(len(cases), 'new case')}", "open_cases", case_ids=cases),) if cases else ())
    return Outcome(text, "warning" if low_confidences(job) or _undecided(job) else "info", opened)


def _edited(job: JobRecord) -> Outcome:
    title = job_title(job.kind, job.request)
    edits = job.result.get("edits") or []
    stale = tuple(edit["case_id"] for edit in edits if (edit.get("after") or {}).get("status") == "stale")
    unchecked = len(set(job.state.get("unchecked_case_ids") or []))
    changes = len(job.context.detected_changes)
    not_checked = (f" {plural(unchecked, 'case')} could not be checked"
                   + (": the login was skipped." if login_skipped(job) else ".")) if unchecked else ""
    if not edits:
        text = f"{title} finished: no case needed a change" + (
            f" ({plural(changes, 'change')} found in the app touch none of them)." if changes else
            " (the app still matches them).")
        login: tuple[NextStep, ...] = (
            (NextStep("Answer the login question", "start", job.kind, job.request),) if _login_missing(job) else ())
        return Outcome(text + not_checked + _problems(job), "warning" if unchecked else "info", login)
    marked = f", {len(stale)} of them marked stale" if stale else ""
    after = f" after {plural(changes, 'change')} in the app" if changes else ""
    text = (f"{title} finished: {plural(len(edits), 'case')} edited{after}{marked}; the other cases were not "
            f"touched. Accept or reject each edit in Test Cases.{not_checked}") + _problems(job)
    steps = [NextStep(f"Review the {plural(len(edits), 'edit')}", "review_edits")]
    if stale:
        steps.append(NextStep(f"Open the {plural(len(stale), 'stale case')}", "open_cases", case_ids=stale))
    return Outcome(text, "warning" if stale or unchecked else "info", tuple(steps))


# -- pieces --------------------------------------------------------------------------------------------------


def _problems(job: JobRecord, blockers: bool = True) -> str:
    """The suspected defects to decide on, the blockers and the low confidences, as sentences after the outcome."""
    said = _findings_said(job)
    if blockers:
        # A skipped login is said already ("without signing in", and as the cause of the low confidences).
        said += "".join(f" {_sentence(blocker)}" for blocker in job.context.auth_state.blockers
                        if not (login_skipped(job) and " was skipped" in blocker))
    low = low_confidences(job)
    if low:
        said += f" Low confidence: {'; '.join(low)}."
    return said


def _findings_said(job: JobRecord) -> str:
    """" 2 suspected defects to confirm or dismiss in Context: …." (empty when none waits for a decision)."""
    waiting = [f for f in job.context.findings if f.status == "suspected"]
    if not waiting:
        return ""
    summaries = "; ".join(f.summary.rstrip(".") for f in waiting[:2]) + ("; …" if len(waiting) > 2 else "")
    return f" {plural(len(waiting), 'suspected defect')} to confirm or dismiss in Context: {summaries}."


def _undecided(job: JobRecord) -> bool:
    return any(finding.status == "suspected" for finding in job.context.findings)


def _why_unsure(job: JobRecord) -> str:
    if login_skipped(job):
        return "the login was skipped"
    blockers = job.context.auth_state.blockers
    if blockers:
        return _clause(blockers[0])
    return "the browser could not confirm it"


def _login_missing(job: JobRecord) -> bool:
    """The job went on without the login (skipped, or blocked at it): answering it is the next step."""
    auth = job.context.auth_state
    return auth.requires_login and signed_in_as(job) is None and (login_skipped(job) or bool(auth.blockers))


def _impacted(job: JobRecord) -> tuple[str, ...]:
    ids = (case_id for change in job.context.detected_changes for case_id in change.impacted_testcase_ids or [])
    return tuple(dict.fromkeys(ids))


def _again(job: JobRecord) -> NextStep:
    return NextStep("Start again", "start", job.kind, job.request, tuple(job.state.get("case_ids") or []))


def _open_new(job: JobRecord) -> tuple[NextStep, ...]:
    cases = tuple(job.result.get("cases") or [])
    return (NextStep(f"Open the {plural(len(cases), 'new case')}", "open_cases", case_ids=cases),) if cases else ()


def _kept(job: JobRecord) -> str:
    """What a stopped job keeps, counted."""
    made = []
    if job.result.get("suites"):
        made.append(plural(len(job.result["suites"]), "suite"))
    if job.result.get("cases"):
        made.append(plural(len(job.result["cases"]), "case"))
    if job.result.get("edits"):
        made.append(plural(len(job.result["edits"]), "edit"))
    if made:
        return f"the {' and '.join(made)} it wrote {'is' if made == ['1 case'] else 'are'} kept"
    pages = len(job.context.ui_map.key_pages)
    if pages:
        return f"what it found is kept ({plural(pages, 'page')} mapped)"
    return "nothing was found yet"


def _filings(job: JobRecord, facts: CaseFacts) -> list[tuple[str, int, bool]]:
    """(suite title or "" for none, cases filed there, whether the job made the suite): the job's own record of it
    when it has one, else what the project says."""
    records = job.result.get("filed")
    if records:
        filed = [(str(r.get("suite") or ""), int(r.get("cases") or 0), bool(r.get("new"))) for r in records]
        loose = len(job.result.get("cases") or []) - sum(count for _, count, _ in filed)
        return filed + ([("", loose, False)] if loose > 0 else [])
    return [(suite, count, False) for suite, count in facts.filed.items()]


def _filed(filed: list[tuple[str, int, bool]]) -> str:
    filed = [entry for entry in filed if entry[1]]
    if len(filed) == 1:
        suite, _, new = filed[0]
        return f", filed under {'the new ' if new else ''}“{suite}”" if suite else ", in no suite yet"
    parts = [f"{count} in {'the new ' if new else ''}“{suite}”" for suite, count, new in filed if suite]
    parts += [f"{count} in no suite yet" for suite, count, _ in filed if not suite]
    return f" ({', '.join(parts)})" if parts else ""


def _sentence(text: str) -> str:
    text = " ".join(text.split())
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _clause(text: str) -> str:
    """A sentence as part of another: "The login at /login was skipped." -> "the login at /login was skipped"."""
    text = " ".join(text.split()).rstrip(".")
    return text[:1].lower() + text[1:] if text[:2] != text[:2].upper() else text
