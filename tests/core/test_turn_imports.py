"""What a turn command imports of pbem's own modules (issue 35: each costs ~0.4-0.9 M
instructions to load, and a ``receive`` loaded two it never ran): the typed copy loads
with the first clone, the pace's module with the first invite that has a pace."""

from __future__ import annotations

from pbem.testing import compiled_at_import, fresh_run


def _run(code: str) -> list[str]:
    return fresh_run(code)


def test_a_game_restored_listed_and_moved_loads_no_typed_copy() -> None:
    probe = (
        "import json, sys\n"
        "from engines.mortain import ENGINE\n"
        "s = ENGINE.new_state('counterattack', ENGINE.resolve_options({}))\n"
        "s = ENGINE.restore(json.loads(json.dumps(s.snapshot())))\n"
        "s.apply(s.legal_actions()[0])\n"
        "s.legal_actions()\n"
        "print('pbem.typedcopy' in sys.modules)\n"
        "twin = s.clone()\n"
        "print('pbem.typedcopy' in sys.modules, twin.pos == s.pos and twin.pos is not s.pos,\n"
        "      twin.digest() == s.digest())\n")
    assert _run(probe) == ["False", "True True True"]


def test_an_invite_without_a_pace_loads_no_pace_module() -> None:
    probe = (
        "import sys\n"
        "from pbem.errors import FormatError\n"
        "from pbem.transcript import _pace\n"
        "print(_pace({}, 'invite'), 'pbem.pace' in sys.modules)\n"
        "print(_pace({'pace': 86400, 'reminders': 'watch'}, 'invite'),\n"
        "      'pbem.pace' in sys.modules)\n"
        "for body in ({'pace': 5}, {'reminders': 'watch'}, {'reminders': 'mail', 'pace': 86400}):\n"
        "    try:\n"
        "        _pace(body, 'invite')\n"
        "    except FormatError as exc:\n"
        "        print(exc)\n")
    assert _run(probe) == [
        "(None, '') False",
        "(86400, 'watch') True",
        "invite pace 5 is out of range (3600..31622400 seconds)",
        "invite has reminders but no pace to remind by",
        "invite reminders 'mail' is not supported by this version (only 'watch', or the "
        "field left out)",
    ]


def test_loading_the_runtime_and_the_kits_data_compiles_no_annotation() -> None:
    """The runtime's TypeVar bound is mypy's alone: at run time typing compiled its text
    into a ForwardRef on every command that loads a game (issue 35)."""
    assert compiled_at_import(
        "import pbem.steps\nassert pbem.steps.S.__name__ == 'S'",
        first="import typing, pbem.engine, pbem.codec, pbem.canonical") == []


def test_the_kits_code_digest_sorts_names_not_paths(monkeypatch) -> None:
    """The kit's own files, in name order, as the sorted paths gave them, without
    pathlib's comparisons (issue 35: some 80 of them, 0.3 M instructions a command)."""
    import os
    from pathlib import Path, PurePath

    from engines.hexkit import scenario
    from pbem import datacache

    kit = Path(scenario.__file__).parent
    want = datacache.files_digest(sorted(kit.glob("*.py")))

    def refused(self: PurePath, other: PurePath) -> bool:
        raise AssertionError("paths compared")

    monkeypatch.setattr(PurePath, "__lt__", refused)
    assert scenario._kit_code.__wrapped__() == want
    assert [n for n in sorted(os.listdir(kit)) if n.endswith(".py")] == sorted(
        p.name for p in kit.glob("*.py"))


def test_a_binary_file_is_read_without_the_armors_module() -> None:
    """envelope.binary_form gives what armor.read_any gives, for either form, and loads
    the armor's module only for a file that is not binary (issue 35: every receive
    loaded it for the binary file it was given)."""
    probe = (
        "import sys\n"
        "from pbem import envelope\n"
        "from pbem.identity import Identity\n"
        "data = envelope.seal(Identity.generate('ann'), 'card', {'text': 'hi'})\n"
        "print(data[:1] == b'\\x96', envelope.binary_form(data) is data,\n"
        "      'pbem.armor' in sys.modules)\n"
        "from pbem.armor import armor, read_any\n"
        "text = armor(data)\n"
        "for form in (text.encode(), text.encode('utf-16'), b'junk', b''):\n"
        "    print(envelope.binary_form(form) == read_any(form))\n"
        "print(envelope.binary_form(text.encode()) == data)\n")
    assert _run(probe) == ["True True False", "True", "True", "True", "True", "True"]


def test_the_runtime_makes_no_protocol_class_on_a_turn_commands_path() -> None:
    """The protocols a turn command's modules name (an engine's state class, the known
    files, a replay's watcher, the match's transcript) are for mypy alone: a Protocol
    class cost ~0.15 M instructions to make at every import (issue 35)."""
    probe = (
        "import typing\n"
        "from pbem import engine, match, steps, transcript, session\n"
        "print(sorted(f'{m.__name__}.{n}' for m in (engine, match, steps, transcript, session)\n"
        "             for n, v in vars(m).items() if isinstance(v, type)\n"
        "             and v.__module__ == m.__name__ and getattr(v, '_is_protocol', False)))\n")
    assert _run(probe) == ["[]"]


def test_the_runtime_loads_the_standing_orders_where_a_file_reads_them() -> None:
    """A listing (the save's verifier restored, nothing replayed) does not load them
    (issue 35: ~0.5 M instructions of every legal); the replays that read orders are
    tests/core/test_orders.py's."""
    probe = (
        "import sys\n"
        "from pbem import match, session, transcript\n"
        "from pbem.commands import turn\n"
        "print('pbem.orders' in sys.modules)\n")
    assert _run(probe) == ["False"]


def test_the_lazy_step_table_loads_with_the_first_engine_that_makes_one() -> None:
    """pbem.steps.LazyStepTable is the class of its own module, loaded when first named
    (issue 35: making the class, a Mapping, cost every turn command of an engine that has
    none 0.32 M instructions); a name the runtime lacks is refused as before."""
    probe = (
        "import sys\n"
        "import pbem.steps as steps\n"
        "print('pbem.steptable' in sys.modules)\n"
        "from pbem.steps import LazyStepTable\n"
        "from pbem import steptable\n"
        "print(LazyStepTable is steptable.LazyStepTable, steps.LazyStepTable is LazyStepTable)\n"
        "try:\n"
        "    steps.NoSuchThing\n"
        "except AttributeError as exc:\n"
        "    print(exc)\n")
    assert _run(probe) == ["False", "True True",
                           "module 'pbem.steps' has no attribute 'NoSuchThing'"]


def test_for_the_motherland_restores_and_clones_without_the_codec() -> None:
    """For the Motherland! reads, writes and copies its positions and frames by hand: a
    turn command (restore from a save's bytes, move, clone, digest) loads neither the
    codec nor the typed copy (issue 35: 2.7 M instructions of every act); the clone is
    the same position and shares no list or map of a frame's arguments."""
    probe = (
        "import sys\n"
        "from pbem import canonical\n"
        "from engines.motherland import ENGINE\n"
        "s = ENGINE.new_state('4-uranus', ENGINE.resolve_options({}))\n"
        "s = ENGINE.restore(canonical.decode_signed(s.encoded()))\n"
        "s.apply(s.legal_actions()[0])\n"
        "twin = s.clone()\n"
        "shared = [v for f, g in zip(s.stack, twin.stack) for k, v in vars(f.args).items()\n"
        "          if isinstance(v, list | dict) and v is vars(g.args)[k]]\n"
        "mutable = [v for f in s.stack for v in vars(f.args).values()\n"
        "           if isinstance(v, list | dict)]\n"
        "print(twin.digest() == s.digest(), twin.stack == s.stack, len(mutable) > 0, shared)\n"
        "print('pbem.codec' in sys.modules, 'pbem.typedcopy' in sys.modules)\n")
    assert _run(probe) == ["True True True []", "False False"]


def test_signing_and_verifying_load_no_ed25519_classes_module() -> None:
    """pbem.identity makes its keys by the functions cryptography's Ed25519 classes call:
    the classes' module (with its serialization enums, hashes and utils: 7 M instructions
    of every command that opens a home, issue 35) is not loaded to sign or verify, and a
    signature is the one cryptography's classes make and check."""
    probe = (
        "import sys\n"
        "from pbem.errors import SignatureError\n"
        "from pbem.identity import Identity, verify\n"
        "me = Identity.from_secret(bytes(range(32)), 'Probe')\n"
        "signature = me.sign(b'message')\n"
        "verify(me.public_key, b'message', signature)\n"
        "try:\n"
        "    verify(me.public_key, b'other', signature)\n"
        "except SignatureError:\n"
        "    print('refused')\n"
        "print('cryptography.hazmat.primitives.asymmetric.ed25519' in sys.modules)\n"
        "from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey\n"
        "key = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))\n"
        "print(key.sign(b'message') == signature,\n"
        "      key.public_key().public_bytes_raw() == me.public_key)\n")
    assert _run(probe) == ["refused", "False", "True True"]
