"""The preflight's own navigations follow the studio's URL policy: a stored case that points at a local file
(file://localhost/...) is not opened, and the note says why; nothing of the file reaches the project."""

from __future__ import annotations

import time

from studio.models.testcase import CaseStep, Grounding, TestCase
from tests.preflight.test_preflight import credentials

SECRET = "private-marker-7d1f"


async def test_a_stored_case_pointing_at_a_local_file_is_not_opened(harness, demo, tmp_path):
    secret = tmp_path / "secret.html"
    secret.write_text(f"<title>{SECRET}</title><h1>{SECRET}</h1>")
    local = "file://localhost" + str(secret)
    user = demo.create_user()
    harness.project.cases.save_case(TestCase(
        id="t-local", title="A case someone pointed at a local file", steps=[CaseStep(action="navigate", url=local)],
        expected_results=["x"], priority="P3", status="active", origin="tester", updated_at=time.time() * 1000,
        grounding=Grounding(page_url=local)), "tester", "by hand")
    job = await harness.preflight.start(demo.base_url, request="help center")
    job = await harness.preflight.resume(job, credentials(user))
    assert job.status == "completed", (job.status, job.message)
    assert not any(url.startswith("file:") for url in job.context.evidence.visited_urls)
    assert any(note.startswith(f"Did not open {local}") and "--allow-file-urls" in note
               for note in job.context.evidence.notes)
    harness.project.close()
    for path in tmp_path.glob("p.studio*"):
        assert SECRET.encode() not in path.read_bytes()
