#!/usr/bin/env bash
# mypy --strict over the tests' helper modules (every tests/ module that is not a test_*.py
# file): the toy and tutorial engines, the mail and Syncthing servers, the independent
# verifier, the browser driver, the conftests.  One run per folder: each folder's helpers
# import one another by bare name (pytest puts the folder on sys.path), and two folders'
# conftest.py would be the same module name to one mypy run.
set -euo pipefail
cd "$(dirname "$0")/.."
MYPY=${MYPY:-.venv/bin/mypy}
status=0
while IFS= read -r dir; do
    mapfile -t files < <(find "$dir" -maxdepth 1 -name '*.py' ! -name 'test_*' ! -name '__init__.py' | sort)
    [ ${#files[@]} -eq 0 ] && continue
    MYPYPATH="$dir" "$MYPY" --strict --no-error-summary "${files[@]}" || status=1
done < <(find tests -type d ! -name '__pycache__' | sort)
exit $status
