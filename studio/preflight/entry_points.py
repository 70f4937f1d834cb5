"""Objective 4: find and validate the entry points the request is about, with a confidence.

Candidates are the navigation, key pages and the controls on them, scored by word overlap with the request.
When the words do not decide, a configured model may choose among the known pages (model_ranking.py); the
browser validates whatever is chosen. Low confidence, before or after the visit, asks the human instead of
guessing (confidence-gated escalation).
"""

from __future__ import annotations

import re

from studio.models.context import EntryPoint, PendingQuestion
from studio.preflight.flows import walk_wizard
from studio.preflight.model_ranking import model_choice
from studio.preflight.run import NeedAnswers, PreflightRun
from studio.wording import plural

AREA = "area"
ASK_BELOW = 0.5
MODEL_PRIOR = 0.6  # a page the model chose starts as a fair match; its visit decides the confidence
MAX_VALIDATED = 3
STOP_WORDS = {"the", "a", "an", "for", "of", "to", "and", "in", "on", "test", "tests", "case", "cases", "suite",
              "suites", "create", "new", "write", "page", "pages", "flow", "my", "with", "add", "edit", "cover"}


def words(text: str) -> set[str]:
    """Lower-case content words, crudely singular (disputes -> dispute)."""
    found = set()
    for word in re.findall(r"[a-z0-9]+", text.lower()):
        if word in STOP_WORDS or len(word) < 3:
            continue
        found.add(word[:-1] if word.endswith("s") and len(word) > 3 else word)
    return found


def candidates(run: PreflightRun) -> list[tuple[str, str, str]]:
    """(label, path, how to reach) for every page preflight knows of that exists: an error page (a 404 of a probed
    path, a 403, a soft "Page not found") is evidence that nothing is there, never an entry point."""
    found: dict[str, tuple[str, str, str]] = {}
    errors = {path for path, catalog in run.catalogs.items() if catalog.is_error_page}
    for page in run.context.ui_map.key_pages:
        if page.url and page.url not in errors:
            found.setdefault(page.url, (page.name, page.url, page.how_to_reach))
    for path, catalog in run.catalogs.items():
        if "#" not in path and catalog.heading and path not in errors:
            found.setdefault(path, (catalog.heading, path, catalog.reached_by or "direct"))
    return list(found.values())


def page_words(catalog) -> str:
    """What the page itself says it is: heading, forms (a 'Step X of Y' form is a wizard) and its controls."""
    parts = [catalog.heading, *(form.name for form in catalog.forms), *(a.name for a in catalog.actions[:12])]
    if any(form.step_text for form in catalog.forms):
        parts.append("wizard steps")
    return " ".join(parts)


def score(request: str, label: str, path: str) -> float:
    wanted = words(request)
    if not wanted:
        return 0.0
    have = words(label) | words(path.replace("-", " ").replace("/", " "))
    return len(wanted & have) / len(wanted)


def _area_question(run: PreflightRun, options: list[str], why: str) -> NeedAnswers:
    return NeedAnswers([PendingQuestion.make(
        AREA, "Which area?", f"Which part of the app is \"{run.job.request}\" about?", why, options=options or None)])


def _map_options(run: PreflightRun, pool: list[tuple[str, str, str]]) -> list[str]:
    """The pages of the UI map to choose from (the key pages first, then other surveyed pages)."""
    names = [page.name for page in run.context.ui_map.key_pages] + [label for label, _, _ in pool]
    return list(dict.fromkeys(name for name in names if name))[:8]


async def find_entry_points(run: PreflightRun) -> None:
    run.objective = "find_entry_points"
    context, request = run.context, run.answer(AREA) or run.job.request
    skipped = run.skipped(AREA)
    pool = candidates(run)
    if not request.strip():
        # No area asked for: every key page is an entry point; nothing to validate beyond the map.
        context.candidate_entry_points = [EntryPoint(label=label, url=path, click_path=reach, confidence=0.6)
                                          for label, path, reach in pool]
        context.confidence.entry_points = 0.6 if pool else 0.0
        return
    ranked = sorted(((score(request, label, path), label, path, reach) for label, path, reach in pool), reverse=True)
    best_guess = ranked[:1]
    ranked = [item for item in ranked if item[0] > 0][:MAX_VALIDATED]
    if (not ranked or ranked[0][0] < ASK_BELOW) and not skipped:
        # The words do not decide: a configured model may pick a known page before the human is asked.
        picked = await model_choice(run, request, pool)
        if picked is not None:
            label, path, reach = picked
            ranked = [(MODEL_PRIOR, label, path, reach), *[r for r in ranked if r[2] != path]][:MAX_VALIDATED]
    if not ranked or ranked[0][0] < ASK_BELOW:
        if not skipped:
            options = [label for _, label, _, _ in ranked] or [label for label, _, _ in pool[:6]]
            raise _area_question(run, options, f"No page matches the request clearly (best guess: "
                                 f"{ranked[0][1] if ranked else 'none'}); guessing would ground the cases in the "
                                 "wrong place.")
        ranked = ranked or best_guess
        if ranked:
            run.note(f"The area question was skipped: best guess {ranked[0][1]} ({ranked[0][2]}), "
                     f"matching the request at {ranked[0][0]:.2f}.")
    refuted: list[str] = []
    entry_points = await _validate(run, request, ranked, refuted)
    entry_points.sort(key=lambda point: point.confidence, reverse=True)
    context.candidate_entry_points = entry_points
    context.confidence.entry_points = entry_points[0].confidence if entry_points else 0.0
    best = entry_points[0] if entry_points else None
    if best is not None and best.confidence >= ASK_BELOW:
        return
    if best is None and not refuted:
        return
    # Confidence-gated escalation after validation: the browser did not confirm the area (a 404, a page without
    # the key UI). Ask with the map's pages as choices instead of writing cases for no validated area.
    said = (f"the best entry point, {best.label} ({best.url}), has confidence {best.confidence:.2f} after the visit"
            if best is not None else f"{'; '.join(refuted)}")
    if skipped or run.answer(AREA) or context.auth_state.blockers:
        why = "the area question was skipped" if skipped else "the area was answered" if run.answer(AREA) \
            else context.auth_state.blockers[0].rstrip(".")
        run.note(f"Low confidence kept: {said}; {why}.")
        return
    refuted_labels = {label for _, label, path, _ in ranked if any(path in said for said in refuted)}
    options = [name for name in _map_options(run, pool)
               if name not in refuted_labels and (best is None or name != best.label)] or _map_options(run, pool)
    raise _area_question(run, options, f"The browser could not confirm the area: {said}.")


async def _validate(run: PreflightRun, request: str, ranked: list[tuple[float, str, str, str]],
                    refuted: list[str]) -> list[EntryPoint]:
    """Visit each candidate; its confidence is what the browser saw (status, heading, controls), not the words.
    Candidates the browser found missing (an error page) are dropped, and said in `refuted`."""
    entry_points = []
    for value, label, path, reach in ranked:
        run.progress(f"Validating {label} ({path})")
        status, survey = await run.visit(run.url(path), reached_by=reach, deep=True, screenshot=True)
        if survey is None or survey.catalog.is_error_page:
            said = f"{status} ({survey.catalog.title or survey.catalog.heading})" if survey is not None else status
            run.note(f"Entry point {label} ({path}) answered {said}: there is no such page, so it is not an entry "
                     "point.")
            refuted.append(f"{label} ({path}) answered {said}")
            continue
        if survey.is_login_page:
            run.note(f"Entry point {label} ({path}) answered the login page (signed out).")
            entry_points.append(EntryPoint(label=label, url=path, click_path=reach, confidence=round(value * 0.3, 2)))
            continue
        has_ui = bool(survey.catalog.heading and survey.catalog.has_content)
        value = max(value, score(request, page_words(survey.catalog), path))
        confidence = min(1.0, value * (1.0 if has_ui else 0.6) + (0.15 if has_ui else 0))
        entry_points.append(EntryPoint(label=survey.catalog.heading or label, url=survey.catalog.path,
                                       click_path=reach, confidence=round(confidence, 2)))
        run.note(f"{label}: {survey.catalog.heading!r} with {len(survey.catalog.actions)} controls and "
                 f"{plural(len(survey.catalog.forms), 'form')} at {survey.catalog.path}.")
        if any(form.step_text for form in survey.catalog.forms):
            await walk_wizard(run, survey)
        if confidence >= 0.85:
            break  # confident enough: stop early, the budget is better spent elsewhere
    return entry_points
