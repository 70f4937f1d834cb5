"""A 598-byte YAML bomb made `studio validate` run for 120 s and reach 11.7 GB; a 20,000-level list ended in a
RecursionError traceback. Both are refused now with the line, before anything is built."""

from __future__ import annotations

import resource
import time

from studio.cli.main import main
from studio.scenarios.validation import check_text

BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8))


def test_a_billion_laughs_is_refused_at_its_line_in_a_moment():
    started, peak = time.monotonic(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    scenario, problems = check_text(BOMB, "bomb.yaml")
    assert scenario is None and len(problems) == 1
    assert "aliases stand for more than 100,000 values" in problems[0].message and problems[0].line == 6
    assert time.monotonic() - started < 5
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak < 200_000  # KB: nothing was expanded


def test_a_deep_list_is_refused_with_a_sentence():
    _scenario, problems = check_text("steps: " + "[" * 20_000 + "]" * 20_000 + "\n", "deep.yaml")
    assert len(problems) == 1 and "nested too deeply (more than 64 levels)" in problems[0].message


def test_validate_says_it_in_one_line_and_exits_with_its_code(tmp_path, capsys):
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(BOMB)
    code = main(["validate", str(bomb)])
    err = capsys.readouterr()
    assert code != 0 and "Traceback" not in err.err + err.out
    assert "aliases" in err.err + err.out


def test_an_answers_file_bomb_is_one_sentence(tmp_path):
    from studio.cli.answers_file import AnswersFileError, load_answers

    path = tmp_path / "answers.yaml"
    path.write_text(BOMB)
    try:
        load_answers(path)
    except AnswersFileError as error:
        assert "aliases" in str(error) and "line 6" in str(error)
    else:
        raise AssertionError("the bomb was accepted")


def test_an_answers_file_over_64_kb_is_not_read(tmp_path):
    """A 60 MB answers file was accepted; it is refused by its size before a byte is read."""
    from studio.cli.answers_file import AnswersFileError, load_answers

    path = tmp_path / "answers.json"
    path.write_text('{"credentials.email": "' + "a" * (70 * 1024) + '"}')
    try:
        load_answers(path)
    except AnswersFileError as error:
        assert "over the 64 KB" in str(error)
    else:
        raise AssertionError("a 70 KB answers file was accepted")
