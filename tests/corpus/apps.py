"""What the corpus knows of each third-party app: where its files come from, the page a tester opens, the behaviours
a tester would list for it (written by a person before the studio ran), and the faults planted into its copies.

A behaviour is judged covered automatically, and honestly: preferably by the faults that break exactly it (covered
when the exported cases pass on the healthy app and some case fails with one of those faults planted), otherwise by
a structural matcher on the written cases (the actions a case must take, words its targets must name, a check)."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from tests.corpus.faults import AnchorError, Fault, Patch, apply
from tests.corpus.npm_apps import PinnedPackage, extract
from tests.corpus.static_server import StubApi

HOSTS = Path(__file__).parent / "hosts"
# Outcome kinds the exporter writes as assertions (studio.models.outcomes.ASSERTABLE), read by name so that a new
# kind the engine adds does not break the count.
ASSERTED = {"text", "visible", "count", "texts", "checked", "value"}


@dataclass(frozen=True)
class CaseMatcher:
    """A case covers the behaviour when it takes every one of `actions` (step actions: fill, click, press, ...),
    one of its steps names a target matching `target` (a regex on target, locator and data, case-insensitive), and
    it checks something (an expect step or an outcome the exporter asserts)."""

    actions: tuple[str, ...]
    target: str

    def matches(self, case: dict) -> bool:
        steps = case.get("steps") or []
        taken = {step.get("action") for step in steps}
        named = any(re.search(self.target, _step_text(step), re.IGNORECASE) for step in steps)
        return set(self.actions) <= taken and named and checks_of(case) > 0


@dataclass(frozen=True)
class Behaviour:
    """One behaviour a tester would list. `faults`: the planted faults that break exactly it; `matcher`: the
    structural judge used when no fault stands for it."""

    name: str
    faults: tuple[str, ...] = ()
    matcher: CaseMatcher | None = None

    def __post_init__(self) -> None:
        if not self.faults and self.matcher is None:
            raise ValueError(f"behaviour {self.name!r} needs a fault or a matcher to judge its coverage")


@dataclass(frozen=True)
class MissingFiles(Fault):
    """A fault that takes `files` (paths relative to the site root) out of the built site, so the page asks for them
    and gets a 404, as when a game's script was never deployed; `patches` may plant more, as for any fault."""

    patches: tuple[Patch, ...] = ()
    files: tuple[str, ...] = ()


@dataclass(frozen=True)
class Mount:
    """A package's folder (`source`, '' for all of it) served at `at` in the site ('' for the site root)."""

    package: PinnedPackage
    source: str = ""
    at: str = ""


@dataclass(frozen=True)
class CorpusApp:
    """One app of the corpus. `host`: a folder under tests/corpus/hosts (our own small HTML that loads the npm
    library) copied to the site root; `ready`: a CSS selector shown once the app has rendered (piercing shadow roots
    as Playwright does)."""

    name: str
    title: str
    mounts: tuple[Mount, ...]
    entry: str
    ready: str
    behaviours: tuple[Behaviour, ...]
    faults: tuple[Fault, ...]
    host: str | None = None
    api: Callable[[], StubApi] | None = None  # a fresh stub server state for each site
    notes: str = ""
    packages: tuple[PinnedPackage, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "packages", tuple(dict.fromkeys(mount.package for mount in self.mounts)))
        names = {fault.name for fault in self.faults}
        for behaviour in self.behaviours:
            unknown = set(behaviour.faults) - names
            if unknown:
                raise ValueError(f"{self.name}: behaviour {behaviour.name!r} names unknown faults {sorted(unknown)}")

    def fault(self, name: str) -> Fault:
        return next(fault for fault in self.faults if fault.name == name)


def build_site(app: CorpusApp, fault: Fault | None, packages_dir: Path, sites_dir: Path) -> Path:
    """The app's site (its mounts, hard-linked from the extracted packages, and its host page) under `sites_dir`,
    with `fault` planted; built once per session."""
    root = sites_dir / app.name / (fault.name if fault else "healthy")
    if root.exists():
        return root
    staging = root.with_name(root.name + ".building")
    shutil.rmtree(staging, ignore_errors=True)
    for mount in app.mounts:
        source = extract(mount.package, packages_dir) / mount.source
        shutil.copytree(source, staging / mount.at, copy_function=_link, dirs_exist_ok=True)
    if app.host:
        shutil.copytree(HOSTS / app.host, staging, copy_function=_replace, dirs_exist_ok=True)
    if fault is not None:
        apply(staging, fault)
        remove_files(staging, fault)
    staging.rename(root)
    return root


def remove_files(root: Path, fault: Fault) -> None:
    """Take a MissingFiles fault's files out of the site at `root` (only the site's link: the extracted package keeps
    its copy); raises AnchorError when one is not there to take out."""
    for name in getattr(fault, "files", ()):
        path = root / name
        if not path.is_file():
            raise AnchorError(f"Fault {fault.name!r}: {name} is not in the app, so it cannot be taken out (is the "
                              "pinned version right?).")
        path.unlink()


def checks_of(case: dict) -> int:
    """What a case checks: its expect steps, and the outcomes the exporter asserts after a step."""
    steps = case.get("steps") or []
    expects = sum(1 for step in steps if str(step.get("action", "")).startswith("expect"))
    outcomes = sum(1 for step in steps for outcome in step.get("outcomes") or [] if outcome.get("kind") in ASSERTED)
    return expects + outcomes


def _step_text(step: dict) -> str:
    locator = step.get("locator") or {}
    return " ".join(str(part) for part in (step.get("target"), step.get("data"), *locator.values()) if part)


def _replace(source: str, target: str) -> None:
    # A host file may stand where a package file was linked (swagger-ui's initializer): never write through the link.
    Path(target).unlink(missing_ok=True)
    shutil.copy2(source, target)


def _link(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:  # another file system: copy
        shutil.copy2(source, target)
