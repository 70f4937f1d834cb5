"""The corpus for one test session or one measurement: the pinned packages extracted into a temporary folder, each
app's sites (healthy, and one per planted fault) built there and served on loopback, each on its own port (so a
site's storage is its own, and an exported suite runs against any of them by its base URL)."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Self

from tests.corpus.apps import CorpusApp, build_site
from tests.corpus.static_server import SiteServer


class CorpusSites:
    """Builds and serves sites on demand; `close()` stops every server and removes the folder."""

    def __init__(self, folder: Path | None = None) -> None:
        self._own = folder is None
        self.folder = Path(tempfile.mkdtemp(prefix="corpus-")) if folder is None else folder
        self._served: dict[tuple[str, str | None], SiteServer] = {}

    def build(self, app: CorpusApp, fault: str | None = None) -> Path:
        return build_site(app, app.fault(fault) if fault else None, self.folder / "packages", self.folder / "sites")

    def serve(self, app: CorpusApp, fault: str | None = None) -> SiteServer:
        """The site's server, started the first time (http://127.0.0.1:PORT/ + app.entry is the app)."""
        key = (app.name, fault)
        if key not in self._served:
            self._served[key] = SiteServer(self.build(app, fault), app.api() if app.api else None).start()
        return self._served[key]

    def close(self) -> None:
        for server in self._served.values():
            server.stop()
        self._served.clear()
        if self._own:
            shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
