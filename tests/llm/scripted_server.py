"""A scripted OpenAI-compatible chat completions server on 127.0.0.1, for driving the real openai client in tests.

It replays a queue of replies (a JSON message, a tool call, plain text, HTTP errors, slow answers) and records
every request it got. It runs on its own event loop in a daemon thread, so it serves async tests on the session
loop, qasync GUI tests and synchronous code alike. Other suites use it as:

    from tests.llm.scripted_server import ScriptedLLM, json_reply, tool_call_reply

    with ScriptedLLM() as llm:
        llm.queue(json_reply({"answer": 42}))
        ...  # LLMSettings(base_url=llm.base_url)
        assert llm.requests[0].system_prompt
"""

from __future__ import annotations

import asyncio
import itertools
import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

_ids = itertools.count(1)


@dataclass
class Reply:
    """One scripted answer: HTTP status, JSON body (or raw text), headers, and a delay before it is sent."""

    status: int = 200
    body: dict[str, Any] | str = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0


@dataclass
class RecordedRequest:
    """What the server received: path, headers (as sent) and the decoded JSON body."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    raw: str

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.body.get("messages") or [])

    @property
    def system_prompt(self) -> str:
        return "\n".join(str(m.get("content") or "") for m in self.messages if m.get("role") == "system")

    @property
    def user_text(self) -> str:
        """Every user and tool message's text, in order (page content and repair prompts arrive here)."""
        return "\n".join(str(m.get("content") or "") for m in self.messages if m.get("role") in ("user", "tool"))

    @property
    def last_message(self) -> dict[str, Any]:
        return self.messages[-1] if self.messages else {}

    @property
    def tool_names(self) -> list[str]:
        return [tool["function"]["name"] for tool in self.body.get("tools") or []]


def _completion(message: dict[str, Any], finish_reason: str, prompt_tokens: int, completion_tokens: int,
                model: str = "scripted") -> dict[str, Any]:
    return {"id": f"chatcmpl-{next(_ids)}", "object": "chat.completion", "created": int(time.time()),
            "model": model,
            "choices": [{"index": 0, "message": message, "finish_reason": finish_reason, "logprobs": None}],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                      "total_tokens": prompt_tokens + completion_tokens}}


def text_reply(content: str, prompt_tokens: int = 100, completion_tokens: int = 20) -> Reply:
    """An assistant message with this exact text (use it for malformed JSON)."""
    return Reply(body=_completion({"role": "assistant", "content": content}, "stop", prompt_tokens,
                                  completion_tokens))


def json_reply(value: Any, prompt_tokens: int = 100, completion_tokens: int = 20) -> Reply:
    """An assistant message whose text is `value` as JSON (a dict, list, or a pydantic model)."""
    if hasattr(value, "model_dump_json"):
        return text_reply(value.model_dump_json(), prompt_tokens, completion_tokens)
    return text_reply(json.dumps(value), prompt_tokens, completion_tokens)


def tool_call_reply(name: str, arguments: dict[str, Any] | str, prompt_tokens: int = 100,
                    completion_tokens: int = 20, call_id: str | None = None) -> Reply:
    """An assistant message calling one function tool (arguments as a dict, or a raw string to break them)."""
    args = arguments if isinstance(arguments, str) else json.dumps(arguments)
    call = {"id": call_id or f"call_{next(_ids)}", "type": "function", "function": {"name": name, "arguments": args}}
    return Reply(body=_completion({"role": "assistant", "content": None, "tool_calls": [call]}, "tool_calls",
                                  prompt_tokens, completion_tokens))


def error_reply(status: int, message: str = "scripted failure", headers: dict[str, str] | None = None) -> Reply:
    """An HTTP error with OpenAI's error body."""
    return Reply(status=status, body={"error": {"message": message, "type": "server_error", "code": None}},
                 headers=dict(headers or {}))


def rate_limited(retry_after: float | None = 1) -> Reply:
    """HTTP 429, with a Retry-After header in seconds unless `retry_after` is None."""
    headers = {} if retry_after is None else {"Retry-After": f"{retry_after:g}"}
    return error_reply(429, "Rate limit reached (scripted).", headers)


def slow(reply: Reply, seconds: float) -> Reply:
    """`reply`, sent only after `seconds` (longer than the client's timeout makes it a timeout)."""
    return Reply(status=reply.status, body=reply.body, headers=reply.headers, delay_s=seconds)


class ScriptedLLM:
    """The server: `queue()` replies, point LLMSettings.base_url at `base_url`, read `requests` afterwards.

    When the queue is empty, `responder(request)` answers if set (for agents whose prompts vary), else the
    server answers HTTP 500 "no reply scripted" and counts it in `unscripted`.
    """

    def __init__(self, host: str = "127.0.0.1") -> None:
        self.host = host
        self.port = 0
        self.responder: Callable[[RecordedRequest], Reply] | None = None
        self.unscripted = 0
        self._replies: deque[Reply] = deque()
        self._requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    # -- scripting ---------------------------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        """The OpenAI-style base URL (ending in /v1); /chat/completions without /v1 is served too."""
        return f"http://{self.host}:{self.port}/v1"

    def queue(self, *replies: Reply) -> ScriptedLLM:
        with self._lock:
            self._replies.extend(replies)
        return self

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._replies)

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._requests)

    def reset(self) -> None:
        """Forget queued replies, recorded requests and the responder (between tests)."""
        with self._lock:
            self._replies.clear()
            self._requests.clear()
            self.responder = None
            self.unscripted = 0

    # -- serving -----------------------------------------------------------------------------------------------

    async def _chat_completions(self, request: web.Request) -> web.StreamResponse:
        raw = await request.text()
        try:
            body = json.loads(raw)
        except json.JSONDecodeError:
            body = {}
        recorded = RecordedRequest(path=request.path, headers=dict(request.headers), body=body, raw=raw)
        with self._lock:
            self._requests.append(recorded)
            reply = self._replies.popleft() if self._replies else None
        if reply is None and self.responder is not None:
            reply = self.responder(recorded)
        if reply is None:
            with self._lock:
                self.unscripted += 1
            reply = error_reply(500, "ScriptedLLM: no reply scripted for this request")
        if reply.delay_s:
            await asyncio.sleep(reply.delay_s)
        if isinstance(reply.body, str):
            return web.Response(status=reply.status, text=reply.body, headers=reply.headers)
        payload = dict(reply.body)
        if payload.get("object") == "chat.completion" and body.get("model"):
            payload["model"] = body["model"]  # echo the requested model, as real servers do
        return web.json_response(payload, status=reply.status, headers=reply.headers)

    def _app(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._chat_completions)
        app.router.add_post("/chat/completions", self._chat_completions)
        return app

    def start(self) -> str:
        ready = threading.Event()
        failure: list[BaseException] = []
        runner_box: list[web.AppRunner] = []

        async def serve() -> None:
            runner = web.AppRunner(self._app(), access_log=None, shutdown_timeout=0.5)
            await runner.setup()
            site = web.TCPSite(runner, self.host, 0)
            await site.start()
            self.port = runner.addresses[0][1]
            runner_box.append(runner)

        def run() -> None:
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            try:
                loop.run_until_complete(serve())
            except BaseException as exc:  # reported to the starting thread
                failure.append(exc)
                ready.set()
                loop.close()
                return
            self._loop = loop
            ready.set()
            try:
                loop.run_forever()
            finally:
                loop.run_until_complete(runner_box[0].cleanup())
                # A slow reply whose client already timed out is still sleeping: end it, not leave it pending.
                leftovers = asyncio.all_tasks(loop)
                for task in leftovers:
                    task.cancel()
                loop.run_until_complete(asyncio.gather(*leftovers, return_exceptions=True))
                loop.run_until_complete(loop.shutdown_asyncgens())
                loop.close()

        self._thread = threading.Thread(target=run, name="scripted-llm", daemon=True)
        self._thread.start()
        if not ready.wait(30):
            raise RuntimeError("The scripted LLM server did not start within 30 seconds.")
        if failure:
            raise failure[0]
        return self.base_url

    def stop(self) -> None:
        if self._loop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=10)
        self._loop = None
        self._thread = None

    def __enter__(self) -> ScriptedLLM:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
