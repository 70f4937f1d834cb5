"""action.json parsing: the batch and single forms, and errors that name the field so the AI can fix its file."""

from __future__ import annotations

import pytest

from studio.pilot.actions import ActionFileError, parse_action_file


def test_a_batch_keeps_its_order_reasoning_and_flags():
    batch = parse_action_file('{"reasoning": "sign in", "stopOnError": false, "done": true, "actions": ['
                              '{"action": "type", "selector": "#email", "value": "a@b.c"},'
                              '{"action": "press", "value": "Enter"},'
                              '{"action": "verify", "expect": [{"type": "count", "selector": "li", "value": 3}]}]}')
    assert [a.action for a in batch.actions] == ["type", "press", "verify"]
    assert batch.reasoning == "sign in" and batch.stopOnError is False and batch.done is True
    assert batch.actions[2].expect and batch.actions[2].expect[0].value == "3"  # a number is taken as text


def test_a_single_action_object_and_a_bare_list_are_batches_of_their_own():
    assert parse_action_file('{"action": "navigate", "url": "/help"}').actions[0].url == "/help"
    assert parse_action_file('[{"action": "wait", "duration": 500}]').actions[0].duration == 500
    assert parse_action_file('{"actions": []}'.replace("[]", '[{"action": "type", "selector": "x", "value": 42}]')
                             ).actions[0].value == "42"


@pytest.mark.parametrize(("text", "message"), [
    ('{"actions": [{"action": "click", "selector": "a"}, {"action": "wait", "duration": 1},'
     ' {"action": "clik", "selector": "b"}]}',
     "actions[2].action: 'clik' is not an action type; did you mean 'click'?"),
    ('{"action": "click", "selecter": "#go"}', "selecter: is not a field; did you mean 'selector'?"),
    ('{"action": "click"}', "action: a 'click' action needs a selector."),
    ('{"actions": [{"action": "type", "selector": "#q"}]}',
     "actions[0]: a 'type' action needs a value (the text to enter)."),
    ('{"actions": [{"action": "verify", "expect": [{"type": "txt", "value": "x"}]}]}',
     "actions[0].expect[0].type: 'txt' is not an expectation type; did you mean 'text'?"),
    ('{"actions": [{"action": "verify", "expect": [{"type": "visible"}]}]}',
     "actions[0].expect[0]: a 'visible' expectation needs a selector."),
    ('{"actions": []}', "action.json: the batch has no actions"),
    ('{"actions": [\n  {"action": "click",}\n]}', "action.json is not valid JSON: Expecting property name enclosed "
                                                "in double quotes at line 2, column 22."),
    ('"click"', "action.json must hold an object"),
])
def test_a_bad_file_says_which_field_is_wrong(text, message):
    with pytest.raises(ActionFileError) as caught:
        parse_action_file(text)
    assert str(caught.value).startswith(message)


def test_a_done_batch_may_have_no_actions():
    assert parse_action_file('{"done": true, "reasoning": "goal reached"}').actions == []
