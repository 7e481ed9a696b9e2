"""Write the hostile corpus: ``python tests/hostile/make_corpus.py`` (from the repository).

Every case is a file (or a thing the runner makes, for what cannot live in git: a FIFO,
a device, a 100 MB file, a 1.5 MB array) plus what it must give: the command, the exit
code of its named error, a fragment of the cause, and whether the save may change.  Run
again after a change that alters the fixed game's bytes (the runner says so); add a case
by adding a line here (a crash found by ``bench/fuzz.py`` goes in as a ``crash-*`` file
with ``add_crash``).
"""

from __future__ import annotations

import base64
import email.policy
import hashlib
import json
import sys
import tempfile
from email.message import EmailMessage
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from corpus import BASE_SEQ, CASES, MANIFEST, build

from pbem import canonical
from pbem.armor import BEGIN, END, armor
from pbem.envelope import seal
from pbem.identity import Identity

FORMAT, SIGNATURE, CHAIN, DICE, DESYNC, USAGE, TRANSPORT = 3, 4, 5, 7, 8, 2, 13
PARTIAL = 14  # the genuine file imported, the rest refused (issue 36 item 5)
MALLORY = Identity.from_secret(bytes(range(100, 132)), "Mallory", "m@example.org")
ANSI = "\x1b[2J\x1b]0;pwned\x07\u202egnorw\r\npbem: fake> "


def body_of(data: bytes) -> dict[str, Any]:
    body = canonical.decode(canonical.decode(data)[5])
    assert isinstance(body, dict)
    return body


def resign(identity: Identity, body: dict[str, Any]) -> bytes:
    body = dict(body)
    kind = body.pop("kind")
    return seal(identity, kind, body)


def mail(files: list[tuple[str, bytes]]) -> bytes:
    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"], msg["To"], msg["Subject"] = "mallory@example.org", "bob@example.org", "pbem"
    msg.set_content("files attached")
    for name, data in files:
        msg.add_attachment(data, maintype="application", subtype="vnd.pbem+msgpack",
                           filename=name)
    msg.set_boundary("pbem-corpus")  # the same bytes at every run
    return msg.as_bytes()


def nested_mail(depth: int) -> bytes:
    head = b"From: m@x\r\nSubject: pbem turn\r\nMIME-Version: 1.0\r\n"
    parts = [b"Content-Type: multipart/mixed; boundary=b%d\r\n\r\n--b%d\r\n" % (i, i)
             for i in range(depth)]
    tail = [b"\r\n--b%d--\r\n" % i for i in reversed(range(depth))]
    return head + b"".join(parts) + b"Content-Type: text/plain\r\n\r\nhi\r\n" + b"".join(tail)


def cases(files: list[bytes], alice: Identity) -> list[dict[str, Any]]:
    genuine = files[BASE_SEQ]
    body = body_of(genuine)
    out: list[dict[str, Any]] = []

    def add(name: str, data: bytes | None, code: int | list[int], cause: str = "", *,
            base: str = "before", command: str = "receive", save: str = "unchanged",
            special: str = "", why: str = "") -> None:
        out.append({"name": name, "base": base, "command": command,
                    "codes": code if isinstance(code, list) else [code], "cause": cause,
                    "save": save, "special": special, "why": why,
                    "file": f"{name}.pbem" if data is not None and "." not in name else
                    (name if data is not None else "")})
        if data is not None:
            (CASES / out[-1]["file"]).write_bytes(data)

    def changed(**fields: Any) -> dict[str, Any]:
        new: dict[str, Any] = canonical.decode(canonical.encode(body))
        new.update(fields)
        return new

    # mutation of signed bytes (the existing flipped-byte cases), at spread positions
    for n, pos in enumerate(range(1, len(genuine), max(1, len(genuine) // 16))):
        flipped = bytearray(genuine)
        flipped[pos] ^= 0x40
        add(f"flip-{n:02d}-byte{pos}", bytes(flipped), [FORMAT, SIGNATURE],
            why="any changed byte is refused: canonical form, then the signature")
    add("truncated", genuine[:-10], FORMAT, "ends in the middle")
    add("empty", b"", FORMAT, "empty")
    add("trailing-byte", genuine + b"\x00", FORMAT, "trailing")
    add("version-true-twin", genuine[:6] + b"\xc3" + genuine[7:], FORMAT, "format version",
        why="issue 20 item 1: a twin made without the key")
    text = armor(genuine)
    lines = text.splitlines()
    lines[6] = ("B" if lines[6][0] != "B" else "C") + lines[6][1:]
    add("armor-char-changed", ("\n".join(lines) + "\n").encode(), FORMAT, "damaged")
    add("armor-header-changed", text.replace(f"Seq: {BASE_SEQ}", "Seq: 99").encode(), FORMAT,
        "armor header")
    add("armor-damaged", f"{BEGIN}\n\n{base64.b64encode(b'junk' * 9).decode()}\n{END}\n"
        .encode(), FORMAT, "damaged", why="issue 20 item 8")
    add("forged-key", resign(MALLORY, body), SIGNATURE, "not the one pinned")
    add("desync-digest", resign(alice, changed(digest=b"\x00" * 32)), DESYNC, "desync")
    records = [list(r) for r in body["records"]]
    roll = next(i for i, r in enumerate(records) if r[0] == "r")
    other_roll = [list(records[roll][2])]
    other_roll[0][0] = other_roll[0][0] + 1 if isinstance(other_roll[0][0], int) else "x"
    add("changed-roll", resign(alice, changed(records=[
        *records[:roll], ["r", records[roll][1], other_roll[0]], *records[roll + 1:]])),
        [DICE, FORMAT])
    add("wrong-reveal", resign(alice, changed(reveal=b"\x11" * 32)), DICE, "dice link")
    add("roll-index-false", resign(alice, changed(records=[
        *records[:roll], ["r", False, records[roll][2]], *records[roll + 1:]])), FORMAT,
        "a roll record is", why="issue 20 item 1: false is not 0")
    add("clock-true", resign(alice, changed(clock=True)), FORMAT, "wrong type",
        why="issue 20 item 1")
    add("unknown-field", resign(alice, changed(extra=1)), FORMAT, "unknown fields")
    add("ansi-action", resign(alice, changed(records=[["a", ANSI], *records])), DESYNC,
        "refused here", why="issue 20 item 9: the action text is escaped in the error")
    add("other-game", resign(alice, changed(game=b"\x22" * 32)), CHAIN, "not in")
    add("future-file", resign(alice, changed(seq=BASE_SEQ + 2)), CHAIN, "missing")
    add("array-1500000-nils", None, FORMAT, "larger than the limit", special="nils",
        why="issue 20 item 7")
    invite = body_of(files[0])
    invite["creator"] = {**invite["creator"], "key": MALLORY.public_key,
                         "name": "Mallory"}
    add("invite-300k-field", resign(MALLORY, {**invite, "dice_mode": "y" * 300_000}),
        FORMAT, "dice mode", command="join", why="issue 20 item 8: the error is bounded")
    add("invite-creator-not-a-map", resign(MALLORY, {**invite, "creator": []}), 0,
        "is an invite from ?", why="an invite anyone can sign, given to receive")
    add("nested-1000.eml", nested_mail(1000), TRANSPORT, "nested", why="issue 20 item 5")
    add("stranger-then-genuine.eml", mail([("9.pbem", resign(MALLORY, changed(
        seq=BASE_SEQ + 2))), ("a.pbem", resign(MALLORY, body)), ("b.pbem", genuine)]),
        PARTIAL, "not the one pinned", save="imported",
        why="issue 20 item 5: every file is tried, earliest first; issue 36 item 5: exit 14")
    add("a-folder", None, USAGE, "is a folder", special="dir", why="issue 20 item 6")
    add("a-fifo", None, FORMAT, "not a regular file", special="fifo", why="issue 20 item 6")
    add("dev-zero", None, FORMAT, "not a regular file", special="device",
        why="issue 20 item 6")
    add("sparse-100mb", None, FORMAT, "larger than the limit", special="big",
        why="issue 20 item 6")
    # Bob holds file BASE_SEQ already
    add("after-version-true-twin", genuine[:6] + b"\xc3" + genuine[7:], FORMAT,
        "format version", base="after", why="issue 20 item 1: never equivocation")
    add("after-stranger-same-place", resign(MALLORY, changed(message="framed")), SIGNATURE,
        "not kept", base="after", why="issue 20 item 2: not stored as evidence")
    add("after-stranger-fork", resign(MALLORY, changed(
        seq=BASE_SEQ + 1, side="blue", prev=b"\x01" * 32)), SIGNATURE, "not the one pinned",
        base="after", why="issue 20 item 2")
    add("after-equivocation", resign(alice, changed(message="second thoughts")), CHAIN,
        "equivocation", base="after", save="evidence",
        why="the real sender's second file for a place: kept as evidence")
    add("after-duplicate", genuine, 0, "already imported", base="after")
    add("audit-with-junk", resign(MALLORY, body), 0, "set aside", command="audit",
        why="issue 20 item 3: the junk is set aside, the real files verified")
    return out


def main() -> None:
    CASES.mkdir(exist_ok=True)
    for old in CASES.iterdir():
        if not old.name.startswith("crash-"):
            old.unlink()
    with tempfile.TemporaryDirectory() as tmp:
        bases = build(Path(tmp))
        entries = cases(bases.files, bases.alice.identity())
        crashes = [e for e in json.loads(MANIFEST.read_text())["cases"]
                   if e["name"].startswith("crash-")] if MANIFEST.exists() else []
        MANIFEST.write_text(json.dumps({
            "genuine_sha256": hashlib.sha256(bases.genuine).hexdigest(),
            "cases": entries + crashes}, indent=1) + "\n")
    print(f"{len(entries) + len(crashes)} cases in {CASES}")


if __name__ == "__main__":
    main()
