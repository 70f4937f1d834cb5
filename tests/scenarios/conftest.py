"""The scenario tests' runtime: pages on the worker's shared Chromium (the `fleet` fixture), never a launch."""

from __future__ import annotations

import pytest


@pytest.fixture
async def runtime(fleet):
    """An EngineRuntime whose pages are contexts of the worker's Chromium."""
    from studio.runtime import EngineRuntime
    from studio.settings import StudioSettings

    async with EngineRuntime(StudioSettings(), record=False, fleet=fleet) as engine:
        yield engine
