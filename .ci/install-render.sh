#!/bin/sh
# Install what the rendering tests need to check SVG output in a real renderer:
# Debian's headless-capable Chromium and a font with the glyphs the map uses.  The
# browser-board tests drive the same Chromium over its DevTools protocol (a stdlib
# WebSocket client in tests/render/cdp.py), so no chromium-driver or Selenium is needed.
# Idempotent: does nothing when both are already present.
set -eu
need=""
command -v chromium >/dev/null 2>&1 || need="$need chromium"
dpkg -s fonts-dejavu-core >/dev/null 2>&1 || need="$need fonts-dejavu-core"
if [ -z "$need" ]; then
    echo "render dependencies already installed"
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
# shellcheck disable=SC2086
$SUDO apt-get install -y --no-install-recommends $need
