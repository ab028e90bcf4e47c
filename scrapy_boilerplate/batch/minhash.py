"""MinHash signatures of texts, for finding near duplicates (numpy; no Spark).

A text's shingles are its runs of :data:`SHINGLE_WORDS` words (lowercased, split on white
space); each is hashed to 32 bits (the words' CRC-32 mixed by odd multipliers). The signature
holds, for each of :data:`PERMUTATIONS` seeded hash functions ``((a * h + b) mod 2^64) >> 32``
(multiply-add-shift), the least value over the shingles: two signatures agree at a position
with a probability equal to the Jaccard similarity of the shingle sets, so the share of equal
positions estimates it (standard error about 0.035 at a similarity of 0.8). Locality-sensitive
hashing cuts a signature into :data:`BANDS` bands of :data:`ROWS` positions: texts that agree
on a whole band are candidates, which catches a pair of similarity ``s`` with probability
``1 - (1 - s^ROWS)^BANDS`` (0.96 at 0.8, 0.47 at 0.6, 0.04 at 0.4). A text of fewer than
:data:`SHINGLE_WORDS` words has no signature.
"""

from __future__ import annotations

import hashlib
import zlib

import numpy as np

__all__ = ["BANDS", "PERMUTATIONS", "ROWS", "SHINGLE_WORDS", "band_keys", "signature"]

SHINGLE_WORDS = 5
BANDS = 16
ROWS = 8
PERMUTATIONS = BANDS * ROWS

_RNG = np.random.default_rng(35)
#: Odd multipliers that mix a shingle's word hashes into one 64-bit value.
_MIXERS = _RNG.integers(1, 1 << 63, size=SHINGLE_WORDS, dtype=np.uint64) * 2 + 1
#: ``a`` and ``b`` of each hash function (64 bits each).
_SEEDS = _RNG.integers(0, 1 << 63, size=(2, PERMUTATIONS), dtype=np.uint64) * 2 + 1


def signature(text: str) -> list[int] | None:
    """The MinHash signature of ``text`` (:data:`PERMUTATIONS` integers below 2^32), or None
    when it has fewer than :data:`SHINGLE_WORDS` words."""
    words = text.lower().split()
    if len(words) < SHINGLE_WORDS:
        return None
    hashes = np.fromiter(
        (zlib.crc32(word.encode("utf-8")) for word in words), dtype=np.uint64, count=len(words)
    )
    count = len(words) - SHINGLE_WORDS + 1
    mixed = sum(  # arithmetic modulo 2^64
        (hashes[k : k + count] * _MIXERS[k] for k in range(SHINGLE_WORDS)),
        start=np.zeros(count, dtype=np.uint64),
    )
    shingles = np.unique(mixed >> np.uint64(32))  # 32 bits a shingle
    values = np.multiply(_SEEDS[0][:, None], shingles[None, :])  # multiply-add-shift, in place
    values += _SEEDS[1][:, None]
    values >>= np.uint64(32)
    return [int(value) for value in values.min(axis=1)]


def band_keys(values: list[int]) -> list[int]:
    """One 63-bit key a band of the signature ``values``: equal bands, equal keys (and a
    different band number, a different key)."""
    keys = []
    for band in range(BANDS):
        chunk = values[band * ROWS : (band + 1) * ROWS]
        digest = hashlib.blake2b(repr((band, chunk)).encode(), digest_size=8).digest()
        keys.append(int.from_bytes(digest, "big") >> 1)
    return keys
