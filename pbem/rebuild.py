"""A lost save made anew from the game's exchanged files and this home's key
(``pbem rebuild``), and the choice of one chain among several versions of a place."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pbem import canonical
from pbem.envelope import Envelope
from pbem.errors import ChainError, DuplicateFile, FormatError, SignatureError
from pbem.gamefiles import SAVE_SUFFIX
from pbem.session import Game, Home, get_engine, load_envelope, short_id


def _place(env: Envelope) -> int:
    seq = env.decode().get("seq")
    return seq if type(seq) is int else -1


def one_chain(envs: list[tuple[str, Envelope]]) -> tuple[list[Envelope], list[str]]:
    """The files of one chain, and a line for each file set aside (issue 23 item 1).

    Two versions of one place (the same home used on two computers, a sync tool's
    conflict copy) cannot both be in a save: the one the next file follows (its ``prev``
    is that version's hash) is the game the opponent plays on; the others are set aside,
    named.  When no file follows yet, the one under the real file name is kept (a
    conflict copy is the version the sync tool moved away)."""
    from pbem.transport.folder import conflict_of

    by_place: dict[tuple[bytes, int], list[tuple[str, Envelope]]] = {}
    for source, env in envs:
        # another game's files in the same folder are not versions of this one's
        game = env.decode().get("game")
        group = by_place.setdefault((game if isinstance(game, bytes) else b"", _place(env)),
                                    [])
        if all(other.raw != env.raw for _, other in group):
            group.append((source, env))
    chain: list[Envelope] = []
    aside: list[str] = []
    for place in sorted(by_place):
        group = by_place[place]
        if len(group) > 1:
            follows = {e.decode().get("prev")
                       for _, e in by_place.get((place[0], place[1] + 1), [])}

            group = sorted(group, key=lambda item: (
                item[1].hash not in follows, conflict_of(Path(item[0]).name) is not None,
                item[0]))
            kept = group[0][0]
            why = ("the opponent's next file follows " if group[0][1].hash in follows
                   else "no file follows either yet; kept the one under the real name, ")
            for source, _ in group[1:]:
                aside.append(f"{source}: another version of file {place[1]}, set aside "
                             f"({why}{kept})")
        chain.append(group[0][1])
    return chain, aside


def rebuild(home: Home, datas: list[tuple[str, bytes]], *, name: str | None = None,
            progress: Callable[[int, int], None] | None = None,
            set_aside: list[str] | None = None) -> Game:
    """A save made anew from the exchanged files and this home's key (a lost save).

    ``set_aside`` receives a line for every file left out (another version of a place, or
    a file that does not open)."""
    loaded: list[tuple[str, Envelope]] = []
    damaged: list[str] = []
    aside_lines: list[str] = []
    for src, data in datas:
        try:
            loaded.append((src, load_envelope(data, src)))
        except (FormatError, SignatureError) as exc:
            # a local copy damaged on this disk (a sync conflict's twin with a changed
            # byte): the good copies of the game rebuild it, nobody is to send anything
            # (issue 36 item 4); should its place have no good copy, the replay names
            # the gap below
            cause = str(exc).removeprefix(f"{src}: ")
            damaged.append(src)
            aside_lines.append(f"{src}: damaged ({cause}), set aside; the rebuild uses the "
                               "other files")
    if set_aside is not None:
        set_aside.extend(aside_lines)
    invites = [e for e in {e.raw: e for _, e in loaded if e.kind == "invite"}.values()]
    turns, aside = one_chain([(s, e) for s, e in loaded if e.kind != "invite"])
    if set_aside is not None:
        set_aside.extend(aside)
    envs = [*invites, *turns]
    if len(invites) != 1:
        raise FormatError(f"rebuilding needs exactly one invite among the files, "
                          f"found {len(invites)}")
    from pbem.transcript import parse_invite

    setup = parse_invite(invites[0])
    engine = get_engine(setup.engine_id)
    from pbem.transcript import Verifier

    verifier = Verifier(engine, invites[0])
    me = home.card().key
    def place(env: Envelope) -> int:
        seq = env.decode().get("seq")
        return seq if type(seq) is int else -1

    rest = sorted((e for e in envs if e.kind != "invite"), key=place)
    files = [invites[0].raw]
    for done, env in enumerate(rest, start=1):
        if progress is not None:
            progress(done, len(rest))
        if env.decode().get("game") != setup.game_id:
            continue  # another game's file in the same folder
        if env.kind == "turn" and env.key not in verifier.keys.values():
            continue  # not signed by the game's players: nothing of this game
        if env.kind == "accept" and setup.creator.key != me and env.key != me:
            continue  # we joined this game: the accept is ours
        try:
            verifier.add(env, dict(enumerate(files)))
        except DuplicateFile:
            continue
        except ChainError as exc:
            if damaged and exc.reason == "missing":
                raise ChainError(f"{exc}; {len(damaged)} damaged file"
                                 f"{'s' * (len(damaged) != 1)} set aside may have been it "
                                 f"({', '.join(damaged)}): find "
                                 "another copy of that file", reason="missing") from None
            raise
        files.append(env.raw)
    if setup.creator.key == me:
        side = setup.creator_side
    elif verifier.cards.get(setup.joiner_side) and verifier.cards[setup.joiner_side].key == me:
        side = setup.joiner_side
    else:
        raise SignatureError("this home's identity is neither player of that game")
    name = home._unique_name(name, f"{engine.id}-{setup.scenario}-{short_id(setup.game_id)[:8]}")
    game = Game(home, home.games_dir / f"{name}{SAVE_SUFFIX}", name, side, engine, None,
                verifier)
    for data in files:
        # which files went out and which came in (when is not known: now)
        game.add_file(data, "out" if canonical.decode(data)[3] == me else "in")
    game.write()
    return game
