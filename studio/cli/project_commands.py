"""`studio clean-copy`: a copy of a shared project without the schema objects the studio did not make (a planted
trigger, view, index, table or column), for a file that opening refused; the shared file is left as it was."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

BAD_INPUT = 2


def _clean_copy(args: argparse.Namespace) -> int:
    from studio.store.clean_copy import make_clean_copy
    from studio.store.errors import ProjectError

    try:
        copy, removed = make_clean_copy(args.project, args.out)
    except ProjectError as error:
        print(f"error: {error}", file=sys.stderr)
        return BAD_INPUT
    if removed:
        print(f"Wrote {copy} without what Preflight Studio did not make: {'; '.join(removed)}. "
              f"{args.project} is unchanged; open the copy.")
    else:
        print(f"{args.project} holds nothing Preflight Studio did not make; {copy} is a plain copy of it.")
    return 0


def register(commands: argparse._SubParsersAction) -> None:
    clean = commands.add_parser(
        "clean-copy", help="copy a shared project without the database objects the studio did not make",
        description="Write a copy of PROJECT without the triggers, views, indexes, tables and columns Preflight "
                    "Studio did not make (opening refuses such a file). PROJECT itself is not changed.")
    clean.add_argument("project", type=Path, metavar="PROJECT", help="the .studio file that opening refused")
    clean.add_argument("--out", type=Path, default=None, metavar="FILE",
                       help="where to write the copy (default: PROJECT-clean.studio beside it)")
    clean.set_defaults(handler=_clean_copy)
