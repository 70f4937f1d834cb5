#!/usr/bin/env sh
# Builds Preflight Studio's Linux desktop bundle: dist/preflight-studio/ (the application folder), a .deb
# (`sudo apt install ./dist/preflight-studio_VERSION_amd64.deb`) and a tarball, from this checkout.
#   packaging/build.sh                   -> everything
#   packaging/build.sh --formats folder  -> only the folder (see `packaging/build.sh --help`)
# The steps are packaging/build_bundle.py's, which CI runs on Windows and macOS too; this script only makes sure
# the machine has what they need.
set -eu
ROOT=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
PYTHON=${PYTHON:-python3}

die() { printf 'error: %s\n' "$*" >&2; exit 1; }

"$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null \
    || die "Python 3.11 or newer is needed to build; set PYTHON=/path/to/python3.11."
# PyInstaller reads binaries with objdump (binutils); the .deb is packed with dpkg-deb and its Depends found with ldd.
missing=""
for tool in objdump strip ldd dpkg-deb; do
    command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"
done
"$PYTHON" -c 'import ensurepip' 2>/dev/null || missing="$missing python3-venv"
if [ -n "$missing" ]; then
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq binutils dpkg libc-bin python3-venv >/dev/null
    else
        die "missing:$missing. Install them (sudo apt-get install -y binutils dpkg python3-venv), then run this again."
    fi
fi
exec "$PYTHON" "$ROOT/packaging/build_bundle.py" "$@"
