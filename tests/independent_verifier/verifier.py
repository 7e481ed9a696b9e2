"""A second verifier of pbem transcripts, written from docs/protocol.md and
docs/protocol-crypto.md alone (issue 22): it imports nothing from ``pbem`` and runs no
engine.  It checks what the files prove by themselves: the canonical encodings, every
signature against the keys the invite and accept pin, the chain of body hashes, the
alternation of senders (``side(n+1) = to_act(n)``), every dice reveal against the
committed chain (re-anchoring included), the end fields, and, for a format-2 game,
every roll's outcome against the seed and the request the record signs.

What it cannot check without the engine: that the actions are legal, that the state
digests are right, that the engine asked for the recorded requests.  A format-1 game
(no ``format`` in the invite) records no request: its rolls are counted as unchecked.

:func:`audit` follows the auditor's numbered order of checks (protocol.md 5.3) over a
folder's files: which files are set aside, which do not open, each game's verdict.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import struct
from dataclasses import dataclass, field
from typing import Any, TypeGuard

import msgpack
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

MAX_FILE = 4 * 1024 * 1024
BEGIN = "-----BEGIN PBEM FILE-----"
END = "-----END PBEM FILE-----"


class Refused(Exception):
    """The transcript is not what it claims; the message says where and why."""


@dataclass
class Roll:
    name: str
    request: dict[str, Any]
    seed: bytes
    outcome: list[Any]


@dataclass
class Report:
    game_id: bytes = b""
    format: int = 1
    files: int = 0
    rolls: list[Roll] = field(default_factory=list)
    unchecked_rolls: int = 0
    generations: dict[str, int] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    #: the agreed pace in seconds and the reminders agreed (protocol.md 3.1), or None/""
    pace: int | None = None
    reminders: str = ""


# --- canonical msgpack (protocol.md 1) ----------------------------------------------


def _sorted(value: Any) -> Any:
    if type(value) is dict:
        return {k: _sorted(value[k]) for k in sorted(value, key=lambda k: k.encode())}
    if type(value) is list:
        return [_sorted(v) for v in value]
    return value


def enc(value: Any) -> bytes:
    """Canonical msgpack: sorted str keys, shortest forms, bin for bytes."""
    out: bytes = msgpack.packb(_sorted(value), use_bin_type=True)
    return out


def dec(data: bytes, where: str) -> Any:
    try:
        value = msgpack.unpackb(data, raw=False, strict_map_key=True, use_list=True)
    except Exception as exc:  # any decoding failure is a refusal
        raise Refused(f"{where}: not msgpack ({exc})") from None
    _no_floats(value, where, 0)
    if enc(value) != data:
        raise Refused(f"{where}: not canonical msgpack")
    return value


def _no_floats(value: Any, where: str, depth: int) -> None:
    if depth > 32:
        raise Refused(f"{where}: nested deeper than 32")
    if type(value) is float or isinstance(value, msgpack.ExtType):
        raise Refused(f"{where}: floats and ext types are not allowed")
    if type(value) is dict:
        for k, v in value.items():
            if type(k) is not str:
                raise Refused(f"{where}: a map key is not a string")
            _no_floats(v, where, depth + 1)
    elif type(value) is list:
        for v in value:
            _no_floats(v, where, depth + 1)


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


# --- armor (protocol.md 4) ---------------------------------------------------------


def unarmor(data: bytes, where: str) -> tuple[bytes, dict[str, str]]:
    """protocol.md 4: one block (or identical copies), headers then canonical base64."""
    if data[:1] == b"\x96":
        return data, {}
    text = data.decode("utf-8", errors="strict")
    blocks = re.findall(re.escape(BEGIN) + r"(.*?)" + re.escape(END), text, re.S)
    if not blocks:
        raise Refused(f"{where}: neither a binary nor an armored pbem file")
    decoded = {_block(b, where) for b in blocks}
    if len({raw for raw, _ in decoded}) != 1:
        raise Refused(f"{where}: several different armored files")
    raw, headers = decoded.pop()
    return raw, dict(headers)


def _block(block: str, where: str) -> tuple[bytes, tuple[tuple[str, str], ...]]:
    headers: dict[str, str] = {}
    payload: list[str] = []
    header_part = True
    for line in re.split(r"\r\n|\r|\n", block):
        line = re.sub(r"^[ \t>]*", "", line).strip()
        if not line:
            if headers:
                header_part = False
            continue
        match = re.fullmatch(r"([A-Za-z-]+):(.*)", line) if header_part else None
        if match:
            if match.group(1) in headers:
                raise Refused(f"{where}: armor header {match.group(1)} repeated")
            headers[match.group(1)] = match.group(2).strip()
            continue
        header_part = False
        payload.append(line)
    chars = "".join(payload)
    if not chars or re.search(r"[^A-Za-z0-9+/=]", chars):
        raise Refused(f"{where}: the armored payload is not base64")
    raw = base64.b64decode(chars, validate=True)
    if base64.b64encode(raw).decode() != chars:
        raise Refused(f"{where}: base64 is not canonical")
    return raw, tuple(sorted(headers.items()))


def check_headers(headers: dict[str, str], kind: str, body: dict[str, Any],
                  where: str) -> None:
    """Each header present must say what the file says; unknown headers are refused."""
    if kind == "invite":
        claims = {"Kind": kind, "Engine": f"{body.get('engine')} / {body.get('scenario')}"}
    else:
        claims = {"Kind": kind, "Game": body["game"].hex()[:16], "Seq": str(body["seq"]),
                  "Side": str(body["side"])}
    for name, value in headers.items():
        if claims.get(name) != value:
            raise Refused(f"{where}: armor header {name}: {value!r} is not what the file says")


# --- the envelope (protocol.md 2) --------------------------------------------------


def open_file(data: bytes, where: str) -> tuple[str, bytes, bytes, dict[str, Any]]:
    if len(data) > MAX_FILE:
        raise Refused(f"{where}: larger than 4 MiB")
    raw, headers = unarmor(data, where)
    env = dec(raw, where)
    if (type(env) is not list or len(env) != 6 or env[0] != "pbem" or type(env[1]) is not int
            or env[1] != 1 or type(env[2]) is not str or type(env[3]) is not bytes
            or len(env[3]) != 32 or type(env[4]) is not bytes or len(env[4]) != 64
            or type(env[5]) is not bytes):
        raise Refused(f"{where}: not a pbem envelope ['pbem', 1, kind, key32, sig64, body]")
    kind, key, signature, body_bytes = env[2], env[3], env[4], env[5]
    try:
        Ed25519PublicKey.from_public_bytes(key).verify(
            signature, b"pbem/v1/" + kind.encode("ascii") + b"\0" + body_bytes)
    except (InvalidSignature, ValueError):
        raise Refused(f"{where}: signature does not verify") from None
    body = dec(body_bytes, where)
    if type(body) is not dict or body.get("kind") != kind:
        raise Refused(f"{where}: the body's kind is not the envelope's")
    if headers:
        check_headers(headers, kind, body, where)
    return kind, key, body_bytes, body


# --- dice (protocol-crypto.md 3) ------------------------------------------------


def chain_step(nonce: bytes, side: str, generation: int, i: int, link: bytes) -> bytes:
    return sha256(enc(["pbem/v1/chain", nonce, side, generation, i, link]))


def words(seed: bytes, index: int) -> Any:
    j = 0
    while True:
        block = hmac.new(seed, struct.pack(">II", index, j), "sha256").digest()
        yield from struct.unpack(">8I", block)
        j += 1


def uniform(stream: Any, n: int) -> int:
    limit = 2**32 - (2**32 % n)
    for w in stream:
        if w < limit:
            return int(w % n)
    raise AssertionError("unreachable")


def resolve(seed: bytes, index: int, request: dict[str, Any]) -> list[Any]:
    stream = words(seed, index)
    if request["kind"] == "dice":
        return [uniform(stream, s) + 1 for s in request["dice"]]
    items = sorted(request["contents"], key=lambda s: s.encode())
    for k in range(request["count"]):
        j = k + uniform(stream, len(items) - k)
        items[k], items[j] = items[j], items[k]
    return items[:request["count"]]


def _pace(invite: dict[str, Any]) -> tuple[int | None, str]:
    """protocol.md 3.1: ``pace`` an int 3600..31622400 and ``reminders`` exactly
    "watch" (only with a pace), each left out when not agreed."""
    pace = invite.get("pace")
    if "pace" in invite and (not _is_int(pace) or not 3600 <= pace <= 31_622_400):
        raise Refused(f"invite: pace {pace!r} is not an integer 3600..31622400")
    reminders = invite.get("reminders", "")
    if "reminders" in invite and (reminders != "watch" or type(reminders) is not str
                                  or "pace" not in invite):
        raise Refused(f"invite: reminders {reminders!r} is not 'watch' with a pace")
    return pace, reminders


def _is_int(v: Any) -> TypeGuard[int]:
    return type(v) is int  # an integer, never a boolean


def check_request(req: Any, where: str) -> dict[str, Any]:
    if type(req) is not dict:
        raise Refused(f"{where}: a roll's request is a map")
    if req.get("kind") == "dice" and set(req) == {"kind", "dice"}:
        if type(req["dice"]) is list and req["dice"] and all(
                _is_int(s) and 2 <= s <= 1_000_000 for s in req["dice"]):
            return req
    elif req.get("kind") == "draw" and set(req) == {"kind", "cup", "contents", "count"}:
        c = req["contents"]
        if (type(req["cup"]) is str and type(c) is list and c
                and all(type(x) is str for x in c)
                and c == sorted(c, key=lambda s: s.encode())
                and _is_int(req["count"]) and 1 <= req["count"] <= len(c)):
            return req
    raise Refused(f"{where}: malformed roll request {req!r}")


# --- the game ---------------------------------------------------------------------


@dataclass
class Chain:
    generation: int
    index: int
    prev: bytes  # what the next link must hash to
    latest: bytes  # the latest value revealed (the anchor before any reveal)


def verify(datas: list[bytes]) -> Report:
    """Verify one game's files (any order, binary or armored); :class:`Refused` if not."""
    opened = [open_file(d, f"file {n}") for n, d in enumerate(datas)]
    # copies of one invite (armored and binary) are one invite
    invites = list({o[2]: o for o in opened if o[0] == "invite"}.values())
    if len(invites) != 1:
        raise Refused(f"a transcript has exactly one invite, not {len(invites)}")
    _, ikey, ibytes, invite = invites[0]
    report = Report(game_id=sha256(ibytes))
    fmt = invite.get("format", 1)
    if "format" in invite and (not _is_int(fmt) or fmt != 2):
        raise Refused(f"invite: unknown game format {fmt!r}")
    report.format = fmt
    report.pace, report.reminders = _pace(invite)
    if invite["creator"]["key"] != ikey:
        raise Refused("invite: not signed by its creator")
    sides, creator_side = invite["sides"], invite["creator_side"]
    joiner_side = sides[1] if creator_side == sides[0] else sides[0]
    other = {sides[0]: sides[1], sides[1]: sides[0]}
    nonce, length, sealed = invite["nonce"], invite["chain_length"], \
        invite["dice_mode"] == "sealed"
    # protocol.md 6.2.1: the sealed-dice rules, 2 or absent, and only in a sealed game
    # (what rules 2 changes is the engine's; the files prove the same things either way)
    rules = invite.get("sealed", 1)
    if "sealed" in invite and (not _is_int(rules) or rules != 2 or not sealed):
        raise Refused(f"invite: sealed-dice rules {rules!r} are not 2 in a sealed game")
    if not _is_int(length) or not 2 <= length <= 100_000:
        raise Refused("invite: chain_length is an integer 2..100000")
    keys = {creator_side: ikey}
    chains = {creator_side: Chain(0, 0, invite["anchor"], invite["anchor"])}
    by_seq: dict[int, tuple[str, bytes, bytes, dict[str, Any]]] = {}
    for o in opened:
        if o[0] == "invite":
            continue
        seq = o[3].get("seq")
        if not _is_int(seq) or o[3].get("game") != report.game_id:
            raise Refused("a file of another game, or without a sequence number")
        if seq in by_seq and sha256(by_seq[seq][2]) != sha256(o[2]):
            raise Refused(f"two different files for place {seq}")
        by_seq[seq] = o
    prev_hash, to_act, last_body = report.game_id, joiner_side, None
    for seq in range(1, len(by_seq) + 1):
        if seq not in by_seq:
            raise Refused(f"file {seq} is missing")
        kind, key, body_bytes, body = by_seq[seq]
        where = f"file {seq}"
        if body["prev"] != prev_hash:
            raise Refused(f"{where}: prev is not the body hash of file {seq - 1}")
        side = body["side"]
        if side != to_act:
            raise Refused(f"{where}: from {side}, but {to_act!r} was to send it")
        if seq == 1:
            if kind != "accept" or body["joiner"]["key"] != key or key == ikey:
                raise Refused(f"{where}: not an accept signed by its joiner")
            keys[side] = key
            chains[side] = Chain(0, 0, body["anchor"], body["anchor"])
            to_act = creator_side
        else:
            if kind != "turn" or key != keys[side]:
                raise Refused(f"{where}: not a turn signed by the key pinned for {side}")
            _turn(report, body, seq, side, chains, other, nonce, length, sealed,
                  prev_hash, last_body)
            to_act = body["to_act"]
        prev_hash, last_body = sha256(body_bytes), body
        report.files = seq + 1
    report.generations = {s: c.generation for s, c in chains.items()}
    return report


def _turn(report: Report, body: dict[str, Any], seq: int, side: str,
          chains: dict[str, Chain], other: dict[str, str], nonce: bytes, length: int,
          sealed: bool, prev_hash: bytes, last_body: Any) -> None:
    where = f"file {seq}"
    chain = chains[side]
    gen, index, reveal = body["generation"], body["link_index"], body["reveal"]
    if not (_is_int(gen) and _is_int(index)) or (gen, index) != (chain.generation,
                                                                 chain.index + 1):
        raise Refused(f"{where}: reveals link {gen}/{index}, not the next one")
    if chain_step(nonce, side, gen, index, reveal) != chain.prev:
        raise Refused(f"{where}: the revealed link does not hash to the committed one")
    if sealed:
        seed = sha256(enc(["pbem/v1/sealed", report.game_id, seq - 1, prev_hash, reveal]))
    else:
        seed = sha256(enc(["pbem/v1/open", report.game_id, seq, reveal,
                           chains[other[side]].latest]))
    chain.index, chain.prev, chain.latest = index, reveal, reveal
    if index == length:
        if type(body["next_anchor"]) is not bytes or len(body["next_anchor"]) != 32:
            raise Refused(f"{where}: uses its last link and must carry next_anchor")
        chain.generation, chain.index, chain.prev = gen + 1, 0, body["next_anchor"]
    elif body["next_anchor"] is not None:
        raise Refused(f"{where}: next_anchor before the chain ran out")
    i = 0
    for record in body["records"]:
        if record[0] != "r":
            continue
        name = f"{seq}.{i}"
        if not _is_int(record[1]) or record[1] != i:
            raise Refused(f"{where}: roll index {record[1]!r}, expected {i}")
        if report.format == 1:
            report.unchecked_rolls += 1
        else:
            if len(record) != 4:
                raise Refused(f"{where}: a format-2 roll record is ['r', i, outcome, request]")
            request = check_request(record[3], where)
            expected = resolve(seed, i, request)
            if record[2] != expected or any(type(a) is not type(b)
                                            for a, b in zip(record[2], expected, strict=False)):
                raise Refused(f"{where}: roll {name} records {record[2]!r}, but the seed "
                              f"gives {expected!r} for {request!r}")
            report.rolls.append(Roll(name, request, seed, record[2]))
        i += 1
    end, to_act, result = body["end"], body["to_act"], body["result"]
    if (end == "") != (to_act != "") or (end == "") != (result is None):
        raise Refused(f"{where}: to_act is empty exactly when the game ended (end set, "
                      "result given)")
    if result is not None:
        if result["reason"] != end:
            raise Refused(f"{where}: result.reason {result['reason']!r} is not end {end!r}")
        # protocol.md 3.3, the endings: nil is "nobody won"; an agreed draw has no winner,
        # a resignation the sender's opponent; "rules" is the engine's to say
        if end == "draw" and result["winner"] is not None:
            raise Refused(f"{where}: a draw by agreement names a winner")
        if end == "resign" and result["winner"] != other[side]:
            raise Refused(f"{where}: a resignation's winner is the sender's opponent")
        if end == "rules" and result["winner"] not in (None, *other):
            raise Refused(f"{where}: the winner is neither side nor nil")
        report.result = result
    if end == "draw" and (last_body is None or last_body.get("draw") != "offer"):
        raise Refused(f"{where}: accepts a draw the previous file did not offer")


# --- the auditor's procedure (protocol.md 5.3) ------------------------------------


def _game_of(kind: str, body_bytes: bytes, body: dict[str, Any]) -> bytes | None:
    """Step 3: the game a file names (an invite: its own body hash)."""
    if kind == "invite":
        return sha256(body_bytes)
    game = body.get("game")
    return game if type(game) is bytes and len(game) == 32 else None


def audit(named: list[tuple[str, bytes]], game: str | None = None) -> dict[str, Any]:
    """protocol.md 5.3, steps 1 to 11, as written: each game's verdict (by the first 12
    hex digits of its id), the files set aside and the files that do not open."""
    unreadable: list[str] = []
    aside: list[str] = []
    opened: list[tuple[str, str, bytes, bytes, dict[str, Any]]] = []
    for name, data in named:
        try:
            kind, key, body_bytes, body = open_file(data, name)  # step 1
        except (Refused, UnicodeDecodeError, ValueError):
            unreadable.append(name)
            continue
        if kind in ("card", "save"):  # step 2
            aside.append(name)
            continue
        opened.append((name, kind, key, body_bytes, body))
    ids = sorted({g for _, k, _, bb, b in opened if (g := _game_of(k, bb, b)) is not None})
    if game is not None:
        ids = [g for g in ids if g.hex().startswith(game)]
    games: dict[str, str] = {}
    for gid in ids:
        files = [f for f in opened if _game_of(f[1], f[3], f[4]) == gid]
        kept, set_aside = _pinned_files(files)
        aside += set_aside
        try:
            verify([data for name, data in named if name in kept])
            games[gid.hex()[:12]] = "CLEAN"
        except (Refused, KeyError, TypeError, IndexError, AttributeError):
            # a malformed file of a pinned key makes the reader fail somewhere: bad
            games[gid.hex()[:12]] = "NOT CLEAN"
    # step 3: a file naming no game, or (--game) another one
    aside += [f[0] for f in opened if _game_of(f[1], f[3], f[4]) not in ids]
    return {"games": games, "set_aside": sorted(aside), "unreadable": sorted(unreadable)}


def _pinned_files(files: list[tuple[str, str, bytes, bytes, dict[str, Any]]]
                  ) -> tuple[set[str], list[str]]:
    """Steps 4 to 6: the files kept for one game, and those set aside."""
    invites = [f for f in files if f[1] == "invite"]
    creator = {f[2] for f in invites
               if type(f[4].get("creator")) is dict and f[4]["creator"].get("key") == f[2]}
    aside = [f[0] for f in invites if creator and f[2] not in creator]  # step 4
    if not invites:
        return set(), aside  # "file 0, the invite, is missing": verify refuses it
    if not creator:
        return {f[0] for f in files}, aside  # a bad invite: verify refuses it
    (creator_key,) = creator
    # step 5: the joiner, from the accepts the creator's file 2 follows, else all
    accepts = [f for f in files if f[1] == "accept" and f[2] != creator_key]
    followed = {f[4].get("prev") for f in files if f[1] == "turn" and f[2] == creator_key
                and _is_int(f[4].get("seq")) and f[4]["seq"] == 2}
    chosen = sorted([a for a in accepts if sha256(a[3]) in followed] or accepts,
                    key=lambda a: sha256(a[3]))
    pinned = {creator_key} | ({chosen[0][2]} if chosen else set())
    kept = set()
    for f in files:
        if f[1] == "invite" and f[0] in aside:
            continue
        if f[2] in pinned:  # step 6
            kept.add(f[0])
        else:
            aside.append(f[0])
    return kept, aside
