"""The kit's walk for stand-ins (a stack of tables and lists, issue 35) finds what the
recursive walk it replaced found, in the same order, and refuses the same first bad
one; the old walk is kept here as the reference."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from importlib.resources import files
from types import MappingProxyType
from typing import Any

import pytest

from engines.hexkit import scenario
from engines.hexkit.scenario import Doc, Key, StandIn, load_scenario_path
from pbem.errors import ScenarioError


def _reference(doc: Doc, node: Any, path: tuple[Key, ...]) -> Iterator[StandIn]:
    if isinstance(node, Mapping):
        if "stand_in" in node:
            reason = node["stand_in"]
            if not isinstance(reason, str) or not reason.strip():
                raise doc.error((*path, "stand_in"), "must say why, as a non-empty string")
            yield StandIn(doc.name, scenario._fmt_key(path), reason)
        for k in sorted(node):
            yield from _reference(doc, node[k], (*path, k))
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from _reference(doc, item, (*path, i))


def _both(doc: Doc, data: Any) -> tuple[Any, Any]:
    def run(walk: Any) -> Any:
        try:
            return list(walk(doc, data, ()))
        except ScenarioError as exc:
            return ("refused", str(exc), exc.path)
    return run(scenario._find_stand_ins), run(_reference)


@pytest.mark.parametrize("engine_id", ["white-death", "for-the-motherland", "backhand-blow",
                                       "48th-panzer-korps", "mortain"])
def test_every_shipped_files_stand_ins_are_the_old_walks(engine_id: str) -> None:
    sset = load_scenario_path(files("scenarios") / engine_id, label=engine_id)
    found = 0
    for doc in sset.docs.values():
        new, old = _both(doc, doc.data)
        assert new == old, doc.name
        found += len(new)
    assert found  # every engine's data has some


NESTED: dict[str, Any] = {
    "b": {"stand_in": "why b", "x": [1, {"stand_in": "in a list"}, [[{"stand_in": "deep"}]]]},
    "a": [{"z": {"stand_in": "a.0.z"}}, "text", 3, True, 1.5, {"stand_in": "a.1"}],
    "stand_in": "the top",
    "c": MappingProxyType({"d": {"stand_in": "proxy"}}),
    "e": {"f": {"g": {}}, "h": []},
}


@pytest.mark.parametrize("bad", [None, "", "  ", 3, ["x"], {"y": 1}])
def test_nested_tables_lists_and_bad_reasons_are_the_old_walks(bad: Any) -> None:
    doc = Doc("data/x.toml", "a = 1\n", ("a",))
    new, old = _both(doc, NESTED)
    assert new == old and len(new) == 7
    assert [s.key for s in new][:3] == ["(top level)", "a[0].z", "a[5]"]
    if bad is None:
        return
    for where in (("b",), ("a", 0, "z"), ("e", "f")):
        data: Any = {**NESTED, "b": dict(NESTED["b"]), "a": list(NESTED["a"]),
                     "e": {"f": {"g": {}}, "h": []}}
        node = data
        for k in where:
            node[k] = dict(node[k]) if isinstance(node[k], dict) else node[k]
            node = node[k]
        node["stand_in"] = bad
        new, old = _both(doc, data)
        assert new == old and new[0] == "refused", where
