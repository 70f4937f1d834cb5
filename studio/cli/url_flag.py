"""The `--allow-file-urls` flag of every command that opens pages; the policy itself is in studio.browser.urls."""

from __future__ import annotations

import argparse

from studio.browser.urls import ALLOW_FILES_FLAG


def add_allow_file_urls(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(ALLOW_FILES_FLAG, dest="allow_file_urls", action="store_true",
                        help="also open file: and data: URLs (off by default: a local file opened here ends up in "
                             "the project, its exports and what a model is shown)")
