"""A pytest plugin for running one exported test against many demo seeds in one process.

Loaded with `-p tests.proof.seed_plugin` and DEMO_SEEDS="1,2,…": every test runs once per seed, after the demo
app behind --base-url was reconfigured (hydration delay and card order change with the seed).
"""

from __future__ import annotations

import json
import os
import urllib.request

import pytest


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "demo_seed" in metafunc.fixturenames:
        seeds = [int(s) for s in os.environ.get("DEMO_SEEDS", "1").split(",")]
        # indirect: the seed goes to the fixture below, which reconfigures the demo (a direct parameter would
        # replace the fixture and the demo would never see the seed).
        metafunc.parametrize("demo_seed", seeds, ids=[f"seed{s}" for s in seeds], indirect=True)


@pytest.fixture(autouse=True)
def demo_seed(request: pytest.FixtureRequest, base_url: str) -> int:
    seed = request.param
    body = json.dumps({"seed": seed}).encode()
    reply = urllib.request.urlopen(urllib.request.Request(
        base_url.rstrip("/") + "/_data/config", data=body, headers={"Content-Type": "application/json"}))
    assert reply.status == 200
    # Show the card order this seed gives, so a run's output proves the seeds really differ.
    products = json.load(urllib.request.urlopen(base_url.rstrip("/") + "/api/products"))["products"]
    print(f"\nSEED {seed} ORDER {'|'.join(p['name'] for p in products)}")
    return seed
