"""Golden game records: every engine's games pinned as data (python-chess's perft files).

For each scenario of an engine and each of :data:`SEEDS`, two bots play a game through
real signed files, capped after :data:`MAX_ACTIONS` actions (:func:`pbem.selfplay.selfplay`).
The game is then replayed from its files into a *text record*: at each decision the side,
kind, rule, default and the whole sorted set of legal actions; each action; each chance
request with its dice or cup, purpose and rule, and its outcome; each event; the result.
``tests/data/golden/<engine>.txt`` holds one line per game: the selfplay counts, the
SHA-256 of the text record, the final state digest and the result.  The contract suite
recomputes each line and compares.

The text record is what a refactor must keep (actions, rolls, events, legal sets); the
state digest moves with the snapshot's bytes alone.  A change that alters a game
re-records the files in the same commit, raising the engine's ``rules_version``, and says
why::

    .venv/bin/python bench/record_golden.py            # every engine, every scenario
    .venv/bin/python bench/record_golden.py skirmish   # one engine
    .venv/bin/python bench/record_golden.py --dump /tmp/before   # also the text records

``--dump`` writes each game's whole text record.  The dice of a selfplay game come from
its game id, which pins ``rules_version``: raising it gives every golden game new rolls.
So the proof that a refactor changed no game (issue 12) replays the records themselves::

    .venv/bin/python bench/record_golden.py --dump /tmp/before    # before the change
    .venv/bin/python bench/record_golden.py --check /tmp/before   # after it

``--check`` applies every recorded action and outcome again through the engines installed
now and requires the same decisions, legal sets, rolls asked for, events and result.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pbem import canonical, history
from pbem.atomic import write_atomic
from pbem.engine import Engine, Event, State
from pbem.registry import engines as installed_engines
from pbem.registry import get as get_engine
from pbem.selfplay import selfplay

#: seeds played for every scenario
SEEDS: tuple[int, ...] = (1, 2)
#: actions per game (the capped file's unsealed actions are in the record too): enough for
#: a short scenario of the test engine to end, few enough to keep the whole check within
#: CI's budget (a White Death impulse alone can take more: its records pin movement)
MAX_ACTIONS = 60

HEADER = """\
# Golden games of engine {engine} (rules_version {version}); pbem/golden.py says what
# each field is.  One line per scenario and seed: two bots play through real signed
# files, capped after {actions} actions; record = SHA-256 of the game's text record (every
# decision with its legal actions, action, roll and event), state = the final digest.
# Re-record after a change that alters a game (raise rules_version and say why):
#     .venv/bin/python bench/record_golden.py {engine}
"""


@dataclass(frozen=True)
class GoldenGame:
    """One golden line: a capped selfplay game and the digest of its text record."""

    scenario: str
    seed: int
    files: int
    actions: int
    rolls: int
    record: str
    state: str
    result: str

    def line(self) -> str:
        return (f"{self.scenario} seed={self.seed} files={self.files} actions={self.actions} "
                f"rolls={self.rolls} record={self.record} state={self.state} "
                f"result={self.result}")

    @staticmethod
    def parse(line: str) -> GoldenGame:
        head, sep, result = line.partition(" result=")
        fields = head.split()
        if not sep or len(fields) != 7:
            raise ValueError(f"not a golden line: {line!r}")
        values = dict(f.split("=", 1) for f in fields[1:])
        return GoldenGame(fields[0], int(values["seed"]), int(values["files"]),
                          int(values["actions"]), int(values["rolls"]), values["record"],
                          values["state"], result)


def _event_lines(events: Iterable[Event]) -> list[str]:
    out = []
    for e in events:
        to = f" [to {','.join(e.visible_to)}]" if e.visible_to else ""
        where = f" @{','.join(e.hexes)}" if e.hexes else ""
        out.append(f"  event {e.kind}{to}{where}: {e.text}")
    return out


def _decision_lines(state: State) -> list[str]:
    decision = state.decision()
    assert decision is not None
    default = decision.default.notation() if decision.default is not None else "-"
    legal = sorted(a.notation() for a in state.legal_actions())
    return [f"decide {decision.side} {decision.kind} ({decision.rule}) default={default} "
            f"legal={len(legal)}", *(f"  legal {a}" for a in legal)]


def text_record(engine: Engine, scenario: str, options: dict[str, str],
                records: Sequence[Sequence[object]]) -> list[str]:
    """Replay a game's file records (``["a"|"o", text]``, ``["r", i, outcome]``) into its
    text record.  Records of any other shape are refused: this reads our own files."""
    state = engine.new_state(scenario, options)
    lines = [f"game {engine.id} {scenario} options={canonical.encode(options).hex()}"]
    for n, data in enumerate(records):
        record = history.read(list(data), f"record {n}")
        if isinstance(record, history.Rolled):
            request = state.chance_request()
            lines.append(f"chance {request.describe()}: {request.purpose} ({request.rule}) -> "
                         + json.dumps(list(record.outcome)))
            lines += _event_lines(state.apply_outcome(record.outcome))
            continue
        lines += _decision_lines(state)
        player = state.current_player()
        ordered = isinstance(record, history.Ordered)
        lines.append(f"{'order' if ordered else 'act'} {player}: {record.text}")
        lines += _event_lines(state.apply(record.text, order=ordered))
    result = state.result()
    lines.append(f"result: {result.text}" if result else
                 f"stopped: {state.current_player()} to act, turn {state.turn_number()}")
    return lines


def records_of(lines: Sequence[str]) -> tuple[str, str, dict[str, str], list[list[object]]]:
    """Engine, scenario, options and the action and roll records of a dumped text record."""
    head = lines[0].split()
    if len(head) != 4 or head[0] != "game" or not head[3].startswith("options="):
        raise ValueError(f"not a text record: {lines[0]!r}")
    options = canonical.decode(bytes.fromhex(head[3].removeprefix("options=")))
    records: list[list[object]] = []
    for line in lines[1:]:
        if line.startswith(("act ", "order ")):
            text = line.split(": ", 1)[1]
            records.append(history.wire(history.Acted(text) if line.startswith("act ")
                                        else history.Ordered(text)))
        elif line.startswith("chance "):
            outcome = tuple(json.loads(line.rsplit(" -> ", 1)[1]))
            records.append(history.wire(history.Rolled(0, outcome)))
    return head[1], head[2], options, records


def check_dumps(folder: Path) -> list[str]:
    """Replay every dumped text record in ``folder`` (``--dump`` of an earlier run) through
    the engines installed now: the issue-12 proof that a refactor changed no game.  Each
    recorded action and outcome is applied again; the new record must equal the old one
    line for line, except that legal actions may be listed in another order (they are
    sorted) .  Returns the differences, one per game, empty when none."""
    problems = []
    for path in sorted(folder.glob("*.txt")):
        old = path.read_text(encoding="utf-8").splitlines()
        engine_id, scenario, options, records = records_of(old)
        try:
            new = text_record(get_engine(engine_id), scenario, options, records)
        except Exception as exc:  # a refused action is the finding, reported per game
            problems.append(f"{path.name}: replay stopped: {exc}")
            continue
        for n, (a, b) in enumerate(zip(old, new, strict=False), 1):
            if a != b:
                problems.append(f"{path.name}:{n}: was {a!r}, now {b!r}")
                break
        else:
            if len(old) != len(new):
                problems.append(f"{path.name}: {len(old)} lines, now {len(new)}")
    return problems


def _file_records(files_dir: Path) -> list[list[object]]:
    """The records of every turn file, in sequence order (selfplay names files by seq)."""
    out: list[list[object]] = []
    for path in sorted(files_dir.glob("*.pbem")):
        body = canonical.decode(canonical.decode(path.read_bytes())[5])
        out += body.get("records", [])
    return out


def play(engine_id: str, scenario: str, seed: int, directory: Path, *,
         dump: Path | None = None) -> GoldenGame:
    """Play one golden game with its files in ``directory/files``; digest its record."""
    engine = get_engine(engine_id)
    out = selfplay(engine_id, scenario, seed, directory, max_actions=MAX_ACTIONS)
    if out.desyncs:
        raise AssertionError(f"{engine_id} {scenario} seed {seed}: desync in selfplay")
    lines = text_record(engine, scenario, engine.resolve_options({}),
                        _file_records(directory / "files") + out.unsealed)
    text = "\n".join(lines) + "\n"
    if dump is not None:
        dump.mkdir(parents=True, exist_ok=True)
        write_atomic(dump / f"{engine_id}.{scenario}.{seed}.txt", text.encode(), 0o644)
    return GoldenGame(scenario, seed, out.files, out.actions, out.rolls,
                      hashlib.sha256(text.encode()).hexdigest()[:32], out.digest[:32],
                      out.result)


def games(engine_id: str) -> list[tuple[str, int]]:
    """Every (scenario, seed) the golden file of ``engine_id`` holds, in file order."""
    return [(s.id, seed) for s in get_engine(engine_id).scenarios() for seed in SEEDS]


def read(path: Path) -> dict[tuple[str, int], GoldenGame]:
    out: dict[tuple[str, int], GoldenGame] = {}
    for n, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip() or raw.startswith("#"):
            continue
        try:
            game = GoldenGame.parse(raw)
        except (ValueError, KeyError) as exc:
            raise ValueError(f"{path}:{n}: {exc}") from None
        out[(game.scenario, game.seed)] = game
    return out


def record(engine_id: str, directory: Path, *, dump: Path | None = None) -> Path:
    engine = get_engine(engine_id)
    lines = []
    for scenario, seed in games(engine_id):
        with tempfile.TemporaryDirectory(prefix="pbem-golden-") as tmp:
            lines.append(play(engine_id, scenario, seed, Path(tmp), dump=dump).line())
    path = directory / f"{engine_id}.txt"
    text = HEADER.format(engine=engine_id, version=engine.rules_version, actions=MAX_ACTIONS)
    write_atomic(path, (text + "\n".join(lines) + "\n").encode(), 0o644)
    return path


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="record_golden", description="Re-record the golden games of installed engines.")
    parser.add_argument("engines", nargs="*", help="engine ids (default: every installed one)")
    parser.add_argument("--dir", type=Path, default=Path("tests/data/golden"),
                        help="where the golden files go (default: tests/data/golden)")
    parser.add_argument("--dump", type=Path, default=None,
                        help="also write every game's whole text record into this folder")
    parser.add_argument("--check", type=Path, default=None, metavar="DUMP",
                        help="record nothing: replay the text records a --dump wrote "
                             "through the engines now, and list every game that differs")
    args = parser.parse_args(argv)
    if args.check is not None:
        problems = check_dumps(args.check)
        for line in problems:
            print(line)
        print(f"{len(list(args.check.glob('*.txt')))} games replayed, "
              f"{len(problems)} differ", file=sys.stderr)
        return 1 if problems else 0
    ids = args.engines or list(installed_engines())
    args.dir.mkdir(parents=True, exist_ok=True)
    for engine_id in ids:
        path = record(engine_id, args.dir, dump=args.dump)
        print(f"recorded {path}", file=sys.stderr)
    return 0
