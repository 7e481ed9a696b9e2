"""pbem: play hex-and-counter wargames by passing signed turn files.

The package is game-agnostic: the wire format, identities, dice, the chain of files,
the session loop, the engine contract and the command line.  Games live in ``engines``.
"""

__version__ = "0.1.0"
#: the format version byte every pbem file starts with
FORMAT_VERSION = 1
