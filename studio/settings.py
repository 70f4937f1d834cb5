"""The studio's own settings (browser, headless, viewport, recent projects, model, job budgets), kept as JSON outside
any project, and the user's folder they live in with the saved logins and the log.

That folder is the user's config folder, never beside the program, so an upgrade or an uninstall leaves it alone.
Secrets never go into the settings: API keys live in the environment or the system keyring.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

from platformdirs import user_config_dir
from pydantic import BaseModel, Field, ValidationError

from studio.browser.launcher import configured_endpoint
from studio.models.browser import SessionOptions
from studio.models.llm import JobBudgets, LLMSettings

log = logging.getLogger(__name__)

MAX_RECENT = 10
LIVE_VIEW_FPS_ENV = "STUDIO_LIVE_VIEW_FPS"
# The folder's name under the user's config folder (the distribution's name).
APP_FOLDER = "preflight-studio"
# Moves the whole folder (settings, saved logins, log): tests, benches, a second profile.
CONFIG_DIR_ENV = "STUDIO_CONFIG_DIR"


class StudioSettings(BaseModel):
    """User preferences for new sessions and the File menu."""

    browser_path: str | None = None
    # A remote browser (Playwright browser server ws://… or CDP http://…); STUDIO_BROWSER_ENDPOINT overrides it.
    browser_endpoint: str | None = None
    headless: bool = True
    viewport: tuple[int, int] = (1280, 720)
    recent_projects: list[str] = Field(default_factory=list)
    last_url: str | None = None
    # A Playwright storage state (Session > Save Login State) new sessions start signed in from; None starts fresh.
    storage_state: str | None = None
    llm: LLMSettings = Field(default_factory=LLMSettings)
    budgets: JobBudgets = Field(default_factory=JobBudgets)
    # The window's workspace at the last close, and each workspace's dock layout (QMainWindow state, base64).
    workspace: str | None = None
    workspace_layouts: dict[str, str] = Field(default_factory=dict)
    # Given for one run by `studio gui --allow-file-urls`; excluded, so it is never written to settings.json.
    allow_file_urls: bool = Field(default=False, exclude=True)
    # At most this many live-view frames a second (None: as fast as Chromium draws, ~50 here, most of a core);
    # STUDIO_LIVE_VIEW_FPS overrides it (a slow machine, a laptop on battery, a test run).
    live_view_fps: float | None = Field(default=None, gt=0)

    def session_options(self, **overrides: object) -> SessionOptions:
        """SessionOptions for a new browser session built from these settings."""
        values = {"headless": self.headless, "viewport": self.viewport, "browser_path": self.browser_path,
                  "browser_endpoint": configured_endpoint(setting=self.browser_endpoint),
                  "storage_state": self.storage_state, "allow_file_urls": self.allow_file_urls,
                  "live_view_fps": _fps_from_env() or self.live_view_fps}
        values.update(overrides)
        return SessionOptions.model_validate(values)

    def remember_project(self, path: str | Path) -> None:
        entry = str(Path(path).resolve())
        self.recent_projects = [entry] + [p for p in self.recent_projects if p != entry]
        del self.recent_projects[MAX_RECENT:]


def _fps_from_env() -> float | None:
    text = os.environ.get(LIVE_VIEW_FPS_ENV, "").strip()
    try:
        value = float(text) if text else None
    except ValueError:
        log.warning("%s=%r is not a number of frames a second; it is ignored.", LIVE_VIEW_FPS_ENV, text)
        return None
    return value if value and value > 0 else None


def config_folder() -> Path:
    """The studio's folder in the user's config: $STUDIO_CONFIG_DIR, else ~/.config/preflight-studio
    ($XDG_CONFIG_HOME) on Linux, %APPDATA%\\preflight-studio on Windows, ~/Library/Application Support/preflight-studio
    on macOS."""
    override = os.environ.get(CONFIG_DIR_ENV)
    # roaming: %APPDATA% (it follows the user to another Windows machine), not %LOCALAPPDATA%; elsewhere it is ignored.
    return Path(override) if override else Path(user_config_dir(APP_FOLDER, appauthor=False, roaming=True))


def settings_path() -> Path:
    """Where settings live: settings.json in the config folder."""
    return config_folder() / "settings.json"


def logins_folder() -> Path:
    """Where saved logins (Playwright storage states: cookies and local storage) are kept unless the user picks another
    place; made on first use, readable by the user alone."""
    folder = config_folder() / "logins"
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    return folder


def log_path() -> Path:
    """The log a window session writes (studio.entry), rotated beside it as studio.log.1 … .3."""
    return config_folder() / "logs" / "studio.log"


def load_settings(path: Path | None = None) -> StudioSettings:
    """Read settings; a damaged file is set aside as settings.json.broken and defaults are used."""
    path = path or settings_path()
    try:
        return StudioSettings.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except FileNotFoundError:
        return StudioSettings()
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, ValidationError) as error:
        broken = path.with_suffix(".json.broken")
        log.warning("settings file %s is unreadable (%s); kept it as %s and used defaults", path, error, broken)
        try:
            os.replace(path, broken)
        except OSError:
            pass
        return StudioSettings()


def save_settings(settings: StudioSettings, path: Path | None = None) -> None:
    """Write settings atomically (a crash mid-write never leaves a half file)."""
    path = path or settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(settings.model_dump_json(indent=2), encoding="utf-8")
    os.replace(tmp, path)
