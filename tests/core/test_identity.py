"""Identities: the strict public-key check, signatures, fingerprints, cards, the key store."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem import canonical
from pbem import identity as identity_module
from pbem.errors import FormatError, KeyStoreError, SignatureError
from pbem.identity import (
    Card,
    Identity,
    KeyStore,
    check_public_key,
    fingerprint,
    home_dir,
    passphrase_from_env,
    verify,
)

DATA = Path(__file__).resolve().parent.parent / "data"
VECTORS = json.loads((DATA / "ed25519_vectors.json").read_text(encoding="utf-8"))
P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493  # order of the base point

IDENTITY_POINT = (1).to_bytes(32, "little")


def enc(y: int, sign: int = 0) -> bytes:
    """A raw 32-byte encoding of y with the given sign bit, canonical or not."""
    return (y | (sign << 255)).to_bytes(32, "little")


def real_key(seed: int = 0) -> bytes:
    secret = hashlib.sha256(b"test key %d" % seed).digest()
    return Ed25519PrivateKey.from_private_bytes(secret).public_key().public_bytes_raw()


# --- check_public_key -------------------------------------------------------------------------


@pytest.mark.parametrize("entry", VECTORS["refused_keys"], ids=lambda e: e["key"][:8])
def test_small_order_blocklist_refused(entry: dict[str, str]) -> None:
    with pytest.raises(SignatureError):
        check_public_key(bytes.fromhex(entry["key"]))


def test_blocklist_covers_eight_points_and_six_other_encodings() -> None:
    keys = {bytes.fromhex(e["key"]) for e in VECTORS["refused_keys"]}
    assert len(keys) == 14
    # canonical: y < p and not (x == 0 with the sign bit); x == 0 exactly when y is 1 or p-1
    canonical_keys = set()
    for key in keys:
        n = int.from_bytes(key, "little")
        y, sign = n & ((1 << 255) - 1), n >> 255
        if y < P and not (y in (1, P - 1) and sign):
            canonical_keys.add(key)
    assert len(canonical_keys) == 8  # the eight points of order dividing 8


def test_small_order_points_by_their_order() -> None:
    # the identity, the order-2 point (0, -1), the two order-4 points (y = 0)
    for key in (enc(1), enc(P - 1), enc(0, 0), enc(0, 1)):
        with pytest.raises(SignatureError, match="small-order"):
            check_public_key(key)


@pytest.mark.parametrize("length", [0, 1, 31, 33, 64])
def test_wrong_length_refused(length: int) -> None:
    with pytest.raises(SignatureError, match="32 bytes"):
        check_public_key(b"\x09" * length)


def test_not_bytes_refused() -> None:
    with pytest.raises(SignatureError):
        check_public_key(bytearray(real_key()))  # type: ignore[arg-type]


@pytest.mark.parametrize("y", range(P, 2**255))
@pytest.mark.parametrize("sign", [0, 1])
def test_y_at_or_above_p_refused(y: int, sign: int) -> None:
    with pytest.raises(SignatureError, match="canonical"):
        check_public_key(enc(y, sign))


def test_x_zero_with_sign_bit_refused() -> None:
    for y in (1, P - 1):
        with pytest.raises(SignatureError, match="canonical"):
            check_public_key(enc(y, 1))


def test_off_curve_refused() -> None:
    # y = 2 gives x^2 = 3 / (4d + 1), not a square mod p: no point has y = 2
    with pytest.raises(SignatureError, match="canonical"):
        check_public_key(enc(2))
    # and some y values in general: about half of all y are off the curve
    refused = 0
    for y in range(3, 60):
        try:
            check_public_key(enc(y))
        except SignatureError:
            refused += 1
    assert 10 < refused < 50


def test_off_curve_agrees_with_cryptography() -> None:
    """Keys we call off the curve, OpenSSL cannot load either (and vice versa)."""
    for y in range(2, 40):
        key = enc(y)
        try:
            Ed25519PublicKey.from_public_bytes(key)
            loads = True
        except ValueError:
            loads = False
        try:
            check_public_key(key)
            ours = True
        except SignatureError:
            ours = False
        if ours:
            assert loads


@settings(max_examples=200, deadline=None)
@given(st.binary(min_size=32, max_size=32))
def test_real_keys_accepted(secret: bytes) -> None:
    key = Ed25519PrivateKey.from_private_bytes(secret).public_key().public_bytes_raw()
    check_public_key(key)


def test_degenerate_signature_under_identity_point_why_we_check() -> None:
    """The reason check_public_key exists: OpenSSL accepts this forgery for any message."""
    forged = IDENTITY_POINT + bytes(32)  # R = encoding of the identity, S = 0
    for message in (b"", b"I resign", b"pbem/v1/turn\0anything"):
        Ed25519PublicKey.from_public_bytes(IDENTITY_POINT).verify(forged, message)  # no raise
        with pytest.raises(SignatureError):
            verify(IDENTITY_POINT, message, forged)


# --- signatures: RFC 8032 vectors -------------------------------------------------------------


@pytest.mark.parametrize("vector", VECTORS["vectors"], ids=lambda v: v["name"])
def test_rfc8032_vectors(vector: dict[str, str]) -> None:
    secret = bytes.fromhex(vector["secret_key"])
    public = bytes.fromhex(vector["public_key"])
    message = bytes.fromhex(vector["message"])
    signature = bytes.fromhex(vector["signature"])
    check_public_key(public)
    verify(public, message, signature)
    ident = Identity.from_secret(secret, "rfc")
    assert ident.public_key == public
    assert ident.sign(message) == signature  # Ed25519 is deterministic
    assert ident.secret_bytes() == secret
    assert fingerprint(public) == vector["fingerprint"]


@pytest.mark.parametrize("vector", VECTORS["vectors"], ids=lambda v: v["name"])
def test_rfc8032_tampering_refused(vector: dict[str, str]) -> None:
    public = bytes.fromhex(vector["public_key"])
    message = bytes.fromhex(vector["message"])
    signature = bytes.fromhex(vector["signature"])
    bad_sigs = [
        bytes([signature[0] ^ 1]) + signature[1:],
        signature[:-1] + bytes([signature[-1] ^ 0x01]),
        signature[:63],
        signature + b"\0",
        b"",
    ]
    s = int.from_bytes(signature[32:], "little")
    if s + L < 2**256:  # a non-canonical S (S + L) must be refused, not accepted as S
        bad_sigs.append(signature[:32] + (s + L).to_bytes(32, "little"))
    for sig in bad_sigs:
        with pytest.raises(SignatureError, match=r"^signature does not verify$"):
            verify(public, message, sig)
    with pytest.raises(SignatureError, match=r"^signature does not verify$"):
        verify(public, message + b"x", signature)
    other = bytes.fromhex(
        VECTORS["vectors"][(VECTORS["vectors"].index(vector) + 1) % 3]["public_key"]
    )
    with pytest.raises(SignatureError, match=r"^signature does not verify$"):
        verify(other, message, signature)
    with pytest.raises(SignatureError, match=r"^signature does not verify$"):
        verify(public[:31], message, signature)


# --- fingerprints -----------------------------------------------------------------------------


def independent_fingerprint(key: bytes) -> str:
    digest = hashlib.sha256(b"pbem/v1/fingerprint\x00" + key).digest()
    parts = []
    for g in range(6):
        value = 0
        for byte in digest[5 * g : 5 * g + 5]:
            value = value * 256 + byte
        parts.append(str(value % 100000).rjust(5, "0"))
    return " ".join(parts)


@settings(max_examples=50)
@given(st.binary(min_size=32, max_size=32))
def test_fingerprint_matches_definition(key: bytes) -> None:
    text = fingerprint(key)
    assert text == independent_fingerprint(key)
    groups = text.split(" ")
    assert len(groups) == 6 and all(len(g) == 5 and g.isdigit() for g in groups)


def test_fingerprint_is_domain_separated() -> None:
    key = real_key()
    plain = hashlib.sha256(key).digest()
    naive = " ".join(
        f"{int.from_bytes(plain[i : i + 5], 'big') % 100000:05d}" for i in range(0, 30, 5)
    )
    assert fingerprint(key) != naive


# --- cards ------------------------------------------------------------------------------------


def test_card_round_trip_through_canonical() -> None:
    card = Card("Mannerheim", "cgem@example.fi", real_key())
    data = canonical.decode(canonical.encode(card.to_data()))
    assert data == {"name": "Mannerheim", "email": "cgem@example.fi", "key": card.key}
    assert Card.from_data(data) == card
    assert card.fingerprint == fingerprint(card.key)
    assert Card.from_json(card.to_json()) == card


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"name": ""}, FormatError),
        ({"name": "x" * 101}, FormatError),
        ({"name": 7}, FormatError),
        ({"name": "tab\there"}, FormatError),
        ({"name": "new\nline"}, FormatError),
        ({"name": "bidi \u202e evil"}, FormatError),
        ({"name": "del\x7f"}, FormatError),
        ({"email": "e" * 255}, FormatError),
        ({"email": None}, FormatError),
        ({"email": "nul\x00@x"}, FormatError),
        ({"key": "00" * 32}, FormatError),
        ({"key": b"\x01" * 31}, SignatureError),
        ({"key": IDENTITY_POINT}, SignatureError),
        ({"extra": 1}, FormatError),
    ],
)
def test_card_validation(change: dict[str, object], error: type[Exception]) -> None:
    data: dict[str, object] = {"name": "Ok", "email": "ok@example.org", "key": real_key()}
    data.update(change)
    with pytest.raises(error):
        Card.from_data(data)


def test_card_limits_accepted() -> None:
    key = real_key()
    Card.from_data({"name": "x" * 100, "email": "e" * 254, "key": key})
    Card.from_data({"name": "Ääkkönen 芬兰", "email": "", "key": key})
    with pytest.raises(FormatError):
        Card.from_data({"name": "x", "email": "", "key": key, "fingerprint": "1"})
    with pytest.raises(FormatError):
        Card.from_data(["x", "", key])
    bad = Card("x", "", key).to_json()
    bad["fingerprint"] = "00000 00000 00000 00000 00000 00000"
    with pytest.raises(FormatError, match="fingerprint"):
        Card.from_json(bad)


# --- identities -------------------------------------------------------------------------------


def test_identity_signs_and_verifies() -> None:
    ident = Identity.generate("Alice", "alice@example.org")
    sig = ident.sign(b"message")
    assert len(sig) == 64
    verify(ident.card.key, b"message", sig)
    assert len(ident.secret_bytes()) == 32
    assert Identity.from_secret(ident.secret_bytes(), "Alice").public_key == ident.public_key
    assert ident.secret_bytes().hex() not in repr(ident)
    assert ident.card.fingerprint in repr(ident)


def test_identity_refuses_a_foreign_card() -> None:
    ident = Identity.generate("Alice")
    with pytest.raises(KeyStoreError):
        Identity(ident.private_key, Card("Alice", "", real_key()))


# --- home and environment ---------------------------------------------------------------------


def test_home_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "h"))
    assert home_dir() == tmp_path / "h"
    monkeypatch.delenv("PBEM_HOME")
    # platformdirs picks the platform when imported: on this (Linux) machine, XDG
    monkeypatch.setenv("HOME", str(tmp_path / "me"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert home_dir() == tmp_path / "xdg" / "pbem"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")
    assert home_dir() == tmp_path / "me" / ".local" / "share" / "pbem"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert home_dir() == tmp_path / "me" / ".local" / "share" / "pbem"


def test_legacy_home_paths(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Where pbem 0.1 looked on each platform: still looked at, so no home is lost."""
    from pbem.portable import legacy_home

    monkeypatch.setenv("HOME", str(tmp_path / "me"))
    monkeypatch.setattr(sys, "platform", "darwin")
    assert legacy_home() == tmp_path / "me" / "Library" / "Application Support" / "pbem"
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setenv("APPDATA", str(tmp_path / "roaming"))
    assert legacy_home() == tmp_path / "roaming" / "pbem"
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert legacy_home() == tmp_path / "xdg" / "pbem"


def test_an_existing_home_at_the_old_path_is_still_found(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """An upgrade must not lose a player's key and games: when the folder platformdirs
    names does not exist but pbem 0.1's does, the old one stays the home."""
    from pbem import portable

    monkeypatch.delenv("PBEM_HOME", raising=False)
    old, new = tmp_path / "old" / "pbem", tmp_path / "new" / "pbem"
    monkeypatch.setattr(portable, "legacy_home", lambda: old)
    monkeypatch.setattr(portable, "_platform_home", lambda: new)
    assert home_dir() == new  # a first run: the platform's folder
    KeyStore(old).create("Alice", "", None)
    assert home_dir() == old  # the old home holds a key: keep using it
    assert KeyStore(home_dir()).load(None).card.name == "Alice"
    new.mkdir(parents=True)
    assert home_dir() == new  # both exist: the platform's folder wins


def test_passphrase_from_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PBEM_PASSPHRASE", raising=False)
    assert passphrase_from_env() is None
    monkeypatch.setenv("PBEM_PASSPHRASE", "")
    assert passphrase_from_env() is None
    monkeypatch.setenv("PBEM_PASSPHRASE", "sisu ≠ luck")
    assert passphrase_from_env() == "sisu ≠ luck".encode()


# --- the key store ----------------------------------------------------------------------------

posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")


@posix_only
def test_create_writes_0600_key_and_readable_card(tmp_path: Path) -> None:
    store = KeyStore(tmp_path)
    assert not store.exists()
    ident = store.create("Alice", "alice@example.org", None)
    assert store.exists()
    assert stat.S_IMODE(store.key_path.stat().st_mode) == 0o600
    assert stat.S_IMODE(store.card_path.stat().st_mode) == 0o644
    card_json = json.loads(store.card_path.read_text(encoding="utf-8"))
    assert card_json == {
        "name": "Alice",
        "email": "alice@example.org",
        "key": ident.public_key.hex(),
        "fingerprint": ident.card.fingerprint,
    }
    assert store.card() == ident.card
    assert not store.is_encrypted()
    assert not list(store.identity_dir.glob("*.tmp"))


def test_passphrase_round_trip(tmp_path: Path) -> None:
    store = KeyStore(tmp_path)
    ident = store.create("Bob", "", b"correct horse")
    assert store.is_encrypted()
    assert b"ENCRYPTED PRIVATE KEY" in store.key_path.read_bytes()
    loaded = store.load(b"correct horse")
    assert loaded.card == ident.card
    assert loaded.secret_bytes() == ident.secret_bytes()
    assert store.card() == ident.card  # no passphrase needed for the card


def test_wrong_passphrase_names_the_file(tmp_path: Path) -> None:
    store = KeyStore(tmp_path)
    store.create("Bob", "", b"correct horse")
    with pytest.raises(KeyStoreError, match="wrong passphrase") as info:
        store.load(b"battery staple")
    assert str(store.key_path) in str(info.value)
    assert info.value.path == str(store.key_path)


def test_missing_passphrase_says_so(tmp_path: Path) -> None:
    store = KeyStore(tmp_path)
    store.create("Bob", "", b"pw")
    with pytest.raises(KeyStoreError, match="PBEM_PASSPHRASE") as info:
        store.load(None)
    assert str(store.key_path) in str(info.value)


def test_unencrypted_load_ignores_a_passphrase(tmp_path: Path) -> None:
    store = KeyStore(tmp_path)
    ident = store.create("Carol", "", None)
    assert store.load(None).secret_bytes() == ident.secret_bytes()
    # PBEM_PASSPHRASE may be set for other keys; an unencrypted key still loads
    assert store.load(b"whatever").secret_bytes() == ident.secret_bytes()


def test_refuses_to_overwrite(tmp_path: Path) -> None:
    store = KeyStore(tmp_path)
    ident = store.create("Alice", "", None)
    before = store.key_path.read_bytes()
    with pytest.raises(KeyStoreError, match="already exists"):
        store.create("Mallory", "", None)
    assert store.key_path.read_bytes() == before
    assert store.load(None).card == ident.card


def test_missing_identity_names_the_file(tmp_path: Path) -> None:
    store = KeyStore(tmp_path)
    with pytest.raises(KeyStoreError, match="pbem id new") as info:
        store.load(None)
    assert str(store.key_path) in str(info.value)
    with pytest.raises(KeyStoreError):
        store.is_encrypted()
    with pytest.raises(KeyStoreError, match=r"card\.json"):
        store.card()


@posix_only
def test_loose_permissions_refused(tmp_path: Path) -> None:
    store = KeyStore(tmp_path)
    store.create("Alice", "", None)
    os.chmod(store.key_path, 0o644)
    with pytest.raises(KeyStoreError, match=r"0644 let others read it.*chmod 600") as info:
        store.load(None)
    assert str(store.key_path) in str(info.value)
    os.chmod(store.key_path, 0o600)
    store.load(None)


def test_mismatched_card_refused(tmp_path: Path) -> None:
    store = KeyStore(tmp_path)
    store.create("Alice", "", None)
    other = Card("Alice", "", real_key())
    store.card_path.write_text(json.dumps(other.to_json()), encoding="utf-8")
    with pytest.raises(KeyStoreError, match=r"card\.json"):
        store.load(None)


def test_garbage_key_file(tmp_path: Path) -> None:
    store = KeyStore(tmp_path)
    store.create("Alice", "", None)
    store.key_path.write_bytes(b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")
    with pytest.raises(KeyStoreError) as info:
        store.load(None)
    assert str(store.key_path) in str(info.value)


# --- contacts ---------------------------------------------------------------------------------


def test_contact_pinning_round_trip(tmp_path: Path) -> None:
    store = KeyStore(tmp_path)
    assert store.contacts() == []
    alice = Card("Alice", "alice@example.org", real_key(1))
    bob = Card("Bob", "", real_key(2))
    store.pin_contact(alice)
    store.pin_contact(bob)
    again = KeyStore(tmp_path)
    assert again.contacts() == [alice, bob]
    assert again.contact(alice.fingerprint) == alice
    assert again.contact(alice.fingerprint.replace(" ", "")) == alice
    assert again.contact(alice.fingerprint.replace(" ", "-")) == alice
    assert again.contact("Bob") == bob
    assert again.contact("Nobody") is None
    assert again.contact("00000 00000 00000 00000 00000 00000") is None
    data = json.loads(store.contacts_path.read_text(encoding="utf-8"))
    assert data["contacts"][0]["fingerprint"] == alice.fingerprint


def test_repinning_same_key_updates_name(tmp_path: Path) -> None:
    store = KeyStore(tmp_path)
    alice = Card("Alice", "", real_key(1))
    store.pin_contact(alice)
    renamed = Card("Alice K.", "alice@example.org", alice.key)
    store.pin_contact(renamed)
    assert store.contacts() == [renamed]


def test_pinning_a_new_key_under_a_known_name_is_refused(tmp_path: Path) -> None:
    store = KeyStore(tmp_path)
    alice = Card("Alice", "", real_key(1))
    store.pin_contact(alice)
    impostor = Card("Alice", "", real_key(666))
    with pytest.raises(KeyStoreError, match=alice.fingerprint):
        store.pin_contact(impostor)
    assert store.contacts() == [alice]
    assert store.unpin_contact("Alice") == alice
    store.pin_contact(impostor)
    assert store.contacts() == [impostor]
    with pytest.raises(KeyStoreError):
        store.unpin_contact("Alice B.")


def test_pinning_a_bad_key_is_refused(tmp_path: Path) -> None:
    store = KeyStore(tmp_path)
    with pytest.raises(SignatureError):
        store.pin_contact(Card("Eve", "", IDENTITY_POINT))
    assert not store.contacts_path.exists()


def test_damaged_contacts_file_named(tmp_path: Path) -> None:
    store = KeyStore(tmp_path)
    store.contacts_path.write_text("{not json", encoding="utf-8")
    with pytest.raises(KeyStoreError) as info:
        store.contacts()
    assert str(store.contacts_path) in str(info.value)
    store.contacts_path.write_text('{"contacts": [{"name": "x", "email": "", "key": "00"}]}',
                                   encoding="utf-8")
    with pytest.raises(KeyStoreError, match="bad contact"):
        store.contacts()


# --- the cache of verified signatures (issue 19) ----------------------------------------


class _CountingKey:
    """pbem.identity's key makers (``_ED25519``), counting the public keys made: one a
    signature checked."""

    calls = 0
    generate_key = staticmethod(Ed25519PrivateKey.generate)
    from_private_bytes = staticmethod(Ed25519PrivateKey.from_private_bytes)

    @classmethod
    def from_public_bytes(cls, key: bytes) -> Ed25519PublicKey:
        cls.calls += 1
        return Ed25519PublicKey.from_public_bytes(key)


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> type[_CountingKey]:
    """No signature remembered as verified, and the public keys made counted from 0:
    each signature checked makes one (:class:`_CountingKey`)."""
    monkeypatch.setattr(identity_module, "_verified", {})
    monkeypatch.setattr(identity_module, "_ED25519", _CountingKey)
    _CountingKey.calls = 0
    return _CountingKey


def test_a_verified_signature_is_not_verified_again(counted: type[_CountingKey]) -> None:
    import pbem.identity as identity_module

    me = Identity.from_secret(b"\x05" * 32, "Cache")
    message = b"pbem/v1/turn\0" + b"x" * 1000
    signature = me.sign(message)
    identity_module._verified.clear()  # the signer's own, kept as verified: checked here
    verify(me.public_key, message, signature)
    verify(me.public_key, message, signature)
    assert _CountingKey.calls == 1
    # the same key and signature over other bytes, or another signature: checked, refused
    with pytest.raises(SignatureError):
        verify(me.public_key, message + b"y", signature)
    with pytest.raises(SignatureError):
        verify(me.public_key, message, bytes(64))
    # a refusal is not remembered: refused again, by a new check each time
    calls = _CountingKey.calls
    with pytest.raises(SignatureError):
        verify(me.public_key, message + b"y", signature)
    assert _CountingKey.calls == calls + 1
    # a degenerate key is refused before the cache is asked
    with pytest.raises(SignatureError):
        verify(bytes(32), message, signature)


def test_a_signature_this_identity_made_verifies_without_a_second_check(
        counted: type[_CountingKey]) -> None:
    """Issue 35: what an identity signs is kept as verified (the file an act seals is
    checked again as the game goes on from it); only those very bytes under that key
    and signature: anything else is checked, and refused."""
    me = Identity.from_secret(b"\x09" * 32, "Own")
    message = b"pbem/v1/turn\0" + b"o" * 500
    signature = me.sign(message)
    verify(me.public_key, message, signature)
    assert _CountingKey.calls == 0
    with pytest.raises(SignatureError):
        verify(me.public_key, message + b"p", signature)
    other = Identity.from_secret(b"\x0a" * 32, "Other")
    with pytest.raises(SignatureError):
        verify(other.public_key, message, signature)
    assert _CountingKey.calls == 2


def test_the_cache_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    import pbem.identity as identity_module

    monkeypatch.setattr(identity_module, "_verified", {})
    monkeypatch.setattr(identity_module, "VERIFIED_KEPT", 4)
    me = Identity.from_secret(b"\x06" * 32, "Bound")
    for i in range(10):
        message = b"message %d" % i
        verify(me.public_key, message, me.sign(message))
    assert len(identity_module._verified) == 4
    assert identity_module.VERIFIED_KEPT == 4


def test_plain_key_file_read_without_the_pem_module_gives_the_same_key(tmp_path: Path) -> None:
    """An unencrypted key.pem as create() writes it is read directly (issue 19); any other
    form goes through cryptography's PEM reader, accepting and refusing as before."""
    from cryptography.hazmat.primitives import serialization

    from pbem import identity as identity_module

    store = KeyStore(tmp_path)
    ident = store.create("Alice", "", None)
    pem = store.key_path.read_bytes()
    fast = identity_module._plain_pkcs8(pem)
    assert fast is not None
    slow = serialization.load_pem_private_key(pem, password=None)
    assert isinstance(slow, Ed25519PrivateKey)
    assert fast.private_bytes_raw() == slow.private_bytes_raw() == ident.secret_bytes()
    assert store.load(None).secret_bytes() == ident.secret_bytes()
    # other encodings of the same key: left to cryptography's reader, which reads them
    body = pem.split(b"\n")[1]
    for other in (pem.replace(b"\n", b"\r\n"), pem + b"\n", pem.rstrip(b"\n"),
                  pem.replace(body, body[:32] + b"\n" + body[32:])):
        assert identity_module._plain_pkcs8(other) is None
        store.key_path.write_bytes(other)
        assert store.load(None).secret_bytes() == ident.secret_bytes()
    # a damaged key: the same refusal as before, in cryptography's words
    for damaged in (pem.replace(body, body[:20] + b"!" + body[21:]),
                    pem.replace(body, b"A" * 64), pem.replace(body, body[:-4] + b"AAAA")):
        fast = identity_module._plain_pkcs8(damaged)
        store.key_path.write_bytes(damaged)
        try:
            loaded = serialization.load_pem_private_key(damaged, password=None)
        except ValueError:
            assert fast is None
            with pytest.raises(KeyStoreError, match="not a valid private key file"):
                store.load(None)
        else:
            assert isinstance(loaded, Ed25519PrivateKey) and fast is not None
            assert fast.private_bytes_raw() == loaded.private_bytes_raw()


def _binascii_pkcs8(pem: bytes) -> bytes | None:
    """The seed the key reader took before issue 35, by binascii's strict decoding and
    re-encoding: the oracle the hand-read Base64 is compared with."""
    import binascii

    head, tail = identity_module._PEM_HEAD, identity_module._PEM_TAIL
    if len(pem) != len(head) + 64 + len(tail) or not pem.startswith(head) \
            or not pem.endswith(tail):
        return None
    body = pem[len(head):-len(tail)]
    try:
        der = binascii.a2b_base64(body, strict_mode=True)
    except binascii.Error:
        return None
    prefix = identity_module._PKCS8_ED25519
    if len(der) != 48 or not der.startswith(prefix) \
            or binascii.b2a_base64(der, newline=False) != body:
        return None
    return der[len(prefix):]


def test_plain_key_file_base64_read_by_hand_as_binascii_reads_it(tmp_path: Path) -> None:
    """The key line's Base64 is read without binascii (issue 35: loading it was 0.6 M
    instructions of every act and receive), accepting exactly what its strict decoding
    and re-encoding accepted: every byte value in every place of the line, and
    whole lines of other keys."""
    store = KeyStore(tmp_path)
    store.create("Alice", "", None)
    pem = store.key_path.read_bytes()
    head = len(identity_module._PEM_HEAD)
    pems = [pem] + [_pem_of(bytes([i]) * 32) for i in range(0, 256, 17)]
    for place in range(64):
        for value in range(256):
            pems.append(pem[:head + place] + bytes([value]) + pem[head + place + 1:])
    pems += [pem[:head] + b"=" * 64 + pem[head + 64:],
             pem[:head + 62] + b"==" + pem[head + 64:]]
    accepted = 0
    for candidate in pems:
        fast = identity_module._plain_pkcs8(candidate)
        want = _binascii_pkcs8(candidate)
        assert (fast.private_bytes_raw() if fast is not None else None) == want, candidate
        accepted += want is not None
    # each of the 42 places past the PKCS#8 head takes any of the 64 characters
    assert accepted > 42 * 64


def _pem_of(seed: bytes) -> bytes:
    from cryptography.hazmat.primitives import serialization

    return Ed25519PrivateKey.from_private_bytes(seed).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption())


def test_loading_a_plain_key_loads_no_binascii(tmp_path: Path) -> None:
    """Unlocking an unencrypted identity, as every act and receive does, does not load
    the binascii extension (issue 35: 0.6 M instructions)."""
    from pbem.testing import fresh_run

    KeyStore(tmp_path).create("Alice", "", None)
    out = fresh_run("import sys\n"
                    "from pathlib import Path\n"
                    "from pbem.identity import KeyStore\n"
                    f"me = KeyStore(Path({str(tmp_path)!r})).load(None)\n"
                    "print(me.card.name, 'binascii' in sys.modules)\n")
    assert out == ["Alice False"]


def test_card_is_kept_between_commands_by_its_files_stamp(
        tmp_path: Path, data_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A command reads card.json once: the next (a new KeyStore, as in a new process)
    finds the card in the data cache under the file's size and time, without
    reading JSON (issue 35: 'legal' and 'act' then import no json module); a card
    replaced (another size and time) is read again."""
    import pbem.identity as identity
    from pbem.atomic import write_atomic

    store = KeyStore(tmp_path / "home")
    card = store.create("Alice", "alice@example.org", None).card
    assert KeyStore(tmp_path / "home").card() == card  # read, and kept

    def unread(path: Path) -> object:
        raise AssertionError(f"read {path}")

    with monkeypatch.context() as m:
        m.setattr(identity, "_read_json", unread)
        assert KeyStore(tmp_path / "home").card() == card
    other = Card("Bob", "", real_key())
    write_atomic(store.card_path, json.dumps(other.to_json()).encode(), mode=0o644)
    assert KeyStore(tmp_path / "home").card() == other


def test_contacts_are_kept_between_commands_by_their_files_stamp(
        tmp_path: Path, data_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """contacts.json is read once, then found in the data cache under the file's stamp
    ('receive' checks every sender against it without reading JSON, issue 35); pinning
    another contact writes a new file, which is read again."""
    import pbem.identity as identity

    store = KeyStore(tmp_path / "home")
    store.create("Alice", "", None)
    bob, carol = Card("Bob", "", real_key(1)), Card("Carol", "", real_key(2))
    store.pin_contact(bob)
    assert KeyStore(tmp_path / "home").contacts() == [bob]  # read, and kept

    def unread(path: Path) -> object:
        raise AssertionError(f"read {path}")

    with monkeypatch.context() as m:
        m.setattr(identity, "_read_json", unread)
        assert KeyStore(tmp_path / "home").contacts() == [bob]
    store.pin_contact(carol)
    assert KeyStore(tmp_path / "home").contacts() == [bob, carol]


def test_curve_constants_are_rfc_8032s_and_not_computed_at_import() -> None:
    """The point check's d (RFC 8032 section 5.1) is the number the formula gives,
    written out: importing pbem.identity computes no modular power (two were 1.4 M
    instructions of every command that loads a game, issue 35)."""
    import subprocess

    from pbem import identity

    p = 2**255 - 19
    assert p == identity._P
    assert -121665 * pow(121666, -1, p) % p == identity._D
    probe = ("import builtins, sys\n"
             "import pbem.errors, pbem.portable, pbem.atomic, pbem.sha\n"
             "calls = []\n"
             "real = builtins.pow\n"
             "builtins.pow = lambda *a: calls.append(a) or real(*a)\n"
             "import pbem.identity\n"
             "print(len(calls))\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True)
    assert out.stdout.split() == ["0"]


def test_a_verification_is_remembered_by_the_message_itself_not_its_hash(
        monkeypatch: pytest.MonkeyPatch, counted: type[_CountingKey]) -> None:
    """Remembering a verified signature hashes nothing (issue 35: SHA-256 of every
    message verified, 0.4 M instructions for an 8 KB save, every command that loads a
    game); a hit still needs the very bytes, and a buffer changed after its check is
    checked again."""
    import pbem.identity as identity_module

    monkeypatch.setattr(identity_module, "sha256", None)  # any hash here would fail
    me = Identity.from_secret(b"\x07" * 32, "Bytes")
    message = b"pbem/v1/save\0" + b"s" * 8000
    signature = me.sign(message)
    identity_module._verified.clear()  # the signer's own, kept as verified: checked here
    verify(me.public_key, message, signature)
    verify(me.public_key, bytes(message), signature)  # equal bytes, another object
    assert _CountingKey.calls == 1
    with pytest.raises(SignatureError):
        verify(me.public_key, message[:-1] + b"t", signature)
    buffer = bytearray(message)
    verify(me.public_key, buffer, signature)
    buffer[-1] ^= 1  # what was kept is a copy: the changed buffer is checked, refused
    with pytest.raises(SignatureError):
        verify(me.public_key, buffer, signature)
    for wrong in ("text", 8):
        with pytest.raises(SignatureError):
            verify(me.public_key, wrong, signature)  # type: ignore[arg-type]


def test_the_bytes_remembered_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    import pbem.identity as identity_module

    monkeypatch.setattr(identity_module, "_verified", {})
    monkeypatch.setattr(identity_module, "VERIFIED_BYTES", 3000)
    me = Identity.from_secret(b"\x08" * 32, "Bound")
    for i in range(10):
        message = b"%d" % i + b"m" * 999
        verify(me.public_key, message, me.sign(message))
        assert sum(map(len, identity_module._verified.values())) <= 3000
    assert len(identity_module._verified) == 3
    big = b"b" * 3001  # larger than the bound: checked, not kept
    verify(me.public_key, big, me.sign(big))
    assert big not in identity_module._verified.values()
    assert len(identity_module._verified) == 3


def _rfc_decode(key: bytes) -> tuple[int, int] | None:
    """RFC 8032 section 5.1.3's strict decoding, x computed: what pbem.identity did
    before it tested for a square root by the Jacobi symbol instead of taking one."""
    d = -121665 * pow(121666, -1, P) % P
    n = int.from_bytes(key, "little")
    sign, y = n >> 255, n & ((1 << 255) - 1)
    if y >= P:
        return None
    u, v = (y * y - 1) % P, (d * y * y + 1) % P
    x = u * pow(v, 3, P) * pow(u * pow(v, 7, P), (P - 5) // 8, P) % P
    if v * x * x % P == (-u) % P:
        x = x * pow(2, (P - 1) // 4, P) % P
    elif v * x * x % P != u:
        return None
    if x == 0 and sign:
        return None
    return (P - x if x & 1 != sign else x), y


def _affine_times_eight(point: tuple[int, int]) -> tuple[int, int]:
    """[8]P by three affine doublings (RFC 8032 5.1.4's addition law, with inverses)."""
    d = -121665 * pow(121666, -1, P) % P
    for _ in range(3):
        x, y = point
        t = d * x * x * y * y % P
        point = (2 * x * y * pow(1 + t, -1, P) % P, (y * y + x * x) * pow(1 - t, -1, P) % P)
    return point


def _reference_problem(key: bytes) -> str:
    point = _rfc_decode(key)
    if point is None:
        return "public key is not a canonical Ed25519 point encoding"
    if _affine_times_eight(point) == (0, 1):
        return "public key is a small-order point (forgeable); refused"
    return ""


def test_the_point_check_agrees_with_rfc_8032_decoding_and_eight_p() -> None:
    """pbem.identity's check (issue 35: a Jacobi symbol for the square root's existence
    and the small-order points' y, instead of the root and three affine doublings, 3 M
    instructions a key less) gives the answer of RFC 8032's decoding and [8]P, with the
    same words, on the blocklist, a thousand real keys, and every y below 600 and just
    under p and 2^255, each with both signs."""
    import pbem.identity as identity_module

    small_y = {point[1] for point in map(_rfc_decode, (bytes.fromhex(e["key"])
                                                       for e in VECTORS["refused_keys"]))
               if point is not None}
    assert small_y == identity_module._SMALL_ORDER_Y
    keys = [bytes.fromhex(e["key"]) for e in VECTORS["refused_keys"]]
    keys += [real_key(seed) for seed in range(1000)]
    keys += [enc(y, sign) for y in (*range(600), *range(P - 300, 2**255))
             for sign in (0, 1)]
    keys += [enc(y, sign) for y in identity_module._SMALL_ORDER_Y for sign in (0, 1)]
    answers: dict[str, int] = {}
    for key in keys:
        want = _reference_problem(key)
        assert identity_module._key_problem.__wrapped__(key) == want, key.hex()
        answers[want] = answers.get(want, 0) + 1
    # every answer is given, many times
    assert len(answers) == 3 and min(answers.values()) >= 20, answers


def test_keys_sign_alike_through_the_binding_or_the_public_classes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """pbem makes its keys through cryptography's Rust binding (issue 35: its public
    module's imports were 8 M instructions of every signing command); a cryptography laid
    out otherwise is asked through the public classes, and a key signs and verifies the
    same either way."""
    monkeypatch.setitem(sys.modules, "cryptography.hazmat.bindings._rust", None)
    public = identity_module._key_functions()
    monkeypatch.undo()
    binding = identity_module._key_functions()
    assert public is not binding
    secret = bytes(range(32))
    a, b = public.from_private_bytes(secret), binding.from_private_bytes(secret)
    key = a.public_key().public_bytes_raw()
    assert key == b.public_key().public_bytes_raw()
    assert a.sign(b"turn") == b.sign(b"turn")
    public.from_public_bytes(key).verify(b.sign(b"turn"), b"turn")
    binding.from_public_bytes(key).verify(a.sign(b"turn"), b"turn")
    assert isinstance(public.generate_key(), Ed25519PrivateKey)
    assert isinstance(binding.generate_key(), Ed25519PrivateKey)
    assert isinstance(binding.from_public_bytes(key), Ed25519PublicKey)
    verify(key, b"turn", a.sign(b"turn"))
    with pytest.raises(SignatureError):
        verify(key, b"other", a.sign(b"turn"))
