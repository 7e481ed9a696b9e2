"""pbem.sha: the builtin SHA-256 and the HMAC built on it give hashlib's and hmac's bytes
(issue 19: start-up without hashlib's OpenSSL import)."""

from __future__ import annotations

import hashlib
import hmac
import subprocess
import sys

import pytest

from pbem.sha import hkdf_sha256, hmac_sha256, sha256

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


def test_hkdf_matches_rfc_5869() -> None:
    # RFC 5869 appendix A.1-A.3, the SHA-256 cases (A.3: empty salt and info)
    ikm = bytes.fromhex("0b" * 22)
    assert hkdf_sha256(ikm, bytes(range(13)), bytes(range(0xF0, 0xFA)), 42).hex() == (
        "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf"
        "34007208d5b887185865")
    long_ikm, long_salt = bytes(range(0x00, 0x50)), bytes(range(0x60, 0xB0))
    long_info = bytes(range(0xB0, 0x100))
    assert hkdf_sha256(long_ikm, long_salt, long_info, 82).hex() == (
        "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c"
        "59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71"
        "cc30c58179ec3e87c14c01d5c1f3434f1d87")
    assert hkdf_sha256(ikm, b"", b"", 42).hex() == (
        "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d"
        "9d201395faa4b61a96c8")


@pytest.mark.parametrize("length", [1, 31, 32, 33, 64, 65, 255 * 32])
def test_hkdf_matches_cryptography(length: int) -> None:
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    for salt, info in ((b"", b""), (b"n" * 32, b"\x93\xb3pbem/v1/dice-secret\xa3red\x00"),
                       (bytes(range(200)), bytes(range(100)))):
        ikm = bytes(range(32))
        assert hkdf_sha256(ikm, salt, info, length) == HKDF(
            algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)


def test_hkdf_refuses_lengths_outside_rfc_5869() -> None:
    for bad in (0, -1, 255 * 32 + 1):
        with pytest.raises(ValueError):
            hkdf_sha256(b"k", b"s", b"i", bad)


def test_content_digest_is_sha256_of_the_content_taken_once() -> None:
    from pbem import sha

    data = b"[map]\ntitle = \"x\"\n" * 1000
    assert sha.content_digest(data) == hashlib.sha256(data).digest()
    # text is hashed as its UTF-8 bytes: the same digest as the file's bytes
    assert sha.content_digest(data.decode()) == hashlib.sha256(data).digest()
    assert sha.content_digest("é") == hashlib.sha256("é".encode()).digest()
    # equal content is a hit, other content is not (the dict compares the bytes whole)
    other = data[:-1] + b"!"
    assert sha.content_digest(other) == hashlib.sha256(other).digest()
    assert sha._digests[bytes(data)] == hashlib.sha256(data).digest()


def test_content_digest_keeps_a_bounded_number() -> None:
    from pbem import sha

    for i in range(sha._DIGESTS_KEPT * 2):
        assert sha.content_digest(str(i)) == hashlib.sha256(str(i).encode()).digest()
    assert len(sha._digests) <= sha._DIGESTS_KEPT
