"""`studio bench mcp-click`: how long browser_click takes as an agent sees it — a `studio mcp` process spoken to by
the MCP SDK's own stdio client, clicking a button on a settled page of the demo app — with and without recording
into a project, next to the preflight check alone (observe_element_state).

"Settled" means what an agent's pace gives: a model thinks for a second or more between two calls, so the clicks
are spaced (PAUSE_S, not timed). Back-to-back clicks while recording are measured too: each waits for the step of the
one before it to be finished (the requests it caused, the messages they brought).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, TextIO

from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from studio.demo.server import DemoConfig, DemoServerThread

PAUSE_S = 0.8
PAGE = "/help"


def _ms(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {"median": round(statistics.median(ordered) * 1000, 1),
            "p90": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))] * 1000, 1)}


async def _session(base_url: str, runs: int, project: Path | None, errlog: TextIO) -> dict[str, Any]:
    args = ["-m", "studio", "mcp", *(["--project", str(project)] if project else [])]
    params = StdioServerParameters(command=sys.executable, args=args, env=dict(os.environ))
    async with Client(stdio_client(params, errlog=errlog)) as client:

        async def call(tool: str, **arguments: Any) -> Any:
            result = await client.call_tool(tool, arguments)
            return json.loads(result.content[0].text)  # type: ignore[union-attr]

        async def timed(tool: str, **arguments: Any) -> float:
            started = time.perf_counter()
            answer = await call(tool, **arguments)
            elapsed = time.perf_counter() - started
            if isinstance(answer, dict) and ("error" in answer or answer.get("clicked") is False):
                raise RuntimeError(f"{tool} did not succeed: {answer}")
            return elapsed

        await call("browser_navigate", url=base_url + PAGE, browserContext="bench")
        text = (await call("browser_snapshot", browserContext="bench"))["text"]
        ref = next(found.group(1) for line in text.splitlines()
                   if line.strip().startswith("button") and "#faq-toggle" in line
                   and (found := re.search(r" (e\d+)(?: |$)", line)))
        await timed("browser_click", ref=ref, browserContext="bench")  # warm up both sides
        spaced, back_to_back, checks = [], [], []
        for _ in range(runs):
            await asyncio.sleep(PAUSE_S)
            spaced.append(await timed("browser_click", ref=ref, browserContext="bench"))
            checks.append(await timed("observe_element_state", ref=ref, browserContext="bench"))
        await asyncio.sleep(PAUSE_S)
        for _ in range(runs):
            back_to_back.append(await timed("browser_click", ref=ref, browserContext="bench"))
    return {"click": _ms(spaced), "click_back_to_back": _ms(back_to_back), "check": _ms(checks)}


async def measure(runs: int = 20, errlog: TextIO = sys.stderr) -> dict[str, Any]:
    """Median and p90 tool-call latencies of browser_click through the real MCP client (the servers' logs go to
    `errlog`)."""
    with DemoServerThread(config=DemoConfig(hydration_ms=(0, 0))) as demo, \
            tempfile.TemporaryDirectory(prefix="studio-bench-") as folder:
        plain = await _session(demo.base_url, runs, None, errlog)
        recorded = await _session(demo.base_url, runs, Path(folder) / "bench.studio", errlog)
    return {
        "benchmark": "mcp-click",
        "page": f"demo {PAGE}: an FAQ toggle button, clicked through `studio mcp` over stdio",
        "samples_each": runs,
        "pause_between_clicks_s": PAUSE_S,
        "click_ms_median": plain["click"]["median"], "click_ms_p90": plain["click"]["p90"],
        "recording_click_ms_median": recorded["click"]["median"],
        "recording_click_ms_p90": recorded["click"]["p90"],
        "recording_click_back_to_back_ms_median": recorded["click_back_to_back"]["median"],
        "click_back_to_back_ms_median": plain["click_back_to_back"]["median"],
        "check_ms_median": plain["check"]["median"],
        "targets": {"click_ms_median": "<= 100", "recording_click_ms_median": "<= 100"},
    }


def main(target: str, seconds: float = 5.0, json_only: bool = False, runs: int | None = None) -> int:
    """`studio bench mcp-click`: `runs` is the clicks measured per session (default 20)."""
    with open(os.devnull, "w") as quiet:  # the servers' own warnings are not the benchmark's output
        result = asyncio.run(measure(runs or 20, quiet))
    print(json.dumps(result, indent=None if json_only else 2))
    return 0
