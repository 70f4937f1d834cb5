"""Preflight Studio: explore a web app with an agent in one live browser and turn it into tests."""

# The source's version: pyproject.toml reads it from here (one place to bump).
__version__ = "0.1.0"

# The name the studio is published and installed under (`pipx install preflight-studio`).
DISTRIBUTION = "preflight-studio"


def installed_version() -> str:
    """The installed distribution's version (what `pip` and `pipx` see), else the source's, for a bare checkout."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return __version__
