"""The match: one game's turn logic over a position and a transcript held in memory.

A :class:`Match` loads nothing and writes nothing.  It replays the local actions not yet
sealed, applies new ones, resolves the rolls that follow them from this side's dice chain,
answers the opponent's decisions from its standing orders, says when the file is due to
seal, and seals it: the signed file's bytes, taken into its own verifier as the
opponent's will take them.  Where those bytes and the save go is the store's business
(:class:`pbem.session.Game`, which holds a match); a trial (``pbem act``'s several
actions, a set-up text) is a match that no store ever holds, so it cannot write
(ARCHITECTURE section 3, the turn loop).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from pbem import history
from pbem.envelope import open_envelope, seal
from pbem.errors import ChainError, FormatError, NotYourTurn, UsageError

if TYPE_CHECKING:
    from pbem import dice, orders
    from pbem.engine import Decision, Engine, Event, Result, State
    from pbem.envelope import Envelope
    from pbem.identity import Card, Identity
    from pbem.transcript import Accepted, RollRecord, Verifier
    from pbem.view import BoardView

#: what :meth:`Match.act` and :meth:`Match.advance` give: the events told, the rolls
#: made, and the end the file is due to seal with (``None``: play goes on in this file;
#: ``""`` a turn handed over, ``"rules"`` the game over by its rules)
Step = tuple[list["Event"], list["RollRecord"], "str | None"]


if TYPE_CHECKING:
    # for mypy only: a Protocol class costs ~0.15 M instructions to make (issue 35)
    class Transcript(Protocol):
        """The game's exchanged files in sequence order, as the match reads and adds them
        (:class:`pbem.gamefiles.GameFiles` is the saved one; a list-like in memory serves)."""

        def __len__(self) -> int: ...

        def __getitem__(self, seq: int) -> bytes: ...

        def get(self, seq: int, default: bytes | None = None) -> bytes | None: ...

        def append(self, data: bytes, direction: str, when: int) -> None: ...


class Match:
    """One game as this side plays it: verified transcript, working state, pending actions."""

    def __init__(self, name: str, side: str, engine: Engine, files: Transcript,
                 verifier: Verifier, *, identity: Callable[[], Identity],
                 clock: Callable[[], int], keep_links: bool = False) -> None:
        """``identity``: this side's keys, asked for only when a roll, a commitment or a
        seal needs them (an encrypted key asks its passphrase); ``clock``: the time a file
        came in or went out, and what the status calls overdue; ``keep_links``: this
        side's dice chain may keep links in the data cache between commands
        (:mod:`pbem.chainkeep`, a file: the store's match does, a match alone does not)."""
        self.name = name
        self.side = side
        self.engine = engine
        self.files = files
        self.verifier = verifier
        self.identity = identity
        self.clock = clock
        self.keep_links = keep_links
        #: this file's records so far in their wire form (pbem.history), as the save and
        #: the sealed file hold them; :attr:`pending_records` reads them typed
        self.pending: list[list[Any]] = []
        self.message = ""
        self.draw_offer = False
        #: standing orders to publish with our next file (None: no change)
        self.orders_pending: orders.Orders | None = None
        #: when the last file came in and went out, and the last one sealed (for status)
        self.times: dict[str, Any] = {"last_in": None, "last_out": None,
                                      "last_sealed": None}
        #: the working position (with unsealed actions) once it differs from the verified
        #: one; until then the verified state serves, so loading a game copies nothing
        self._state: State | None = None
        self._chain: dice.HashChain | None = None
        #: each commitment's salt, by label (:meth:`_commit_salt`): an HMAC of this side's
        #: secret that never changes within the game, asked for every plan a private note
        #: rebuilds (48th Panzer Korps 9.1: sixteen a view of the Soviet side's screens)
        self._salts: dict[str, bytes] = {}
        #: the state's decision, asked once per position (an engine may build its options
        #: from the legal actions); ``False`` means not asked yet
        self._decision: Decision | bool | None = False
        #: :meth:`has_pen` and what it was asked of: the verified position (the object,
        #: its file count and last file's hash, which every file it takes in changes).  A
        #: board click asked it six times of the same position, each asking the engine
        #: whose turn it is (issue 35 item 4)
        self._pen: tuple[object, int, bytes, bool] | None = None
        #: this side's view of the position, made once per position as the decision is:
        #: a board click names its events' units from it, and the redraw draws it
        self._view: BoardView | None = None

    # -- facts -------------------------------------------------------------------------------------

    @property
    def state(self) -> State:
        """The position now, unsealed actions included (read only: use act/undo)."""
        return self._state if self._state is not None else self.verifier.state

    def ready(self) -> State:
        """The working position, made a copy of the verified one now if it is not one yet,
        before an action asks for it: a board loads a game to play it, and its first click
        copied the position (48th Panzer Korps: a third of that click, issue 35 item 4).
        The copy is the same position, so the decision and the view asked of the verified
        one stay."""
        if self._state is None:
            self._state = self.verifier.state.clone()
        return self._state

    def _writable(self) -> State:
        state = self.ready()
        self._decision = False  # the caller is about to change the position
        self._view = None
        return state

    def _reset_state(self) -> None:
        """The working position is the verified one again (after a seal, import or undo)."""
        self._state = None
        self._decision = False
        self._view = None

    def decision(self) -> Decision | None:
        """The decision of the position now (whoever's it is), asked of the engine once."""
        if self._decision is False:
            self._decision = self.state.decision()
        assert self._decision is not True
        return self._decision

    @property
    def game_id(self) -> bytes:
        return self.verifier.game_id

    @property
    def opponent_side(self) -> str:
        return self.verifier.setup.other(self.side)

    def opponent(self) -> Card | None:
        return self.verifier.cards.get(self.opponent_side)

    @property
    def result(self) -> Result | None:
        return self.verifier.result

    def has_pen(self) -> bool:
        """Whether the next file of the game is ours to write."""
        verifier = self.verifier
        if verifier.result is not None:
            return False
        kept = self._pen
        if kept is not None and kept[0] is verifier.state and kept[1] == verifier.seq \
                and kept[2] == verifier.last_hash:
            return kept[3]
        try:
            pen = verifier.expected_sender() == self.side
        except ChainError:
            pen = False
        self._pen = (verifier.state, verifier.seq, verifier.last_hash, pen)
        return pen

    def my_decision(self) -> Decision | None:
        if not self.has_pen() or self.state.current_player() != self.side:
            return None
        return self.decision()

    def awaiting(self, decision: Decision | None = None) -> str:
        """What the game waits for, in words (``decision``: the state's, if already known)."""
        if self.result is not None:
            return f"game over: {self.result.text}"
        if self.verifier.seq == 0:
            return "waiting for the opponent to join (send them the invite)"
        if decision is None:
            # side and prompt only: the options (a White Death impulse's moves) are not shown
            return self._awaiting(self.decision_head())
        return self._awaiting((decision.side, decision.prompt))

    def decision_head(self) -> tuple[str, str] | None:
        """``(side, prompt)`` of :meth:`decision`: the decision itself where already asked,
        else the engine's cheaper head (the options are left unlisted)."""
        if self._decision is not False:
            d = self._decision
            assert d is not True
            return (d.side, d.prompt) if d is not None else None
        return self.state.decision_head()

    def _awaiting(self, head: tuple[str, str] | None) -> str:
        """:meth:`awaiting`, given the decision's ``(side, prompt)`` (or ``None``)."""
        if self.result is not None:
            return f"game over: {self.result.text}"
        if self.verifier.seq == 0:
            return "waiting for the opponent to join (send them the invite)"
        if self.has_pen():
            if head is not None and head[0] == self.side:
                return f"your decision: {head[1]}"
            return "your file is ready to seal"
        nxt = self.verifier.seq + 1
        if self.verifier.sealed and self.state.is_chance():
            purposes = [r.purpose for r in self.state.rolls_due()]
            if len(purposes) == 1:
                return (f"waiting for file {nxt} from the opponent, whose dice link "
                        f"finalizes the roll for {purposes[0]} (sealed dice)")
            return (f"waiting for file {nxt} from the opponent, whose dice link finalizes "
                    f"{len(purposes)} rolls: " + "; ".join(purposes) + " (sealed dice)")
        who = head[1] if head else f"the {self.opponent_side} player's file"
        return f"waiting for file {nxt} from the opponent ({who})"

    def summary(self) -> dict[str, Any]:
        """Where the game stands, as ``pbem status`` and ``pbem list`` show it.

        Kept (signed) in the save file, so that listing games needs no engine at all.
        """
        setup = self.verifier.setup
        opp = self.opponent()
        # side and prompt only: listing the options (a White Death impulse's moves) is
        # what ``legal`` is for, and an ``act`` or ``receive`` would pay for it here
        head = self.decision_head()
        return {
            "name": self.name,
            "game_id": self.game_id.hex(),
            "engine": setup.engine_id,
            "scenario": setup.scenario,
            "side": self.side,
            "opponent": opp.name if opp else None,
            "opponent_fingerprint": opp.fingerprint if opp else None,
            "seq": self.verifier.seq,
            "turn": self.state.turn_number(),
            "position": self.status_line(),
            "to_act": head[0] if head else None,
            "decision": head[1] if head else None,
            "your_move": head is not None and head[0] == self.side and self.has_pen(),
            # counted in the records' wire form (history.wire: ``["a", text]``), not typed:
            # every save of a click typed the file's whole record so far, 47 us for 35
            # records, a cost that grew with the file (issue 35 item 4)
            "pending_actions": sum(1 for r in self.pending if r[0] == "a"),
            "awaiting": self._awaiting(head),
            "result": self.result.to_data() if self.result else None,
            "dice": setup.dice_mode,
            "orders": dict(self.verifier.orders.get(self.side, {})),
            "opponent_orders": dict(self.verifier.orders.get(self.opponent_side, {})),
            "orders_pending": self.orders_pending,
            "pace": setup.pace,
            "reminders": setup.reminders,
        }

    def status(self) -> dict[str, Any]:
        """What ``pbem status`` says of this game: its summary, its times, and who is
        overdue now (the same as :meth:`Home.statuses` reads without the engine)."""
        from pbem.pace import overdue

        status = {**self.summary(), **self.times}
        return {**status, "overdue": overdue(status, self.clock())}

    def add_file(self, data: bytes, direction: str) -> None:
        """File ``len(self.files)`` of the game, which came in or went out now."""
        seq, now = len(self.files), self.clock()
        self.files.append(data, direction, now)
        times = self.times
        key = "last_in" if direction == "in" else "last_out"
        times[key] = now if times[key] is None else max(times[key], now)
        if direction == "out":
            last = times["last_sealed"]
            times["last_sealed"] = seq if last is None else max(last, seq)

    # -- dice --------------------------------------------------------------------------------------

    def _my_chain(self, generation: int) -> dice.HashChain:
        if self._chain is None or self._chain.generation != generation:
            from pbem import dice

            self._chain = dice.HashChain(self.identity().secret_bytes(),
                                         self.verifier.setup.nonce, self.side, generation,
                                         self.verifier.setup.chain_length,
                                         keep=self.keep_links)
        return self._chain

    def _next_link(self) -> tuple[int, int, bytes]:
        pos = self.verifier.chains[self.side]
        return pos.generation, pos.index + 1, self._my_chain(pos.generation).link(pos.index + 1)

    def _seed(self) -> bytes:
        _, _, link = self._next_link()
        return self.verifier.seed_for(self.verifier.seq + 1, self.side, link)

    def _commit_salt(self, label: str) -> bytes:
        """The salt of this side's commitment ``label``: from its own secret, so only it
        can make or open the commitment, and it can rebuild it from its key."""
        salt = self._salts.get(label)
        if salt is None:
            from pbem.engine import Commitment

            salt = self._salts[label] = Commitment.salt(
                self.identity().secret_bytes(), self.verifier.setup.nonce, self.side, label)
        return salt

    def private_notes(self) -> list[str]:
        """What only this side knows (State.private_notes: its committed plan), rebuilt
        from its own secret for its own screens; never written anywhere."""
        return self.state.private_notes(self.side, self._commit_salt)

    def _board(self) -> BoardView:
        """``State.view`` for this side, made once per position."""
        if self._view is None:
            self._view = self.state.view(self.side)
        return self._view

    def view(self) -> BoardView:
        """The board as this side may see it, its private notes after the status line."""
        view = self._board()
        notes = self.private_notes()
        if not notes:
            return view
        return view.restated(" | ".join(x for x in (view.status, *notes) if x))

    def counters(self) -> Mapping[str, str]:
        """What each unit this side may identify prints on its counter (``State.counters``).

        Where the engine keeps the runtime's ``counters`` and ``status_line``, which read
        the view, they are read off the one view of the position this match makes: a board
        click's save, its events' names and its redraw made three (issue 35 item 4)."""
        from pbem.engine import State, view_counters

        state = self.state
        if type(state).counters is State.counters:
            return view_counters(self._board())
        return state.counters(self.side)

    def status_line(self) -> str:
        """``State.status_line`` for this side (read off the position's one view where the
        engine keeps the default, see :meth:`counters`)."""
        from pbem.engine import State

        state = self.state
        if type(state).status_line is State.status_line:
            return self._board().status
        if self._view is not None and state.view_status:
            return self._view.status
        return state.status_line(self.side)

    def drawn(self) -> None:
        """Ask now, once for the position, what a board's redraw of it asks: this side's
        view and, if it is ours, the decision.  A board's save then reads its summary's
        status line and decision head off them (:meth:`status_line`,
        :meth:`decision_head`) rather than working each out again for the redraw (issue
        35 item 4).  One that fails is left to the redraw, which says why: the save of the
        action taken must not fail for it."""
        try:
            self._board()
            self.my_decision()
        except Exception:  # the redraw asks again, and reports it
            pass

    @property
    def pending_records(self) -> list[history.Record]:
        """This file's records so far, typed (:attr:`pending` is their wire form)."""
        return history.read_all(self.pending, "pending record")

    def pending_actions(self) -> list[str]:
        """The actions this side played in this file so far (not its opponent's standing
        orders), in canonical notation."""
        return [r.text for r in self.pending_records if isinstance(r, history.Acted)]

    def _acted(self) -> bool:
        """Whether this file holds an action yet (sealed dice: rolls only come before)."""
        return any(isinstance(r, history.Played) for r in self.pending_records)

    def _roll_count(self) -> int:
        return sum(1 for r in self.pending_records if isinstance(r, history.Rolled))

    # -- the turn loop ---------------------------------------------------------------------------

    def replay(self, record: history.Record, *, derive: bool = True) -> list[Event]:
        from pbem import dice

        state = self._writable()
        if isinstance(record, history.Acted):
            events = state.apply(record.text, side=self.side)
        elif isinstance(record, history.Ordered):
            events = state.apply(record.text, side=self.opponent_side, order=True)
        elif derive:
            roll = dice.check_roll(self._seed(), record.index, state.chance_request(),
                                   record.outcome)
            events = state.apply_outcome(roll.outcome)
        else:
            events = state.apply_outcome(record.outcome)
        self.pending.append(history.wire(record))
        return events

    def _resolve_chance(self, out: list[Event], rolls: list[RollRecord]) -> None:
        from pbem import dice
        from pbem.transcript import RollRecord

        seq = self.verifier.seq + 1
        seed = self._seed() if self.state.is_chance() else b""
        while self.state.is_chance():
            request = self.state.chance_request()
            index = self._roll_count()
            roll = dice.resolve(seed, index, request)
            last = next((r.text for r in reversed(self.pending_records)
                         if isinstance(r, history.Played)), "(start)")
            # from format 2 on, what was asked goes into the signed record: the files
            # alone then check the outcome against the seed (docs/protocol.md 6)
            asked = dice.request_data(request) if self.verifier.setup.format >= 2 else None
            told = self.replay(history.Rolled(index, roll.outcome, asked),
                                        derive=False)
            out += told
            rolls.append(RollRecord(seq, index, self.side, request.purpose, request.rule,
                                    request.describe(), roll.outcome, seed, last, roll,
                                    told=tuple(e for e in told if e.kind == "roll")))

    def advance(self) -> Step:
        """Resolve due rolls and the opponent's standing orders; the end the file is due
        to seal with when the next decision is the opponent's (or the game is over)."""
        events: list[Event] = []
        rolls: list[RollRecord] = []
        if not self.has_pen():
            return events, rolls, None
        sealed = self.verifier.sealed
        chance = self.state.is_chance()
        if chance and sealed and self._acted():
            # sealed dice: what our actions ask for, the opponent's next link finalizes
            return events, rolls, ""
        if chance:
            # asked once: an action that rolls nothing (most of a board's clicks) neither
            # asks again nor loads the dice (a fifth of advancing after it)
            self._resolve_chance(events, rolls)
        # the opponent's standing orders answer its decisions here, and play goes on; with
        # none in force none answers (pbem.orders.answer), and their module is not loaded
        # (issue 35: 0.47 M instructions of every act and receive)
        if any(self.verifier.orders.values()):
            from pbem import orders

            while (due := orders.answer(self.state, self.side, self.verifier.orders,
                                        self.decision)) is not None:
                events += self.replay(history.Ordered(due))
                if sealed and self.state.is_chance():
                    return events, rolls, ""
                self._resolve_chance(events, rolls)
        player = self.state.current_player()
        if player != self.side:
            return events, rolls, "rules" if player is None else ""
        return events, rolls, None

    def act(self, text: str) -> Step:
        """Apply one action of ours and resolve its rolls; the end the file is due to seal
        with if the opponent decides next (sealing is the caller's: :meth:`seal`)."""
        if self.result is not None:
            raise NotYourTurn(f"{self.name}: the game is over ({self.result.text})")
        if not self.has_pen():
            raise NotYourTurn(f"{self.name}: it is not your turn: {self.awaiting()}")
        player = self.state.current_player()
        if player != self.side:
            raise NotYourTurn(f"{self.name}: it is not your decision now")
        state = self._writable()
        action = state.parse_action(text.strip())
        # a secret plan leaves only as its commitment, a reveal with its salt
        # (pbem.engine.Commitment; docs/protocol.md, "Committed plans")
        action = state.conceal(action, self._commit_salt)
        canonical_text = action.notation()
        events = state.apply(action, side=self.side)
        self.pending.append(history.wire(history.Acted(canonical_text)))
        more, rolls, end = self.advance()
        return events + more, rolls, end

    def undo(self) -> str:
        """Take back our last action, unless a die was rolled after it or the file is sealed."""
        if not self.pending:
            if self.has_pen():
                raise NotYourTurn(f"{self.name}: nothing to undo in this file")
            raise NotYourTurn(f"{self.name}: file {len(self.files) - 1} is sealed; undo is "
                              "refused once a file is sealed")
        records = self.pending_records
        # the opponent's standing orders answered what our last action led to: they go
        # back with it (they would answer the same way again)
        while records and isinstance(records[-1], history.Ordered):
            records.pop()
        if not records:
            raise NotYourTurn(f"{self.name}: only the opponent's standing orders were played "
                              "in this file; nothing of yours to undo")
        last = records.pop()
        if isinstance(last, history.Rolled):
            from pbem import dice

            name = dice.roll_name(self.verifier.seq + 1, last.index)
            raise NotYourTurn(f"{self.name}: cannot undo past die roll {name}")
        self._reset_state()
        self.pending = []
        for record in records:
            self.replay(record)
        return last.text

    def say(self, text: str) -> None:
        if len(text) > 4000:
            raise UsageError("a message is at most 4000 characters")
        self.message = text

    def orders_to_come(self) -> orders.Orders:
        """Our orders as the next file leaves them: the pending change, else those in force."""
        if self.orders_pending is not None:
            return self.orders_pending
        return dict(self.verifier.orders.get(self.side, {}))

    def set_orders(self, new: orders.Orders) -> None:
        """Standing orders to publish with our next file (they hold from its end on)."""
        try:
            # the same check the opponent's verifier makes, so our file cannot fail it
            from pbem import orders

            self.orders_pending = orders.parse(self.engine, dict(new), "standing orders")
        except FormatError as exc:
            raise UsageError(str(exc)) from None

    def resign(self) -> str:
        """The end to seal our next file with (``"resign"``), when we may."""
        if self.result is not None:
            raise NotYourTurn(f"{self.name}: the game is already over")
        if not self.has_pen():
            raise NotYourTurn(f"{self.name}: you can resign when the next file is yours to "
                              f"write ({self.awaiting()})")
        return "resign"

    def draw(self) -> str | None:
        """Accept the opponent's standing offer (the end ``"draw"`` to seal with), or offer
        a draw with our next file (None)."""
        if self.result is not None:
            raise NotYourTurn(f"{self.name}: the game is already over")
        if self.verifier.draw_offered_by == self.opponent_side and self.has_pen():
            return "draw"
        self.draw_offer = True
        return None

    def seal_file(self, end: str) -> tuple[int, bytes]:
        """This file signed with ``end`` (what :meth:`advance` said, or a resign or an
        agreed draw): its place and bytes.  Nothing changes until :meth:`sent` takes it."""
        from pbem.engine import CHANCE, Result

        generation, index, link = self._next_link()
        seq = self.verifier.seq + 1
        next_anchor = None
        if index >= self.verifier.setup.chain_length:
            next_anchor = self._my_chain(generation + 1).anchor
        player = self.state.current_player()
        body: dict[str, Any] = {
            "game": self.game_id,
            "seq": seq,
            "prev": self.verifier.last_hash,
            "side": self.side,
            "generation": generation,
            "link_index": index,
            "reveal": link,
            "records": self.pending,
            "digest": self.state.digest(),
            "to_act": "" if end in ("resign", "draw") or player is None else
            self.opponent_side if player == CHANCE else player,
            "message": self.message,
            "clock": self.clock(),
            "draw": "offer" if self.draw_offer and end == "" else "",
            "end": end,
            "result": None,
            "next_anchor": next_anchor,
        }
        if self.orders_pending is not None:
            body["orders"] = self.orders_pending
        if end == "rules":
            result = self.state.result()
            body["result"] = result.to_data() if result else None
        elif end == "resign":
            body["result"] = Result(self.opponent_side, "resign",
                                    f"the {self.side} player resigned; "
                                    f"{self.opponent_side} wins").to_data()
        elif end == "draw":
            body["result"] = Result(None, "draw", "drawn by agreement").to_data()
        return seq, seal(self.identity(), "turn", body)

    def sent(self, data: bytes) -> int:
        """Go on from our own file ``data`` (from :meth:`seal_file`): its place."""
        # our own file passes the same checks as the opponent's will (not transactional:
        # a failure here is a bug, and the caller drops this match).
        # Replayed, not taken from the working state's digest (issue 19 asked whether it
        # could be): that would be the same computation only if (a) applying the parsed,
        # concealed Action object in act() gave what applying its canonical notation
        # gives, which is an engine's contract (tests/test_contract.py), not something
        # this code can prove, and is the very thing that makes a receiver's replay
        # differ; and (b) the working state, a clone() of the verified one, were the
        # position the verified state is, which rests on each engine's clone.  This check
        # is the sender's only chance to find either before the opponent does.
        accepted = self.verifier.add(open_envelope(data), transactional=False)
        self.went_out(data, accepted.seq)
        return accepted.seq

    def seal(self, end: str) -> tuple[int, bytes]:
        """Seal this file with ``end`` and go on from it: its place and bytes."""
        seq, data = self.seal_file(end)
        self.sent(data)
        return seq, data

    def went_out(self, data: bytes, seq: int) -> None:
        """The game goes on from ``data``, file ``seq`` of this home's own: sealed now,
        or sealed earlier and taken back (a crash before the save, a home put back from a
        backup, a home played from another computer).  The unsealed actions, message,
        draw offer and orders belonged to the state before it and go with it."""
        self.add_file(data, "out")
        self.pending = []
        self.message, self.draw_offer, self.orders_pending = "", False, None
        self._reset_state()

    def next_is_ours(self) -> bool:
        try:
            return self.verifier.expected_sender() == self.side
        except ChainError:
            return False

    # -- files from the opponent -----------------------------------------------------------------

    def check_in(self, env: Envelope, body: dict[str, Any] | None = None) -> Accepted:
        """Verify the opponent's next file ``env`` and play it into the verified game
        (:meth:`took` then adds it to the transcript).  Not transactional: after an error
        this match is to be dropped (the store's save is what stays good).  ``body``:
        what ``env.decode()`` gave the caller already, read here and never changed."""
        known = self.files
        # decoded once for every check below (the verifier reads it and changes nothing)
        if body is None:
            body = env.decode()
        claimed = body.get("seq")
        if self.pending and env.key in self.verifier.keys.values() \
                and type(claimed) is int and claimed != len(self.files):
            # a second version of a file already held is evidence whatever we hold
            # unsealed, and a file after a missing one says which is missing: those
            # checks come before the pending-actions one (issue 23 item 4)
            self.verifier.classify(env, body, known)
        if self.pending:
            raise ChainError(f"a file from the opponent arrived while you hold unsealed "
                             f"actions in {self.name}", reason="out-of-turn")
        return self.verifier.add(env, known, transactional=False, body=body)

    def took(self, data: bytes) -> None:
        """The file :meth:`check_in` accepted is the game's next one, which came in now."""
        self.add_file(data, "in")
        self._reset_state()

    def told_in(self, accepted: Accepted) -> str:
        """What importing the opponent's file did, in one line."""
        from pbem.naming import counted

        what = "accepted the invitation" if accepted.kind == "accept" else \
            f"{counted(len(accepted.actions), 'action')}, {counted(len(accepted.rolls), 'roll')}"
        if accepted.ordered:
            what += f" ({len(accepted.ordered)} answered by your standing orders)"
        text = f"{self.name}: file {accepted.seq} from the {accepted.side} player: {what}"
        if accepted.orders is not None:
            from pbem import orders

            text += f"; the opponent's standing orders are now: {orders.text(accepted.orders)}"
        if accepted.draw == "offer":
            text += "; the opponent offers a draw (pbem draw to accept)"
        if self.result is not None:
            text += f"; game over: {self.result.text}"
        return text
