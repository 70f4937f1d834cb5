"""Run a command with file permissions enforced, also when the tests run as root (who otherwise writes anything).

As root, the command runs without CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH (dropped from its capability bounding set
by `setpriv`), so it obeys permission bits like any user; as a normal user, the modes alone do it.
"""

from __future__ import annotations

import os
import shutil

import pytest

needs_enforced_permissions = pytest.mark.skipif(
    os.geteuid() == 0 and shutil.which("setpriv") is None,
    reason="running as root needs setpriv to give up overriding file permissions")


def as_user(*command: str) -> list[str]:
    """`command` with the permissions of an ordinary user (file modes enforced)."""
    if os.geteuid() != 0:
        return list(command)
    return ["setpriv", "--bounding-set=-dac_override,-dac_read_search", *command]
