"""Issue 34: For the Motherland!'s modules in the engine layout: rules as plain functions
(no mixins, no class with two bases), imports in one direction (no cycle; the rule modules
never import the steps), no module over 800 lines."""

from __future__ import annotations

import ast
from pathlib import Path

import engines.motherland

PACKAGE = Path(engines.motherland.__file__).parent
#: the modules that may import the steps: the steps themselves, the sequence of play that
#: queues them, the state that runs them and the engine
STEP_USERS = {"steps", "sequence", "state", "__init__"}


def _modules() -> dict[str, ast.Module]:
    found: dict[str, ast.Module] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        name = ".".join(p for p in parts if p != "__init__") or "__init__"
        found[name] = ast.parse(path.read_text(encoding="utf-8"))
    return found


def _imports(tree: ast.Module) -> set[str]:
    """The package's modules ``tree`` imports when it is loaded (not the imports kept for
    the type checker, ``if TYPE_CHECKING:``, nor those inside functions)."""
    out: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module:
            mod = node.module
            if mod == "engines.motherland":
                out |= {a.name for a in node.names}
            elif mod.startswith("engines.motherland."):
                out.add(mod.removeprefix("engines.motherland."))
    return out


def test_no_mixins_and_no_multiple_inheritance() -> None:
    for name, tree in _modules().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                assert not node.name.endswith("Mixin"), f"{name}: class {node.name}"
                assert len(node.bases) <= 1, f"{name}: class {node.name} has two bases"


def test_imports_run_one_way() -> None:
    modules = _modules()
    graph = {name: {m for m in _imports(tree) if m in modules}
             for name, tree in modules.items()}
    for name, deps in graph.items():
        if name.split(".")[0] not in STEP_USERS:
            assert not {d for d in deps if d.split(".")[0] in ("steps", "sequence")}, \
                f"the rule module {name} imports the steps"
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, f"import cycle: {' -> '.join((*path, name))}"
        if name in done:
            return
        for dep in sorted(graph[name]):
            visit(dep, (*path, name))
        done.add(name)

    for name in sorted(graph):
        visit(name, ())


def test_no_module_over_800_lines() -> None:
    for path in sorted(PACKAGE.rglob("*.py")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        assert lines <= 800, f"{path.name}: {lines} lines"
