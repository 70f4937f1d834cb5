import pytest

from tests.trust.hostile_app import HostileApp


@pytest.fixture(scope="module")
def hostile_server():
    with HostileApp() as app:
        yield app


@pytest.fixture
def hostile(hostile_server):
    hostile_server.knobs.update({"home": "login", "slow_s": 4.0, "login_delay_s": 0.0})
    hostile_server.leaks.clear()
    hostile_server.posts.clear()
    return hostile_server
