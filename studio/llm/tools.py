"""The closed set of tools a model may call, and the validated choice it made.

A tool is a name, a description and a pydantic model of its arguments; the model's call is accepted only when
the name is one of the listed tools and the arguments validate against that tool's model.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class ToolSpec(BaseModel):
    """One tool offered to the model: `args` is the pydantic model its arguments must validate against."""

    model_config = ConfigDict(arbitrary_types_allowed=True, frozen=True)

    # OpenAI's rule for function names; other servers are laxer, so this is the common ground.
    name: str = Field(pattern=r"^[A-Za-z0-9_-]{1,64}$")
    description: str
    args: type[BaseModel]

    def as_openai_tool(self) -> dict[str, Any]:
        """The `tools` entry of a chat completion request (function calling)."""
        return {"type": "function",
                "function": {"name": self.name, "description": self.description,
                             "parameters": self.args.model_json_schema()}}


class ToolChoice(BaseModel):
    """The tool the model chose, with its arguments parsed into the tool's args model."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    name: str
    args: BaseModel
    call_id: str | None = None
