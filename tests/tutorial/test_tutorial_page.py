"""The tutorial's engine page (tests/tutorial/README.md) is held to the rule every engine
page is (tests/test_rules_coverage.py, docs/engine-guide.md "How a coverage row is backed
by a test"): each "yes" row is a test of this folder, each rule a test cites is a row."""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).parent
# the engine pages' own check, by path: tests is no package, and pytest imports by path
_SPEC = importlib.util.spec_from_file_location("rules_coverage",
                                               HERE.parent / "test_rules_coverage.py")
assert _SPEC is not None and _SPEC.loader is not None
coverage = sys.modules.setdefault("rules_coverage", importlib.util.module_from_spec(_SPEC))
_SPEC.loader.exec_module(coverage)


def rows() -> list[tuple[str, str, tuple[str, ...]]]:
    lines = (HERE / "README.md").read_text(encoding="utf-8").splitlines()
    body = lines[lines.index("## Rules coverage") + 1:]
    first = next(n for n, line in enumerate(body) if line.startswith("|"))
    table = []
    for line in body[first:]:
        if not line.startswith("|"):
            break
        table.append([c.strip() for c in coverage._CELL.split(line.strip())[1:-1]])
    assert [c.lower() for c in table[0]] == ["rule", "status", "notes"]
    return [(r[0], r[1].lower(), coverage.rule_numbers(r[0])) for r in table[2:]]


def citations() -> set[str]:
    out = set()
    for path in sorted(HERE.glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef):
                number = coverage.cited(node.name)
                if number is not None:
                    out.add(number)
    return out


def test_every_yes_row_is_a_test_and_every_cited_rule_a_row() -> None:
    table, tests = rows(), citations()
    assert len(table) == 15
    for rule, status, numbers in table:
        assert status.split()[0] in coverage.STATUSES, rule
        if status.startswith("yes"):
            assert numbers and set(numbers) <= tests, f"row {rule!r}: no test cites it"
    assert tests <= {n for _, _, numbers in table for n in numbers}
