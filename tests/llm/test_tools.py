"""Function calling with a closed tool set: valid calls pass, unknown tools and bad arguments are re-prompted."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, Field

from studio.llm import Budget, ModelOutputInvalid, ToolSpec, Untrusted
from studio.models.llm import JobBudget
from tests.llm.scripted_server import text_reply, tool_call_reply


class Navigate(BaseModel):
    """Open a path of the app under test."""

    url: str = Field(min_length=1)


class Click(BaseModel):
    """Click an element by its snapshot ref."""

    ref: str


TOOLS = [ToolSpec(name="navigate", description="Open a page of the app.", args=Navigate),
         ToolSpec(name="click", description="Click an element by ref.", args=Click)]


async def choose(model):
    return await model.choose_tool("explore", "Explore the app.", [Untrusted("Help | Offers", "/")], TOOLS,
                                   Budget(JobBudget()), job_id="job-7")


async def test_a_valid_tool_call_is_returned_with_parsed_arguments(scripted_llm, model, project):
    scripted_llm.queue(tool_call_reply("click", {"ref": "e12"}, call_id="call_a"))

    choice = await choose(model)

    assert (choice.name, choice.args, choice.call_id) == ("click", Click(ref="e12"), "call_a")
    [request] = scripted_llm.requests
    assert request.tool_names == ["navigate", "click"]
    assert request.body["tool_choice"] == "required"
    assert request.body["tools"][0]["function"]["parameters"]["required"] == ["url"]
    assert "only answer by calling exactly one of the listed tools (navigate, click)" in request.system_prompt
    assert [c.outcome for c in project.llm_calls.list("job-7")] == ["ok"]


async def test_an_unknown_tool_is_answered_with_an_error_and_the_repair_is_used(scripted_llm, model, project):
    scripted_llm.queue(tool_call_reply("delete_account", {}, call_id="call_x"),
                       tool_call_reply("navigate", {"url": "/help"}))

    choice = await choose(model)

    assert choice.args == Navigate(url="/help")
    repair = scripted_llm.requests[1]
    assistant, tool_answer = repair.messages[-2:]
    assert assistant["tool_calls"][0]["function"]["name"] == "delete_account"
    assert tool_answer["role"] == "tool" and tool_answer["tool_call_id"] == "call_x"
    assert "there is no tool named 'delete_account'" in tool_answer["content"]
    assert [c.outcome for c in project.llm_calls.list()] == ["invalid", "repaired"]
    assert "no tool named 'delete_account'" in project.llm_calls.list()[0].error


async def test_bad_arguments_are_answered_with_the_validation_error(scripted_llm, model, project):
    scripted_llm.queue(tool_call_reply("navigate", {"href": "/help"}), tool_call_reply("navigate", '{"url": "/"}'))

    choice = await choose(model)

    assert choice.args == Navigate(url="/")
    assert "the arguments for navigate are invalid: url: Field required" in scripted_llm.requests[1].user_text
    assert [c.outcome for c in project.llm_calls.list()] == ["invalid", "repaired"]


async def test_text_instead_of_a_tool_call_is_re_prompted_and_then_given_up(scripted_llm, model, project):
    scripted_llm.queue(*[text_reply("Sure! I would click the help link.")] * 3)

    with pytest.raises(ModelOutputInvalid) as raised:
        await choose(model)

    assert "you answered with text instead of calling a tool" in scripted_llm.requests[1].last_message["content"]
    assert [c.outcome for c in project.llm_calls.list()] == ["invalid"] * 3
    assert "(offline heuristics)" in raised.value.sentence
