"""Every "yes" on an engine page's rules-coverage table is a test (issue 31).

The convention (docs/engine-guide.md, "How a coverage row is backed by a test"):

- the page is ``docs/engines/<engine-id>.md``; its table is the first markdown table after
  the heading ``## Rules coverage``, with the columns ``rule | status | notes``;
- a row claims the rule is enforced when its status cell begins with ``yes``;
- a row's rule numbers stand at the start of its first cell, one or more, separated by
  ``/`` or ``, `` (``8.3 retreat``, ``4/5 ...``, ``18.1, 18.2 ...``).  A rule number is
  dot-separated tokens: the first all digits, each further one all digits, one capital
  letter (White Death's ``3.A``, ``15.D.2``) or a roman numeral in capitals (``3.III``);
- a test cites rule R when its function's name is ``test_`` + R with the dots as
  underscores + ``_`` + words (``test_15_D_2_city_point_spent``): the number ends at the
  first token that is none of those, so a lower-case word is never read as part of it;
- the check fails when a "yes" row has a number no test of the engine's folder cites, or
  when a test cites a number no row has (whatever its status); and, so that no row claims
  a rule in other words, when a status begins with a word other than yes, stand-in,
  partial, reading, no, not or unnumbered (a section the book leaves unnumbered).

Test names are read with ``ast`` (no test module is imported), so the check takes well
under a second.  ``python tests/test_rules_coverage.py`` prints each engine's count of
rules claimed "yes" and of those backed by a test.
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: engine id (its page's name) -> its tests' folder
ENGINES = {
    "white-death": "white_death",
    "for-the-motherland": "motherland",
    "48th-panzer-korps": "panzer48",
    "mortain": "mortain",
    "backhand-blow": "backhand",
}

_ROMAN = r"(?:X{0,3}(?:IX|IV|V?I{1,3}|V)|X{1,3})"
_TOKEN = re.compile(rf"^(?:\d+|[A-Z]|{_ROMAN})$")
_NUMBER = rf"\d+(?:\.(?:\d+|{_ROMAN}|[A-Z])(?![A-Za-z0-9]))*"
_NUMBERS = re.compile(rf"^({_NUMBER})((?:(?:/|, ){_NUMBER})*)(?!\w)")
_CELL = re.compile(r"(?<!\\)\|")
#: the first word of a status cell: a word outside these ("implemented", "done") would
#: claim a rule without the "yes" the check reads, so the row would escape it
STATUSES = ("yes", "stand-in", "partial", "reading", "no", "not", "unnumbered")


@dataclass(frozen=True)
class Row:
    rule: str  # the first cell, as written
    status: str
    numbers: tuple[str, ...]

    @property
    def claims(self) -> bool:
        return self.status.startswith("yes")


def rule_numbers(cell: str) -> tuple[str, ...]:
    """The rule numbers at the start of a row's first cell (none: the cell names none)."""
    m = _NUMBERS.match(cell.strip())
    if m is None:
        return ()
    return tuple(n for n in re.split(r"/|, ", m.group(0)) if n)


def cited(name: str) -> str | None:
    """The rule number a test function's name cites, or None."""
    if not name.startswith("test_"):
        return None
    tokens = name[len("test_"):].split("_")
    if not tokens or not tokens[0].isdigit():
        return None
    number = [tokens[0]]
    for token in tokens[1:]:
        if not _TOKEN.match(token):
            break
        number.append(token)
    return ".".join(number)


def table(engine_id: str) -> list[Row]:
    """The rows of the page's coverage table; a page without one fails, naming what."""
    page = ROOT / "docs" / "engines" / f"{engine_id}.md"
    lines = page.read_text(encoding="utf-8").splitlines()
    try:
        start = lines.index("## Rules coverage")
    except ValueError:
        pytest.fail(f"{engine_id}: {page.name} has no '## Rules coverage' heading")
    body = lines[start + 1:]
    first = next((n for n, line in enumerate(body) if line.startswith("|")), None)
    if first is None:
        pytest.fail(f"{engine_id}: no table after '## Rules coverage' in {page.name}")
    rows: list[list[str]] = []
    for line in body[first:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in _CELL.split(line.strip())[1:-1]])
    header = [c.lower() for c in rows[0]]
    if header != ["rule", "status", "notes"]:
        pytest.fail(f"{engine_id}: the coverage table's columns are {rows[0]}, not "
                    "rule | status | notes")
    return [Row(r[0], r[1].lower(), rule_numbers(r[0])) for r in rows[2:]]


def citing_tests(folder: str) -> dict[str, list[str]]:
    """Rule number -> the tests (``file::name``) of the folder that cite it."""
    out: dict[str, list[str]] = {}
    base = ROOT / "tests" / folder
    for path in sorted(base.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                number = cited(node.name)
                if number is not None:
                    where = f"{path.relative_to(ROOT / 'tests')}::{node.name}"
                    out.setdefault(number, []).append(where)
    return out


def problems(engine_id: str) -> list[str]:
    rows = table(engine_id)
    folder = ENGINES[engine_id]
    tests = citing_tests(folder)
    out: list[str] = []
    for row in rows:
        word = re.split(r"[\s(]", row.status, maxsplit=1)[0]
        if word not in STATUSES:
            out.append(f"{engine_id}: row '{row.rule}' has status '{row.status}': begin it "
                       f"with one of {', '.join(STATUSES)} ('yes' when a test backs it)")
        if row.claims and not row.numbers:
            out.append(f"{engine_id}: row '{row.rule}' says '{row.status}' and names no rule "
                       "number to back it with a test")
        for number in row.numbers if row.claims else ():
            if number not in tests:
                out.append(f"{engine_id}: row '{row.rule}' says yes: rule {number} has no "
                           f"test in tests/{folder} (test_{number.replace('.', '_')}_...)")
    known = {n for row in rows for n in row.numbers}
    for number, names in sorted(tests.items()):
        if number not in known:
            out += [f"{engine_id}: {name} cites rule {number}, which no row of the coverage "
                    "table has" for name in names]
    return out


def counts(engine_id: str) -> tuple[int, int]:
    """(rules claimed yes, those cited by a test)."""
    tests = citing_tests(ENGINES[engine_id])
    claimed = sorted({n for row in table(engine_id) if row.claims for n in row.numbers})
    return len(claimed), sum(1 for n in claimed if n in tests)


@pytest.mark.parametrize("engine_id", list(ENGINES))
def test_every_yes_row_is_a_test_and_every_cited_rule_a_row(engine_id: str) -> None:
    found = problems(engine_id)
    assert not found, f"{len(found)} coverage problems:\n" + "\n".join(found)


@pytest.mark.parametrize("engine_id", list(ENGINES))
def test_every_page_has_a_table_with_rule_numbers(engine_id: str) -> None:
    rows = table(engine_id)
    assert sum(1 for r in rows if r.numbers) >= 10, f"{engine_id}: few numbered rows"
    assert (ROOT / "tests" / ENGINES[engine_id]).is_dir()


@pytest.mark.parametrize(("cell", "numbers"), [
    ("8.3 retreat", ("8.3",)),
    ("4/5 exiting ZOCs", ("4", "5")),
    ("18.1, 18.2 victory", ("18.1", "18.2")),
    ("3 sequence of play, 3.III", ("3",)),
    ("3.III steps", ("3.III",)),
    ("15.D, 15.D.2 Velikiye Luki", ("15.D", "15.D.2")),
    ("11.B.2.B barrage end", ("11.B.2.B",)),
    ("20.x scenarios", ("20",)),
    ("Intrinsic garrisons", ()),
    ("1941 weather", ("1941",)),
])
def test_a_rows_rule_numbers_are_read_from_the_start_of_its_cell(
        cell: str, numbers: tuple[str, ...]) -> None:
    assert rule_numbers(cell) == numbers


@pytest.mark.parametrize(("name", "number"), [
    ("test_8_3_retreat_stacking", "8.3"),
    ("test_15_D_2_city_point_spent", "15.D.2"),
    ("test_3_III_turn_marker", "3.III"),
    ("test_8_5_d1_on_army_and_factory", "8.5"),  # a lower-case token is a word
    ("test_11_B_2_B_barrage_end", "11.B.2.B"),
    ("test_4_a_unit_moves", "4"),
    ("test_rule_15_d_2_old_style", None),
    ("test_intrinsic_garrison", None),
    ("helper_3_1", None),
])
def test_a_citing_tests_rule_is_read_from_its_name(name: str, number: str | None) -> None:
    assert cited(name) == number


if __name__ == "__main__":
    print(f"{'engine':<20} {'rules yes':>9} {'tested':>7}")
    for engine in ENGINES:
        claimed, backed = counts(engine)
        print(f"{engine:<20} {claimed:>9} {backed:>7}")
    for engine in ENGINES:
        for problem in problems(engine):
            print(problem, file=sys.stderr)
