"""pbem's package namespace is held by nothing but the package (issue 35).

A function or class made in pbem/__init__.py keeps the namespace in a reference cycle
(the function's ``__globals__``) that the start-up freeze and pbem.cli's at exit keep
out of every collection: at exit the namespace then outlived the package and held every
submodule it names until Python emptied each of their namespaces one entry at a time
(114 modules cleared at exit against 88, 1.27 M instructions of every ``pbem legal``)."""

from __future__ import annotations

import json
import subprocess
import sys

_PROBE = """
import gc, json, sys
from pbem.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
import pbem
gc.unfreeze()  # get_referrers skips the frozen
print(json.dumps(sorted(type(held).__name__ for held in gc.get_referrers(vars(pbem))
                        if held is not pbem)))
"""


def test_nothing_but_the_package_holds_its_namespace_after_a_command() -> None:
    out = subprocess.run([sys.executable, "-c", _PROBE, "--version"],
                         capture_output=True, text=True, check=True)
    assert json.loads(out.stdout.splitlines()[-1]) == []


def test_the_collector_pause_is_not_defined_in_the_package() -> None:
    import pbem
    from pbem.collector import collector_off

    assert collector_off.__module__ == "pbem.collector"
    assert not [name for name, value in vars(pbem).items()
                if callable(value) and getattr(value, "__module__", None) == "pbem"]
