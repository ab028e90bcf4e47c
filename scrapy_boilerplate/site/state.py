"""One site's SiteLevel counts, bounded: pages seen and how many pages held each node hash.

The table keeps at most ``capacity`` hashes. When a page's hashes overflow it, the hashes with
the lowest counts go until a quarter of the room is free, and ``floor`` becomes the highest
count dropped (a batch form of Space-Saving, Metwally et al. 2005): a hash that comes back is
counted from ``floor + 1`` with ``floor`` as its possible over-count. Decisions use the lower
bound ``count - error``, so an eviction never makes a template of a node that is not one;
a node on more than ``1 / capacity`` of the hashes counted stays in the table.

A state serialises to a compact blob (:meth:`SiteState.to_bytes`, 12-20 bytes per hash) for
the stores of :mod:`.store`.
"""

from __future__ import annotations

import math
import struct
from array import array
from collections import Counter, deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import chain, compress, filterfalse, repeat
from typing import Final

from .hashing import decode_hashes, encode_hashes
from .sitelevel import MIN_DF, THETA

__all__ = ["SiteState", "DEFAULT_CAPACITY"]

#: Hashes kept per site, at most.
DEFAULT_CAPACITY: Final = 20_000
_HEADER: Final = struct.Struct("<4sIIIIII")  # magic, pages, version, floor, frozen, n, n errors
_MAGIC: Final = b"SLv1"


@dataclass(eq=False)
class SiteState:
    """Pages seen, hash counts (upper bounds) and their possible over-counts, the current
    template hashes and their version. ``frozen``: learning stopped (the table is empty)."""

    pages: int = 0
    counts: Counter[int] = field(default_factory=Counter)
    errors: dict[int, int] = field(default_factory=dict)
    floor: int = 0
    version: int = 0
    templates: frozenset[int] = frozenset()
    frozen: bool = False

    def add_page(self, hashes: Iterable[int], capacity: int = DEFAULT_CAPACITY) -> None:
        """Count one page's distinct hashes (ignored once frozen)."""
        if self.frozen:
            return
        self.pages += 1
        counts, errors, floor = self.counts, self.errors, self.floor
        if not floor:  # nothing evicted yet: every hash counts from 0, in C
            counts.update(hashes)
        else:
            page = list(hashes)
            if len(set(page)) == len(page):
                _count_after_evictions(counts, errors, floor, page)
            else:  # a hash twice on one page: counted twice, the first time from ``floor``
                for digest in page:
                    _count_after_evictions(counts, errors, floor, [digest])
        if len(counts) > capacity:
            self._evict(capacity * 3 // 4)

    def _evict(self, keep: int) -> None:
        """Space-Saving: drop all but the ``keep`` hashes of highest counts (ties: the ones
        counted first stay); ``floor`` becomes the highest count dropped."""
        counts = self.counts
        if len(counts) <= keep:
            return
        by_count = Counter(counts.values())
        above = 0  # hashes with a count above ``threshold``
        for threshold in sorted(by_count, reverse=True):
            if above + by_count[threshold] >= keep:
                break
            above += by_count[threshold]
        tied = list(compress(counts.keys(), map(threshold.__eq__, counts.values())))
        dropped = tied[keep - above :]
        lower = list(compress(counts.keys(), map(threshold.__gt__, counts.values())))
        highest = threshold if dropped else max(c for c in by_count if c < threshold)
        self.floor = max(self.floor, highest)
        gone = list(chain(dropped, lower))
        deque(map(counts.pop, gone), maxlen=0)  # in C (Counter's ``del`` is Python)
        deque(map(self.errors.pop, gone, repeat(None)), maxlen=0)

    def lower_bound(self, digest: int) -> int:
        """Pages that surely held ``digest``."""
        return self.counts.get(digest, 0) - self.errors.get(digest, 0)

    def template_hashes(self, theta: float = THETA, min_df: int = MIN_DF) -> frozenset[int]:
        """SiteLevel(θ) on the lower bounds: on more than θ of the pages and on ``min_df``."""
        need = max(math.floor(theta * self.pages) + 1, min_df)  # "more than": counts are whole
        counts, errors = self.counts, self.errors
        reached = compress(counts.keys(), map(need.__le__, counts.values()))  # in C
        if not errors:
            return frozenset(reached)
        return frozenset(d for d in reached if counts[d] - errors.get(d, 0) >= need)

    def refresh(self, theta: float = THETA, min_df: int = MIN_DF) -> bool:
        """Recompute the templates; a changed set gets the next version. True if it changed."""
        templates = self.template_hashes(theta, min_df)
        if templates == self.templates:
            return False
        self.templates = templates
        self.version += 1
        return True

    def freeze(self) -> None:
        """Stop learning: keep the templates, drop the counts."""
        self.frozen = True
        self.counts, self.errors = Counter(), {}

    # -- serialisation -----------------------------------------------------------------------

    def to_bytes(self) -> bytes:
        hashes = list(self.counts)
        error_hashes = list(filter(self.errors.__contains__, hashes)) if self.errors else []
        return b"".join(
            (
                _HEADER.pack(
                    _MAGIC,
                    self.pages,
                    self.version,
                    self.floor,
                    int(self.frozen),
                    len(hashes),
                    len(error_hashes),
                ),
                encode_hashes(hashes),
                _uint32(self.counts.values()),  # in the order of ``hashes``
                encode_hashes(error_hashes),
                _uint32(map(self.errors.__getitem__, error_hashes)),
                encode_hashes(sorted(self.templates)),
            )
        )

    @classmethod
    def from_bytes(cls, blob: bytes) -> SiteState:
        """The state :meth:`to_bytes` wrote; ValueError for anything else."""
        if len(blob) < _HEADER.size or blob[:4] != _MAGIC:
            raise ValueError("not a site state")
        _, pages, version, floor, frozen, size, error_size = _HEADER.unpack_from(blob)
        offset = _HEADER.size
        hashes, offset = _take_hashes(blob, offset, size)
        counts, offset = _take_uint32(blob, offset, size)
        error_hashes, offset = _take_hashes(blob, offset, error_size)
        errors, offset = _take_uint32(blob, offset, error_size)
        if (len(blob) - offset) % 8:
            raise ValueError("truncated site state")
        templates = frozenset(decode_hashes(blob[offset:]))
        return cls(
            pages,
            Counter(dict(zip(hashes, counts, strict=True))),
            dict(zip(error_hashes, errors, strict=True)),
            floor,
            version,
            templates,
            bool(frozen),
        )


def _count_after_evictions(
    counts: Counter[int], errors: dict[int, int], floor: int, page: list[int]
) -> None:
    """Count the distinct hashes of ``page`` once hashes were evicted: a known hash gets 1
    more, a new one ``floor + 1`` with ``floor`` as its possible over-count (in C)."""
    new = dict.fromkeys(filterfalse(counts.__contains__, page), floor + 1)
    counts.update(compress(page, map(counts.__contains__, page)))
    dict.update(counts, new)
    errors.update(dict.fromkeys(new, floor))


def _uint32(values: Iterable[int]) -> bytes:
    packed = array("I", values)
    if packed.itemsize != 4 or struct.pack("=I", 1) != struct.pack("<I", 1):
        return struct.pack(f"<{len(packed)}I", *packed)
    return packed.tobytes()


def _take_hashes(blob: bytes, offset: int, size: int) -> tuple[list[int], int]:
    end = offset + 8 * size
    if end > len(blob):
        raise ValueError("truncated site state")
    return list(decode_hashes(blob[offset:end])), end


def _take_uint32(blob: bytes, offset: int, size: int) -> tuple[list[int], int]:
    end = offset + 4 * size
    if end > len(blob):
        raise ValueError("truncated site state")
    return list(struct.unpack_from(f"<{size}I", blob, offset)), end
