"""Transports by name: the ``pbem.transports`` entry-point group, as engines are found in
``pbem.engines``.

A transport is a class (or any callable) taking the home's folder and the route's
``where`` (a folder, an address) and giving an object with the
:class:`~pbem.transport.base.Transport` interface.  pbem registers ``folder``, ``mail``
and ``eml`` in its own ``pyproject.toml``; another package adds a transport (a chat bot, a
web drop box) by declaring an entry point in the same group, without touching pbem::

    [project.entry-points."pbem.transports"]
    dropbox-api = "pbem_dropbox:DropboxTransport"
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from pbem.transport.base import TransportError

if TYPE_CHECKING:
    from pbem.transport.base import Transport

__all__ = ["GROUP", "Factory", "available", "make"]

GROUP = "pbem.transports"

Factory = Callable[[Path, str], "Transport"]

#: the entry points read, per sys.path (a test puts a package of its own on it)
_seen: dict[tuple[str, ...], dict[str, str]] = {}


def _points() -> dict[str, str]:
    """``name -> "module:attribute"`` of every installed transport (the first package on
    sys.path wins a name, as importlib.metadata orders them)."""
    key = tuple(sys.path)
    if key not in _seen:
        from importlib.metadata import entry_points

        found: dict[str, str] = {}
        for point in entry_points(group=GROUP):
            found.setdefault(point.name, point.value)
        _seen.clear()  # one sys.path at a time: bounded for a watch that runs for days
        _seen[key] = found
    return _seen[key]


def available() -> list[str]:
    return sorted(_points())


def factory(name: str) -> Factory:
    spec = _points().get(name)
    if spec is None:
        known = ", ".join(available()) or "none"
        raise TransportError(f"no transport named {name!r} is installed (installed: {known})")
    import importlib

    module, _, attribute = spec.partition(":")
    try:
        target: object = importlib.import_module(module)
        for part in attribute.split("."):
            target = getattr(target, part)
    except (ImportError, AttributeError) as exc:
        raise TransportError(f"transport {name!r} ({spec}) cannot be loaded: {exc}") from None
    if not callable(target):
        raise TransportError(f"transport {name!r} ({spec}) is not a class or a function")
    return target


def make(name: str, home: Path, where: str) -> Transport:
    """The transport ``name`` for one route of the home at ``home``."""
    return factory(name)(Path(home), where)
