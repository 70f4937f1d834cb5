"""One demo run, whatever the front end: a user on the demo app, the tour on a session, a summary in the project."""

from __future__ import annotations

import json
import os
from pathlib import Path

from studio.browser.session import BrowserSession
from studio.demo.out_folder import unusable
from studio.demo.server import DemoServerThread
from studio.demo.tour import JOB, DemoTour, DemoUser
from studio.runtime.live import LivePage
from studio.store.project import ProjectFile


def demo_project_path(out: Path) -> Path:
    """Where the demo records: `out/demo.studio`; an earlier one is kept as demo.previous.studio, never deleted.

    Call it only while holding the folder (studio.demo.out_folder): it moves the earlier run's files.
    """
    path = out / "demo.studio"
    try:
        out.mkdir(parents=True, exist_ok=True)
        if path.exists():
            previous = out / "demo.previous.studio"
            for suffix in ("", "-wal", "-shm"):
                source, target = Path(str(path) + suffix), Path(str(previous) + suffix)
                if source.exists():
                    os.replace(source, target)
                elif target.exists():
                    target.unlink()  # an older run's -wal beside the moved file would be replayed into it
    except OSError as error:
        raise unusable(out, error) from None
    return path


def create_demo_user(demo: DemoServerThread) -> DemoUser:
    # An admin with TOTP, so the tour exercises the 2FA step and can open the admin-only page.
    user = demo.create_user(plan="plus", requires_2fa=True, role="admin")
    return DemoUser(email=user["email"], password=user["password"], otp_secret=user["otpSecret"])


async def run_demo(session: BrowserSession, demo: DemoServerThread, project: ProjectFile, out: Path) -> dict:
    """Run the tour on a started session, store the run summary in the project and write out/summary.json."""
    tour = DemoTour(session, demo.base_url, create_demo_user(demo), LivePage(session))
    await tour.run()
    counts = project.counts(session.id)
    summary = {
        "project": str(project.path.resolve()),
        "session_id": session.id,
        "base_url": demo.base_url,
        "user": tour.user.email,
        "pages": tour.result.visited,
        "console_errors": counts["console_errors"],
        "network_failures": counts["network_failures"],
        "screenshots": counts["screenshots"],
        "navigations": counts["navigations"],
        "cart_count": tour.result.cart_count,
        "failures": tour.result.failures,
        "duration_s": round((tour.result.finished_at - tour.result.started_at) / 1000, 2),
    }
    project.add_run_summary(JOB, session.id, tour.result.started_at, tour.result.finished_at, summary)
    try:
        (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    except OSError as error:
        raise unusable(out, error) from None
    return summary
