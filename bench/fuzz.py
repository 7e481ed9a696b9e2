"""Coverage-guided fuzzing of every reader pbem has, with atheris (issue 20).

Run: ``.venv/bin/python bench/fuzz.py`` (every target, 60 s each), ``--target envelope
--seconds 600`` for one, ``--hour`` for an hour per target.  Needs ``pip install
atheris`` (the ``fuzz`` extra).  Each target runs in a process of its own under
libFuzzer, with the hostile corpus (``tests/hostile/cases``) and its own growing corpus
(``bench/fuzz-corpus/<target>``, not in git) as seeds.  A crash is any exception other
than the named errors a reader may raise (``PbemError``); libFuzzer keeps its input in
``bench/fuzz-crashes/<target>/``, and ``--add-crashes`` copies those into the hostile
corpus as ``crash-*`` cases, where the corpus runner replays them through the CLI.

Targets: ``canonical`` (the strict msgpack decoder), ``envelope`` (parse and verify any
kind), ``armor`` (dearmor and read_any), ``card`` (identity cards, binary and JSON),
``body-white-death`` / ``body-motherland`` / ``body-skirmish`` (a genuine turn body with
a field, a record or an action text replaced by fuzz, re-signed with the sender's real
key, verified against the real engine), ``mail`` (MIME parsing and extraction), ``toml``
(scenario files through the scenario loader).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "bench" / "fuzz-corpus"
CRASHES = ROOT / "bench" / "fuzz-crashes"
HOSTILE = ROOT / "tests" / "hostile"
TARGETS = ("canonical", "envelope", "armor", "card", "body-white-death", "body-motherland",
           "body-skirmish", "mail", "toml")

Check = Callable[[bytes], None]


# --- the targets (each returns the function libFuzzer calls) ------------------------------


def _canonical() -> Check:
    from pbem import canonical
    from pbem.errors import PbemError

    def check(data: bytes) -> None:
        try:
            value = canonical.decode(data)
        except PbemError:
            return
        # what decodes is canonical: it encodes to the very same bytes
        assert canonical.encode(value) == data

    return check


def _envelope() -> Check:
    from pbem.envelope import KINDS, open_envelope, peek
    from pbem.errors import PbemError

    def check(data: bytes) -> None:
        try:
            env = open_envelope(data, kinds=KINDS, max_size=len(data) + 1)
            env.decode()
            peek(data)
        except PbemError:
            return

    return check


def _armor() -> Check:
    from pbem.armor import dearmor_all, read_any
    from pbem.errors import PbemError

    def check(data: bytes) -> None:
        with contextlib.suppress(PbemError):
            read_any(data)
        with contextlib.suppress(PbemError):
            dearmor_all(data.decode("utf-8", "replace"))

    return check


def _card() -> Check:
    from pbem import canonical
    from pbem.errors import PbemError
    from pbem.identity import Card

    def check(data: bytes) -> None:
        with contextlib.suppress(PbemError):
            Card.from_data(canonical.decode(data))
        # ValueError, RecursionError: json.loads itself, not our reader
        with contextlib.suppress(PbemError, ValueError, RecursionError):
            Card.from_json(json.loads(data.decode("utf-8", "replace")))

    return check


def _body(engine: str, scenario: str) -> Check:
    """A genuine turn of ``engine`` a few files in, mutated by the fuzzer and re-signed."""
    import atheris

    from pbem import canonical
    from pbem.envelope import open_envelope, seal
    from pbem.errors import PbemError
    from pbem.registry import get
    from pbem.session import Home
    from pbem.testing import Chooser, play_file
    from pbem.transcript import Verifier

    root = Path(tempfile.mkdtemp(prefix="pbem-fuzz-"))
    homes = []
    for name in ("a", "b"):
        home = Home(root / name, clock=lambda: 1_700_000_000)
        home.keys.create(name, "", None, secret=hashlib.sha256(name.encode()).digest())
        homes.append(home)
    a, b = homes
    sides = get(engine).sides
    ga = a.new_game(engine, scenario, sides[0], name="g", nonce=bytes(32))
    gb = b.join(ga.files[0], "invite", name="g")
    a.receive(gb.files[1], "accept", loaded=ga)
    games = {id(a): ga, id(b): gb}
    chooser = Chooser(f"fuzz {engine}")
    sender = a
    for _ in range(5):
        sender = next(h for h in homes if games[id(h)].my_decision() is not None)
        g = games[id(sender)]
        seq = play_file(g, chooser)
        data = g.file(seq)[1]
        receiver = b if sender is a else a
        receiver.receive(data, "f", loaded=games[id(receiver)])
    receiver = b if sender is a else a
    # the receiver's verifier just before the last file: rebuilt for every accepted input
    files = games[id(receiver)].files[:-1]
    genuine = canonical.decode(canonical.decode(data)[5])
    invite = open_envelope(files[0])
    eng = get(engine)

    def fresh() -> Verifier:
        v = Verifier(eng, invite)
        for raw in files[1:]:
            v.add(open_envelope(raw), dict(enumerate(files)), transactional=False)
        return v

    state = {"verifier": fresh()}
    identity = sender.identity()
    keys = sorted(k for k in genuine if k != "kind")

    def value(fdp: Any, depth: int = 0) -> Any:
        kind = fdp.ConsumeIntInRange(0, 7 if depth < 3 else 4)
        if kind == 0:
            return None
        if kind == 1:
            return fdp.ConsumeBool()
        if kind == 2:
            return fdp.ConsumeIntInRange(-(2**63), 2**64 - 1)
        if kind == 3:
            return fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 60))
        if kind == 4:
            return fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 40))
        if kind in (5, 6):
            return [value(fdp, depth + 1) for _ in range(fdp.ConsumeIntInRange(0, 4))]
        return {fdp.ConsumeUnicodeNoSurrogates(8): value(fdp, depth + 1)
                for _ in range(fdp.ConsumeIntInRange(0, 3))}

    def check(data: bytes) -> None:
        fdp = atheris.FuzzedDataProvider(data)
        body = canonical.decode(canonical.encode(genuine))
        records = body["records"]
        choice = fdp.ConsumeIntInRange(0, 5)
        if choice == 0 and records:  # an action's text replaced
            i = fdp.ConsumeIntInRange(0, len(records) - 1)
            records[i] = [fdp.PickValueInList(["a", "o"]),
                          fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 80))]
        elif choice == 1:  # a record of any shape
            records.insert(fdp.ConsumeIntInRange(0, len(records)), value(fdp, 1))
        elif choice == 2 and records:  # a record dropped or duplicated
            i = fdp.ConsumeIntInRange(0, len(records) - 1)
            if fdp.ConsumeBool():
                del records[i]
            else:
                records.insert(i, records[i])
        elif choice == 3:  # any field replaced
            body[fdp.PickValueInList(keys)] = value(fdp)
        elif choice == 4:  # standing orders of any shape
            body["orders"] = value(fdp)
        else:  # a roll's outcome replaced
            rolls = [r for r in records if r and r[0] == "r"]
            if rolls:
                fdp.PickValueInList(rolls)[2] = value(fdp, 1)
        body.pop("kind")
        try:
            env = open_envelope(seal(identity, "turn", body))
        except PbemError:
            return  # not encodable (a value out of range): nothing to send
        try:
            state["verifier"].add(env, dict(enumerate(files)))
        except PbemError:
            return
        state["verifier"] = fresh()  # accepted: the genuine file or its equal

    return check


def _mail() -> Check:
    from pbem.transport.mail import extract

    def check(data: bytes) -> None:
        scan = extract(data, "fuzz")  # never raises: a refusal is a note
        assert all(o.final for o in scan.refused)

    return check


def _toml() -> Check:
    from engines.hexkit.scenario import load_scenario_path
    from pbem.errors import PbemError

    folder = Path(tempfile.mkdtemp(prefix="pbem-fuzz-toml-"))

    def check(data: bytes) -> None:
        (folder / "fuzz.toml").write_bytes(data)
        try:
            loaded = load_scenario_path(folder)
            for name in loaded.tables:
                _ = loaded.tables[name]
        except PbemError:
            return

    return check


def make(target: str) -> Check:
    if target.startswith("body-"):
        engine, scenario = {"body-white-death": ("white-death", "final-relief"),
                            "body-motherland": ("for-the-motherland", "4-uranus"),
                            "body-skirmish": ("skirmish", "long")}[target]
        return _body(engine, scenario)
    return {"canonical": _canonical, "envelope": _envelope, "armor": _armor, "card": _card,
            "mail": _mail, "toml": _toml}[target]()


# --- seeds ---------------------------------------------------------------------------------


def seeds(target: str, folder: Path) -> None:
    """Start from what the readers really see: the hostile corpus and real files."""
    folder.mkdir(parents=True, exist_ok=True)
    sources: list[Path] = []
    if target in ("canonical", "envelope", "armor", "card", "mail"):
        sources += sorted((HOSTILE / "cases").glob("*"))
        sources += sorted((ROOT / "tests" / "data" / "transcript").glob("*.pbem"))
    if target == "toml":
        sources += sorted((ROOT / "scenarios").rglob("*.toml"))
    for src in sources:
        if src.is_file() and src.stat().st_size < 1 << 20:
            data = src.read_bytes()
            shutil.copyfile(src, folder / hashlib.sha1(data).hexdigest())


# --- running ---------------------------------------------------------------------------------


def run_one(target: str, seconds: int) -> None:
    """In this process: fuzz ``target`` for ``seconds`` under libFuzzer."""
    import atheris

    sys.path.insert(0, str(ROOT / "tests" / "toy"))
    os.environ.setdefault("PBEM_ENGINES", "toy_engine:ENGINE")
    # the readers, imported under instrumentation so libFuzzer sees their branches
    with atheris.instrument_imports(include=["pbem", "engines"]):
        for module in ("engines.hexkit.scenario", "pbem.armor", "pbem.canonical",
                       "pbem.envelope", "pbem.identity", "pbem.transcript",
                       "pbem.transport.mail"):
            importlib.import_module(module)
    check = make(target)
    corpus = CORPUS / target
    crashes = CRASHES / target
    crashes.mkdir(parents=True, exist_ok=True)
    seeds(target, corpus)
    args = [sys.argv[0], str(corpus), f"-max_total_time={seconds}", "-timeout=20",
            "-rss_limit_mb=2048", "-max_len=65536", f"-artifact_prefix={crashes}/",
            "-print_final_stats=1"]
    atheris.Setup(args, check)
    atheris.Fuzz()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", action="append", choices=TARGETS,
                        help="a target (repeatable; default: every one)")
    parser.add_argument("--seconds", type=int, default=60, help="per target (default 60)")
    parser.add_argument("--hour", action="store_true", help="an hour per target")
    parser.add_argument("--run", choices=TARGETS, help=argparse.SUPPRESS)
    parser.add_argument("--add-crashes", action="store_true",
                        help="copy the crashes found into the hostile corpus")
    args = parser.parse_args()
    seconds = 3600 if args.hour else args.seconds
    if args.run:
        run_one(args.run, seconds)
        return 0
    if args.add_crashes:
        return add_crashes()
    print(f"{'target':18} {'seconds':>7} {'runs':>10} {'cov':>6} {'corpus':>7} {'crashes':>7}")
    found = 0
    for target in args.target or TARGETS:
        before = set((CRASHES / target).glob("*")) if (CRASHES / target).exists() else set()
        start = time.monotonic()
        proc = subprocess.run([sys.executable, __file__, "--run", target, "--seconds",
                               str(seconds)], capture_output=True, text=True, check=False)
        took = time.monotonic() - start
        log = proc.stdout + proc.stderr
        runs = re.findall(r"stat::number_of_executed_units: (\d+)", log)
        cov = re.findall(r"cov: (\d+)", log)
        new = set((CRASHES / target).glob("*")) - before if (CRASHES / target).exists() \
            else set()
        size = len(list((CORPUS / target).glob("*"))) if (CORPUS / target).exists() else 0
        found += len(new)
        print(f"{target:18} {took:7.0f} {runs[-1] if runs else '?':>10} "
              f"{cov[-1] if cov else '?':>6} {size:7} {len(new):7}")
        if new or (proc.returncode != 0 and not runs):
            print("\n".join(log.splitlines()[-30:]))
    print(f"crashes found: {found}" + (" (bench/fuzz.py --add-crashes puts them in the "
                                      "hostile corpus)" if found else ""))
    return 1 if found else 0


def add_crashes() -> int:
    """Each crash input becomes a hostile-corpus case (receive must name it)."""
    manifest_path = HOSTILE / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    names = {c["name"] for c in manifest["cases"]}
    added = 0
    for path in sorted(CRASHES.glob("*/crash-*")):
        name = f"crash-{path.parent.name}-{path.name[6:18]}"
        if name in names:
            continue
        shutil.copyfile(path, HOSTILE / "cases" / f"{name}.pbem")
        manifest["cases"].append({"name": name, "base": "before", "command": "receive",
                                  "codes": [2, 3, 4, 5, 6, 7, 8, 9, 13], "cause": "",
                                  "save": "unchanged", "special": "",
                                  "why": f"found by bench/fuzz.py ({path.parent.name})",
                                  "file": f"{name}.pbem"})
        added += 1
    manifest_path.write_text(json.dumps(manifest, indent=1) + "\n")
    print(f"{added} crashes added to {manifest_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
