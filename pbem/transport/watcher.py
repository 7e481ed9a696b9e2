"""One watcher for every game (issue 32 item 4): ``pbem watch`` with no folder follows
each game's route, folders and mailboxes together, imports what comes, sends what is
owed, and tells the player.

It is meant to run for days.  Each look reads the routes afresh (a game joined meanwhile
is followed from the next look), builds its router and handled-files record anew (what
another command wrote meanwhile is kept), and keeps in memory only the places it follows
and the notes of the last look.  A place that cannot be reached (a mail server down, a
network drive gone) is said once and tried again after a wait that doubles up to
``max_backoff`` seconds; a file owed that cannot leave is retried the same way.  Nothing
of it is ever fatal.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pbem.errors import PbemError
from pbem.transport.base import Confirm, Outcome, Router, Transport

if TYPE_CHECKING:
    from pbem.session import Home

__all__ = ["Watcher"]


@dataclass
class _Backoff:
    """A place or a delivery that failed: how often in a row, and when to try again."""

    failures: int = 0
    next_try: float = 0.0


class Watcher:
    """Looks at every route of ``home`` once per :meth:`look`; :meth:`run` loops."""

    def __init__(self, home: Home, *, say: Callable[[str], None],
                 show: Callable[[list[Outcome]], None],
                 notify: Callable[[str, str], None] | None = None,
                 confirm: Confirm | None = None, interval: float = 2.0,
                 max_backoff: float = 300.0, mail_interval: float | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.home = home
        self.say = say
        self.show = show
        self.notify = notify
        self.confirm = confirm
        self.interval = interval
        self.max_backoff = max_backoff
        #: a mailbox is read less often than a folder is listed: a provider counts logins
        self.mail_interval = interval if mail_interval is None else mail_interval
        self.mail_next = 0.0
        self.clock = clock
        #: place -> its failures; delivery (game id) -> its failures: only what is failing
        self.down: dict[str, _Backoff] = {}
        self.followed: set[str] = set()

    def places(self) -> dict[str, Transport]:
        """Each place the routes read, once (two games by mail read one mailbox)."""
        from pbem.transport import plugins
        from pbem.transport.route import routes

        out: dict[str, Transport] = {}
        for route in routes(self.home.path).values():
            try:
                transport = plugins.make(route.kind, self.home.path, route.where)
            except PbemError as exc:
                self._fail(f"route {route.kind}", f"{route.words()}: {exc}")
                continue
            key = transport.place()
            if key:
                out.setdefault(key, transport)
        from pbem.transport.config import account_path

        if account_path(self.home.path).exists():
            # the home's mailbox even with no game by mail yet: invitations come there
            mailbox = plugins.make("mail", self.home.path, "")
            out.setdefault(mailbox.place(), mailbox)
        return dict(sorted(out.items()))

    def _wait(self, key: str) -> bool:
        state = self.down.get(key)
        return state is not None and self.clock() < state.next_try

    def _fail(self, key: str, why: str) -> None:
        state = self.down.setdefault(key, _Backoff())
        state.failures += 1
        delay = min(self.interval * 2 ** state.failures, self.max_backoff)
        state.next_try = self.clock() + delay
        if state.failures == 1:
            self.say(f"{why}; trying again (every {self.max_backoff:g} s at most), "
                     f"still watching")

    def _ok(self, key: str, what: str) -> None:
        if self.down.pop(key, None) is not None:
            self.say(f"{what} works again")

    def send_owed(self) -> None:
        """Every game whose latest sealed file has not left by its route: send it."""
        from pbem.transport.route import deliver_file, owed

        try:
            due = owed(self.home)
        except PbemError as exc:
            self._fail("owed", f"cannot read what is owed ({exc})")
            return
        for status, route in due:
            key = f"send {status['game_id']}"
            if self._wait(key):
                continue
            name = status["name"]
            try:
                game = self.home.game(name)
                seq, data = game.file(status["last_sealed"])
                done = deliver_file(game, seq, data, route, once=True)
            except Exception as exc:  # a transport another package wrote: never fatal
                self._fail(key, f"{name}: file {status['last_sealed']} could not be sent "
                                f"by {route.words()} ({exc})")
                continue
            self._ok(key, f"sending {name}'s files by {route.words()}")
            self.say(f"sent what was owed: {done.line}")

    def send_reminders(self) -> None:
        """Where the invite agreed to it, remind an overdue opponent, at most once per
        pace period (issue 32 item 5); the time is the home's clock (``PBEM_CLOCK`` in
        tests), and it decides only when a reminder goes."""
        from pbem.transport.route import remind, reminders_due

        now = self.home.clock()
        try:
            due = reminders_due(self.home, now)
        except PbemError as exc:
            self._fail("reminders", f"cannot tell which games are overdue ({exc})")
            return
        for status in due:
            key = f"remind {status['game_id']}"
            if self._wait(key):
                continue
            name = status["name"]
            try:
                done = remind(self.home.game(name), now)
            except Exception as exc:  # a transport another package wrote: never fatal
                self._fail(key, f"{name}: the reminder could not be sent ({exc})")
                continue
            self._ok(key, f"reminding in {name}")
            self.say(f"{status['overdue']['words']}: {done.line}")

    def look(self) -> list[Outcome]:
        """One look at every place, then what is owed goes out; returns the outcomes."""
        from pbem.transport.state import HandledState

        places = self.places()
        for key in sorted(set(places) - self.followed):
            self.say(f"watching {key}")
        self.followed = set(places)
        # a place no route reads any more is forgotten with its failures
        for key in [k for k in self.down if k.startswith(("folder ", "mailbox "))
                    and k not in places]:
            del self.down[key]
        outcomes: list[Outcome] = []
        self.send_owed()
        self.send_reminders()
        for key, transport in places.items():
            if self._wait(key):
                continue
            router = Router.for_home(self.home, confirm=self.confirm)
            if key.startswith("mailbox ") and self.clock() < self.mail_next:
                continue
            try:
                found = transport.collect(router, HandledState.of_home(self.home.path))
            except (PbemError, OSError) as exc:
                self._fail(key, f"{key} cannot be reached ({exc})")
                continue
            except Exception as exc:  # a transport another package wrote: never fatal
                self._fail(key, f"{key} failed ({type(exc).__name__}: {exc}; please report "
                                f"it to the transport's authors)")
                continue
            if key.startswith("mailbox "):
                self.mail_next = self.clock() + self.mail_interval
            self._ok(key, key)
            if found:
                self.show(found)
                self._tell(found)
                outcomes += found
        # files an import sealed were sent by the seal itself (or are owed: next look)
        self.home.deliveries.clear()
        return outcomes

    def _tell(self, outcomes: list[Outcome]) -> None:
        """A desktop notification for each game that moved, told as the player's own
        import tells it (the receiver's side: issue 32 item 7)."""
        if self.notify is None:
            return
        for outcome in outcomes:
            report: Any = outcome.report
            name = getattr(report, "game_name", None)
            if outcome.status != "imported" or not isinstance(name, str):
                continue
            try:
                game = self.home.game(name)
            except PbemError:
                continue
            decision = game.my_decision()
            body = f"your move: {decision.prompt}" if decision is not None else \
                game.awaiting()
            self.notify(f"pbem: {name}", body)

    def run(self, stop: Callable[[], bool] | None = None,
            sleep: Callable[[float], None] = time.sleep) -> None:
        while True:
            self.look()
            if stop is not None and stop():
                return
            sleep(self.interval)
            if stop is not None and stop():
                return


def desktop_notifier() -> Callable[[str, str], None] | None:
    """Desktop notifications through the optional ``desktop-notifier`` package, where it
    is installed and the desktop offers them; None otherwise (the terminal line stays)."""
    import importlib
    import logging
    import os
    import sys

    if sys.platform.startswith("linux") and not any(
            os.environ.get(v) for v in ("DBUS_SESSION_BUS_ADDRESS", "DISPLAY",
                                        "WAYLAND_DISPLAY")):
        return None  # a server, a container: no session bus to notify on
    # the library logs each failed notification with a traceback; the watch says its line
    logging.getLogger("desktop_notifier").setLevel(logging.CRITICAL)
    try:
        module = importlib.import_module("desktop_notifier")
        notifier = module.DesktopNotifierSync(app_name="pbem")
    except Exception:  # absent, or no desktop to notify on: the terminal line stays
        return None

    def send(title: str, body: str) -> None:
        from pbem.text import bound, safe

        try:
            notifier.send(title=safe(bound(title, 80)), message=safe(bound(body, 300)))
        except Exception:  # a notification never stops the watch
            return

    return send
