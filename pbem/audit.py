"""Auditing a transcript from the exchanged files alone: no save, no private key.

A referee (or either player) gives the files of a game, in any order, binary or armored.
Every signature is checked with the key the envelope names and then against the key the
invite and accept pinned for that side; every link of the chain; every dice reveal against
the committed chain; every action replayed through the engine; every roll re-derived from
its seed; every signed state digest compared.  The first failure stops the replay (what
follows it cannot be checked) and is the verdict.  Two different files for one place are
reported as equivocation, with both named.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem import canonical, dice, orders
from pbem.armor import read_any
from pbem.envelope import EXCHANGED, KINDS, Envelope, open_envelope
from pbem.errors import PbemError, quote
from pbem.identity import fingerprint
from pbem.registry import get as get_engine
from pbem.text import safe
from pbem.transcript import RollRecord, Verifier, parse_invite

ARMOR_SUFFIXES = (".pbem", ".asc", ".txt")


@dataclass
class FileRow:
    source: str
    seq: int | None
    kind: str
    side: str
    signer: str
    signature: str = "ok"
    chain: str = "-"
    dice: str = "-"
    replay: str = "-"
    note: str = ""


@dataclass
class AuditReport:
    files: list[FileRow] = field(default_factory=list)
    rolls: list[RollRecord] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    game_id: bytes = b""
    engine: str = ""
    scenario: str = ""
    result: str = ""
    exit_code: int = 0
    verifier: Verifier | None = None
    #: files not of the game, or not signed by its pinned keys: listed, not verified
    set_aside: list[str] = field(default_factory=list)
    #: each commitment and reveal of a committed plan (protocol 6.3), by file
    commitments: list[str] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not self.problems

    def verdict(self) -> str:
        aside = (f"; {len(self.set_aside)} files set aside (not of this game or not signed "
                 "by its players)") if self.set_aside else ""
        if self.clean:
            files = len(self.files) - len(self.set_aside)
            return (f"CLEAN: {files} file{'s' * (files != 1)}, {len(self.rolls)} "
                    f"roll{'s' * (len(self.rolls) != 1)}, every signature, link, reveal, roll "
                    f"and digest verified{aside}")
        return f"NOT CLEAN: {self.problems[0]}" + (
            f" (+{len(self.problems) - 1} more)" if len(self.problems) > 1 else "")

    def to_json(self) -> dict[str, Any]:
        return {
            "clean": self.clean,
            "verdict": self.verdict(),
            "game_id": self.game_id.hex(),
            "engine": self.engine,
            "scenario": self.scenario,
            "result": self.result,
            "problems": self.problems,
            "set_aside": self.set_aside,
            "commitments": self.commitments,
            "files": [vars(f) for f in self.files],
            "rolls": [
                {"roll": r.name, "side": r.side, "purpose": r.purpose, "rule": r.rule,
                 "dice": r.request, "request": r.asked, "request_recorded": r.recorded,
                 "seed": r.seed.hex(), "outcome": list(r.outcome), "after": r.after_action}
                for r in self.rolls
            ],
        }


def collect(paths: list[Path]) -> list[tuple[str, bytes]]:
    """Files to audit: every file given, and every .pbem file in a folder given."""
    from pbem.envelope import MAX_EXCHANGED
    from pbem.readfile import read_bounded

    # an armored file is about 4/3 of the binary one, and may be quoted in a mail
    limit = 2 * MAX_EXCHANGED
    out: list[tuple[str, bytes]] = []
    for path in paths:
        if path.is_dir():
            for child in sorted(path.iterdir()):
                if child.is_file() and child.suffix in ARMOR_SUFFIXES:
                    # a file too large is cut (the audit names it), never read whole
                    out.append((str(child), read_bounded(child, limit, truncate=True)))
        else:
            out.append((str(path), read_bounded(path, limit)))
    return out


def audit(datas: list[tuple[str, bytes]],
          progress: Callable[[int, int], None] | None = None) -> AuditReport:
    """Verify ``datas`` as one game; ``progress(done, total)`` is told after each file."""
    report = AuditReport()
    envs: list[tuple[str, Envelope, dict[str, Any]]] = []
    for source, data in datas:
        try:
            env = open_envelope(read_any(data), kinds=KINDS)
            body = env.decode()
        except PbemError as exc:
            report.files.append(FileRow(source, None, "?", "?", "?", signature="BAD",
                                        note=str(exc)))
            report.problems.append(f"{source}: {exc}")
            report.exit_code = report.exit_code or exc.exit_code
            continue
        if env.kind not in EXCHANGED:
            # a player's card or save lying in the folder is signed but is no move of
            # any game: listed, never held against the game (docs/protocol.md 5.3)
            report.files.append(FileRow(source, None, env.kind, "-", fingerprint(env.key),
                                        chain="set aside",
                                        note=f"a {env.kind} file is not part of a transcript"))
            report.set_aside.append(f"{source}: a {env.kind} file is not part of a transcript")
            continue
        envs.append((source, env, body))
    envs = _set_aside(envs, report)
    invites = [(s, e, b) for s, e, b in envs if e.kind == "invite"]
    if len(invites) != 1:
        report.problems.append(f"a transcript needs exactly one invite; found {len(invites)}")
        report.exit_code = report.exit_code or 5
        return report
    source, invite, invite_body = invites[0]
    try:
        setup = parse_invite(invite, invite_body)  # each body decoded once (issue 19)
        verifier = Verifier(get_engine(setup.engine_id), invite, keep_rolls=True, setup=setup)
    except PbemError as exc:
        report.problems.append(f"{source}: {exc}")
        report.exit_code = exc.exit_code
        return report
    report.verifier = verifier
    report.game_id, report.engine, report.scenario = setup.game_id, setup.engine_id, setup.scenario
    report.files.append(FileRow(source, 0, "invite", setup.creator_side,
                                fingerprint(invite.key), chain="anchor", dice="anchor",
                                replay="ok"))
    rest = sorted(((s, e, b) for s, e, b in envs if e.kind != "invite"),
                  key=lambda t: (t[2].get("seq") if isinstance(t[2].get("seq"), int) else -1, t[0]))
    seen: dict[int, tuple[str, bytes]] = {0: (source, invite.raw)}
    identities: dict[int, tuple[str, bytes, bytes]] = {0: invite.identity}
    broken = False
    for done, (src, env, body) in enumerate(rest, start=1):
        if progress is not None:
            progress(done, len(rest))
        seq = body.get("seq") if isinstance(body.get("seq"), int) else None
        row = FileRow(src, seq, env.kind, safe(str(body.get("side", "?")))[:40],
                      fingerprint(env.key))
        report.files.append(row)
        if seq is not None and seq in seen:
            # the same file is what its signer signed, not the same bytes (issue 20 item 1)
            if identities[seq] == env.identity:
                row.note = f"duplicate of {seen[seq][0]}"
                continue
            row.chain = "FORK"
            msg = (f"equivocation: {seen[seq][0]} and {src} are two different files "
                   f"for place {seq}")
            row.note = msg
            report.problems.append(msg)
            report.exit_code = report.exit_code or 5
            continue
        if broken:
            row.chain = row.dice = row.replay = "not checked"
            row.note = "after an earlier failure"
            continue
        try:
            accepted = verifier.add(env, {k: v[1] for k, v in seen.items()}, body=body)
        except PbemError as exc:
            row.chain = "FAIL"
            row.note = str(exc)
            report.problems.append(f"{src}: {exc}")
            report.exit_code = report.exit_code or exc.exit_code
            broken = True
            continue
        assert seq is not None
        seen[seq] = (src, env.raw)
        identities[seq] = env.identity
        row.chain = "ok"
        row.dice = "ok" if env.kind == "turn" else "anchor"
        by_order = f", {len(accepted.ordered)} by standing order" if accepted.ordered else ""
        row.replay = (f"ok ({len(accepted.actions)} actions{by_order}, "
                      f"{len(accepted.rolls)} rolls)")
        notes = []
        if accepted.orders is not None:
            notes.append(f"standing orders: {orders.text(accepted.orders)}")
        if accepted.message:
            notes.append(f"message: {accepted.message}")
        # committed plans (docs/protocol.md 6.3): each commitment and reveal, checked by
        # the replay above, is listed where it happened
        marks = [e.text for e in accepted.events if e.kind in ("commit", "reveal")]
        notes += marks
        report.commitments += [f"file {seq}: {t}" for t in marks]
        row.note = "; ".join(notes)
    report.rolls = list(verifier.rolls)
    if verifier.result:
        report.result = verifier.result.text
    return report


def _set_aside(envs: list[tuple[str, Envelope, dict[str, Any]]], report: AuditReport
               ) -> list[tuple[str, Envelope, dict[str, Any]]]:
    """The files of the game, signed by its pinned keys; the others are listed as set aside.

    A file of another game, or one signed by a key the game did not pin, says nothing about
    this game: anyone can make one, so it must neither stop the audit of the real files
    nor count against a player (issue 20 item 3).  Which game: the one the invite names
    that most files name.  Which joiner: the accept the creator's file 2 follows (else the
    only one, else the first by name).
    """
    invites = [e for _, e, _ in envs if e.kind == "invite"]
    if not invites:
        return envs
    votes: dict[bytes, int] = {e.hash: 0 for e in invites}
    for _, env, body in envs:
        game = body.get("game")
        if env.kind != "invite" and type(game) is bytes and game in votes:
            votes[game] += 1
    game_id = max(sorted(votes), key=lambda g: votes[g])
    invite = next(e for e in invites if e.hash == game_id)
    try:
        setup = parse_invite(invite, next(b for _, e, b in envs if e is invite))
    except PbemError:
        return envs  # the invite itself is bad: the audit names it
    keys = {setup.creator_side: setup.creator.key}
    accepts = [(s, e) for s, e, b in envs if e.kind == "accept" and b.get("game") == game_id]
    followed = {b.get("prev") for _, e, b in envs
                if e.kind == "turn" and b.get("game") == game_id and b.get("seq") == 2
                and type(b.get("seq")) is int and e.key == setup.creator.key}
    chosen = [e for _, e in accepts if e.hash in followed] or [e for _, e in sorted(
        accepts, key=lambda t: t[0])]
    if chosen:
        keys[setup.joiner_side] = chosen[0].key
    kept: list[tuple[str, Envelope, dict[str, Any]]] = []
    for source, env, body in envs:
        side = body.get("side") if env.kind != "invite" else setup.creator_side
        why = ""
        if env.kind == "invite":
            if env.hash != game_id:
                why = "an invite to another game"
        elif body.get("game") != game_id:
            why = "a file of another game"
        elif type(side) is not str or keys.get(side) != env.key:
            why = (f"signed by a key the game did not pin for the {quote(side)} side "
                   f"(fingerprint {fingerprint(env.key)})")
        if not why:
            kept.append((source, env, body))
            continue
        seq = body.get("seq") if type(body.get("seq")) is int else None
        report.files.append(FileRow(source, seq, env.kind, safe(str(side))[:40],
                                    fingerprint(env.key), chain="set aside", note=why))
        report.set_aside.append(f"{source}: {why}")
    return kept


def explain_roll(report: AuditReport, name: str) -> list[str]:
    """Step by step, how roll ``SEQ.INDEX`` came out as it did, from the files alone."""
    seq, index = dice.parse_roll_name(name)
    verifier = report.verifier
    for roll in report.rolls:
        if (roll.seq, roll.index) != (seq, index) or verifier is None:
            continue
        setup = verifier.setup
        lines = [
            f"roll {roll.name}: {roll.purpose}" + (f" ({roll.rule})" if roll.rule else ""),
            f"  request: {roll.request}" + (
                " (signed in the roll record)" if roll.recorded else
                " (from the engine: a format-1 file does not record it)"),
        ]
        if roll.asked.get("kind") == "draw":
            lines.append(f"  cup {roll.asked['cup']}, sorted: "
                         f"{', '.join(roll.asked['contents'])}")
        lines.append(f"  game id     {setup.game_id.hex()}")
        if setup.dice_mode == "sealed":
            lines += [
                f"  asked for by file {seq - 1}, which ended at this roll; finalized in file "
                f"{seq} by the {roll.side} player's link (sealed dice)",
                f"  body hash of file {seq - 1}:",
                f"              {roll.opponent_link.hex()}",
                f"  {roll.side}'s link revealed in file {seq} (link checked against the chain):",
                f"              {roll.actor_link.hex()}",
                f"  seed = SHA-256(canonical ['pbem/v1/sealed', game id, {seq - 1}, body hash, "
                f"{roll.side}'s link])",
            ]
        else:
            lines += [
                f"  made by the {roll.side} player in file {seq}, after action "
                f"{roll.after_action!r}",
                f"  {roll.side}'s link revealed in file {seq} (link checked against the chain):",
                f"              {roll.actor_link.hex()}",
                "  the opponent's latest revealed link (its anchor before any reveal):",
                f"              {roll.opponent_link.hex()}",
                f"  seed = SHA-256(canonical ['pbem/v1/open', game id, {seq}, {roll.side}'s "
                "link, opponent's link])",
            ]
        lines += [
            f"       = {roll.seed.hex()}",
            f"  words from HMAC-SHA256(seed, u32({index}) || u32(j)), j = 0, 1, ...:",
        ]
        if roll.roll is not None:
            lines += ["    " + step for step in roll.roll.explain()]
        lines.append(f"  result: {', '.join(str(o) for o in roll.outcome)}")
        if roll.rule:
            lines.append(f"  this roll decided: {roll.purpose} ({roll.rule})")
        return lines
    known = ", ".join(r.name for r in report.rolls[:20])
    more = "..." if len(report.rolls) > 20 else ""
    return [f"no roll {name} in this transcript (rolls: {known}{more})"]


def body_summary(data: bytes) -> dict[str, Any]:
    """The decoded body of a stored file (for ``pbem log``)."""
    body = canonical.decode(canonical.decode(data)[5])
    assert isinstance(body, dict)
    return body
