"""Fixtures of the third-party app corpus: the pinned npm packages, extracted once per test session (per xdist
worker), and their sites served on loopback."""

from __future__ import annotations

import pytest

from tests.corpus.npm_apps import CorpusUnavailable
from tests.corpus.sites import CorpusSites


@pytest.fixture(scope="session")
def corpus_sites(tmp_path_factory):
    """Every app's sites, built on first use into this worker's temporary folder and served on free ports."""
    sites = CorpusSites(tmp_path_factory.mktemp("corpus"))
    yield sites
    sites.close()


@pytest.fixture
def corpus_site(corpus_sites):
    """serve(app, fault=None) -> the site's server; a package npm cannot give fails the test with npm's sentence."""

    def serve(app, fault=None):
        try:
            return corpus_sites.serve(app, fault)
        except CorpusUnavailable as error:
            pytest.fail(str(error), pytrace=False)

    return serve
