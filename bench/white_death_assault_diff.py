"""Where do White Death games recorded under an older rules version first differ now?

    .venv/bin/python bench/white_death_assault_diff.py DUMP_DIR

``DUMP_DIR`` holds text records written by ``bench/record_golden.py --dump`` or
``bench/dump_whole_games.py``.  Each game's action and roll records are replayed through
the engine installed now; the records (decisions, legal actions, actions, rolls) are
compared line by line, events aside (``record_golden.py --check`` compares events too, so
a reworded or added report line makes every game differ).  For each game that differs,
the first differing record is printed with the hexes of the assault phase it is in
(issue 13: rules 0.6 changed the dice only in assault phases of two hexes or more).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem import history  # noqa: E402
from pbem.engine import Engine  # noqa: E402
from pbem.golden import _decision_lines, records_of  # noqa: E402
from pbem.registry import get  # noqa: E402


def replay(engine: Engine, scenario: str, options: dict[str, str],
           records: list[list[object]]) -> list[str]:
    """The record lines (no events) of the game replayed now, up to where it stops."""
    state = engine.new_state(scenario, options)
    lines: list[str] = []
    try:
        for data in records:
            record = history.read(list(data), "record")
            if isinstance(record, history.Rolled):
                request = state.chance_request()
                lines.append(f"chance {request.describe()}: {request.purpose} "
                             f"({request.rule}) -> " + json.dumps(list(record.outcome)))
                state.apply_outcome(record.outcome)
                continue
            lines += _decision_lines(state)
            ordered = isinstance(record, history.Ordered)
            lines.append(f"{'order' if ordered else 'act'} {state.current_player()}: "
                         f"{record.text}")
            state.apply(record.text, order=ordered)
    except Exception as exc:  # where the old records no longer fit is the finding
        lines.append(f"replay stopped: {exc}")
    return lines


def assault_hexes(old: list[str], at: int) -> list[str]:
    """The hexes fired at in the assault phase around line ``at`` of an old record."""
    begins = [i for i in range(at) if "The assault phase begins" in old[i]]
    if not begins:
        return []
    hexes = []
    for line in old[begins[-1]:]:
        if line.startswith("decide") and (" impulse-mps " in line or " movement " in line):
            break
        if ": Assault fire at " in line:
            hexes.append(line.rsplit(" ", 1)[1])
    return hexes


def main(folder: Path) -> int:
    same = differ = 0
    for path in sorted(folder.glob("*.txt")):
        old = path.read_text(encoding="utf-8").splitlines()
        engine_id, scenario, options, records = records_of(old)
        new = replay(get(engine_id), scenario, options, records)
        kept = [i for i, line in enumerate(old) if i > 0 and not line.startswith(
            ("  event", "result", "stopped"))]
        first = next((n for n, (i, b) in enumerate(zip(kept, new, strict=False))
                      if old[i] != b), None)
        if first is None and len(kept) == len(new):
            same += 1
            print(f"{path.name}: same")
            continue
        differ += 1
        first = min(len(kept), len(new)) if first is None else first
        at = kept[first] if first < len(kept) else len(old) - 1
        print(f"{path.name}: first differs at line {at + 1}: {old[at]!r}, now "
              f"{new[first] if first < len(new) else '(end)'!r}; assault phase hexes "
              f"{assault_hexes(old, at)}")
    print(f"{same} the same, {differ} differ")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description="Where White Death records of an older rules version first differ "
                    "now, and in which assault phase (events aside).")
    parser.add_argument("dump_dir", type=Path,
                        help="records written by record_golden.py --dump or "
                             "dump_whole_games.py")
    sys.exit(main(parser.parse_args().dump_dir))
