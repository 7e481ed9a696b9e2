"""Core figures: transcript verification, file sizes, cold start.

    python bench/bench_core.py [--files 1000]

Prints: time to verify a transcript of N files (per file), the share of that time spent
verifying Ed25519 signatures, the size of a typical turn file (binary and armored), and
the cold-start time of `pbem status` (a fresh process, median of 7 runs).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOY = ROOT / "tests" / "toy"
sys.path.insert(0, str(TOY))
os.environ["PYTHONPATH"] = os.pathsep.join([str(TOY), os.environ.get("PYTHONPATH", "")])
os.environ["PBEM_ENGINES"] = "toy_engine:ENGINE"

from pbem import canonical  # noqa: E402
from pbem.armor import armor  # noqa: E402
from pbem.audit import audit  # noqa: E402
from pbem.envelope import signing_message  # noqa: E402
from pbem.identity import verify  # noqa: E402
from pbem.selfplay import selfplay  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        t0 = time.perf_counter()
        result = selfplay("skirmish", "marathon", 1, work / "play")
        print(f"made transcript: {result.line()} ({time.perf_counter() - t0:.1f} s)")
        files = sorted((work / "play" / "files").iterdir())[: args.files]
        datas = [(p.name, p.read_bytes()) for p in files]
        n = len(datas)
        t0 = time.perf_counter()
        report = audit(datas)
        total = time.perf_counter() - t0
        assert report.clean, report.problems
        t0 = time.perf_counter()
        for _, data in datas:
            env = canonical.decode(data)
            verify(env[3], signing_message(env[2], env[5]), env[4])
        sig = time.perf_counter() - t0
        turns = [len(d) for name, d in datas[2:]]
        typical = int(statistics.median(turns))
        armored = int(statistics.median(len(armor(d)) for _, d in datas[2:]))
        print(f"verify transcript: {n} files in {total:.2f} s = {1000 * total / n:.2f} ms/file")
        print(f"  signature verification: {1000 * sig / n:.3f} ms/file "
              f"= {100 * sig / total:.0f}% of the time")
        print(f"turn file size: median {typical} bytes binary, {armored} bytes armored "
              f"(max {max(turns)} bytes)")
        # cold start of `pbem status` against a home holding a 1,000-file game
        home = work / "play" / "home-a"
        pbem = Path(sys.executable).with_name("pbem")
        times = []
        for _ in range(7):
            t0 = time.perf_counter()
            subprocess.run([str(pbem), "--home", str(home), "status"], check=True,
                           capture_output=True)
            times.append(time.perf_counter() - t0)
        print(f"pbem status cold start: median {1000 * statistics.median(times):.0f} ms "
              f"(min {1000 * min(times):.0f} ms, a home with one {n}-file game)")
        t0 = time.perf_counter()
        subprocess.run([str(pbem), "--help"], check=True, capture_output=True)
        print(f"pbem --help: {1000 * (time.perf_counter() - t0):.0f} ms")


if __name__ == "__main__":
    main()
