"""Hand-off time through Syncthing (issue 23): how long a turn file written by
'pbem send --folder' (an atomic rename) takes to appear in the other player's folder,
with Syncthing's default file-watch delay (fsWatcherDelayS=10) and with 1 s.

Two private instances on loopback (tests/transport/syncthing.py).  Usage:
    .venv/bin/python bench/bench_syncthing_handoff.py [SAMPLES]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "transport"))

from syncthing import start_pair, wait_for

from pbem.atomic import write_atomic


def measure(delay: int, samples: int) -> list[float]:
    with tempfile.TemporaryDirectory(prefix="pbem-handoff-") as root:
        pair = start_pair(Path(root), delay=delay)
        try:
            times = []
            for i in range(samples):
                name = f"0123456789ab-{i + 2:04d}-red.pbem"
                write_atomic(pair.a.folder / name, bytes(2000) + bytes([i]), 0o644)
                times.append(wait_for(lambda n=name: (pair.b.folder / n).exists(), 120,
                                      "hand-off", step=0.05))
                time.sleep(0.5)
            return times
        finally:
            pair.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("samples", nargs="?", type=int, default=5,
                        help="hand-offs to time (default 5)")
    samples = parser.parse_args().samples
    for delay in (10, 1):
        times = measure(delay, samples)
        print(f"fsWatcherDelayS={delay}: median {statistics.median(times):.1f} s, "
              f"min {min(times):.1f} s, max {max(times):.1f} s over {samples} files "
              f"({', '.join(f'{t:.1f}' for t in times)})")


if __name__ == "__main__":
    main()
