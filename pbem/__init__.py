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

# the methods dataclasses generate are compiled once, then kept beside the bytecode
# (issue 19: a tenth to a third of a command's start-up; pbem/dataclass_code.py)
from pbem import dataclass_code as _dataclass_code  # noqa: E402

_dataclass_code.install()
_gc.freeze()
_gc.set_threshold(*_threshold)


class collector_off:
    """The cyclic garbage collector off inside the ``with``, as it was after.

    For what makes objects that live until the process ends (a game's engine, data and
    set-up: pbem.cli.collector_paused's commands, an audit's load): a collection then
    walks them and finds nothing.  On the way out everything tracked, those objects too,
    goes to the oldest generation in one step (freeze, then unfreeze into it): enabling
    the collector over them where they are would examine them all at once, and frozen
    they could never be collected in a process that goes on."""

    __slots__ = ("_was",)

    def __enter__(self) -> None:
        self._was = _gc.isenabled()
        _gc.disable()

    def __exit__(self, *_: object) -> None:
        _gc.freeze()
        _gc.unfreeze()
        if self._was:
            _gc.enable()
