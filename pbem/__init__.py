"""pbem: play hex-and-counter wargames by passing signed turn files.

The package is game-agnostic: the wire format, identities, dice, the chain of files,
the session loop, the engine contract and the command line.  Games live in ``engines``.
"""

__version__ = "0.1.0"
#: the format version byte every pbem file starts with
FORMAT_VERSION = 1

# the methods dataclasses generate are compiled once, then kept beside the bytecode
# (issue 19: a tenth to a third of a command's start-up; pbem/dataclass_code.py)
from pbem import dataclass_code as _dataclass_code  # noqa: E402

_dataclass_code.install()
