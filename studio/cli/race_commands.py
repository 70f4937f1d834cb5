"""Race-preflight commands: `studio observe` (facts about one element)."""

from __future__ import annotations

import argparse
from typing import get_args

from studio.models.race import ActionName


def _observe(args: argparse.Namespace) -> int:
    from studio.race import observe_cli

    return observe_cli.main(args.url, args.selector, as_json=args.json, action=args.action, headed=args.headed)


def register(commands: argparse._SubParsersAction) -> None:
    observe = commands.add_parser(
        "observe", help="print the raw facts about one element of a page (what race preflight sees)")
    observe.add_argument("url", help="the page to open, e.g. http://127.0.0.1:8000/products")
    observe.add_argument("--selector", required=True, metavar="CSS",
                         help="CSS selector of the element; the first match is observed")
    observe.add_argument("--json", action="store_true", help="print the observations as the seed's JSON array")
    observe.add_argument("--action", choices=list(get_args(ActionName)),
                         help="report only the facts that would stop this action (its preflight), not all facts")
    observe.add_argument("--headed", action="store_true", help="show the Chromium window (needs a display)")
    observe.set_defaults(handler=_observe)
