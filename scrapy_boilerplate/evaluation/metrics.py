"""Text- and block-level extraction metrics (pure functions, no I/O).

Every text metric compares one *predicted* text with one *gold* text and returns
:class:`Counts` (true positives, false positives, false negatives) for that page; the
aggregate functions turn a list of per-page counts into :class:`Scores`.

Tokenisations (also in ``docs/evaluation.md``):

* **shingle tokens** (:func:`shingle_tokens`): maximal runs of Unicode word characters
  (``re.findall(r"\\w+")``: letters, digits, underscore), case kept, no normalisation. This is
  the tokenisation of the public article-extraction benchmark, so scores are comparable.
* **bag-of-words tokens** (:func:`bag_of_words_tokens`): whitespace-delimited tokens with
  leading and trailing characters that are not letters or digits stripped, kept if a letter or
  digit remains (the boilerpipe paper's *word*, made robust to punctuation spacing), case kept.
* **character tokens** (:func:`character_counts`): whitespace-delimited tokens, aligned in
  order; each token counts with its length in code points (whitespace never counts).

Per-page conventions, shared by every text metric: if gold and prediction are both empty the
page scores precision = recall = F1 = 1; an empty prediction has no precision (``None``) and
recall 0; an empty gold has no recall (``None``) and precision 0 when something was predicted.
"""

from __future__ import annotations

import random
import re
import statistics
import unicodedata
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import TypeVar

__all__ = [
    "Counts",
    "Scores",
    "shingle_tokens",
    "bag_of_words_tokens",
    "shingles",
    "multiset_counts",
    "shingle_counts",
    "bag_of_words_counts",
    "character_counts",
    "normalised_counts",
    "page_precision",
    "page_recall",
    "page_f1",
    "benchmark_scores",
    "mean_page_scores",
    "snippet_tokens",
    "contains_snippet",
    "snippet_rate",
    "block_scores",
    "weighted_roc_auc",
    "bootstrap_se",
]

T = TypeVar("T")

SHINGLE_SIZE = 4
_WORD_RUN = re.compile(r"\w+")
_EDGE_NON_ALNUM = re.compile(r"^(?:[^\w]|_)+|(?:[^\w]|_)+$")
_HAS_ALNUM = re.compile(r"[^\W_]")


@dataclass(frozen=True)
class Counts:
    """True positives, false positives and false negatives of one page (in the metric's unit)."""

    tp: float
    fp: float
    fn: float

    @property
    def predicted(self) -> float:
        """Size of the prediction (tp + fp)."""
        return self.tp + self.fp

    @property
    def gold(self) -> float:
        """Size of the gold text (tp + fn)."""
        return self.tp + self.fn


@dataclass(frozen=True)
class Scores:
    """Precision, recall and F1 in [0, 1] over a set of pages."""

    precision: float
    recall: float
    f1: float


# -- tokenisation -----------------------------------------------------------------------------


def shingle_tokens(text: str) -> list[str]:
    """Runs of word characters (``\\w+``), case kept: the article-benchmark tokenisation."""
    return _WORD_RUN.findall(text)


def bag_of_words_tokens(text: str) -> list[str]:
    """Whitespace tokens stripped of non-alphanumeric edges, kept if a letter or digit remains."""
    tokens = (_EDGE_NON_ALNUM.sub("", token) for token in text.split())
    return [token for token in tokens if _HAS_ALNUM.search(token)]


def shingles(tokens: Sequence[str], n: int = SHINGLE_SIZE) -> list[tuple[str, ...]]:
    """The word n-grams of ``tokens``; fewer than ``n`` tokens make one short shingle, none none."""
    if not tokens:
        return []
    if len(tokens) < n:
        return [tuple(tokens)]
    return [tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]


# -- per-page counts --------------------------------------------------------------------------


def multiset_counts(gold: Iterable[Hashable], predicted: Iterable[Hashable]) -> Counts:
    """Counts of two multisets: tp = sum of min(multiplicities), fp / fn = the excesses."""
    gold_bag = Counter(gold)
    predicted_bag = Counter(predicted)
    tp = sum((gold_bag & predicted_bag).values())
    return Counts(tp, sum(predicted_bag.values()) - tp, sum(gold_bag.values()) - tp)


def normalised_counts(counts: Counts) -> Counts:
    """``counts`` divided by tp + fp + fn (unchanged if all are 0): every page weighs the same."""
    total = counts.tp + counts.fp + counts.fn
    if total == 0:
        return counts
    return Counts(counts.tp / total, counts.fp / total, counts.fn / total)


def shingle_counts(gold: str, predicted: str, n: int = SHINGLE_SIZE) -> Counts:
    """Word-shingle counts as in the article-extraction benchmark, normalised to sum 1.

    Shingles are ``n``-grams of :func:`shingle_tokens` compared as multisets.
    """
    raw = multiset_counts(shingles(shingle_tokens(gold), n), shingles(shingle_tokens(predicted), n))
    return normalised_counts(raw)


def bag_of_words_counts(gold: str, predicted: str) -> Counts:
    """Token-level bag-of-words counts (boilerpipe paper), in words: multisets of
    :func:`bag_of_words_tokens`."""
    return multiset_counts(bag_of_words_tokens(gold), bag_of_words_tokens(predicted))


def character_counts(gold: str, predicted: str) -> Counts:
    """Character-level counts (grandparent paper): a gold character is a true positive when the
    prediction holds it at the aligned place.

    Both texts are split at whitespace and aligned in order with :class:`difflib.SequenceMatcher`
    (no junk heuristic); a matched token contributes its length in code points to tp, the rest
    of the prediction is fp and the rest of the gold fn. Whitespace is never counted.
    """
    gold_tokens = gold.split()
    predicted_tokens = predicted.split()
    matcher = SequenceMatcher(None, gold_tokens, predicted_tokens, autojunk=False)
    tp = sum(
        len(token)
        for block in matcher.get_matching_blocks()
        for token in gold_tokens[block.a : block.a + block.size]
    )
    gold_chars = sum(map(len, gold_tokens))
    predicted_chars = sum(map(len, predicted_tokens))
    return Counts(tp, predicted_chars - tp, gold_chars - tp)


# -- per-page scores --------------------------------------------------------------------------


def page_precision(counts: Counts) -> float | None:
    """tp / (tp + fp); 1 if both texts are empty; None if only the prediction is empty."""
    if counts.predicted == 0:
        return 1.0 if counts.gold == 0 else None
    return counts.tp / counts.predicted


def page_recall(counts: Counts) -> float | None:
    """tp / (tp + fn); 1 if both texts are empty; None if only the gold is empty."""
    if counts.gold == 0:
        return 1.0 if counts.predicted == 0 else None
    return counts.tp / counts.gold


def page_f1(counts: Counts) -> float:
    """Harmonic mean of the page's precision and recall; 0 when either is missing or both are 0."""
    precision, recall = page_precision(counts), page_recall(counts)
    if not precision or not recall:
        return 0.0
    return 2 * precision * recall / (precision + recall)


def _harmonic(precision: float, recall: float) -> float:
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def _mean_defined(values: Iterable[float | None]) -> float:
    defined = [value for value in values if value is not None]
    return statistics.fmean(defined) if defined else 0.0


# -- aggregation ------------------------------------------------------------------------------


def benchmark_scores(pages: Sequence[Counts]) -> Scores:
    """Aggregate as the article-extraction benchmark does: precision = mean page precision over
    pages with a prediction, recall = mean page recall over pages with gold text, F1 = their
    harmonic mean (not the mean of page F1s). No pages scores 0."""
    precision = _mean_defined(page_precision(counts) for counts in pages)
    recall = _mean_defined(page_recall(counts) for counts in pages)
    return Scores(precision, recall, _harmonic(precision, recall))


def mean_page_scores(pages: Sequence[Counts]) -> Scores:
    """Means of page precision, recall and F1 (the boilerpipe paper's µ); pages where a value
    is undefined are left out of that mean, page F1 is then 0. No pages scores 0."""
    return Scores(
        _mean_defined(page_precision(counts) for counts in pages),
        _mean_defined(page_recall(counts) for counts in pages),
        _mean_defined(page_f1(counts) for counts in pages),
    )


# -- WCXB snippets ----------------------------------------------------------------------------


def snippet_tokens(text: str) -> str:
    """NFKC-normalised, case-folded :func:`shingle_tokens` joined by single spaces and padded
    with a space on each side (the form :func:`contains_snippet` searches)."""
    tokens = shingle_tokens(unicodedata.normalize("NFKC", text).casefold())
    return " " + " ".join(tokens) + " "


def contains_snippet(text_tokens: str, snippet: str) -> bool | None:
    """True if the snippet's tokens occur, contiguous and whole, in ``text_tokens`` (the output of
    :func:`snippet_tokens`); None for a snippet without any word character."""
    needle = snippet_tokens(snippet)
    if not needle.strip():
        return None
    return needle in text_tokens


def snippet_rate(text: str, snippets: Sequence[str]) -> float | None:
    """Share of ``snippets`` found in ``text`` (see :func:`contains_snippet`); None if none counts.

    For WCXB ``with`` snippets higher is better; for ``without`` snippets the evaluation reports
    1 - rate (the share of boilerplate snippets kept out).
    """
    haystack = snippet_tokens(text)
    found = [contains_snippet(haystack, snippet) for snippet in snippets]
    counted = [hit for hit in found if hit is not None]
    return sum(counted) / len(counted) if counted else None


# -- block level (L3S-GN1 labels) -------------------------------------------------------------


def block_scores(
    weights: Sequence[float], gold: Sequence[bool], predicted: Sequence[bool]
) -> Counts:
    """Block-level counts weighted by ``weights`` (the blocks' word counts, as in the boilerpipe
    paper): tp = weight of blocks predicted and gold content, fp / fn the other two cases."""
    if not len(weights) == len(gold) == len(predicted):
        raise ValueError("weights, gold and predicted must have the same length")
    tp = fp = fn = 0.0
    for weight, is_gold, is_predicted in zip(weights, gold, predicted, strict=True):
        if is_predicted and is_gold:
            tp += weight
        elif is_predicted:
            fp += weight
        elif is_gold:
            fn += weight
    return Counts(tp, fp, fn)


def weighted_roc_auc(
    weights: Sequence[float], gold: Sequence[bool], scores: Sequence[float]
) -> float | None:
    """Area under the ROC curve of ``scores`` (higher = more likely content) for ``gold``, each
    block weighted by ``weights``: the chance that a random content word's block scores above a
    random boilerplate word's block, ties counting half. None unless both classes have weight."""
    if not len(weights) == len(gold) == len(scores):
        raise ValueError("weights, gold and scores must have the same length")
    by_score: dict[float, list[float]] = {}
    for weight, is_gold, score in zip(weights, gold, scores, strict=True):
        pair = by_score.setdefault(score, [0.0, 0.0])
        pair[0 if is_gold else 1] += weight
    positive = sum(pair[0] for pair in by_score.values())
    negative = sum(pair[1] for pair in by_score.values())
    if positive == 0 or negative == 0:
        return None
    area = 0.0
    negative_below = 0.0
    for score in sorted(by_score):
        pos, neg = by_score[score]
        area += pos * (negative_below + neg / 2)
        negative_below += neg
    return area / (positive * negative)


# -- uncertainty ------------------------------------------------------------------------------


def bootstrap_se(
    items: Sequence[T],
    statistic: Callable[[Sequence[T]], float],
    *,
    samples: int = 500,
    seed: int = 0,
) -> float:
    """Bootstrap standard error of ``statistic(items)``: the standard deviation of the statistic
    over ``samples`` resamples of the pages with replacement (seeded, so reproducible).
    0 for fewer than two items."""
    if len(items) < 2 or samples < 2:
        return 0.0
    rng = random.Random(seed)
    size = len(items)
    values = [statistic(rng.choices(items, k=size)) for _ in range(samples)]
    return statistics.stdev(values)
