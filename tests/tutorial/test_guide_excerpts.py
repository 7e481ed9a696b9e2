"""The engine guide (docs/engine-guide.md) cannot drift from the code it teaches: every
block marked ``<!-- excerpt: PATH -->`` is, line for line, a run of lines of PATH, and
every repository path the guide names exists (the guide is self-contained: nothing it
points to lies outside the repository)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "engine-guide.md"
_EXCERPT = re.compile(r"^<!-- excerpt: (\S+) -->\n```\w*\n(.*?)^```$", re.M | re.S)
_PATH = re.compile(r"`((?:pbem|engines|tests|docs|bench|tools|scenarios)/[^`\s]*)`")


def excerpts() -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2)) for m in _EXCERPT.finditer(GUIDE.read_text("utf-8"))]


def test_the_guide_quotes_the_tutorial_engine_its_data_and_its_tests() -> None:
    quoted = {path for path, _ in excerpts()}
    assert len(excerpts()) >= 25
    assert {"tests/tutorial/tutorial_engine.py", "tests/tutorial/test_bridgehead.py",
            "tests/tutorial/tutorial_data/map.toml"} <= quoted
    # every marker is followed by a block the pattern read
    assert GUIDE.read_text("utf-8").count("<!-- excerpt:") == len(excerpts())


@pytest.mark.parametrize(("path", "block"), excerpts(),
                         ids=[f"{n}-{p}" for n, (p, _) in enumerate(excerpts())])
def test_each_excerpt_is_still_the_files_text(path: str, block: str) -> None:
    text = (ROOT / path).read_text("utf-8")
    assert block.endswith("\n") and ("\n" + block) in ("\n" + text), (
        f"docs/engine-guide.md quotes {path}, which no longer holds these lines:\n{block}"
        "edit the guide's excerpt to match the file")


def test_every_path_the_guide_names_is_in_the_repository() -> None:
    text = GUIDE.read_text("utf-8")
    assert "../shared" not in text and "/work/" not in text
    named = sorted({p.rstrip(".,:;") for p in _PATH.findall(text)
                    if not any(c in p for c in "<*{")})
    missing = [p for p in named if not (ROOT / p.split("::")[0]).exists()]
    assert len(named) > 40
    assert not missing, f"docs/engine-guide.md names paths that do not exist: {missing}"


def test_the_step_runtime_points_to_the_guides_tutorial_as_its_worked_example() -> None:
    import pbem.steps

    doc = pbem.steps.__doc__ or ""
    assert "tests/tutorial/tutorial_engine.py" in doc and "Bridgehead" in doc, doc
    named = re.findall(r"\b((?:pbem|engines|tests|docs)/[\w./-]*\w)", doc)
    missing = [p for p in named if not (ROOT / p).exists()]
    assert named and not missing, f"pbem/steps.py's docstring names missing paths: {missing}"


def test_every_section_the_guide_cites_is_one_of_its_sections() -> None:
    text = GUIDE.read_text("utf-8")
    sections = {int(n) for n in re.findall(r"^## (\d+)\. ", text, re.M)}
    cited = {int(n) for n in re.findall(r"\b[Ss]ections? (\d+)\b", text)}
    cited |= {int(n) for m in re.findall(r"\bsections ([\d, and]+)", text)
              for n in re.findall(r"\d+", m)}
    assert sections == set(range(1, len(sections) + 1)), sorted(sections)
    assert cited and cited <= sections, f"cites missing sections {sorted(cited - sections)}"


def test_the_guides_engine_table_names_every_engine_package() -> None:
    text = GUIDE.read_text("utf-8")
    table = text[text.index("## 1. "):text.index("## 2. ")]
    packages = sorted(p.name for p in (ROOT / "engines").iterdir()
                      if (p / "__init__.py").exists() and p.name != "hexkit")
    missing = [p for p in packages if f"`engines/{p}/`" not in table]
    assert len(packages) >= 5 and not missing, f"section 1 does not list {missing}"
