"""The rules census (issue 11): its detectors, and a small fixed census of every engine.

The detectors are shown to fire on engines built to have the fault (a toy state whose
history only grows, that lists an action it refuses, whose default is illegal) and to
stay quiet on the same engine without it.  The fixed census plays capped random games of
every registered engine and fails on an action listed then refused or a default that is
not legal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from toy_engine import SkirmishEngine, SkirmishState, Word

from pbem.census import (
    CensusResult,
    GrowthTracker,
    Settings,
    coverage,
    coverage_rows,
    play,
    report,
    rule_key,
    sizes,
)
from pbem.engine import Action, Decision, Event, Snapshot, State
from pbem.registry import engines
from pbem.testing import Chooser

ROOT = Path(__file__).resolve().parents[2]


# --- the growth detector ------------------------------------------------------------------


def test_sizes_names_every_collection_by_path() -> None:
    data = {"hit": ["0101", "0102"], "units": {"a": {"marks": []}}, "turn": 3}
    assert sizes(data) == {"": 3, "hit": 2, "units": 1, "units.a": 1, "units.a.marks": 0}


def test_growth_tracker_flags_a_set_that_only_grows_not_one_cleared_each_phase() -> None:
    """8.3.1's bug in miniature: ``hit`` is never cleared, ``phase_hit`` is, each phase."""
    tracker = GrowthTracker()
    hit: list[str] = []
    for phase in range(6):
        phase_hit: list[str] = []
        for attack in range(4):
            hexid = f"{phase:02d}{attack:02d}"
            hit.append(hexid)
            phase_hit.append(hexid)
            tracker.observe({"hit": sorted(hit), "phase_hit": list(phase_hit),
                             "units": {"a": {"hex": hexid}}})
    flagged = tracker.flagged(min_growth=8)
    assert list(flagged) == ["hit"]
    assert (flagged["hit"].first, flagged["hit"].last) == (1, 24)


def test_growth_tracker_a_collection_that_disappears_has_shrunk() -> None:
    tracker = GrowthTracker()
    for n in range(1, 12):
        tracker.observe({"queue": list(range(n))})
    tracker.observe({})
    for n in range(1, 12):
        tracker.observe({"queue": list(range(n))})
    assert tracker.flagged() == {}


def test_growth_tracker_a_record_added_whole_is_not_growth() -> None:
    tracker = GrowthTracker()
    units: dict[str, dict[str, Any]] = {}
    for n in range(12):
        units[f"u{n}"] = {f"k{i}": i for i in range(14)}  # a unit entering with its record
        tracker.observe({"units": dict(units)})
    assert list(tracker.flagged()) == ["units"]  # the map of units grew 1 -> 12 ...
    assert "units.u11" not in tracker.flagged()  # ... its records did not


# --- toy engines with one fault each ---------------------------------------------------------


class _Growing(SkirmishState):
    """Keeps every event text for good, and this round's events only for the round."""

    def _apply_action(self, action: Action) -> list[Event]:
        events = super()._apply_action(action)
        if not hasattr(self, "log"):
            self.log: list[str] = []
            self.this_round: list[str] = []
            self.seen_round = 1
        if self.pos.round != self.seen_round:
            self.seen_round, self.this_round = self.pos.round, []
        self.log += [e.text for e in events]
        self.this_round += [e.text for e in events]
        return events

    def _snapshot(self) -> Snapshot:
        return {**super()._snapshot(), "log": list(getattr(self, "log", [])),
                "this_round": list(getattr(self, "this_round", []))}


class _ListsARefusedAction(SkirmishState):
    def _legal_actions(self) -> list[Action]:
        out = super()._legal_actions()
        return [*out, Word("surrender")] if Word("pass") in out else out


class _IllegalDefault(SkirmishState):
    def _decision(self) -> Decision:
        d = super()._decision()
        return Decision(d.side, d.kind, d.prompt, d.options, Word("surrender"), d.rule)


def _engine(state_class: type[SkirmishState]) -> SkirmishEngine:
    class Faulty(SkirmishEngine):
        def _new_state(self, scenario: str, options: Mapping[str, str]) -> State:
            state = super()._new_state(scenario, options)
            state.__class__ = state_class
            return state

    return Faulty()


def test_census_flags_the_collection_that_only_grows_in_an_engine() -> None:
    out = play(_engine(_Growing), "long", 1, Settings(probe_every=0))
    assert out.growth["log"] == 1
    assert "this_round" not in out.growth and out.growth_seen["this_round"] == 1
    text, flags = report(out, [], ())
    assert "FLAG (c)" in text and "  log: 1/1" in text and flags >= 1


def test_census_flags_a_listed_action_that_apply_refuses() -> None:
    out = play(_engine(_ListsARefusedAction), "short", 3)
    assert out.listed_refused and all("'surrender' refused" in x for x in out.listed_refused)
    assert out.refusals["Skirmish 2"] >= len(out.listed_refused)
    assert play(SkirmishEngine(), "short", 3).listed_refused == []


def test_census_flags_a_default_that_is_not_legal() -> None:
    out = play(_engine(_IllegalDefault), "short", 1)
    assert out.bad_defaults and "default 'surrender' is not among the legal actions" \
        in out.bad_defaults[0]
    assert play(SkirmishEngine(), "short", 1).bad_defaults == []


def test_probes_count_the_rule_that_refuses_an_unlisted_action() -> None:
    """After the toy side moves, ``move X`` is no longer listed: probing it again (it was
    listed at the previous decision) is refused by Skirmish 2.1."""
    out = play(SkirmishEngine(), "long", 2, Settings(probe_every=1))
    assert out.probes > 0
    assert out.refusals["Skirmish 2.1"] > 0


# --- what the engine page says it implements -------------------------------------------------


PAGE = """# X

## Rules coverage

| rule | status | notes |
|---|---|---|
| 8.3.1-8.3.9 restrictions | yes | |
| 4.2.1, 8.6.2 retreat into ZOC | yes | |
| 18.0 weather | yes | |
| 20.x scenarios | stand-in | |
| 3.A AFV transit | implemented | |
| Intrinsic garrisons | implemented | |
| 3.1 steps of the Movement Phase, 5.2.3 | yes | |
| Force stack | not implemented | |

## Stand-ins
| 99 not a coverage row | yes | |
"""


def test_coverage_rows_read_ranges_lists_and_names() -> None:
    rows = {r.text.split()[0]: r for r in coverage_rows(PAGE)}
    assert sorted(rows) == ["18.0", "20.x", "3.1", "3.A", "4.2.1,", "8.3.1-8.3.9", "Intrinsic"]
    assert rows["3.1"].covers("5.2.3") and rows["3.1"].covers("3.1")
    assert rows["8.3.1-8.3.9"].covers("8.3.4") and rows["8.3.1-8.3.9"].covers("8.3.9.1")
    assert not rows["8.3.1-8.3.9"].covers("8.4") and not rows["8.3.1-8.3.9"].covers("8.3")
    assert rows["4.2.1,"].covers("8.6.2") and not rows["4.2.1,"].covers("8.6")
    assert rows["18.0"].covers("18.2.3") and rows["20.x"].covers("20.2 rule 4")
    assert rows["3.A"].covers("Rule 3.A") and not rows["3.A"].covers("Rule 3.B")
    assert rows["Intrinsic"].covers("Intrinsic garrisons")
    assert rule_key("8.10") > rule_key("8.9") > rule_key("8.3.1")


def test_zero_rows_are_flagged_and_stray_rules_listed() -> None:
    out = CensusResult("x")
    out.events.update({"8.3.2": 3, "Rule 3.A": 1, "5.0": 2})
    out.refusals.update({"4.2.1": 1})
    table, stray = coverage(out, coverage_rows(PAGE))
    counts = {row.text: (f, x) for row, f, x in table}
    assert counts["8.3.1-8.3.9 restrictions"] == (3, 0)
    assert counts["4.2.1, 8.6.2 retreat into ZOC"] == (0, 1)
    assert counts["18.0 weather"] == (0, 0)
    assert stray == ["5.0"]
    text, _ = report(out, coverage_rows(PAGE), ())
    assert "FLAG (a)" in text and "18.0 weather" in text.split("FLAG (a)")[1]


@pytest.mark.parametrize("engine_id,page", [("white-death", "white-death.md"),
                                            ("for-the-motherland", "for-the-motherland.md"),
                                            ("mortain", "mortain.md"),
                                            ("48th-panzer-korps", "48th-panzer-korps.md"),
                                            ("backhand-blow", "backhand-blow.md")])
def test_the_engine_pages_coverage_tables_are_read(engine_id: str, page: str) -> None:
    rows = coverage_rows((ROOT / "docs" / "engines" / page).read_text(encoding="utf-8"))
    assert len(rows) > 25
    assert all(r.ranges or not r.text[0].isdigit() for r in rows)


# --- the fixed census of every engine -----------------------------------------------------------


def _shortest(engine_id: str) -> str:
    infos = engines()[engine_id].scenarios()
    return min(infos, key=lambda s: (s.turns[1] - s.turns[0], s.id)).id


@pytest.mark.parametrize("engine_id", sorted(engines()))
def test_fixed_census_of_every_engine(engine_id: str) -> None:
    """Two capped random games of the engine's shortest scenario with probes: no action
    listed then refused, no default outside the legal actions, no probe that crashes
    the engine, every event and roll of a real engine citing its rule, every decision
    kind declared."""
    engine = engines()[engine_id]
    total = CensusResult(engine_id)
    for seed in (1, 2):
        total.merge(play(engine, _shortest(engine_id), seed,
                         Settings(max_steps=300, probe_every=5)))
    assert total.listed_refused == []
    assert total.bad_defaults == []
    assert total.crashes == []
    assert total.actions >= 20 and total.probes >= 3
    assert sum(total.refusals.values()) > 0
    if engine_id != "skirmish":  # the toy tells its events without rules
        assert total.untagged_events == {}
        assert "(no rule)" not in total.chance and "(no rule)" not in total.decision_rules
        declared = engine.decision_kinds()
        assert declared and set(total.decisions) <= set(declared)


# --- For the Motherland!'s set of attacked hexes (8.3.1) ---------------------------------------


def _uranus(seed: int) -> tuple[GrowthTracker, set[str], set[str]]:
    """A random Uranus game measured by the growth tracker: the tracker, the hexes the
    events say were attacked in a Combat Phase (8.1), and what ``hit`` holds at the end."""
    engine = engines()["for-the-motherland"]
    state = engine.new_state("4-uranus")
    choose = Chooser(f"hit/4-uranus/{seed}")
    tracker = GrowthTracker()
    targets: set[str] = set()
    while not state.is_terminal():
        tracker.observe(state.snapshot()["body"])
        if state.is_chance():
            events = state.apply_outcome(choose.outcome(state.chance_request()))
        else:
            events = state.apply(choose.pick(state.legal_actions()))
        targets |= {e.hexes[0] for e in events if e.rule == "8.1"}
    tracker.observe(state.snapshot()["body"])
    return tracker, targets, set(state.snapshot()["body"]["position"].get("hit", []))


#: where the snapshot keeps For the Motherland!'s attacked hexes (its body: position, stack)
HIT = "position.hit"


def test_census_flags_motherland_hit_exactly_when_it_keeps_every_attacked_hex() -> None:
    """8.3.1 ("no hex may be attacked more than once in the same combat phase"): before
    the issue-11 fix ``hit`` held every hex attacked in the game, never cleared; the census
    must flag it then, and must not once the set is cleared each phase.  Which case holds
    is read from the game: the hexes the events say were attacked against what ``hit``
    holds at the end."""
    tracker, targets, hit = _uranus(1)
    assert len(targets) >= 20
    flagged = tracker.flagged()
    if targets <= hit:  # never cleared
        assert HIT in flagged and flagged[HIT].last == len(hit)
    else:
        assert HIT not in flagged
    out = play(engines()["for-the-motherland"], "4-uranus", 1, Settings(probe_every=0))
    assert (HIT in out.growth) == (HIT in flagged)


def test_census_flags_motherland_hit_with_the_old_bug_put_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine as it was on main before the fix (8.3.1's set of attacked hexes kept
    across phases), rebuilt by keeping ``hit`` through every phase start: flagged."""
    from engines.motherland import sequence
    from engines.motherland.state import MotherlandState

    fixed = sequence.push_phase

    def keep_hit(s: MotherlandState) -> None:
        kept = list(s.pos.hit)
        fixed(s)
        s.pos.hit = kept

    monkeypatch.setattr(sequence, "push_phase", keep_hit)
    tracker, targets, hit = _uranus(1)
    assert targets <= hit and len(targets) >= 20
    flagged = tracker.flagged()
    assert HIT in flagged and flagged[HIT].last == len(hit)
    assert not flagged[HIT].shrank


def test_bench_census_help() -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_census.py"), "--help"],
                          capture_output=True, text=True, check=False, timeout=60)
    assert done.returncode == 0
    assert "--games" in done.stdout and "--markdown" in done.stdout


def _bench_main() -> Any:
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("bench_census",
                                                  ROOT / "bench" / "bench_census.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_census"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module.main


def test_bench_census_load_adds_up_saved_chunks(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """A census run in chunks (several --save files) is reported as one by --load."""
    import json

    main = _bench_main()
    files = []
    for i, (scenario, games, rule) in enumerate((("1-barbarossa", 3, "8.3.1"),
                                                 ("4-uranus", 2, "8.3.1"),
                                                 ("4-uranus", 4, "9.2"))):
        part = CensusResult("for-the-motherland", games=games,
                            scenarios=Counter({scenario: games}), events=Counter({rule: i + 1}))
        f = tmp_path / f"chunk{i}.json"
        f.write_text(json.dumps(part.to_data()), encoding="utf-8")
        files.append(str(f))
    saved = tmp_path / "all.json"
    assert main(["for-the-motherland", "--load", files[0], "--load", *files[1:],
                 "--save", str(saved)]) == 0
    out = capsys.readouterr().out
    assert "9 games (1-barbarossa 3, 4-uranus 6)" in out
    assert "9 games from 3 saved file(s)" in out
    total = CensusResult.from_data(json.loads(saved.read_text(encoding="utf-8")))
    assert total.games == 9 and total.events == Counter({"8.3.1": 3, "9.2": 3})


def test_bench_census_load_refuses_another_engines_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    f = tmp_path / "wd.json"
    f.write_text(json.dumps(CensusResult("white-death", games=1).to_data()), encoding="utf-8")
    with pytest.raises(SystemExit) as exit_:
        _bench_main()(["for-the-motherland", "--load", str(f)])
    assert exit_.value.code == 2
    assert "census of white-death, not for-the-motherland" in capsys.readouterr().err


def test_accepted_unlisted_actions_are_counted_by_kind_past_the_examples_cap() -> None:
    """Only ten examples of accepted unlisted actions are kept; the count per kind is
    whole, so a kind no list offers (a bug like 0.3's 'deploy' on a train) shows in the
    report even when the examples are all of another kind."""
    chunks = []
    for n in range(3):
        out = CensusResult("x")
        out.accepted_unlisted = [f"fire {i} at u" for i in range(10)]
        out.accepted_unlisted_count = 10 + (n == 2)
        out.accepted_kinds = Counter({"fire": 10, **({"deploy": 1} if n == 2 else {})})
        chunks.append(CensusResult.from_data(out.to_data()))
    total = CensusResult("x")
    for chunk in chunks:
        total.merge(chunk)
    assert len(total.accepted_unlisted) == 10
    assert total.accepted_kinds == Counter({"fire": 30, "deploy": 1})
    text, _ = report(total, [], ())
    assert "Unlisted actions accepted (allowed for parameter variants): 31 (deploy 1, " \
        "fire 30), e.g." in text
    # a chunk saved before the count by kind existed still loads, counting none
    old = {k: v for k, v in chunks[0].to_data().items() if k != "accepted_kinds"}
    assert CensusResult.from_data(old).accepted_kinds == Counter()
