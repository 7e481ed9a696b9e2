"""Selfplay timing of the for-the-motherland engine (issue 5: scenario 6 under 2 minutes).

    python bench/bench_motherland.py [SCENARIO] [SEEDS...]

Two random bots (pbem.testing.Chooser: SHA-256 choices, no Python ``random``) play the
scenario to the end; prints actions, rolls, seconds, the last turn and the result.
"""

from __future__ import annotations

import argparse
import sys
import time

from engines.motherland import ENGINE
from engines.motherland.state import MotherlandState
from pbem.testing import Chooser


def selfplay(scenario: str, seed: int, max_steps: int = 200_000) -> dict[str, object]:
    st = ENGINE.new_state(scenario)
    assert isinstance(st, MotherlandState)
    choose = Chooser(f"bench/{scenario}/{seed}")
    actions = rolls = 0
    t0 = time.perf_counter()
    while not st.is_terminal() and actions + rolls < max_steps:
        if st.is_chance():
            st.apply_outcome(choose.outcome(st.chance_request()))
            rolls += 1
        else:
            st.apply(choose.pick(st.legal_actions()))
            actions += 1
    result = st.result()
    return {"scenario": scenario, "seed": seed, "actions": actions, "rolls": rolls,
            "seconds": round(time.perf_counter() - t0, 1), "turn": st.turn,
            "result": result.level if result else "unfinished"}


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenario", nargs="?", default="6-for-the-motherland",
                        help="scenario id (default: 6-for-the-motherland)")
    parser.add_argument("seeds", nargs="*", type=int, help="seeds (default: 1)")
    args = parser.parse_args(argv)
    for seed in args.seeds or [1]:
        print(selfplay(args.scenario, seed), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
