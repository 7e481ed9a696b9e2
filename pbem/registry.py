"""Finding engines: the ``pbem.engines`` entry-point group, plus ``PBEM_ENGINES``.

``PBEM_ENGINES=module:attribute,...`` adds engines for development and tests (the test
engine in ``tests/`` is registered this way).  The attribute may be an :class:`Engine`
instance or class.  Engines are loaded lazily, so ``pbem --help`` stays fast.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import TYPE_CHECKING

from pbem.engine import Engine
from pbem.errors import MismatchError, UsageError

GROUP = "pbem.engines"

if TYPE_CHECKING:
    from collections.abc import Iterator
    from importlib.metadata import EntryPoints


def entry_points(*, group: str, name: str | None = None) -> EntryPoints:
    """The installed packages' engine entry points.  importlib.metadata (with the email
    parser it reads package metadata with) is imported only when one is looked up, not
    for an engine ``PBEM_ENGINES`` names (issue 19)."""
    from importlib.metadata import entry_points as installed

    return installed(group=group) if name is None else installed(group=group, name=name)


def _listed(engine_id: str) -> Iterator[str]:
    """The ``pbem.engines`` entry points named ``engine_id``, read straight from the
    installed packages' ``entry_points.txt`` on ``sys.path``, in path order (the first
    package of a name wins, as for importlib.metadata).

    Only a quick first look for :func:`get` (issue 19: importing importlib.metadata,
    with the email parser it reads metadata with, was about 30 ms of every command that
    loads a game): anything it does not find, or finds and cannot load, is looked up
    the full way.  Lazily, one distribution at a time: :func:`get` takes the first that
    loads, and the distributions after it (half of the 36 in a development venv, 2.7 M
    instructions for all of them) are not opened (issue 35).
    """
    seen: set[str] = set()
    for entry in sys.path:
        try:
            # filtered in C before sorting: the standard library's folder alone has
            # some 200 names and none of them a distribution
            names = sorted(name for name in os.listdir(entry or ".")
                           if name.endswith((".dist-info", ".egg-info")))
        except OSError:  # not a folder (a zip file), or gone
            continue
        for name in names:
            stem = name.rpartition(".")[0]
            # the distribution's name, normalized (PEP 503) as importlib.metadata does
            package = _normalized(stem.partition("-")[0])
            if package in seen:
                continue
            seen.add(package)
            try:
                with open(os.path.join(entry or ".", name, "entry_points.txt"),
                          encoding="utf-8") as handle:
                    text = handle.read()
            except (OSError, UnicodeDecodeError):
                continue
            section = ""
            for line in text.splitlines():
                line = line.strip()
                if not line or line[0] in "#;":
                    continue
                if line.startswith("[") and line.endswith("]"):
                    section = line[1:-1].strip()
                elif section == GROUP:
                    key, eq, value = line.partition("=")
                    if eq and key.strip() == engine_id:
                        yield value.strip()


def _normalized(name: str) -> str:
    """A distribution's name as PEP 503 normalizes it (each run of ``-``, ``_`` and ``.``
    one ``_``, lower case), without compiling a pattern for it on every command that
    loads a game (issue 35)."""
    for mark in "-.":
        name = name.replace(mark, "_")
    while "__" in name:
        name = name.replace("__", "_")
    return name.lower()


def _load(spec: str, origin: str) -> Engine:
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise UsageError(f"{origin}: {spec!r} is not of the form module:attribute")
    # an engine from another distribution is not asked to keep its dataclasses' code
    # (pbem.dataclass_code): a file pbem wrote beside its bytecode would outlive an
    # uninstall; such an engine may opt in with dataclass_code.keep(its package)
    try:
        obj = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise UsageError(f"{origin}: cannot load engine {spec!r}: {exc}") from None
    engine = obj() if isinstance(obj, type) else obj
    if not isinstance(engine, Engine):
        raise UsageError(f"{origin}: {spec!r} is not a pbem Engine")
    return engine


def engines() -> dict[str, Engine]:
    """Every installed engine by id, sorted by id."""
    found: dict[str, Engine] = {}
    for ep in entry_points(group=GROUP):
        engine = _load(ep.value, f"entry point {ep.name}")
        found[engine.id] = engine
    for spec in filter(None, (s.strip() for s in os.environ.get("PBEM_ENGINES", "").split(","))):
        engine = _load(spec, "PBEM_ENGINES")
        found[engine.id] = engine
    return dict(sorted(found.items()))


def get(engine_id: str) -> Engine:
    """One engine by id, loading only what it takes: the ``PBEM_ENGINES`` engines (which
    win over installed ones of the same id, as in :func:`engines`), then the entry point
    named after the id; every engine only when neither has it."""
    chosen = None
    for spec in filter(None, (s.strip() for s in os.environ.get("PBEM_ENGINES", "").split(","))):
        engine = _load(spec, "PBEM_ENGINES")
        if engine.id == engine_id:
            chosen = engine  # the last one, as engines() keeps it
    if chosen is not None:
        return chosen
    for spec in _listed(engine_id):
        try:
            engine = _load(spec, f"entry point {engine_id}")
        except UsageError:
            break  # the full lookup names the problem
        if engine.id == engine_id:
            return engine
    for ep in entry_points(group=GROUP, name=engine_id):
        engine = _load(ep.value, f"entry point {ep.name}")
        if engine.id == engine_id:
            return engine
    found = engines()
    if engine_id not in found:
        known = ", ".join(found) or "none installed"
        raise MismatchError(f"no engine {engine_id!r} is installed (engines: {known})")
    return found[engine_id]
