"""The contract suite: every registered engine and scenario, the same checks (OpenSpiel's
``games_sim_test``).  No engine is named here: the registry (plus the test engine of
tests/toy, registered by tests/conftest.py) is the list, so a new engine or scenario is
covered the day it is installed.

- random playouts (pbem.testing.random_playout): snapshot canonical, restore gives the
  same digest and legal actions, the history replays to the same digest; at every
  decision the decision is the acting side's, no action is listed twice, every listed
  action's notation reads back to it, the default is a legal action and is accepted,
  an action not listed is refused naming a rule and changing nothing;
- the shortest scenario of each engine played to its end, with a result;
- golden games (pbem.golden, tests/data/golden/<engine>.txt): capped selfplay through
  real signed files, every file audited, the text record's digest compared;
- selfplay with standing orders and with sealed dice, audited;
- hostile bodies: tests/test_hostile_files.py, over the same registry.

CI cost (2 cores): see the report in docs/engine-guide.md ("The contract suite").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem import golden
from pbem.audit import audit, collect
from pbem.registry import engines
from pbem.selfplay import selfplay
from pbem.testing import random_playout

ENGINES = engines()
SCENARIOS = [(eid, s.id) for eid, e in ENGINES.items() for s in e.scenarios()]
#: per engine, the scenario with the fewest game turns (the first of equals)
SHORTEST = [(eid, min(e.scenarios(), key=lambda s: s.turns[1] - s.turns[0]).id)
            for eid, e in ENGINES.items()]
GOLDEN = [(eid, scenario, seed) for eid in ENGINES for scenario, seed in golden.games(eid)]
GOLDEN_DIR = Path(__file__).parent / "data" / "golden"
RECORD = ".venv/bin/python bench/record_golden.py"

#: contract checks an engine is known to fail, with the failure, so the rest of the
#: contract is still checked for it; test_known_failures_still_fail keeps each entry honest
KNOWN: dict[str, dict[str, str]] = {}
#: playout length per scenario: enough to cross phases, within CI's budget (the shortest
#: scenario of each engine is also played to its end)
STEPS = 150


def _known(engine: str) -> frozenset[str]:
    return frozenset(KNOWN.get(engine, {}))


@pytest.mark.parametrize(("engine", "scenario"), SCENARIOS)
def test_random_playout_keeps_the_contract(engine: str, scenario: str) -> None:
    report = random_playout(ENGINES[engine], scenario, 1, max_steps=STEPS, check_every=25,
                            known=_known(engine))
    assert report.actions > 0
    assert report.terminal or report.steps == STEPS


@pytest.mark.parametrize(("engine", "scenario"),
                         SHORTEST + [(e, "night") for e in ENGINES if e == "skirmish"])
def test_random_playout_with_sealed_dice_keeps_the_contract(engine: str, scenario: str) -> None:
    """The rolls an engine lets wait (sealed dice, issue 21): snapshots with rolls waiting
    restore, and the history replays to the same digest."""
    report = random_playout(ENGINES[engine], scenario, 3, max_steps=STEPS, check_every=10,
                            known=_known(engine), sealed_dice=True)
    assert report.actions > 0


@pytest.mark.parametrize(("engine", "scenario"), SHORTEST)
def test_shortest_scenario_plays_to_its_end(engine: str, scenario: str) -> None:
    report = random_playout(ENGINES[engine], scenario, 2, max_steps=20_000, check_every=200,
                            known=_known(engine))
    assert report.terminal, f"{engine}/{scenario} did not end in {report.steps} steps"
    assert report.result


@pytest.mark.parametrize(("engine", "check"),
                         [(e, c) for e in KNOWN for c in KNOWN[e] if e in ENGINES])
def test_known_failures_still_fail(engine: str, check: str) -> None:
    """Each KNOWN entry still fails on some scenario: once the engine is fixed this test
    fails, and the entry must go."""
    for _, scenario in (s for s in SCENARIOS if s[0] == engine):
        try:
            random_playout(ENGINES[engine], scenario, 1, max_steps=STEPS, check_every=25,
                           check_replay=False, known=_known(engine) - {check})
        except AssertionError as exc:
            assert check in str(exc), exc
            return
    pytest.fail(f"{engine} now passes the {check!r} check: remove it from KNOWN")


@pytest.mark.parametrize(("engine", "scenario", "seed"), GOLDEN)
def test_golden_game(engine: str, scenario: str, seed: int, tmp_path: Path) -> None:
    """The game two bots play through files is the recorded one, and its files audit."""
    path = GOLDEN_DIR / f"{engine}.txt"
    assert path.exists(), f"no golden file for {engine}: run {RECORD} {engine}"
    expected = golden.read(path).get((scenario, seed))
    assert expected is not None, f"{path} has no {scenario} seed {seed}: run {RECORD} {engine}"
    got = golden.play(engine, scenario, seed, tmp_path)
    report = audit(collect([tmp_path / "files"]))
    assert report.clean, report.problems
    assert len(report.rolls) == got.rolls
    if got != expected:
        moved = [f for f in ("files", "actions", "rolls", "record", "state", "result")
                 if getattr(got, f) != getattr(expected, f)]
        hint = ("only the snapshot's bytes moved" if moved == ["state"] else
                "the game itself changed")
        pytest.fail(f"{engine} {scenario} seed {seed}: {', '.join(moved)} differ ({hint})\n"
                    f"  recorded: {expected.line()}\n  now:      {got.line()}\n"
                    f"if the change is meant, raise {engine}'s rules_version and run "
                    f"{RECORD} {engine} in the same commit, saying why")


@pytest.mark.parametrize("engine", list(ENGINES))
def test_golden_file_covers_every_scenario(engine: str) -> None:
    path = GOLDEN_DIR / f"{engine}.txt"
    assert path.exists(), f"no golden file for {engine}: run {RECORD} {engine}"
    assert list(golden.read(path)) == golden.games(engine), \
        f"{path} does not list the scenarios and seeds of {engine}: run {RECORD} {engine}"
    assert f"rules_version {ENGINES[engine].rules_version})" in path.read_text(), \
        f"{path} was recorded under another rules_version: run {RECORD} {engine}"


@pytest.mark.parametrize(("engine", "scenario"), SHORTEST)
@pytest.mark.parametrize("dice", ["open", "sealed"])
def test_selfplay_with_standing_orders(engine: str, scenario: str, dice: str,
                                       tmp_path: Path) -> None:
    """Both bots answer in advance every decision their engine allows: the opponent's files
    apply those answers, the receivers check them, and the files audit clean; with sealed
    dice every roll is finalized by the other side's next file."""
    result = selfplay(engine, scenario, 3, tmp_path, max_actions=golden.MAX_ACTIONS,
                      standing_orders=True, dice_mode=dice)
    assert result.desyncs == 0 and result.actions > 0
    report = audit(collect([tmp_path / "files"]))
    assert report.clean, report.problems
    assert len(report.rolls) == result.rolls
