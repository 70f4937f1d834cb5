"""Where the API key comes from: the environment first, then the system keyring; never settings or the project.

Keys are looked up per endpoint (the keyring entry's user name is the base URL), so a local server and a hosted
one can have different keys. Nothing in this module logs, raises or returns a key except `resolve_api_key`.
"""

from __future__ import annotations

import logging
import os

import keyring
from keyring.errors import PasswordDeleteError

from studio.llm.errors import KeyStorageUnavailable
from studio.models.llm import LLMSettings

log = logging.getLogger(__name__)

KEYRING_SERVICE = "preflight-studio"
ENV_VAR = "OPENAI_API_KEY"


def _entry_name(base_url: str) -> str:
    # "http://host/v1" and "http://host/v1/" are the same endpoint to the user.
    return base_url.strip().rstrip("/")


def resolve_api_key(settings: LLMSettings) -> str | None:
    """The key for `settings.base_url`: $OPENAI_API_KEY if set, else the keyring's entry, else None.

    A missing or broken keyring is not an error here (many endpoints need no key); it is logged at debug.
    """
    from_env = os.environ.get(ENV_VAR, "").strip()
    if from_env:
        return from_env
    if not settings.base_url:
        return None
    try:
        stored = keyring.get_password(KEYRING_SERVICE, _entry_name(settings.base_url))
    except Exception as error:  # any backend (D-Bus, KWallet, none at all) may fail in its own way
        # Only the class name: a backend's message is not ours to vouch for.
        log.debug("no API key from the system keyring (%s)", type(error).__name__)
        return None
    return stored or None


def store_api_key(base_url: str, key: str) -> None:
    """Keep `key` for `base_url` in the system keyring (the GUI's settings dialog calls this).

    Raises KeyStorageUnavailable with a sentence when no keyring works on this machine.
    """
    if not key.strip():
        raise ValueError("An empty API key cannot be stored.")
    try:
        keyring.set_password(KEYRING_SERVICE, _entry_name(base_url), key.strip())
    except Exception as error:  # see resolve_api_key; `from None` keeps the key out of chained tracebacks
        log.debug("the system keyring refused the API key (%s)", type(error).__name__)
        raise KeyStorageUnavailable(
            "No system keyring could store the API key on this machine. Set the OPENAI_API_KEY environment "
            "variable before starting the studio instead.") from None


def forget_api_key(base_url: str) -> bool:
    """Remove the keyring's key for `base_url`; True when one was removed, False when none was there."""
    try:
        keyring.delete_password(KEYRING_SERVICE, _entry_name(base_url))
    except PasswordDeleteError:
        return False
    except Exception as error:  # see resolve_api_key
        log.debug("the system keyring could not forget the API key (%s)", type(error).__name__)
        return False
    return True
