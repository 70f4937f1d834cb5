#!/usr/bin/env sh
# Sets Preflight Studio up on a fresh Debian/Ubuntu machine, then runs it.
#   packaging/quickstart.sh demo [studio demo options]   -> set up, then run `studio demo`
#   packaging/quickstart.sh test [pytest options]        -> set up with test extras, then run the whole test suite
# Safe to run again: every step checks what is already there first.
set -eu

MODE=${1:-demo}
[ $# -gt 0 ] && shift
ROOT=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
cd "$ROOT"
VENV=${STUDIO_VENV:-$ROOT/.venv}

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

case "$MODE" in demo|test) ;; *) die "usage: $0 demo|test [options]";; esac

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 && SUDO="sudo" || SUDO="none"
fi

APT_UPDATED=0
apt_install() {
    # Installs only the Debian packages that are missing.
    missing=""
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing="$missing $pkg"
    done
    [ -z "$missing" ] && return 0
    command -v apt-get >/dev/null 2>&1 || die "missing system packages:$missing (no apt-get here; install them with your package manager)"
    [ "$SUDO" = "none" ] && die "missing system packages:$missing; run as root or install sudo"
    if [ "$APT_UPDATED" -eq 0 ]; then
        say "Updating the package lists"
        $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
        APT_UPDATED=1
    fi
    say "Installing system packages:$missing"
    # shellcheck disable=SC2086
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
}

# 1. Python 3.11+ with venv, Qt's runtime libraries, fonts.
PYTHON=${PYTHON:-python3}
if command -v apt-get >/dev/null 2>&1; then
    # libatomic1: Playwright's bundled Node.js driver needs it, and minimal images lack it.
    apt_install python3 python3-venv python3-pip ca-certificates fonts-dejavu-core libatomic1 \
        libegl1 libgl1 libxkbcommon0 libxkbcommon-x11-0 libfontconfig1 libdbus-1-3 libglib2.0-0 \
        libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-shape0 libxcb-xinerama0 libxcb-randr0 \
        libxcb-render-util0 libxcb-image0
fi
"$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
    || die "Python 3.11 or newer is needed; found $("$PYTHON" --version 2>&1). Set PYTHON=/path/to/python3.11."

# 2. The virtual environment and the package (editable, so the checkout is what runs).
if [ ! -x "$VENV/bin/python" ]; then
    say "Creating the virtual environment in $VENV"
    "$PYTHON" -m venv "$VENV"
fi
EXTRAS=""
[ "$MODE" = "test" ] && EXTRAS="[test]"
say "Installing preflight-studio$EXTRAS"
"$VENV/bin/python" -m pip install -q --upgrade pip >/dev/null
"$VENV/bin/python" -m pip install -q -e ".$EXTRAS"

# 3. A browser: keep any Chromium the studio already finds; else Debian's chromium, else Playwright's own.
if "$VENV/bin/python" -c 'from studio.browser.discovery import find_browser; find_browser()' 2>/dev/null; then
    :
elif [ -r /etc/os-release ] && grep -qi '^ID=debian' /etc/os-release; then
    apt_install chromium
elif "$VENV/bin/python" -m playwright install --with-deps chromium; then
    :
else
    # Ubuntu's chromium package is a snap wrapper; it works on desktops, not in containers.
    apt_install chromium
fi
# npm fetches the pinned third-party apps the corpus tests serve (tests/corpus; cached outside the checkout).
if [ "$MODE" = "test" ] && ! command -v npm >/dev/null 2>&1; then
    command -v apt-get >/dev/null 2>&1 && apt_install npm || say "npm is missing: the corpus tests (tests/corpus) will fail until it is installed"
fi
# The doctor really launches the browser through Playwright, so a missing library shows up here, not in a test.
"$VENV/bin/studio" doctor >&2 || die "the studio cannot drive a browser yet (see the next steps above)"

# 4. Run.
if [ "$MODE" = "demo" ]; then
    say "Running studio demo"
    exec "$VENV/bin/studio" demo "$@"
fi
# The tests also run a headed Chromium on a private Xvfb screen.
command -v apt-get >/dev/null 2>&1 && apt_install xvfb xauth
export QT_QPA_PLATFORM=offscreen
# One worker per core unless told otherwise (-n 0 runs in this process; -p no:xdist turns it off).
case " $* " in *" -n "*|*" -n"[0-9a]*|*"--numprocesses"*|*"no:xdist"*) WORKERS="" ;; *) WORKERS="-n auto" ;; esac
if [ $# -gt 0 ]; then
    say "Running the tests you named"
    # shellcheck disable=SC2086
    exec "$VENV/bin/python" -m pytest $WORKERS "$@"
fi
# The whole suite in two lanes, each test once: the fast lane first (no browser, no window: the type check, the
# layer contracts and the pure logic, about a minute), so a broken build fails early; then the browser and window
# tests, with the 25 slowest listed at the end.
# A few tests time real processes and pages (a game's answer to a key, a scrim that hides, a cancelled download):
# under full load one of them now and then misses. So the tests that failed in a lane run again, one at a time, and
# decide: one that fails again fails the run, and every first failure stays named in the output above.
lane() {
    marks=$1
    shift
    status=0
    # shellcheck disable=SC2086
    "$VENV/bin/python" -m pytest $WORKERS -m "$marks" "$@" || status=$?
    [ "$status" -eq 1 ] || return "$status"
    say "Running the tests that failed under the full load again, one at a time (a broken test fails again)"
    "$VENV/bin/python" -m pytest -n 0 --last-failed --last-failed-no-failures none -m "$marks" -q -rA \
        -o console_output_style=classic
}
say "Running the fast lane (no browser, no window)"
lane "not browser and not gui and not corpus" -q
say "Running the browser, window and app-corpus tests"
# These wait on pages and windows much of the time, so one worker more than there are cores keeps the cores busy
# (measured on 2 cores: 3 workers finish the preflight and playground tests 10 % sooner than 2).
[ -n "$WORKERS" ] && WORKERS="-n $(( $(nproc) + 1 ))"
lane "browser or gui or corpus" --durations=25
