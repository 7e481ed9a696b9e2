"""pbem: play hex-and-counter wargames by passing signed turn files.

The package is game-agnostic: the wire format, identities, dice, the chain of files,
the session loop, the engine contract and the command line.  Games live in ``engines``.
"""

__version__ = "0.1.0"
#: the format version byte every pbem file starts with
FORMAT_VERSION = 1

import gc as _gc  # noqa: E402

# What the package's first import loads (dataclasses, inspect, ast, typing: 60 M
# instructions) is modules and classes, kept until the process ends.  Python's collector
# would look for garbage in it every 700 new containers (eight collections that find
# none, 3.4 M instructions of every command, issue 35); looked at no more often than
# pbem.cli's GC_YOUNG, frozen out of later collections as pbem.cli's own imports are,
# and the threshold as it was after: importing pbem changes no setting of the process.
_threshold = _gc.get_threshold()
_gc.set_threshold(20_000, *_threshold[1:])

# pbem's and its engines' modules are found without importlib's search of every suffix
# (pbem/finder.py)
from pbem import finder as _finder  # noqa: E402

_finder.install()

# the methods dataclasses generate are compiled once, then kept beside the bytecode
# (issue 19: a tenth to a third of a command's start-up; pbem/dataclass_code.py)
from pbem import dataclass_code as _dataclass_code  # noqa: E402

_dataclass_code.install()
_gc.freeze()
_gc.set_threshold(*_threshold)

# No function or class is defined here (pbem.collector holds collector_off): a function
# made here keeps this namespace in a reference cycle (its __globals__), which the
# freeze above and pbem.cli's at exit keep out of every collection.  The namespace then
# outlives the package at exit and holds every submodule it names (pbem.cli,
# pbem.session, ...) until Python's last pass empties each module's namespace one entry
# at a time: 1.27 M instructions of every `pbem legal` (issue 35, callgrind: 114 modules
# cleared at exit against 88).  Without the cycle the namespace dies with the package
# and the submodules with it, their contents left to the process's end.
