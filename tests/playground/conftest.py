import pytest

from studio.browser.session import BrowserSession
from studio.events import EventBus
from studio.models.context import Answer
from studio.playground import Playground
from studio.store.project import ProjectFile
from studio.store.recorder import ProjectRecorder


class Bench:
    """A project, a bus recording into it, a browser session and a Playground, for one test."""

    def __init__(self, path, model=None):
        self.path, self.model = path, model
        self.bus = EventBus()
        self.events = []
        self.bus.subscribe(self.events.append)
        self.project = ProjectFile.open_or_create(path)
        self.recorder = ProjectRecorder(self.project, self.bus)

    async def open(self, **kwargs):
        self.session = BrowserSession(self.bus)
        await self.session.start()
        self.playground = Playground(self.session, self.project, model=self.model, **kwargs)
        return self

    async def close(self):
        await self.session.close()
        self.recorder.close()
        self.project.close()

    async def run(self, kind, demo, user, request="", case_ids=None, answers=()):
        """Start a job and answer its questions: credentials first, then the given answers in order."""
        job = await self.playground.start(kind, demo.base_url, request=request, case_ids=case_ids)
        queue = [Answer(key=k, value=v) for k, v in answers]
        while job.status == "paused":
            keys = [q.key for q in job.pending]
            if "credentials.email" in keys:
                given = [Answer(key="credentials.email", value=user["email"]),
                         Answer(key="credentials.password", value=user["password"])]
            elif queue and queue[0].key in keys:
                given = [queue.pop(0)]
            else:
                raise AssertionError(f"unexpected questions: {[q.question.question for q in job.pending]}")
            job = await self.playground.resume(job, given)
        return job

    def types(self):
        return [e.type for e in self.events if e.type.startswith(("preflight", "main_job", "item"))]


@pytest.fixture
async def bench(tmp_path, browser_info):
    made = await Bench(tmp_path / "p.studio").open()
    yield made
    await made.close()
