"""Count the methods of step classes in the engines, and those that are one ``return``.

Issue 34 measures the ceremony of the step classes by this count: a method whose body is
a single ``return`` statement (a docstring aside), such as ``side``, ``prompt``,
``default`` or ``options`` returning what never depends on the position, is what a
declared step attribute (``decider``, ``prompt_template``, ``default_action``, ``order``)
replaces.  A step class is a class deriving, directly or through the engine's own bases,
from pbem.steps' ``Step``, ``Choice``, ``Roll``, ``Procedure`` or ``Sequence``; bases are
matched by name within each engine package.

    .venv/bin/python bench/count_step_methods.py [--detail] [ROOT ...]

ROOT: the engine packages to read (default: every package under ``engines/`` but the
kit).  Prints per engine, then in total: step classes, methods, one-line methods, and the
one-line methods by name.
"""

from __future__ import annotations

import argparse
import ast
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
#: pbem.steps' step kinds: a class deriving from any of these is a step class
RUNTIME_BASES = frozenset({"Step", "Choice", "Roll", "Procedure", "Sequence"})


@dataclass
class Tally:
    classes: int = 0
    methods: int = 0
    one_line: int = 0
    names: Counter[str] = field(default_factory=Counter)
    where: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.classes += other.classes
        self.methods += other.methods
        self.one_line += other.one_line
        self.names.update(other.names)
        self.where += other.where


def _base_name(node: ast.expr) -> str:
    """``Choice["S"]``, ``steps.Choice`` and ``Choice`` are all ``Choice``."""
    if isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def is_one_return(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    body = fn.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    return len(body) == 1 and isinstance(body[0], ast.Return)


def count(package: Path) -> Tally:
    #: every class by name, for resolving bases (a name may be defined in several files)
    classes: dict[str, list[tuple[list[str], ast.ClassDef, str]]] = {}
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"), str(path))
        shown = path.relative_to(REPO) if path.is_relative_to(REPO) else path
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                classes.setdefault(node.name, []).append(
                    ([_base_name(b) for b in node.bases], node, f"{shown}:{node.lineno}"))

    known: dict[str, bool] = {}

    def is_step(name: str, seen: frozenset[str] = frozenset()) -> bool:
        if name in RUNTIME_BASES:
            return True
        if name not in classes or name in seen:
            return False
        if name not in known:
            known[name] = any(is_step(b, seen | {name})
                              for bases, _, _ in classes[name] for b in bases)
        return known[name]

    tally = Tally()
    for name, defs in sorted(classes.items()):
        if not is_step(name):
            continue
        for _, node, where in defs:
            tally.classes += 1
            _tally_methods(tally, name, node, where)
    return tally


def _tally_methods(tally: Tally, name: str, node: ast.ClassDef, where: str) -> None:
    for item in node.body:
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
            tally.methods += 1
            if is_one_return(item):
                tally.one_line += 1
                tally.names[item.name] += 1
                tally.where.append(f"{where} {name}.{item.name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("roots", nargs="*", type=Path, help="engine packages")
    parser.add_argument("--detail", action="store_true",
                        help="also list every one-line method (file:line Class.method)")
    args = parser.parse_args()
    roots = args.roots or sorted(p for p in (REPO / "engines").iterdir()
                                 if (p / "__init__.py").exists() and p.name != "hexkit")
    total = Tally()
    print(f"{'engine':<24} {'classes':>7} {'methods':>7} {'one-line':>8}")
    for root in roots:
        tally = count(root.resolve())
        total.add(tally)
        print(f"{root.name:<24} {tally.classes:>7} {tally.methods:>7} {tally.one_line:>8}")
    print(f"{'total':<24} {total.classes:>7} {total.methods:>7} {total.one_line:>8}")
    print("one-line methods by name: "
          + ", ".join(f"{n} {c}" for n, c in total.names.most_common()))
    if args.detail:
        for line in total.where:
            print(line)


if __name__ == "__main__":
    main()
