import pytest

from studio.browser.session import BrowserSession
from studio.events import EventBus
from studio.preflight.job import Preflight
from studio.store.project import ProjectFile
from studio.store.recorder import ProjectRecorder


class Harness:
    """A project file, an event bus recording into it, a browser session and a Preflight on them."""

    def __init__(self, path):
        self.path = path
        self.bus = EventBus()
        self.events = []
        self.bus.subscribe(self.events.append)
        self.project = ProjectFile.open_or_create(path)
        self.recorder = ProjectRecorder(self.project, self.bus)
        self.session = None
        self.preflight = None

    async def open(self, **budget):
        self.session = BrowserSession(self.bus)
        await self.session.start()
        from studio.models.llm import JobBudget
        from studio.preflight.job import PREFLIGHT_BUDGET

        limits = PREFLIGHT_BUDGET.model_copy(update=budget) if budget else PREFLIGHT_BUDGET
        self.preflight = Preflight(self.session, self.project, budget=limits)
        return self

    async def close(self):
        if self.session:
            await self.session.close()
        self.recorder.close()
        self.project.close()

    def types(self):
        return [e.type for e in self.events if e.type.startswith(("preflight", "main_job", "item"))]


@pytest.fixture
async def harness(tmp_path, browser_info):
    made = await Harness(tmp_path / "p.studio").open()
    yield made
    await made.close()
