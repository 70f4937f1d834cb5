"""Every app of the corpus, by name, in the order the table lists them."""

from __future__ import annotations

from tests.corpus.apps import CorpusApp
from tests.corpus.catalog import games, todomvc, widgets

APPS: dict[str, CorpusApp] = {app.name: app for app in (*todomvc.APPS, *widgets.APPS, *games.APPS)}
