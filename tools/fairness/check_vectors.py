#!/usr/bin/env python3
"""Checks docs/fairness-vectors.json against an implementation that is not Beurs': OpenSSL's
ChaCha20 (through the `cryptography` package) and the mappings as docs/fairness.md states them.

    python3 -m pip install cryptography && python3 tools/fairness/check_vectors.py

rand_chacha's ChaCha20 is the original (DJB) layout: a 64-bit block counter in state words
12-13 and the 64-bit stream id in words 14-15, which is OpenSSL's 16-byte "nonce" of
counter (8 bytes, little-endian, 0) then stream id (8 bytes, little-endian).
"""
import json
import pathlib
import struct
import sys

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms

MAX = 2**64 - 1


def words(seed: bytes, stream: int):
    """The stream's 64-bit words: the keystream read 8 bytes at a time, little-endian."""
    cipher = Cipher(algorithms.ChaCha20(seed, struct.pack("<QQ", 0, stream)), mode=None)
    encryptor = cipher.encryptor()
    while True:
        yield struct.unpack("<Q", encryptor.update(b"\0" * 8))[0]


def below(stream, n: int) -> int:
    """A uniform integer in 0..n: reject words above the largest multiple of n."""
    zone = MAX - (MAX % n + 1) % n
    while True:
        word = next(stream)
        if word <= zone:
            return word % n


def shuffle(stream, items: list) -> list:
    """Fisher-Yates, from the last position down."""
    for i in range(len(items) - 1, 0, -1):
        j = below(stream, i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def main() -> int:
    path = pathlib.Path(__file__).resolve().parents[2] / "docs" / "fairness-vectors.json"
    cases = json.loads(path.read_text())["cases"]
    for case in cases:
        seed, stream = bytes.fromhex(case["seed"]), int(case["stream"])
        fresh = lambda: words(seed, stream)  # noqa: E731
        first = fresh()
        assert [str(next(first)) for _ in range(8)] == case["first_words"], case
        for entry in case["below"]:
            draws, n = fresh(), int(entry["n"])
            assert [str(below(draws, n)) for _ in range(8)] == entry["draws"], entry
        dice = fresh()
        assert [below(dice, 6) + 1 for _ in range(12)] == case["roll_d6"], case
        for entry in case["shuffle"]:
            assert shuffle(fresh(), list(range(entry["len"]))) == entry["order"], entry
    print(f"{len(cases)} cases agree with OpenSSL's ChaCha20 and docs/fairness.md's mappings")
    return 0


if __name__ == "__main__":
    sys.exit(main())
