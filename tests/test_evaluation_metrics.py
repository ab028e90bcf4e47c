"""Metrics on tiny hand-computed cases."""

from __future__ import annotations

import pytest

from scrapy_boilerplate.evaluation.metrics import (
    Counts,
    bag_of_words_counts,
    bag_of_words_tokens,
    benchmark_scores,
    block_scores,
    bootstrap_se,
    character_counts,
    mean_page_scores,
    multiset_counts,
    page_f1,
    page_precision,
    page_recall,
    shingle_counts,
    shingle_tokens,
    shingles,
    snippet_rate,
    weighted_roc_auc,
)


def test_shingle_tokens_are_word_runs_with_case_kept() -> None:
    assert shingle_tokens("Hello, wörld! it's 2025_x") == ["Hello", "wörld", "it", "s", "2025_x"]


def test_bag_of_words_tokens_strip_punctuation_edges() -> None:
    assert bag_of_words_tokens('"Quote," he said -- e-mail (ok). ... 3.5%') == [
        "Quote",
        "he",
        "said",
        "e-mail",
        "ok",
        "3.5",
    ]


def test_shingles_short_and_empty() -> None:
    assert shingles(["a", "b", "c", "d", "e"], 4) == [("a", "b", "c", "d"), ("b", "c", "d", "e")]
    assert shingles(["a", "b"], 4) == [("a", "b")]
    assert shingles([], 4) == []


def test_multiset_counts_use_multiplicities() -> None:
    assert multiset_counts(["a", "a", "b"], ["a", "c", "c"]) == Counts(1, 2, 2)


def test_bag_of_words_counts_hand_computed() -> None:
    # gold: the cat sat on the mat (6); predicted: the cat sat . menu (4 words)
    counts = bag_of_words_counts("the cat sat on the mat", "the cat sat. Menu")
    assert counts == Counts(3, 1, 3)
    assert page_precision(counts) == 0.75
    assert page_recall(counts) == 0.5
    assert page_f1(counts) == pytest.approx(0.6)


def test_shingle_counts_are_normalised_per_page() -> None:
    # gold shingles: (a b c d), (b c d e); predicted: (a b c d), (b c d x) -> tp 1, fp 1, fn 1
    counts = shingle_counts("a b c d e", "a b c d x")
    assert counts == Counts(pytest.approx(1 / 3), pytest.approx(1 / 3), pytest.approx(1 / 3))
    assert page_f1(counts) == pytest.approx(0.5)


def test_shingle_counts_ignore_punctuation_and_whitespace_layout() -> None:
    assert shingle_counts("One two, three four.\n\nFive", "One two three four Five") == Counts(
        1.0, 0.0, 0.0
    )


def test_character_counts_align_tokens_in_order() -> None:
    # gold 'ab cd ef' (6 chars); predicted 'ab xx ef' -> ab, ef match: tp 4, fp 2, fn 2
    assert character_counts("ab cd ef", "ab xx ef") == Counts(4, 2, 2)
    # order matters: a swapped text matches only the longest in-order run
    assert character_counts("aaa b", "b aaa") == Counts(3, 1, 1)


def test_unicode_tokens_and_characters() -> None:
    gold = "Ünïcode naïve café 東京タワー"
    predicted = "naïve café 東京タワー"
    assert bag_of_words_counts(gold, predicted) == Counts(3, 0, 1)
    # characters are code points: Ünïcode = 7, 東京タワー = 5
    assert character_counts(gold, predicted) == Counts(14, 0, 7)
    assert shingle_tokens("東京タワー, naïve") == ["東京タワー", "naïve"]


@pytest.mark.parametrize("counter", [bag_of_words_counts, shingle_counts, character_counts])
def test_empty_prediction(counter) -> None:
    counts = counter("some gold text here and more", "")
    assert page_precision(counts) is None
    assert page_recall(counts) == 0.0
    assert page_f1(counts) == 0.0


@pytest.mark.parametrize("counter", [bag_of_words_counts, shingle_counts, character_counts])
def test_empty_gold(counter) -> None:
    counts = counter("", "predicted boilerplate text here and more")
    assert page_precision(counts) == 0.0
    assert page_recall(counts) is None
    assert page_f1(counts) == 0.0


@pytest.mark.parametrize("counter", [bag_of_words_counts, shingle_counts, character_counts])
def test_both_empty_is_perfect(counter) -> None:
    counts = counter("  ", "")
    assert (page_precision(counts), page_recall(counts), page_f1(counts)) == (1.0, 1.0, 1.0)


def test_benchmark_scores_skip_undefined_and_use_harmonic_of_means() -> None:
    pages = [Counts(1, 1, 0), Counts(0, 0, 1), Counts(1, 0, 1)]
    # precision: pages 1 and 3 -> (0.5 + 1) / 2; recall: (1 + 0 + 0.5) / 3
    scores = benchmark_scores(pages)
    assert scores.precision == pytest.approx(0.75)
    assert scores.recall == pytest.approx(0.5)
    assert scores.f1 == pytest.approx(0.6)
    # mean of page F1s differs: (2/3 + 0 + 2/3) / 3
    assert mean_page_scores(pages).f1 == pytest.approx(4 / 9)


def test_aggregates_of_no_pages_are_zero() -> None:
    assert benchmark_scores([]).f1 == 0.0
    assert mean_page_scores([]).f1 == 0.0


def test_snippet_rate_matches_whole_tokens_case_insensitively() -> None:
    text = "Welcome to the Login page.\n\nThe caf\u00e9\u2019s menu"
    assert snippet_rate(
        text, ["login page", "Logi", "CAF\u00c9\u2019S  menu", "..."]
    ) == pytest.approx(2 / 3)
    assert snippet_rate(text, []) is None
    assert snippet_rate("", ["Home"]) == 0.0


def test_block_scores_are_word_weighted() -> None:
    counts = block_scores([10, 5, 3, 2], [True, True, False, False], [True, False, True, False])
    assert counts == Counts(10, 3, 5)
    with pytest.raises(ValueError):
        block_scores([1], [True, False], [True])


def test_weighted_roc_auc_hand_computed() -> None:
    # perfect ranking
    assert weighted_roc_auc([1, 1, 1], [True, False, False], [0.9, 0.1, 0.2]) == 1.0
    # binary scores: content weight 3 (2 kept, 1 dropped), boilerplate weight 2 (1 kept, 1 dropped)
    # pairs: kept content (2) vs dropped boilerplate (1): 2*1 wins; kept vs kept ties 2*1 -> 1;
    # dropped content (1) vs dropped boilerplate (1): tie -> 0.5; total 3.5 / (3*2)
    auc = weighted_roc_auc([2, 1, 1, 1], [True, True, False, False], [1, 0, 1, 0])
    assert auc == pytest.approx(3.5 / 6)
    assert weighted_roc_auc([1, 1], [True, True], [0.2, 0.4]) is None


def test_bootstrap_se() -> None:
    assert bootstrap_se([1.0], lambda xs: sum(xs)) == 0.0
    assert bootstrap_se([2.0, 2.0, 2.0], lambda xs: sum(xs) / len(xs)) == 0.0
    values = [0.0, 1.0] * 50
    se = bootstrap_se(values, lambda xs: sum(xs) / len(xs), samples=400, seed=1)
    # standard error of a mean of 100 fair coin flips is 0.05
    assert 0.035 < se < 0.065
    assert se == bootstrap_se(values, lambda xs: sum(xs) / len(xs), samples=400, seed=1)
