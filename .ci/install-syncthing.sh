#!/usr/bin/env bash
# Install Syncthing from Debian for the shared-folder tests (tests/transport/
# test_syncthing.py starts two private instances on loopback; the package's own
# system service is not enabled or started).  Idempotent.
set -euo pipefail

if command -v syncthing >/dev/null 2>&1; then
    echo "install-syncthing: syncthing already installed ($(syncthing --version | head -1))"
    exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq
$SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends syncthing
syncthing --version
