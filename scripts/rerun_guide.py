"""Re-run docs/guide.md's walkthrough (sections 2-6) and paste its real output back.

    python scripts/rerun_guide.py            # print the transcript
    python scripts/rerun_guide.py --paste    # and replace the guide's command blocks

Two fresh homes under /tmp/guide/run (Erich, German; Ivan, Soviet) play the commands the
guide shows, at a pseudo-terminal 92 columns wide without colour, answering the
fingerprint questions and typing at the 'play' prompt as the guide does.  Their files
travel through one folder, /tmp/guide/run/shared, standing for a folder a sync tool
shares; each 'pbem watch' runs a few seconds (shown as the plain 'pbem watch' a player
leaves running).  The keys are
new each run, so the dice are too; the script runs again (up to --tries times) until the
German still has a decision after 'done firing', as the guide's text tells it.
"""

from __future__ import annotations

import argparse
import glob
import os
import re
import shutil
import sys
from pathlib import Path

import pexpect

ROOT = Path("/tmp/guide/run")
MAIL = ROOT / "mail"
SHARED = ROOT / "shared"
#: how long each 'pbem watch' of the walkthrough runs (the guide shows 'pbem watch')
WATCH = ["watch", "--for", "3", "--interval", "0.5"]
BIN = Path(sys.executable).parent
GUIDE = Path(__file__).resolve().parent.parent / "docs" / "guide.md"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]")
#: the guide's command blocks, in order, and which commands of the run each one shows
BLOCKS = [[0], [1], [2], [3], [4, 5], list(range(6, 13)), [13, 14], [15, 16, 17],
          [18, 19, 20]]


class Stopped(Exception):
    """The game went otherwise than the guide tells (the dice): run again."""


def env(who: str) -> dict[str, str]:
    home = ROOT / "home" / who
    home.mkdir(parents=True, exist_ok=True)
    out = {k: v for k, v in os.environ.items() if not k.startswith("PBEM")}
    out.update(HOME=str(home), PATH=f"{BIN}:/usr/bin:/bin", COLUMNS="92", LINES="50",
               TERM="dumb", NO_COLOR="1", XDG_DATA_HOME=f"{home}/.local/share")
    return out


def pbem(who: str, args: list[str], answers: list[tuple[str, str]] | None = None) -> str:
    child = pexpect.spawn("pbem", args, cwd=str(MAIL), env=env(who), timeout=120,
                          encoding="utf-8", dimensions=(50, 92))
    seen: list[str] = []

    class Log:
        def write(self, text: str) -> None:
            seen.append(text)

        def flush(self) -> None:
            pass

    child.logfile_read = Log()
    for pattern, reply in answers or []:
        if child.expect([pattern, pexpect.EOF]) == 1:
            raise Stopped(f"pbem {' '.join(args)} ended before {pattern!r}")
        child.sendline(reply)
    child.expect(pexpect.EOF)
    child.close()
    text = ANSI.sub("", "".join(seen)).replace("\r\n", "\n").replace("\r", "")
    shown = " ".join(a if a and " " not in a else f'"{a}"' for a in args)
    shown = re.sub(r"(audit) (?:\S+\.pbem ?)+", r"\1 *.pbem ", shown).rstrip()
    shown = shown.replace(" ".join(WATCH), "watch")
    return f"$ pbem {shown}\n{text.strip(chr(10))}".rstrip()


def one(pattern: str) -> str:
    [found] = glob.glob(str(SHARED / pattern))
    return found


def walkthrough() -> list[str]:
    shutil.rmtree(ROOT, ignore_errors=True)
    MAIL.mkdir(parents=True)
    SHARED.mkdir(parents=True)
    out = [pbem("erich", ["id", "new", "Erich", "--email", "erich@example.org"])]
    pbem("ivan", ["id", "new", "Ivan", "--email", "ivan@example.org"])
    out.append(pbem("erich", ["engines"]))
    # open dice: the walkthrough shows each roll as it is made (section 6 says why sealed
    # is the default)
    out.append(pbem("erich", ["new", "white-death", "purkayev", "--side", "german",
                              "--dice", "open", "--name", "luki", "--folder", str(SHARED)]))
    out.append(pbem("ivan", ["join", one("*-0000-german.pbem"), "--name", "luki",
                             "--folder", str(SHARED)], [("Does it match", "y")]))
    out.append(pbem("erich", WATCH, [("Does it match", "y")]))
    out.append(pbem("ivan", WATCH))
    out.append(pbem("ivan", ["legal", "luki"]))
    for action in ("impulse 4", "move 1/31R 3703 3705", "move 1/31X 3703 3702",
                   "move 1/31R 3703 3702"):
        out.append(pbem("ivan", ["act", "luki", action]))
    out.append(pbem("ivan", ["legal", "luki", "1/31R"]))
    out.append(pbem("ivan", ["act", "luki", "assault 3801 with 1188/357", "end movement"]))
    out.append(pbem("erich", WATCH))
    out.append(pbem("erich", ["play", "luki", "--fast"],
                    [("german> ", "legal"), ("german> ", "2"), ("german> ", ""),
                     ("german> ", "quit")]))
    out.append(pbem("ivan", ["status"]))
    out.append(pbem("erich", ["list"]))
    out.append(pbem("erich", ["send", "luki"]))
    files = sorted(str(p) for p in SHARED.glob("*.pbem"))
    for extra in ([], ["--roll", "2.0"], ["--roll", "5.7"]):
        out.append(pbem("erich", ["audit", *files, *extra]))
    return out


def paste(commands: list[str]) -> None:
    """Each command block of the guide's walkthrough gets this run's output; the game id
    in the prose follows."""
    text = GUIDE.read_text(encoding="utf-8")
    old_id = re.search(r"(\w{12})-0000-german\.pbem", text)
    parts = text.split("```")
    blocks = [i for i in range(1, len(parts), 2) if parts[i].lstrip("\n").startswith("$ pbem")
              and not any(w in parts[i] for w in ("orders g", "selfplay", "board luki",
                                                  "--html", "--pace", "agreed pace",
                                                  "nudge", "legal mort",
                                                  "the lobby of your games"))]
    assert len(blocks) == len(BLOCKS), f"the guide has {len(blocks)} walkthrough blocks"
    for i, shown in zip(blocks, BLOCKS, strict=True):
        parts[i] = "\n" + "\n".join(commands[k] for k in shown) + "\n"
    text = "```".join(parts)
    new_id = re.search(r"(\w{12})-0000-german\.pbem", "\n".join(commands))
    if old_id and new_id:
        text = text.replace(old_id.group(1), new_id.group(1))
    GUIDE.write_text(text, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--paste", action="store_true", help="rewrite docs/guide.md")
    parser.add_argument("--tries", type=int, default=10)
    args = parser.parse_args()
    for _ in range(args.tries):
        try:
            commands = walkthrough()
            break
        except Stopped as exc:
            print(f"again: {exc}", file=sys.stderr)
    else:
        sys.exit("the dice never left the German a decision after 'done firing'")
    print("\n".join(commands))
    if args.paste:
        paste(commands)


if __name__ == "__main__":
    main()
