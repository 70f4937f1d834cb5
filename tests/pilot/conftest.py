"""The pilot acts only through a PageDriver: `driver` is the test's page (the worker's shared Chromium) as one."""

from __future__ import annotations

import pytest

from studio.race.driver import PageDriver


@pytest.fixture
def driver(page):
    return PageDriver(page)
