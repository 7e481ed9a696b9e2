"""What a message says about a file: its subject and its summary, told from the reader's
side (issue 32 item 7).

The text of a mail, a notification or a reminder reaches the opponent (and every server
on the way) whatever the file hides: it is told as the reader's own replay tells the file,
never from the sealed actions.  Under White Death's limited intelligence (Rule 4.C) a
Soviet move is "a soviet unit moves 3602 to 3502" in the German player's mail, as on his
board; a 48th Panzer Korps plan is sealed by its commitment and its reveal comes later,
and the summary shows only what the reader's replay shows.  The status line is the
reader's too (White Death's supply points are each side's own).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pbem.engine import State
    from pbem.session import Game

__all__ = ["describe", "reader_lines", "reminder"]

#: the most lines of a file's narration a summary quotes (the file itself tells it all)
LIMIT = 12


def describe(game: Game, seq: int, data: bytes) -> tuple[str, str]:
    """Subject and plain-text summary for file ``seq`` of ``game``, which this home
    sends: everything in it as the reader (the opponent) may know it."""
    from pbem.armor import read_any
    from pbem.envelope import open_envelope, peek

    info = peek(read_any(data))
    body = open_envelope(read_any(data)).decode()
    status = game.status()
    me = game.home.card()
    opp = game.opponent()
    opp_name = opp.name if opp is not None else "your opponent"
    reader = game.opponent_side
    setup = f"{status.get('engine')} / {status.get('scenario')}"
    short = info.game_id.hex()[:8]
    tag = f"[pbem {short}] {game.name}"
    latest = seq == len(game.files) - 1
    lines: list[str] = []
    if info.kind == "invite":
        other = next((s for s in body.get("sides", []) if s != info.side), "the other side")
        subject = f"{tag}: invitation to {setup}, you would play {other}"
        lines += [
            f"{me.name} invites you to a game of {setup} by pbem.",
            f"{me.name} plays {info.side}; you would play {other}.",
            "",
            f"Fingerprint of {me.name}'s key: {me.fingerprint}",
            "Compare it with them (by phone, in person) before you join.",
            "",
            "To accept, join the game (below); with 'pbem join FILE --email' your reply",
            "goes back to this address at once.",
        ]
        pace, reminders = body.get("pace"), body.get("reminders")
        if type(pace) is int:
            from pbem.pace import pace_words

            lines[2:2] = [f"The invite sets a pace: {pace_words(pace, str(reminders or ''))};",
                          "joining accepts it.", ""]
        return subject, "\n".join(lines)
    to_act = str(body.get("to_act") or "")
    if info.kind == "accept":
        subject = f"{tag}: {me.name} joined as {info.side} (file 1)"
        lines += [
            f"{me.name} accepted your invitation to {setup} and plays {info.side}.",
            f"Fingerprint of {me.name}'s key: {me.fingerprint}",
            "pbem shows it to you on import; confirm it only if it matches what they told you.",
            "",
            "Awaited: your first file ('pbem watch' imports this one; then 'pbem play').",
        ]
        return subject, "\n".join(lines)
    result = body.get("result")
    who = "nobody (the game is over)" if result else \
        (f"{to_act} ({opp_name})" if to_act == reader else to_act or "nobody")
    subject = f"{tag}: turn {status.get('turn')}, file {seq} from {info.side} — " + (
        "game over" if result else f"{to_act or 'nobody'} to act")
    lines.append(f"{me.name} ({info.side}) sends file {seq} of {setup} (game {short}), "
                 f"turn {status.get('turn')}" + ("" if latest else
                                                 " (sent again: a later file exists)") + ".")
    if latest:
        position = _position(game.verifier.state, reader)
        if position:
            lines.append(f"Position: {position}")
    lines += reader_lines(game, seq, data, reader)
    message = body.get("message")
    if isinstance(message, str) and message:
        lines.append(f"Message from {me.name}: {message}")
    if body.get("draw") == "offer":
        lines.append(f"{me.name} offers a draw: 'pbem draw <game>' accepts it.")
    if isinstance(result, dict):
        lines.append(f"Game over: {result.get('text') or result}")
    else:
        decision = game.verifier.state.decision_head() if latest else None
        prompt = decision[1] if decision is not None and decision[0] == reader else None
        lines.append(f"Awaited: {who} must act" + (f": {prompt}." if prompt else "."))
    return subject, "\n".join(lines)


def reminder(game: Game, seq: int, data: bytes, now: int) -> tuple[str, str]:
    """Subject and summary of a reminder (``pbem nudge``, or ``pbem watch`` where the
    invite agreed to it): who waits since when, the agreed pace, then file ``seq`` told
    exactly as its own message tells it to the reader (issue 32 items 5 and 7: the
    reminder says nothing the file's narration from the reader's side does not)."""
    from pbem.pace import duration_words, overdue, pace_words
    from pbem.transport.state import when

    _, summary = describe(game, seq, data)
    status = game.status()
    me = game.home.card()
    tag = f"[pbem {game.game_id.hex()[:8]}] {game.name}"
    lines = [f"{me.name} reminds you: game {game.name} waits for your answer to file {seq}"
             + (f", sent {when(status.get('last_out'))}" if status.get("last_out") else "")
             + "."]
    pace = status.get("pace")
    if isinstance(pace, int):
        lines.append(f"The invite you both signed agrees on {pace_words(pace, '')}.")
        late = overdue(status, now)
        if late is not None and not late["yours"]:
            lines.append(f"Your answer is overdue by {duration_words(late['by'])}.")
    lines += ["This message carries the file again: your pbem takes it as a copy of one it "
              "has (a duplicate), or imports it if it never arrived.", "", summary]
    return f"{tag}: reminder, your answer to file {seq} is awaited", "\n".join(lines)


def _position(state: State, side: str) -> str:
    """The status line as ``side`` sees it, without the runtime's name for the current
    step (pbem.steps: a class or token name no rulebook uses, issue 33)."""
    line = state.status_line(side)
    stack = getattr(state, "stack", None)
    step = getattr(stack[-1], "step", None) if stack else None
    if isinstance(step, str) and step:
        line = line.replace(f", {step};", ";").replace(f" {step};", ";")
    return line


def reader_lines(game: Game, seq: int, data: bytes, reader: str,
                 limit: int = LIMIT) -> list[str]:
    """File ``seq`` narrated as ``reader``'s own replay narrates it: the events that side
    may see, the rolls with their purposes (pbem.render.narrate.frames_from_records)."""
    from pbem.armor import read_any
    from pbem.envelope import open_envelope
    from pbem.errors import PbemError
    from pbem.render.narrate import frames_from_records
    from pbem.transcript import Verifier

    try:
        env = open_envelope(read_any(data))
        records: Any = env.decode().get("records")
        if env.kind != "turn" or not isinstance(records, list):
            return []
        # the position before the file: the game's own files replayed up to it
        verifier = Verifier(game.engine, open_envelope(game.files[0]))
        for number in range(1, seq):
            verifier.add(open_envelope(game.files[number]), game.files)
        frames = frames_from_records(verifier.state, records, reader, seq=seq)
    except PbemError:
        return ["(the file tells what happened; your pbem replays it on import)"]
    told = [e.text for _, events in frames for e in events if e.visible(reader)]
    if not told:
        return ["Nothing you see happened in this file (it passes the turn on)."]
    shown = told[:limit]
    more = [f"... and {len(told) - limit} more (your pbem replays them all on import)"] \
        if len(told) > limit else []
    return ["What happened, as your board will show it:", *(f"  {t}" for t in shown), *more]
