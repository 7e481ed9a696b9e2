#!/usr/bin/env bash
# Install everything the test suite needs, from nothing, and run it.
#
# System packages (real mail servers for the transport tests, Chromium for the SVG
# rendering tests) come from Debian through the .ci/install-*.sh scripts; Python
# packages go into a fresh virtual environment (.venv, or $PBEM_VENV).
set -euo pipefail
cd "$(dirname "$0")/.."

if command -v apt-get >/dev/null 2>&1; then
    SUDO=""
    if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
    for script in .ci/install-*.sh; do
        [ -f "$script" ] || continue
        echo "== $script"
        $SUDO bash "$script"
    done
else
    echo "warning: no apt-get: install the packages named in .ci/install-*.sh yourself" >&2
fi

VENV="${PBEM_VENV:-.venv}"
PY="${PYTHON:-python3}"
if [ ! -x "$VENV/bin/python" ]; then
    "$PY" -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install -q --upgrade pip >/dev/null
"$VENV/bin/python" -m pip install -q ".[test]"

echo "== ruff"
"$VENV/bin/ruff" check pbem engines tests bench
echo "== mypy --strict pbem"
"$VENV/bin/mypy" pbem
# a POSIX-only call outside a platform branch (fcntl, termios...) is a type error on
# Windows, a Windows-only one (msvcrt) on macOS: both players' machines are checked
echo "== mypy --strict --platform win32 pbem"
"$VENV/bin/mypy" --platform win32 pbem
echo "== mypy --strict --platform darwin pbem"
"$VENV/bin/mypy" --platform darwin pbem
# the engines and the tests' helpers (toy and tutorial engines, servers, verifier) are
# checked as strictly as pbem/ (issue 34)
echo "== mypy --strict engines"
"$VENV/bin/mypy" --strict engines
echo "== mypy --strict the tests' helpers"
MYPY="$VENV/bin/mypy" bash scripts/mypy_test_helpers.sh
echo "== pytest"
"$VENV/bin/python" -m pytest "$@"
