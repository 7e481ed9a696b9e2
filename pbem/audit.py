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

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from pbem import canonical, dice
from pbem.armor import read_any
from pbem.collector import collector_off
from pbem.envelope import EXCHANGED, KINDS, Envelope, open_envelope
from pbem.errors import ChainError, PbemError, UsageError, quote
from pbem.identity import fingerprint
from pbem.registry import get as get_engine
from pbem.text import safe
from pbem.transcript import Accepted, RollRecord, Verifier, parse_invite

if TYPE_CHECKING:
    from pbem.transcript import Watch

ARMOR_SUFFIXES = (".pbem", ".asc", ".txt")


@dataclass
class FileRow:
    """One file's line of an audit: what it is, who signed it, and how its signature,
    chain link, dice and replay checked."""

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
    """What :func:`audit` found: every file's row, the rolls, the problems, and the game
    they belong to."""

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
                    f"roll{'s' * (len(self.rolls) != 1)}: every signature, the order of the "
                    f"files, every die and every move verified{aside}")
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


Opened = tuple[str, Envelope, dict[str, Any]]


class Replaying(Protocol):
    """Told of the audit's replay file by file: ``pbem audit --html`` makes its page from
    it (:class:`pbem.web.replay.PageMaker`) instead of replaying the files again."""

    def start(self, verifier: Verifier) -> Replaying | None:
        """The game's verifier, before its first file; None: nothing to tell."""

    def file(self, seq: int) -> Watch:
        """What :meth:`Verifier.add` tells of file ``seq``'s records."""

    def accepted(self, accepted: Accepted, verifier: Verifier) -> None:
        """File ``accepted.seq`` verified (a refused file is never told)."""


@dataclass
class Audit:
    """Every game among the files given (docs/protocol.md 5.3, the auditor's procedure)."""

    games: list[AuditReport] = field(default_factory=list)
    #: rows of files that belong to no game audited: unreadable (bad), or set aside
    files: list[FileRow] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    set_aside: list[str] = field(default_factory=list)
    exit_code: int = 0

    @property
    def clean(self) -> bool:
        return not self.problems and all(g.clean for g in self.games)

    def verdict(self) -> str:
        if len(self.games) == 1 and not self.files:
            return self.games[0].verdict()
        bad = [g for g in self.games if not g.clean]
        head = (f"{len(self.games)} game{'s' * (len(self.games) != 1)}, "
                f"{len(self.games) - len(bad)} clean")
        aside = (f"; {len(self.set_aside)} file{'s' * (len(self.set_aside) != 1)} set aside"
                 if self.set_aside else "")
        if self.clean:
            return f"CLEAN: {head}{aside}"
        first = self.problems[0] if self.problems else (
            f"game {bad[0].game_id.hex()[:12]}: "
            + bad[0].verdict().removeprefix("NOT CLEAN: "))
        return f"NOT CLEAN: {head}{aside}; {first}"

    def code(self) -> int:
        """The exit status: 0 when clean, else the first problem's."""
        if self.clean:
            return 0
        return self.exit_code or next((g.exit_code for g in self.games if g.exit_code), 1)

    def to_json(self) -> dict[str, Any]:
        """The layout docs/audit-schema.json describes (version :data:`SCHEMA_VERSION`)."""
        return {
            "schema_version": SCHEMA_VERSION,
            "clean": self.clean,
            "verdict": self.verdict(),
            "problems": self.problems,
            "set_aside": self.set_aside,
            "files": [vars(f) for f in self.files],
            "games": [g.to_json() for g in self.games],
        }


#: the version of ``pbem audit --json``'s layout (docs/audit-schema.json); a change that
#: removes or retypes a field raises it
SCHEMA_VERSION = 1


def _opened(datas: list[tuple[str, bytes]], audit: Audit) -> list[Opened]:
    """Steps 1 and 2 of the procedure: open every file; cards and saves are no moves."""
    out: list[Opened] = []
    for source, data in datas:
        try:
            env = open_envelope(read_any(data), kinds=KINDS)
            body = env.decode()
        except PbemError as exc:
            # nobody can be named as its signer: a referee must look at it (step 1)
            audit.files.append(FileRow(source, None, "?", "?", "?", signature="BAD",
                                       note=str(exc)))
            audit.problems.append(f"{source}: {exc}")
            audit.exit_code = audit.exit_code or exc.exit_code
            continue
        if env.kind not in EXCHANGED:
            # a player's card or save lying in the folder is signed but is no move of
            # any game: listed, never held against a game (step 2)
            why = f"a {env.kind} file is not part of a transcript"
            audit.files.append(FileRow(source, None, env.kind, "-", fingerprint(env.key),
                                       chain="set aside", note=why))
            audit.set_aside.append(f"{source}: {why}")
            continue
        out.append((source, env, body))
    return out


def _named_game(env: Envelope, body: dict[str, Any]) -> bytes | None:
    if env.kind == "invite":
        return env.hash
    game = body.get("game")
    return game if type(game) is bytes and len(game) == 32 else None


def audit_games(datas: list[tuple[str, bytes]],
                progress: Callable[[int, int], None] | None = None, *,
                game: str | None = None, watch: Replaying | None = None) -> Audit:
    """Every game among ``datas``, each verified on its own (docs/protocol.md 5.3);
    ``game``: only the game whose id starts with these hex digits; ``watch``: told of the
    replay when the files hold one game to audit (a replay page is of one game)."""
    audit = Audit()
    opened = _opened(datas, audit)
    # step 3: a game is every game id among the files (an invite names its own): one
    # whose invite is missing is audited too, to say so
    every = sorted({g for _, e, b in opened if (g := _named_game(e, b))})
    ids = every
    if game is not None:
        wanted = game.strip().lower()
        ids = [g for g in ids if g.hex().startswith(wanted)]
        if not wanted or len(ids) != 1:
            known = ", ".join(g.hex()[:12] for g in every) or "none"
            raise UsageError(f"--game {quote(game)} names {len(ids) or 'no'} game"
                             f"{'s' * (len(ids) > 1)} among the files (games: {known})")
    # step 4: each file goes to the game it names; a file naming none audited is set aside
    per: dict[bytes, list[Opened]] = {g: [] for g in ids}
    for source, env, body in opened:
        named = _named_game(env, body)
        if named in per:
            per[named].append((source, env, body))
            continue
        if named is None:
            why = "names no game (no 32-byte game id)"
        elif env.kind == "invite":
            why = f"the invite of another game ({named.hex()[:12]})"
        else:
            why = f"a file of another game ({named.hex()[:12]})"
        seq = body.get("seq") if type(body.get("seq")) is int else None
        audit.files.append(FileRow(source, seq, env.kind, safe(str(body.get("side", "-")))[:40],
                                   fingerprint(env.key), chain="set aside", note=why))
        audit.set_aside.append(f"{source}: {why}")
    total = sum(len(v) for v in per.values())
    done = 0

    def step(n: int, _: int) -> None:
        if progress is not None:
            progress(done + n, total)

    for game_id in ids:
        audit.games.append(_audit_game(game_id, per[game_id], step,
                                       watch if len(ids) == 1 else None))
        done += len(per[game_id])
    return audit


def audit(datas: list[tuple[str, bytes]],
          progress: Callable[[int, int], None] | None = None, *,
          watch: Replaying | None = None) -> AuditReport:
    """Verify ``datas`` as one game; ``progress(done, total)`` is told after each file.

    The game is the one with the most files among them (a tie: the smallest game id);
    every other file is listed as set aside, and an unreadable one as bad.  ``watch``:
    as for :func:`audit_games`."""
    whole = audit_games(datas, progress, watch=watch)
    if not whole.games:
        report = AuditReport()
        report.problems.append("a transcript needs an invite; found no file of any game")
        report.exit_code = 5
    else:
        report = max(whole.games, key=lambda g: len(g.files))  # the first: smallest id
        for other in whole.games:
            if other is not report:
                for row in other.files:
                    row.chain, row.note = "set aside", (
                        f"a file of another game ({other.game_id.hex()[:12]})")
                    report.set_aside.append(f"{row.source}: {row.note}")
                report.files += other.files
    report.files += whole.files
    report.set_aside += whole.set_aside
    report.problems = whole.problems + report.problems
    report.exit_code = whole.exit_code or report.exit_code
    return report


def _audit_game(game_id: bytes, files: list[Opened],
                progress: Callable[[int, int], None] | None = None,
                watch: Replaying | None = None) -> AuditReport:
    """Steps 5 to 9 of the procedure for the files naming one game."""
    report = AuditReport(game_id=game_id)
    copies = [(s, e, b) for s, e, b in files if e.kind == "invite"]
    # step 5: the invite is the one its creator signed (a copy re-signed by another key
    # says nothing; anyone can sign any bytes)
    signed = [c for c in copies if _creator_key(c[2]) == c[1].key]
    for source, env, body in copies:
        if signed and (source, env, body) not in signed:
            _aside(report, source, env, body,
                   f"a copy of the invite signed by a key other than its creator's "
                   f"(fingerprint {fingerprint(env.key)})")
    others = [(s, e, b) for s, e, b in files if e.kind != "invite"]
    if not copies:
        report.problems.append(f"file 0, the invite, is missing ({len(others)} other "
                               f"file{'s' * (len(others) != 1)} name this game "
                               f"{game_id.hex()[:12]}; nothing can be verified without it)")
        report.exit_code = 5
        for source, env, body in others:
            seq = body.get("seq") if type(body.get("seq")) is int else None
            report.files.append(FileRow(source, seq, env.kind,
                                        safe(str(body.get("side", "?")))[:40],
                                        fingerprint(env.key), chain="not checked",
                                        dice="not checked", replay="not checked",
                                        note="the invite is missing"))
        return report
    source, invite, invite_body = (signed or copies)[0]
    try:
        setup = parse_invite(invite, invite_body)  # each body decoded once (issue 19)
        # the engine's modules, the scenario's data and the set-up live as long as the
        # audit: the collections their making passed found nothing (18 M instructions
        # of a no-home audit of White Death's purkayev, issue 35); the replay that
        # follows is collected as before
        with collector_off():
            verifier = Verifier(get_engine(setup.engine_id), invite, keep_rolls=True,
                                setup=setup)
    except PbemError as exc:
        report.files.append(FileRow(source, 0, "invite", "?", fingerprint(invite.key),
                                    chain="FAIL", note=str(exc)))
        report.problems.append(f"{source}: {exc}")
        report.exit_code = exc.exit_code
        for src, env, _body in others:
            report.files.append(FileRow(src, None, env.kind, "?", fingerprint(env.key),
                                        chain="not checked", note="the invite is bad"))
        return report
    for dup_source, dup, _ in (signed or copies)[1:]:
        report.files.append(FileRow(dup_source, 0, "invite", setup.creator_side,
                                    fingerprint(dup.key), note=f"duplicate of {source}"))
    report.engine, report.scenario = setup.engine_id, setup.scenario
    report.files.insert(0, FileRow(source, 0, "invite", setup.creator_side,
                                   fingerprint(invite.key), chain="anchor", dice="anchor",
                                   replay="ok"))
    kept = _pinned(setup.creator.key, others, report)
    verifier = _replay(report, verifier, source, invite, kept, progress,
                       watch.start(verifier) if watch is not None else None)
    report.verifier = verifier
    report.rolls = list(verifier.rolls)
    if verifier.result:
        report.result = verifier.result.text
    return report


def _creator_key(body: dict[str, Any]) -> Any:
    creator = body.get("creator")
    return creator.get("key") if isinstance(creator, dict) else None


def _aside(report: AuditReport, source: str, env: Envelope, body: dict[str, Any],
           why: str) -> None:
    seq = body.get("seq") if type(body.get("seq")) is int else None
    side = body.get("side", "-") if env.kind != "invite" else "-"
    report.files.append(FileRow(source, seq, env.kind, safe(str(side))[:40],
                                fingerprint(env.key), chain="set aside", note=why))
    report.set_aside.append(f"{source}: {why}")


def _pinned(creator: bytes, files: list[Opened], report: AuditReport) -> list[Opened]:
    """Steps 6 and 7: the joiner's key, then the files signed by a key the game pinned.

    A file signed by a key the game did not pin says nothing about the game: anyone can
    make one, so it is set aside whatever it holds (issue 20 item 3).  A file signed by a
    pinned key is that player's word, and is verified, whatever it claims (its side, its
    kind): a malformed one is bad (issue 36 item 2)."""
    accepts = [(s, e) for s, e, _ in files if e.kind == "accept" and e.key != creator]
    followed = {b.get("prev") for _, e, b in files
                if e.kind == "turn" and type(b.get("seq")) is int and b.get("seq") == 2
                and e.key == creator}
    # the joiner: of the accepts the creator's file 2 follows (else of all accepts not
    # signed by the creator), the one with the smallest body hash
    chosen = sorted([e for _, e in accepts if e.hash in followed]
                    or [e for _, e in accepts], key=lambda e: e.hash)
    keys = {creator} | ({chosen[0].key} if chosen else set())
    kept = []
    for source, env, body in files:
        if env.key in keys:
            kept.append((source, env, body))
        else:
            _aside(report, source, env, body,
                   f"signed by a key this game did not pin (fingerprint "
                   f"{fingerprint(env.key)})")
    return kept


def _replay(report: AuditReport, verifier: Verifier, source: str, invite: Envelope,
            files: list[Opened], progress: Callable[[int, int], None] | None,
            watch: Replaying | None = None) -> Verifier:
    """Steps 8 and 9: duplicates, equivocation, then the replay in order of place; the
    verifier after the last file it accepted."""
    rest = sorted(files, key=lambda t: (t[2].get("seq") if type(t[2].get("seq")) is int
                                        else -1, t[0]))
    seen: dict[int, tuple[str, bytes]] = {0: (source, invite.raw)}
    identities: dict[int, tuple[str, bytes, bytes]] = {0: invite.identity}
    broken = False
    added: list[tuple[Envelope, dict[str, Any]]] = []
    placed = _Placed(seen)
    for done, (src, env, body) in enumerate(rest, start=1):
        if progress is not None:
            progress(done, len(rest))
        seq = body.get("seq") if type(body.get("seq")) is int else None
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
            # not transactional: the copy that keeps a verifier as it was through a refused
            # file (and starts without the caches its engine keeps) cost 0.3-0.9 ms a file,
            # 3-10% of an audit; the first refusal ends the replay, and the verifier is
            # made again from the files accepted before it (below)
            accepted = verifier.add(env, placed, body=body, transactional=False,
                                    watch=watch.file(seq) if watch and type(seq) is int
                                    else None)
        except PbemError as exc:
            row.chain = "FAIL"
            said = str(exc)
            if isinstance(exc, ChainError) and exc.reason == "missing":
                # the receiver's words ("ask the opponent to send it again") have no
                # opponent to ask in a referee's audit: say what the gap costs, and who has it
                gap = verifier.seq + 1
                said = (f"file {gap} is missing: the files after it cannot be checked "
                        f"without it (either player has a copy: 'pbem send GAME --seq "
                        f"{gap} -o FILE')")
            row.note = said
            report.problems.append(f"{src}: {said}")
            report.exit_code = report.exit_code or exc.exit_code
            broken = True
            verifier = _again(verifier, invite, added)
            continue
        added.append((env, body))
        assert seq is not None
        if watch is not None:
            watch.accepted(accepted, verifier)
        seen[seq] = (src, env.raw)
        identities[seq] = env.identity
        row.chain = "ok"
        row.dice = "ok" if env.kind == "turn" else "anchor"
        by_order = f", {len(accepted.ordered)} by standing order" if accepted.ordered else ""
        row.replay = (f"ok ({len(accepted.actions)} actions{by_order}, "
                      f"{len(accepted.rolls)} rolls)")
        notes = []
        if accepted.orders is not None:
            # loaded for a file that carries orders alone (issue 35: a module an audit
            # of a game without them loaded for nothing)
            from pbem import orders

            notes.append(f"standing orders: {orders.text(accepted.orders)}")
        if accepted.message:
            notes.append(f"message: {accepted.message}")
        # committed plans (docs/protocol.md 6.3): each commitment and reveal, checked by
        # the replay above, is listed where it happened
        marks = [e.text for e in accepted.events if e.kind in ("commit", "reveal")]
        notes += marks
        report.commitments += [f"file {seq}: {t}" for t in marks]
        row.note = "; ".join(notes)
    return verifier


class _Placed:
    """The files verified so far by place, as the verifier reads them (only for a file
    that does not follow): a view of the audit's own table, where a copy made for every
    file grew with the game (2,000 places copied for the 2,000th file)."""

    def __init__(self, seen: dict[int, tuple[str, bytes]]) -> None:
        self._seen = seen

    def get(self, seq: int, /) -> bytes | None:
        held = self._seen.get(seq)
        return None if held is None else held[1]


def _again(verifier: Verifier, invite: Envelope,
           added: list[tuple[Envelope, dict[str, Any]]]) -> Verifier:
    """The verifier as it stood before the file it refused: made again from the invite
    and the files it accepted (each verified before, so each is taken again)."""
    fresh = Verifier(verifier.engine, invite, keep_rolls=verifier.keep_rolls,
                     setup=verifier.setup)
    for env, body in added:
        fresh.add(env, body=body, transactional=False)
    return fresh


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
        lines.append(who_chose(setup.dice_mode, roll.side, verifier.setup.sides, seq))
        return lines
    if verifier is not None and seq > verifier.seq and not report.problems:
        return [_not_yet(verifier, name, seq)]
    if not report.rolls:
        why = report.problems[0] if report.problems else "the files hold no roll"
        return [f"no roll {name} in this transcript: {why}"]
    if verifier is not None and not report.problems:
        made = [r.name for r in report.rolls if r.seq == seq]
        if not made:
            return [f"no roll {name} in this transcript: file {seq} made no roll"]
        return [f"no roll {name} in this transcript: file {seq} made roll"
                f"{'s' * (len(made) > 1)} {', '.join(made)}"]
    known = ", ".join(r.name for r in report.rolls[:20])
    more = "..." if len(report.rolls) > 20 else ""
    return [f"no roll {name} in this transcript (rolls: {known}{more})"]


def _not_yet(verifier: Verifier, name: str, seq: int) -> str:
    """Why a roll named after a file beyond the transcript is not there: a home names a
    roll by the file that makes it, and shows it while that file is still its own (with
    sealed dice, once it finalizes the roll the previous file asked for); the audit sees
    it only once that file is among the files (protocol-crypto.md 3.3)."""
    last = verifier.seq
    ends = f"these files end at file {last}"
    if seq > last + 1:
        return (f"no roll {name} in this transcript yet: it is made in file {seq}, and "
                f"{ends}")
    if verifier.sealed and verifier.state.is_chance():
        finisher = next((s for s in verifier.setup.sides if s != verifier.last_side),
                        "other")
        return (f"no roll {name} in this transcript yet: file {last} ended at a roll, which "
                f"the {finisher} player's file {seq} finalizes (sealed dice); {ends}, so "
                f"roll {name} can be checked once file {seq} is among them")
    return (f"no roll {name} in this transcript yet: it would be made in file {seq}, and "
            f"{ends}; roll {name} can be checked once file {seq} is among them")


def who_chose(dice_mode: str, side: str, sides: Sequence[str], seq: int) -> str:
    """The one plain sentence ending ``pbem audit --roll``: which player could have chosen
    the roll (neither), and why (protocol-crypto.md 3.3 and 3.3.1; security.md)."""
    other = next((s for s in sides if s != side), "other")
    if dice_mode == "sealed":
        return (f"Neither player could have chosen this roll: the {other} player's file "
                f"{seq - 1} asked for it before anyone knew the {side} player's next dice "
                f"link, and that link was fixed long before by the chain the {side} player "
                f"committed to, before file {seq - 1} was written, so neither could foresee "
                "or change the result.")
    return (f"Neither player could have chosen this roll: it follows from the {side} "
            f"player's dice link revealed in file {seq}, fixed in advance by the chain "
            f"that player committed to, and from the {other} player's last revealed link; "
            f"the {side} player could foresee it before sending file {seq} (open dice) and "
            "order its moves around it, but could not change it.")


def body_summary(data: bytes) -> dict[str, Any]:
    """The decoded body of a stored file (for ``pbem log``)."""
    body = canonical.decode(canonical.decode(data)[5])
    assert isinstance(body, dict)
    return body
