"""The corpus's own tools without the registry: a pinned package npm cannot give, and an anchor that is not there
exactly once, are sentences that say what to do."""

from __future__ import annotations

import pytest

from tests.corpus.faults import AnchorError, Fault, Patch, apply
from tests.corpus.npm_apps import CorpusUnavailable, PinnedPackage, fetch

PACKAGE = PinnedPackage("left-pad", "1.3.0", "sha512-not-the-real-one")


def test_without_npm_fetching_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setenv("PREFLIGHT_CORPUS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("PATH", str(tmp_path))  # no npm on it
    with pytest.raises(CorpusUnavailable, match=r"npm is not installed, so left-pad@1\.3\.0 .*apt-get install npm"):
        fetch(PACKAGE)


def test_a_cached_tarball_that_is_not_the_pinned_one_is_fetched_again(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / PACKAGE.tarball_name).write_bytes(b"tampered")
    monkeypatch.setenv("PREFLIGHT_CORPUS_CACHE", str(cache))
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(CorpusUnavailable, match="npm is not installed"):
        fetch(PACKAGE)
    assert not (cache / PACKAGE.tarball_name).exists()  # never used, never kept


@pytest.mark.parametrize(("text", "said"), [("no anchor here", "does not occur"), ("x(); x();", "occurs 2 times")])
def test_an_anchor_must_occur_exactly_once(tmp_path, text, said):
    (tmp_path / "app.js").write_text(text)
    fault = Fault("noop", "x does nothing", (Patch("app.js", "x();", "void 0;"),))
    with pytest.raises(AnchorError, match=f"Fault 'noop': the anchor 'x\\(\\);' {said} in app.js"):
        apply(tmp_path, fault)
    assert (tmp_path / "app.js").read_text() == text


def test_a_patch_writes_a_new_file_and_leaves_a_hard_linked_original_alone(tmp_path):
    original = tmp_path / "package.js"
    original.write_text("save(); render();")
    site = tmp_path / "site"
    site.mkdir()
    (site / "app.js").hardlink_to(original)
    apply(site, Fault("no_save", "nothing is saved", (Patch("app.js", "save();", ""),)))
    assert (site / "app.js").read_text() == " render();"
    assert original.read_text() == "save(); render();"


def test_a_suspected_defects_case_passing_is_told_apart_from_a_failure(tmp_path):
    from tests.corpus.exported import _results

    report = tmp_path / "r.xml"
    report.write_text(
        '<testsuites><testsuite>'
        '<testcase classname="t" name="kept"><failure message="[XPASS(strict)] Suspected defect, fails today"/></testcase>'
        '<testcase classname="t" name="broken"><failure message="AssertionError: gone"/></testcase>'
        '<testcase classname="t" name="fine"/>'
        '</testsuite></testsuites>')
    assert _results(report) == {"t::kept": "defect_gone", "t::broken": "failed", "t::fine": "passed"}
