"""docs/audit-schema.json (issue 36 item 3): the layout of ``pbem audit --json``, a
versioned JSON Schema, held to real output: every shipped transcript (format 1 and 2,
open, sealed, orders, re-anchoring, every ending), every case of the auditor's procedure
(files bad, set aside, of two games, a missing invite), through the command line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

from pbem.audit import SCHEMA_VERSION
from pbem.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent
DATA = ROOT / "tests" / "data"
SCHEMA = json.loads((ROOT / "docs" / "audit-schema.json").read_text(encoding="utf-8"))
FOLDERS = sorted(p for p in DATA.glob("transcript*") if p.is_dir()) + sorted(
    p for p in (DATA / "audit-procedure").iterdir() if p.is_dir())


def validator() -> Any:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    return jsonschema.Draft202012Validator(SCHEMA)


def test_the_schema_is_a_valid_schema_of_this_version() -> None:
    validator()
    assert SCHEMA["properties"]["schema_version"] == {"const": SCHEMA_VERSION}


@pytest.mark.parametrize("folder", FOLDERS, ids=[f"{p.parent.name}/{p.name}" for p in FOLDERS])
def test_real_audit_output_follows_the_schema(folder: Path) -> None:
    res = CliRunner().invoke(main, ["audit", str(folder), "--json"], catch_exceptions=False)
    report = json.loads(res.output)
    errors = sorted(validator().iter_errors(report), key=lambda e: list(e.path))
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors[:5]]
    assert (res.exit_code == 0) == report["clean"]


def test_the_schema_refuses_what_the_layout_is_not() -> None:
    """A checker that accepted anything would prove nothing: a renamed field, a wrong
    type, a request of neither form, an unknown version are each refused."""
    res = CliRunner().invoke(main, ["audit", str(DATA / "transcript"), "--json"])
    good = json.loads(res.output)
    assert validator().is_valid(good) and good["games"][0]["rolls"]

    def changed(edit: Any) -> dict[str, Any]:
        report = json.loads(res.output)
        edit(report)
        return report

    for edit in (lambda r: r.update(schema_version=2),
                 lambda r: r["games"][0].pop("verdict"),
                 lambda r: r["games"][0]["rolls"][0].update(seed="XYZ"),
                 lambda r: r["games"][0]["rolls"][0].update(request={"kind": "coin"}),
                 lambda r: r["games"][0]["files"][0].update(seq="0"),
                 lambda r: r["games"][0]["rolls"][0].update(extra=1)):
        assert not validator().is_valid(changed(edit))
