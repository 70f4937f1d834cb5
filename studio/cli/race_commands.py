"""Race-preflight commands: `studio mcp` (the MCP server for agents) and `studio observe` (facts about one element)."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path
from typing import get_args

from studio.cli.browser_options import add_browser_options, browser_endpoint
from studio.models.race import ActionName


def _mcp(args: argparse.Namespace) -> int:
    from studio.mcp.server import serve

    if args.token and not args.http:
        print("error: --token needs --http HOST:PORT (a server over stdio has no HTTP requests to check).",
              file=sys.stderr)
        return 2
    if args.scenario_tools or args.web_tools or args.data_tools or args.http:
        flag = "--web-tools" if args.web_tools else "--data-tools" if args.data_tools else "--scenario-tools"
        if not args.app_url:
            print(f"error: {flag} needs --app-url URL (the app the goal scenarios run on).", file=sys.stderr)
            return 2
        from studio.mcp.scenario_server import serve_scenarios

        return serve_scenarios(args.app_url, args.data_url, args.http, headed=args.headed,
                               endpoint=browser_endpoint(args), web=not args.data_tools, data=not args.web_tools,
                               token=args.token)
    status = serve(headed=args.headed, project=args.project, endpoint=browser_endpoint(args),
                   allow_file_urls=args.allow_file_urls)
    # The browser and the project file are closed by now. Skip the interpreter's teardown of the SDK's and
    # pydantic's object graphs: it takes a second or more on a busy machine, and MCP clients kill a server
    # that is still running 2 s after they closed its stdin.
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


def _observe(args: argparse.Namespace) -> int:
    from studio.cli import observe_command

    return observe_command.main(args.url, args.selector, as_json=args.json, action=args.action, headed=args.headed,
                            endpoint=browser_endpoint(args), allow_file_urls=args.allow_file_urls)


def register(commands: argparse._SubParsersAction) -> None:
    mcp = commands.add_parser(
        "mcp", help="serve the browser tools with race preflight to an AI agent (MCP over stdio)",
        description="An MCP server over stdio: browser_navigate, browser_snapshot, browser_click, browser_type, "
                    "get_ancestors, get_siblings, get_descendants, observe_element_state and "
                    "enable/disable_preflight_observation, in named browser contexts of one Chromium.")
    add_browser_options(mcp)
    mcp.add_argument("--project", type=Path, metavar="FILE",
                     help="record the actions done through the tools into this .studio project "
                          "(one session per browserContext; export it with `studio export`)")
    scenario = mcp.add_argument_group("goal scenarios (seed 004)")
    halves = scenario.add_mutually_exclusive_group()
    halves.add_argument("--web-tools", action="store_true",
                        help="serve seed 004's MCP-Web tools instead: ui.navigate, ui.observe, ui.query, "
                             "ui.inspect_tree, ui.act.click/type/check, ui.wait, ui.capture.screenshot, "
                             "session.save/load (one browser context per client connection)")
    halves.add_argument("--data-tools", action="store_true",
                        help="serve seed 004's MCP-Data tools instead: data.user.create/login/get, data.reset, "
                             "data.flags.set, data.clock.freeze, auth.impersonate (no browser)")
    halves.add_argument("--scenario-tools", action="store_true", help="serve both on one server")
    scenario.add_argument("--app-url", metavar="URL", help="the app the scenario tools work on")
    scenario.add_argument("--data-url", metavar="URL",
                          help="its data server, for the data tools (default: the app's URL)")
    scenario.add_argument("--http", metavar="HOST:PORT",
                          help="serve over streamable HTTP at /mcp (with GET /health) instead of stdio")
    scenario.add_argument("--token", action="store_true",
                          help="with --http: answer 401 to every request without `Authorization: Bearer TOKEN` (GET "
                               "/health still answers, with only {ok, contexts}); the "
                               "token is $STUDIO_MCP_TOKEN when set (there is no --token VALUE: it would be kept in "
                               "shell history and shown by ps), else a random one printed once on stderr; `studio "
                               "run --mcp-web/--mcp-data` sends $STUDIO_MCP_TOKEN")
    mcp.set_defaults(handler=_mcp)

    observe = commands.add_parser(
        "observe", help="print the raw facts about one element of a page (what race preflight sees)")
    observe.add_argument("url", help="the page to open, e.g. http://127.0.0.1:8000/products")
    observe.add_argument("--selector", required=True, metavar="CSS",
                         help="CSS selector of the element; the first match is observed")
    observe.add_argument("--json", action="store_true", help="print the observations as the seed's JSON array")
    observe.add_argument("--action", choices=list(get_args(ActionName)),
                         help="report only the facts that would stop this action (its preflight), not all facts")
    add_browser_options(observe)
    observe.set_defaults(handler=_observe)
