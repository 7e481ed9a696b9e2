"""pbem.sha: the builtin SHA-256 and the HMAC built on it give hashlib's and hmac's bytes
(issue 19: start-up without hashlib's OpenSSL import)."""

from __future__ import annotations

import hashlib
import hmac
import subprocess
import sys

import pytest

from pbem.sha import hmac_sha256, sha256

# FIPS 180-4's examples (NIST CSRC "SHA256.pdf"): "abc" and the two-block message
VECTORS = [
    (b"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    (b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    (b"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
]


@pytest.mark.parametrize(("message", "digest"), VECTORS)
def test_sha256_gives_the_standards_digests(message: bytes, digest: str) -> None:
    assert sha256(message).hexdigest() == digest
    h = sha256(message[:1])
    h.update(message[1:])
    assert h.digest() == bytes.fromhex(digest) == hashlib.sha256(message).digest()


def test_hmac_is_rfc_4231s() -> None:
    # RFC 4231 test cases 1 (a short key) and 6 (a key longer than the block, hashed)
    assert hmac_sha256(b"\x0b" * 20, b"Hi There").hex() == (
        "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
    assert hmac_sha256(b"\xaa" * 131, b"Test Using Larger Than Block-Size Key - "
                       b"Hash Key First").hex() == (
        "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")


@pytest.mark.parametrize("key_length", [0, 1, 32, 63, 64, 65, 200])
def test_hmac_matches_the_standard_library(key_length: int) -> None:
    key = bytes(range(key_length % 256)) * (key_length // 256 + 1)
    key = key[:key_length]
    for message in (b"", b"\x00\x00\x00\x01\x00\x00\x00\x02", bytes(range(256)) * 3):
        assert hmac_sha256(key, message) == hmac.digest(key, message, "sha256")


def test_status_and_the_dice_do_not_import_hashlib() -> None:
    # the point of the module: hashlib's import loads OpenSSL (about 11.7 M instructions)
    code = ("import sys, pbem.session, pbem.dice, pbem.engine, pbem.datacache; "
            "print(sorted({'hashlib', '_hashlib', 'hmac'} & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def test_a_long_input_goes_to_openssl_with_the_same_digest() -> None:
    # past BIG bytes the builtin's lack of SHA instructions costs more than the import
    from pbem import sha

    for size in (0, 4095, 4096, sha.BIG - 1, sha.BIG, sha.BIG + 1):
        data = bytes(range(256)) * (size // 256) + b"\x07" * (size % 256)
        assert sha.sha256(data).digest() == hashlib.sha256(data).digest()
    assert sha._openssl is not None


def test_a_short_input_does_not_import_hashlib() -> None:
    code = ("import sys; from pbem import sha; sha.sha256(bytes(sha.BIG - 1)).digest(); "
            "print('hashlib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"
