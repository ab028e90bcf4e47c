"""MinHash signatures (``scrapy_boilerplate.batch.minhash``): the share of equal positions
estimates the Jaccard similarity of two texts' word 5-shingles; bands of equal texts agree."""

from __future__ import annotations

import random

import pytest

from scrapy_boilerplate.batch.minhash import (
    BANDS,
    PERMUTATIONS,
    SHINGLE_WORDS,
    band_keys,
    signature,
)

WORDS = [f"word{n}" for n in range(300)]


def text(seed: int, count: int = 200) -> list[str]:
    rng = random.Random(seed)
    return [rng.choice(WORDS) for _ in range(count)]


def shingles(words: list[str]) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + SHINGLE_WORDS]) for i in range(len(words) - SHINGLE_WORDS + 1)}


def estimate(first: list[int], second: list[int]) -> float:
    return sum(a == b for a, b in zip(first, second, strict=True)) / PERMUTATIONS


@pytest.mark.parametrize("changed", [0, 2, 6, 20])
def test_equal_positions_estimate_the_jaccard_similarity(changed: int) -> None:
    original = text(1)
    edited = list(original)
    for position in random.Random(changed).sample(range(len(edited)), changed):
        edited[position] = "changed"
    first, second = signature(" ".join(original)), signature(" ".join(edited))
    assert first is not None and second is not None
    jaccard = len(shingles(original) & shingles(edited)) / len(
        shingles(original) | shingles(edited)
    )
    assert abs(estimate(first, second) - jaccard) < 0.1
    assert (band_keys(first) == band_keys(second)) == (first == second)


def test_case_and_white_space_do_not_matter_and_short_texts_have_none() -> None:
    words = text(2)
    assert signature(" ".join(words)) == signature("  " + "\n".join(words).upper())
    assert signature(" ".join(words[: SHINGLE_WORDS - 1])) is None
    values = signature(" ".join(words))
    assert values is not None and len(values) == PERMUTATIONS and len(band_keys(values)) == BANDS


def test_unrelated_texts_share_no_band() -> None:
    first, second = signature(" ".join(text(3))), signature(" ".join(text(4)))
    assert first is not None and second is not None
    assert estimate(first, second) < 0.05
    assert not set(band_keys(first)) & set(band_keys(second))
