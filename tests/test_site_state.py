"""Bounded SiteLevel counts of one site: counting, eviction lower bounds, serialisation."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from scrapy_boilerplate.site.state import SiteState


def test_counts_each_page_once_and_finds_templates() -> None:
    state = SiteState()
    for page in range(20):
        state.add_page([1, 2, 100 + page] + ([3] if page < 3 else []))
    assert state.pages == 20
    assert state.counts[1] == 20 and state.counts[3] == 3
    assert state.template_hashes() == {1, 2, 3}  # 3 > 0.1 x 20
    assert state.refresh() and state.version == 1
    assert not state.refresh() and state.version == 1


def test_eviction_keeps_frequent_hashes_and_never_overstates_a_lower_bound() -> None:
    state = SiteState()
    capacity = 1_000  # 61 hashes a page: the floor stays below 10% of the pages
    for page in range(200):
        unique = range(10_000 + page * 60, 10_000 + page * 60 + 60)  # 60 new hashes a page
        state.add_page([7, 8, *unique] + ([9] if page % 5 == 0 else []), capacity)
        assert len(state.counts) <= capacity
    assert state.floor > 0
    assert state.lower_bound(7) == 200 and state.lower_bound(8) == 200
    assert 0 < state.floor < 20
    # 9 is on 40 of 200 pages: kept and a template; no lower bound exceeds the true count
    assert state.lower_bound(9) <= 40 and 9 in state.template_hashes()
    # a hash counted after evictions starts above the floor but has lower bound 1
    last = 10_000 + 199 * 60
    assert state.counts[last] > 1 and state.lower_bound(last) == 1
    assert state.template_hashes() == {7, 8, 9}


def test_frozen_state_keeps_templates_and_drops_counts() -> None:
    state = SiteState()
    for _ in range(5):
        state.add_page([1, 2])
    state.refresh()
    state.freeze()
    state.add_page([5])
    assert state.pages == 5 and state.counts == {} and state.templates == {1, 2}


def test_round_trip_through_bytes() -> None:
    state = SiteState()
    for page in range(50):
        state.add_page([2**64 - 1, 1, page, page + 1000], capacity=40)
    state.refresh()
    copy = SiteState.from_bytes(state.to_bytes())
    for name in ("pages", "counts", "errors", "floor", "version", "templates", "frozen"):
        assert getattr(copy, name) == getattr(state, name), name
    assert state.errors  # evictions happened
    assert len(state.to_bytes()) <= 28 + 24 * len(state.counts) + 8 * len(state.templates)


@pytest.mark.parametrize("blob", [b"", b"nope", b"SLv1" + b"\0" * 10])
def test_unreadable_blobs_are_refused(blob: bytes) -> None:
    with pytest.raises(ValueError):
        SiteState.from_bytes(blob)


def test_a_first_page_counts_like_any_other() -> None:
    first, later = SiteState(), SiteState()
    later.add_page([9])
    first.add_page([5, 5, 6])
    later.add_page([5, 5, 6])
    assert first.counts == {5: 2, 6: 1} and later.counts == {9: 1, 5: 2, 6: 1}
    assert SiteState.from_bytes(first.to_bytes()).counts == first.counts


def test_templates_need_strictly_more_than_theta_of_the_pages_on_the_lower_bound() -> None:
    state = SiteState(pages=20, counts=Counter({1: 2, 2: 3, 3: 5, 4: 5}), errors={3: 3, 4: 2})
    assert state.template_hashes(theta=0.1) == {2, 4}  # > 2 pages surely: 3, and 5 - 2
    assert state.template_hashes(theta=0.1, min_df=4) == set()
    assert SiteState(pages=25, counts=Counter({1: 3, 2: 2})).template_hashes(0.1) == {1}


class OneByOneState:
    """Space-Saving counted hash by hash and evicted by a full ranking: the reference of
    :class:`SiteState`'s batch counting."""

    def __init__(self) -> None:
        self.counts: dict[int, int] = {}
        self.errors: dict[int, int] = {}
        self.floor = 0

    def add_page(self, hashes: list[int], capacity: int) -> None:
        for digest in hashes:
            count = self.counts.get(digest)
            if count is not None:
                self.counts[digest] = count + 1
            elif self.floor:
                self.counts[digest] = self.floor + 1
                self.errors[digest] = self.floor
            else:
                self.counts[digest] = 1
        if len(self.counts) > capacity:
            ranked = sorted(self.counts, key=self.counts.__getitem__, reverse=True)
            for digest in ranked[capacity * 3 // 4 :]:
                self.floor = max(self.floor, self.counts.pop(digest))
                self.errors.pop(digest, None)


@pytest.mark.parametrize("seed", range(6))
def test_batch_counting_and_eviction_equal_the_one_by_one_reference(seed: int) -> None:
    rng = random.Random(seed)
    state, reference = SiteState(), OneByOneState()
    shared = [rng.randrange(2**64) for _ in range(30)]
    for _ in range(60):
        page = rng.sample(shared, rng.randint(0, 30)) + [rng.randrange(500) for _ in range(25)]
        state.add_page(page, capacity=120)
        reference.add_page(page, capacity=120)
        assert list(state.counts.items()) == list(reference.counts.items())
        assert state.errors == reference.errors and state.floor == reference.floor
    assert state.floor > 0  # evictions happened
