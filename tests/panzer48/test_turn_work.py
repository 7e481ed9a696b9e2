"""What a 48th Panzer Korps turn command does not do when its position does not need it
(issue 35).  The score (10) finds the German ZOC only for the road paths of exited Soviet
units: the status line every command shows scores the position, and with no exits it
asks no ZOC (the kit's ZOC search was loaded and run for nothing on a fire's act and
receive).  The map's areas the rules name are collected when a rule first reads one, and
the kit's scenario checks load with the check."""

from __future__ import annotations

import json

import pytest

from engines.panzer48 import ENGINE, victory, zoc
from engines.panzer48.state import P48State
from pbem.setup import setup
from pbem.testing import fresh_run


def state(text: str) -> P48State:
    s = setup(ENGINE, "chir", "only = true\nphase = \"turns\"\n" + text)
    assert isinstance(s, P48State)
    return s


def test_a_score_with_no_exits_asks_no_zoc(monkeypatch: pytest.MonkeyPatch) -> None:
    s = state('at = { "Adam" = "2226", "89T" = "2235" }')
    want = victory.score(s)

    def asked(*args: object) -> object:
        raise AssertionError("a ZOC was found for a score with no exits")

    # the score imports the ZOC rule (5) where it traces one: patched where it lives
    monkeypatch.setattr(zoc, "zoc", asked)
    assert victory.score(s) == want
    s.status_line("soviet")
    s.pos.exits["2236"] = 4  # an exit's road path (10) is traced through the ZOC
    with pytest.raises(AssertionError, match="a ZOC was found"):
        victory.score(s)


def test_a_status_line_loads_no_zoc_search() -> None:
    s = state('at = { "Adam" = "2226", "89T" = "2235" }')
    probe = ("import json, sys\nfrom engines.panzer48 import ENGINE\n"
             "s = ENGINE.restore(json.loads(sys.stdin.read()))\n"
             "s.status_line('soviet')\n"
             "print('engines.hexkit.zoc' in sys.modules)\n")
    out_lines = fresh_run(probe, json.dumps(s.snapshot()))
    assert out_lines == ["False"]


def test_the_areas_are_collected_when_a_rule_first_reads_one() -> None:
    probe = ("import json, sys\nfrom engines.panzer48 import ENGINE, data\n"
             "s = ENGINE.restore(json.loads(sys.stdin.read()))\n"
             "s.legal_actions()\n"
             "s.status_line('soviet')\n"
             "print('areas' in data().__dict__)\n"
             "print(sorted(data().areas), len(data().areas['south_exit']) > 0)\n")
    s = state('phasing = "soviet"\nstep = "attack-fire"\n'
              'combat = { hex = "2036", attacker = "soviet", prepared = true, '
              'stage = "attack", attackers = ["44MR", "14MR"], defenders = ["Adam"] }\n'
              'began_adjacent = ["44MR", "14MR"]\n'
              'at = { "Adam" = "2036", "44MR" = "2035", "14MR" = "2035" }')
    out_lines = fresh_run(probe, json.dumps(s.snapshot()))
    assert out_lines == [
        "False", "['front_german', 'front_soviet', 'german_side', 'south_exit'] True"]


def test_the_kits_scenario_checks_load_with_the_check() -> None:
    """The kit's named-hex checks load with 'pbem scenario check' (9's set-up hexes),
    not with the engine every turn command imports; the check still passes."""
    probe = ("import sys\nfrom engines.panzer48 import ENGINE\nENGINE.scenarios()\n"
             "print('engines.hexkit.checks' in sys.modules)\n"
             "print(ENGINE.check_scenarios(), 'engines.hexkit.checks' in sys.modules)\n")
    out_lines = fresh_run(probe)
    assert out_lines == ["False", "[] True"]
