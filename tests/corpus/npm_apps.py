"""Third-party web apps from the npm registry, pinned: fetched once into a cache outside the repository (`npm pack`),
checked against the sha512 pinned here, and extracted afresh for each test session.

Nothing fetched is ever committed: the cache is `$PREFLIGHT_CORPUS_CACHE`, else
`~/.cache/preflight-studio/corpus`.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import subprocess
import tarfile
from dataclasses import dataclass
from pathlib import Path

NPM_TIMEOUT = 300  # seconds for one `npm pack` (todomvc is an 11 MB tarball)


class CorpusUnavailable(RuntimeError):
    """A pinned package could not be had (no npm, no registry, or a tarball that is not the one pinned)."""


@dataclass(frozen=True)
class PinnedPackage:
    """One npm package at an exact version, with the integrity the registry published for it (`npm view NAME@VERSION
    dist.integrity`)."""

    name: str
    version: str
    integrity: str  # "sha512-<base64>"

    @property
    def spec(self) -> str:
        return f"{self.name}@{self.version}"

    @property
    def tarball_name(self) -> str:
        # npm pack names a scoped package @scope/name as scope-name-VERSION.tgz
        return f"{self.name.lstrip('@').replace('/', '-')}-{self.version}.tgz"


def cache_dir() -> Path:
    configured = os.environ.get("PREFLIGHT_CORPUS_CACHE")
    folder = Path(configured) if configured else Path.home() / ".cache" / "preflight-studio" / "corpus"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def integrity_of(path: Path) -> str:
    digest = hashlib.sha512(path.read_bytes()).digest()
    return "sha512-" + base64.b64encode(digest).decode()


def fetch(package: PinnedPackage) -> Path:
    """The package's tarball in the cache, fetched with `npm pack` the first time; raises CorpusUnavailable with a
    sentence saying what to do when npm or the registry cannot give it."""
    tarball = cache_dir() / package.tarball_name
    if tarball.exists() and integrity_of(tarball) == package.integrity:
        return tarball
    tarball.unlink(missing_ok=True)
    npm = shutil.which("npm")
    if npm is None:
        raise CorpusUnavailable(f"npm is not installed, so {package.spec} cannot be fetched for the app corpus. "
                                "Install it (`apt-get install npm`, or run packaging/quickstart.sh test).")
    partial = cache_dir() / f".partial-{os.getpid()}"
    partial.mkdir(exist_ok=True)
    try:
        done = subprocess.run([npm, "pack", package.spec, "--json", "--pack-destination", str(partial)],
                              check=False, capture_output=True, text=True, timeout=NPM_TIMEOUT, cwd=partial)
        if done.returncode != 0:
            said = (done.stderr.strip().splitlines() or ["no message"])[-1]
            raise CorpusUnavailable(f"`npm pack {package.spec}` failed ({said}); the npm registry may be "
                                    "unreachable from this machine. The corpus tests need it once, to fill the cache "
                                    f"in {cache_dir()}.")
        [made] = [partial / entry["filename"] for entry in json.loads(done.stdout)]
        found = integrity_of(made)
        if found != package.integrity:
            raise CorpusUnavailable(f"{package.spec} from the registry is not the tarball pinned in "
                                    f"tests/corpus (integrity {found[:24]}…, pinned {package.integrity[:24]}…). "
                                    f"Check `npm view {package.spec} dist.integrity` and the pin.")
        os.replace(made, tarball)  # atomic: a parallel worker sees the whole file or none
        return tarball
    except subprocess.TimeoutExpired:
        raise CorpusUnavailable(f"`npm pack {package.spec}` did not finish in {NPM_TIMEOUT} s; the npm registry "
                                "may be unreachable from this machine.") from None
    finally:
        shutil.rmtree(partial, ignore_errors=True)


def extract(package: PinnedPackage, into: Path) -> Path:
    """The package's files (the tarball's `package/` folder) extracted under `into`/NAME; returns that folder."""
    tarball = fetch(package)
    target = into / package.name.lstrip("@").replace("/", "-")
    if target.exists():
        return target
    staging = into / f".{target.name}.extracting"
    shutil.rmtree(staging, ignore_errors=True)
    with tarfile.open(tarball) as archive:
        archive.extractall(staging, filter="data")
    roots = [entry for entry in staging.iterdir() if entry.is_dir()]
    if len(roots) != 1:
        raise CorpusUnavailable(f"{package.tarball_name} does not hold one top folder as npm tarballs do.")
    roots[0].rename(target)
    shutil.rmtree(staging)
    return target
