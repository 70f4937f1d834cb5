"""The pilot's session folder is written by an external AI (and a page it reads may try to steer it): action.json is
read only as a regular file of at most 64 KB, never through a link; a file nested too deeply is one sentence; the
folder is the user's alone. Without these, a link to /dev/zero was read until the machine ran out of memory."""

from __future__ import annotations

import json
import os
import stat

import pytest

from studio.pilot.actions import ActionFileError, parse_action_file
from studio.pilot.files import MAX_ACTION_BYTES, ActionFileRefused, SessionFolder


@pytest.fixture
def folder(tmp_path):
    made = SessionFolder(tmp_path)
    made.create()
    return made


def test_the_session_folder_is_for_the_user_alone(folder):
    for path in (folder.path, folder.path / "actions"):
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o700
    folder.action_file.write_text(json.dumps({"action": "type", "ref": "e1", "text": "s3cret"}))
    _text, kept = folder.take_action_file()
    assert stat.S_IMODE(os.stat(kept).st_mode) == 0o600  # it holds what the AI typed


@pytest.mark.parametrize("target", ["/dev/zero", "/etc/passwd"])
def test_a_link_is_never_followed(folder, target):
    os.symlink(target, folder.action_file)
    with pytest.raises(ActionFileRefused, match="was a link, so it was not read"):
        folder.take_action_file()
    refused = folder.path / "actions" / "0001-action.refused"
    assert os.path.islink(refused) and os.readlink(refused) == target  # kept as it was, never read
    assert "was a link" in (folder.path / "actions" / "0001-action.refused.txt").read_text()
    assert folder.take_action_file() is None  # and the next action file is awaited


def test_an_action_file_over_the_cap_is_refused_and_not_kept(folder):
    folder.action_file.write_text(json.dumps({"action": "type", "ref": "e1", "text": "x" * (MAX_ACTION_BYTES + 10)}))
    with pytest.raises(ActionFileRefused, match="over the 64 KB"):
        folder.take_action_file()
    assert not (folder.path / "actions" / "0001-action.json").exists()
    folder.action_file.write_text(json.dumps({"action": "click", "ref": "e1"}))
    text, _kept = folder.take_action_file()  # the next one is read as usual
    assert json.loads(text)["action"] == "click"


def test_a_folder_named_action_json_is_refused(folder):
    folder.action_file.mkdir()
    with pytest.raises(ActionFileRefused, match="was a folder"):
        folder.take_action_file()


def test_a_deeply_nested_action_file_is_one_sentence():
    with pytest.raises(ActionFileError, match="nested too deeply"):
        parse_action_file("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ActionFileError, match="cannot be read"):
        parse_action_file('{"action": "wait", "ms": ' + "9" * 5000 + "}")
