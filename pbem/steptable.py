"""The step table whose phases' steps are made when one of them is first asked for
(:class:`LazyStepTable`), named ``pbem.steps.LazyStepTable``: its own module, loaded by
the engines that make one, so that a turn command of an engine that does not need not
make its class (issue 35)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from pbem.steps import Step, step_table


class LazyStepTable(Mapping[str, Step[Any]]):
    """A step table (as :func:`step_table` makes it) whose steps of ``elsewhere`` are made
    when one of their module's is first asked for: ``elsewhere`` names, for each such step,
    the module of ``package`` whose ``STEPS`` makes it.  An engine splits its steps by the
    phase that runs them, and a turn command imports only its phase's (issue 35: every
    module a turn command imports costs it about half a million instructions to load).
    Asking whether a step exists, or the names in order, loads nothing.

    The names are in the order of the table made whole: ``before`` (default: all of
    ``here``; it may name steps of ``elsewhere`` among them), then the rest of
    ``elsewhere``'s, then the rest of ``here``: the order the engine's standing orders
    list them in."""

    def __init__(self, here: Mapping[str, Step[Any]], elsewhere: Mapping[str, str],
                 package: str, before: tuple[str, ...] | None = None) -> None:
        first = tuple(here) if before is None else before
        self._names = (*first, *(n for n in elsewhere if n not in first),
                       *(n for n in here if n not in first))
        self._made: dict[str, Step[Any]] = dict(here)
        self._elsewhere = elsewhere
        self._package = package
        if (len(set(self._names)) != len(self._names) or set(here) & set(elsewhere)
                or not set(first) <= set(here) | set(elsewhere)):
            raise ValueError("two steps of the same name")

    def __getitem__(self, name: str) -> Step[Any]:
        try:  # the runtime asks a step for every frame it runs: the made ones first
            return self._made[name]
        except KeyError:
            pass
        module = self._elsewhere[name]  # KeyError: no such step
        from importlib import import_module

        where = f"{self._package}.{module}"
        made = step_table(*import_module(where).STEPS)
        if set(made) != {n for n, m in self._elsewhere.items() if m == module}:
            raise ValueError(f"{where} makes the steps {sorted(made)}, not those the "
                             "table names")
        self._made.update(made)
        return made[name]

    def __contains__(self, name: object) -> bool:
        return name in self._made or name in self._elsewhere

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)
