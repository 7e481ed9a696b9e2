"""48th Panzer Korps: the steps of each phase, in the book's order of play."""

from __future__ import annotations

from importlib import import_module
from typing import Any


def bound_when_called(into: dict[str, Any], module: str, name: str) -> Any:
    """A stand-in for the rule ``name`` of ``engines.panzer48.<module>`` that imports
    the rule's module at its first call and puts the rule itself in ``into`` (the calling
    step module's globals) for every call after: a step module loads with its steps, and
    the rules a turn's steps never call need not (issue 35)."""
    def first(*args: Any, **kwargs: Any) -> Any:
        rule = getattr(import_module(f"engines.panzer48.{module}"), name)
        into[name] = rule
        return rule(*args, **kwargs)
    first.__name__ = name
    return first
