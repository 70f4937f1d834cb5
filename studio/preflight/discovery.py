"""Objective 4b: discover the flows of the entry pages by trying them (probes.py) in a sandbox — what a field that
acts on Enter adds, what an item's controls do, the views a single-page app routes to, what survives a reload.

The behaviours go to the job's state (cases are written from them) and, in words, to the seed's
`discovered_flows_summary`. Games are left to game evaluation; every other entry page is tried, whatever its shape.
"""

from __future__ import annotations

from studio.models.behaviour import Behaviour
from studio.models.context import FlowSummary
from studio.preflight.form_trials import writable_forms
from studio.preflight.probes import Prober
from studio.preflight.run import PreflightRun
from studio.preflight.sandbox import Sandbox
from studio.wording import plural

MAX_PAGES = 2


def behaviours_of(state: dict, path: str) -> list[Behaviour]:
    """The behaviours a job's preflight found on `path`."""
    return [Behaviour.model_validate(raw) for raw in state.get("behaviours", {}).get(path, [])]


async def discover_flows(run: PreflightRun) -> None:
    run.objective = "discover_flows"
    if run.job.state.get("app_kind", {}).get("kind") == "game":
        run.note("Its flows were not tried: it is a game (see above), which game evaluation plays.")
        return
    context = run.context
    points = [p.url.split("#")[0] for p in context.candidate_entry_points if p.url and p.confidence >= 0.5]
    for path in list(dict.fromkeys(points))[:MAX_PAGES]:
        catalog = run.catalogs.get(path)
        if catalog is None or catalog.is_error_page:
            continue
        # Every page is tried: the explorer works from what the snapshot sees, which a survey may have missed.
        forms = run.try_forms and bool(writable_forms(catalog))
        run.progress(f"Trying what {path} does (in a sandbox: " + (
            "its forms are sent with sample data, as you allowed)" if forms else "nothing is saved to the app)"))
        async with Sandbox(run.live, allow_writes=forms) as box:
            found = await Prober(run, box, catalog).explore()
        run.job.state.setdefault("behaviours", {})[path] = [b.model_dump(mode="json") for b in found]
        for behaviour in found:
            context.discovered_flows_summary.append(FlowSummary(flow_name=behaviour.name, entry_point=path,
                                                                notes=behaviour.summary))
        if box.written:
            run.note(f"On {path} the preflight sent {plural(len(box.written), 'write')} to the app with sample data, as the "
                     f"tester allowed ({box.written[0]}); records it saved were deleted again where the page could.")
        if box.blocked:
            run.note(f"On {path} the page tried to write to the server {plural(len(box.blocked), 'time')} "
                     f"({box.blocked[0]}); the preflight stopped those requests, so what needs them was not seen.")
        run.note(f"Tried {path}: {plural(len(found), 'behaviour')} seen "
                 f"({', '.join(b.kind for b in found) or 'none'}).")
