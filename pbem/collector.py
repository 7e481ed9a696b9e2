"""The cyclic garbage collector paused around work whose objects live on.

Its own module, not pbem/__init__.py: see the note there (issue 35)."""

from __future__ import annotations

import gc as _gc


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
