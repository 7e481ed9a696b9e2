"""Mail figures, against the same real servers the tests use (Postfix and Dovecot on loopback).

    python bench/bench_mail.py [--files 20] [--engine skirmish --scenario long]

Needs root and the Debian packages of ``.ci/install-mail.sh``.  Two homes play a game
through the servers: each sealed file is mailed with ``send_smtp`` (STARTTLS and login)
and the opponent polls ``fetch_imap`` (IMAPS) until the file is imported.  Prints the size
of the messages (total, attachment, armored fallback) and the time from the start of
``send`` to a completed ``fetch`` that imported the file (median, min, max), plus the
send and fetch parts alone.  Other engines: set ``PBEM_ENGINES`` and pass ``--engine``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOY = ROOT / "tests" / "toy"
sys.path.insert(0, str(TOY))
sys.path.insert(0, str(ROOT / "tests" / "transport"))
os.environ["PYTHONPATH"] = os.pathsep.join([str(TOY), os.environ.get("PYTHONPATH", "")])
if "toy_engine:ENGINE" not in os.environ.get("PBEM_ENGINES", ""):
    os.environ["PBEM_ENGINES"] = ",".join(
        filter(None, [os.environ.get("PBEM_ENGINES", ""), "toy_engine:ENGINE"]))

from mailserver import start_servers  # noqa: E402

from pbem.armor import armor  # noqa: E402
from pbem.envelope import peek  # noqa: E402
from pbem.session import Home  # noqa: E402
from pbem.testing import Chooser  # noqa: E402
from pbem.transport.base import Router  # noqa: E402
from pbem.transport.cli import describe  # noqa: E402
from pbem.transport.config import MailAccount  # noqa: E402
from pbem.transport.mail import compose, fetch_imap, message_bytes, send_smtp  # noqa: E402
from pbem.transport.state import HandledState  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=20, help="turn files to send")
    parser.add_argument("--engine", default="skirmish")
    parser.add_argument("--scenario", default="long")
    args = parser.parse_args()

    servers = start_servers()
    try:
        root = Path(tempfile.mkdtemp(prefix="pbem-bench-mail-"))
        homes = {}
        accounts = {}
        for user in ("alice", "bob"):
            home = Home(root / user)
            home.keys.create(user.title(), f"{user}@pbem.test", None)
            homes[user] = home
            a = servers.accounts[user]
            accounts[user] = MailAccount(
                address=a.address, smtp_host=servers.host, smtp_port=servers.submission_port,
                smtp_security="starttls", imap_host=servers.host,
                imap_port=servers.imaps_port, imap_security="tls", ca_file=str(servers.ca_file))
        alice, bob = homes["alice"], homes["bob"]
        game = alice.new_game(args.engine, args.scenario, _first_side(args.engine),
                              name="bench")
        bob.join(game.files[0], "invite", name="bench")
        alice.receive(bob.game("bench").files[1], "accept")
        chooser = Chooser("bench-mail")
        sizes: list[int] = []
        attachment: list[int] = []
        armored: list[int] = []
        total: list[float] = []
        send_t: list[float] = []
        fetch_t: list[float] = []
        polls: list[int] = []
        for _ in range(args.files):
            mover = next((h for h in (alice, bob) if h.game("bench").has_pen()), None)
            if mover is None:
                break
            g = mover.game("bench")
            sealed = None
            if g.my_decision() is None:  # sealed at once on receipt
                seq, data = g.file()
            else:
                while sealed is None:
                    _, _, sealed = g.act(chooser.pick(g.state.legal_actions()).notation())
                seq, data = g.file(sealed)
            user = "alice" if mover is alice else "bob"
            reader_user = "bob" if user == "alice" else "alice"
            reader = homes[reader_user]
            subject, summary = describe(g, seq, data)
            me = mover.card()
            opp = g.opponent()
            msg = compose(data, peek(data), sender=f"{me.name} <{me.email}>",
                          recipient=f"{opp.name} <{opp.email}>" if opp else "",
                          subject=subject, summary=summary)
            raw = message_bytes(msg)
            sizes.append(len(raw))
            attachment.append(len(data))
            armored.append(len(armor(data)))
            router = Router.for_home(reader, confirm=lambda i, c: True)
            state = HandledState.of_home(reader.path)
            t0 = time.perf_counter()
            send_smtp(accounts[user], servers.accounts[user].password, msg)
            t1 = time.perf_counter()
            n = 0
            while True:
                n += 1
                f0 = time.perf_counter()
                report = fetch_imap(accounts[reader_user], servers.accounts[reader_user].password,
                                    router, state)
                f1 = time.perf_counter()
                if any(o.status == "imported" for o in report.outcomes):
                    break
                if f1 - t0 > 60:
                    raise SystemExit(f"file {seq} never arrived\n{servers.logs()}")
                time.sleep(0.02)
            total.append(f1 - t0)
            send_t.append(t1 - t0)
            fetch_t.append(f1 - f0)
            polls.append(n)
            if reader.game("bench").result is not None:
                break
        print(f"mail bench: {len(total)} files of {args.engine}/{args.scenario} through "
              f"Postfix + Dovecot on loopback (STARTTLS submission, IMAPS)")
        print(f"  message size: median {statistics.median(sizes):,.0f} bytes "
              f"(min {min(sizes):,}, max {max(sizes):,}); attachment median "
              f"{statistics.median(attachment):,.0f} bytes, armored fallback median "
              f"{statistics.median(armored):,.0f} bytes")
        print(f"  send -> completed fetch: median {statistics.median(total) * 1000:.0f} ms "
              f"(min {min(total) * 1000:.0f}, max {max(total) * 1000:.0f}); fetch polls "
              f"median {statistics.median(polls):.0f}")
        print(f"  send alone: median {statistics.median(send_t) * 1000:.0f} ms; the fetch that "
              f"imported: median {statistics.median(fetch_t) * 1000:.0f} ms")
    finally:
        servers.stop()
        import shutil

        shutil.rmtree(servers.root, ignore_errors=True)


def _first_side(engine_id: str) -> str:
    from pbem.registry import get

    return get(engine_id).sides[0]


if __name__ == "__main__":
    main()
