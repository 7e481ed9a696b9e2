"""The agreed pace of a game (issue 32 item 5): how long a side may take over a file
before it is called overdue, and whether ``pbem watch`` reminds it by itself.

Both are in the signed invite (docs/protocol.md 3.1, ``pace`` and ``reminders``), so the
two players agree on them by creating and joining the game.  The clock decides only what
is shown and when a reminder goes: no file, no state digest and no rule ever reads it.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["MAX_PACE", "MIN_PACE", "REMINDERS", "duration_words", "not_late_when_unsent",
           "overdue", "pace_words", "parse_pace"]

#: an hour at least: a reminder more often than that is spam, not a pace
MIN_PACE = 3600
#: a year at most: the field is an int of bounded size, and a slower game has no pace
MAX_PACE = 366 * 86400
#: the one value of the invite's ``reminders`` field: pbem watch reminds by itself
REMINDERS = "watch"

_UNITS = {"m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


def parse_pace(text: str) -> int:
    """``48h``, ``2d``, ``1w``, ``90m`` (or whole seconds) -> seconds; ValueError naming
    what is wrong otherwise."""
    match = re.fullmatch(r"\s*(\d{1,7})\s*([mhdw]?)\s*", text.lower())
    if match is None:
        raise ValueError(f"pace {text!r}: give a number and a unit, e.g. 48h, 2d, 1w or 90m")
    seconds = int(match.group(1)) * _UNITS.get(match.group(2), 1)
    if not MIN_PACE <= seconds <= MAX_PACE:
        raise ValueError(f"pace {text!r}: give 1 hour to 366 days")
    return seconds


def duration_words(seconds: int) -> str:
    """``2 days 3 hours``, ``5 hours 10 minutes``, ``12 minutes``: two units at most."""
    seconds = max(0, int(seconds))
    parts: list[str] = []
    for name, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        count, seconds = divmod(seconds, size)
        if count or (name == "minute" and not parts):
            parts.append(f"{count} {name}" + ("" if count == 1 else "s"))
        if len(parts) == 2:
            break
    return " ".join(parts)


def pace_words(pace: int, reminders: str) -> str:
    """The agreement, as ``new``, ``join`` and ``status`` say it."""
    text = f"a file within {duration_words(pace)}"
    if reminders == REMINDERS:
        text += " ('pbem watch' reminds a late side by itself, once per pace period)"
    return text


def overdue(status: dict[str, Any], now: int) -> dict[str, Any] | None:
    """Who is late in the game ``status`` (a :meth:`pbem.session.Game.summary` with its
    times) at ``now``, and by how long; None when the game has no pace, is over, or
    nobody is late.

    The side to act has had the turn since the file that handed it over: this home's
    latest file out when the opponent is to act (the invite, while nobody has joined),
    the latest file in when this side is.  The times are this home's clock when the file
    was sealed or imported, so an unsynchronised clock on the other side does not matter.
    """
    pace = status.get("pace")
    if type(pace) is not int or status.get("result"):
        return None
    mine = bool(status.get("your_move")) or status.get("to_act") == status.get("side")
    since = status.get("last_in") if mine else status.get("last_out")
    if type(since) is not int:
        return None
    late = now - since - pace
    if late <= 0:
        return None
    who = "you" if mine else (status.get("opponent") or "your opponent")
    return {"side": status.get("side") if mine else _other(status), "who": who,
            "yours": mine, "since": since, "by": late,
            "words": f"{who} {'are' if mine else 'is'} overdue by {duration_words(late)} "
                     f"(agreed: {pace_words(pace, '')})"}


def not_late_when_unsent(status: dict[str, Any]) -> None:
    """Nobody is overdue with an answer to a file this side has not sent (held, or its
    route down): the status's ``sent`` line (:func:`pbem.transport.state.sent_line`) says
    so instead (issue 32 items 3 and 5).  For every screen that shows both: ``status``,
    ``list``, the lobby."""
    late = status.get("overdue")
    sent = status.get("sent")
    if late and not late["yours"] and isinstance(sent, str) and "not sent" in sent:
        status["overdue"] = None


def _other(status: dict[str, Any]) -> str | None:
    to_act = status.get("to_act")
    return str(to_act) if isinstance(to_act, str) and to_act else None
