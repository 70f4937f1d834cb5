#!/usr/bin/env sh
# Installs the unpacked Preflight Studio tarball for this user: `studio` in ~/.local/bin, and the launcher entry,
# icons and project-file type in ~/.local/share. Run it from the unpacked folder; run it again after moving it.
# (The .deb does the same for every user: `sudo apt install ./preflight-studio_VERSION_amd64.deb`.)
set -eu
HERE=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
DATA=${XDG_DATA_HOME:-$HOME/.local/share}
mkdir -p "$HOME/.local/bin"
ln -sf "$HERE/studio" "$HOME/.local/bin/studio"
# cp -R merges share/ into the existing folders without touching other applications' files.
mkdir -p "$DATA"
cp -R "$HERE/share/." "$DATA/"
# A launcher may not have ~/.local/bin on its PATH: the entry names this folder's studio itself.
ENTRY="$DATA/applications/preflight-studio.desktop"
sed -e "s|^Exec=studio |Exec=\"$HERE/studio\" |" -e "s|^TryExec=studio\$|TryExec=$HERE/studio|" "$ENTRY" > "$ENTRY.new"
mv "$ENTRY.new" "$ENTRY"
command -v update-mime-database >/dev/null 2>&1 && update-mime-database "$DATA/mime" || true
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database "$DATA/applications" || true
echo "Installed: run \`studio\` (make sure ~/.local/bin is on your PATH), or open Preflight Studio from the launcher."
