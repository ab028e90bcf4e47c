"""Run extractors over annotated pages, score them and render markdown tables.

One :class:`PageScore` per (extractor, page) holds the page's counts under every text metric;
:func:`summarise` aggregates them (with bootstrap standard errors) into a :class:`Summary` row.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..errors import BoilerplateError
from ..page.parsing import decode_html, strip_xml_declaration
from .datasets import Page
from .metrics import (
    Counts,
    bag_of_words_counts,
    benchmark_scores,
    bootstrap_se,
    character_counts,
    mean_page_scores,
    page_f1,
    shingle_counts,
    snippet_rate,
)
from .peers import TextExtractor

__all__ = [
    "PageRun",
    "PageScore",
    "Summary",
    "page_text",
    "run_extractor",
    "score_page",
    "summarise",
    "quality_table",
    "type_table",
    "ALL_TYPES",
]

ALL_TYPES = "all"


@dataclass(frozen=True)
class PageRun:
    """One extractor's output on one page: text, seconds taken, the error if it failed."""

    page_id: str
    text: str
    seconds: float
    error: str | None = None


@dataclass(frozen=True)
class PageScore:
    """One page's counts under each text metric, and its WCXB snippet rates (None if no snippet)."""

    page_id: str
    page_type: str | None
    shingle: Counts
    bag_of_words: Counts
    characters: Counts
    with_rate: float | None
    without_rate: float | None
    error: bool = False


@dataclass(frozen=True)
class Summary:
    """Aggregate scores of one extractor over a set of pages (all values in [0, 1])."""

    extractor: str
    pages: int
    errors: int
    shingle_precision: float
    shingle_recall: float
    shingle_f1: float
    shingle_f1_se: float
    bow_f1_mean: float
    bow_f1_median: float
    bow_f1_se: float
    char_precision: float
    char_recall: float
    char_f1: float
    with_rate: float | None
    without_rate: float | None


def page_text(page: Page) -> str:
    """The page decoded to text the way this package decodes pages (BOM, meta, sniffing), with a
    leading XML declaration removed (lxml refuses text that declares an encoding)."""
    return strip_xml_declaration(decode_html(page.html))


def run_extractor(extract: TextExtractor, pages: Iterable[Page]) -> list[PageRun]:
    """Run ``extract`` on each page, one at a time; a page that raises yields empty text and its
    error (no exception escapes). Time covers the call only (input already decoded)."""
    runs: list[PageRun] = []
    for page in pages:
        try:
            html = page_text(page)
        except BoilerplateError as exc:
            runs.append(PageRun(page.id, "", 0.0, f"undecodable: {exc}"))
            continue
        start = time.perf_counter()
        try:
            text = extract(html, page.url)
        except Exception as exc:  # peers raise anything; a failure scores as an empty text
            runs.append(PageRun(page.id, "", time.perf_counter() - start, repr(exc)[:200]))
            continue
        runs.append(PageRun(page.id, text, time.perf_counter() - start))
    return runs


def score_page(page: Page, text: str, *, error: bool = False) -> PageScore:
    """Score ``text`` against ``page``'s gold text under every metric."""
    without = snippet_rate(text, page.without_snippets)
    return PageScore(
        page_id=page.id,
        page_type=page.page_type,
        shingle=shingle_counts(page.gold_text, text),
        bag_of_words=bag_of_words_counts(page.gold_text, text),
        characters=character_counts(page.gold_text, text),
        with_rate=snippet_rate(text, page.with_snippets),
        without_rate=None if without is None else 1.0 - without,
        error=error,
    )


def _mean(values: Iterable[float | None]) -> float | None:
    defined = [value for value in values if value is not None]
    return statistics.fmean(defined) if defined else None


def _shingle_f1(scores: Sequence[PageScore]) -> float:
    return benchmark_scores([score.shingle for score in scores]).f1


def _bow_f1(scores: Sequence[PageScore]) -> float:
    return mean_page_scores([score.bag_of_words for score in scores]).f1


def summarise(extractor: str, scores: Sequence[PageScore], *, bootstrap: int = 300) -> Summary:
    """Aggregate page scores: shingle and character scores as the article benchmark does (mean
    page precision and recall, F1 of the means), bag-of-words as the mean and median page F1
    (the boilerpipe paper's µ and m); standard errors from ``bootstrap`` page resamples."""
    shingle = benchmark_scores([score.shingle for score in scores])
    characters = benchmark_scores([score.characters for score in scores])
    bow_f1s = [page_f1(score.bag_of_words) for score in scores]
    return Summary(
        extractor=extractor,
        pages=len(scores),
        errors=sum(score.error for score in scores),
        shingle_precision=shingle.precision,
        shingle_recall=shingle.recall,
        shingle_f1=shingle.f1,
        shingle_f1_se=bootstrap_se(scores, _shingle_f1, samples=bootstrap),
        bow_f1_mean=statistics.fmean(bow_f1s) if bow_f1s else 0.0,
        bow_f1_median=statistics.median(bow_f1s) if bow_f1s else 0.0,
        bow_f1_se=bootstrap_se(scores, _bow_f1, samples=bootstrap),
        char_precision=characters.precision,
        char_recall=characters.recall,
        char_f1=characters.f1,
        with_rate=_mean(score.with_rate for score in scores),
        without_rate=_mean(score.without_rate for score in scores),
    )


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def quality_table(rows: Sequence[Summary], *, snippets: bool = True) -> str:
    """Markdown table of summaries, best shingle F1 first."""
    header = [
        "extractor",
        "pages",
        "shingle P",
        "shingle R",
        "shingle F1 ± SE",
        "BoW F1 µ ± SE",
        "BoW F1 m",
        "char P",
        "char R",
        "char F1",
    ]
    if snippets:
        header += ["with", "without"]
    header.append("errors")
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in sorted(rows, key=lambda r: -r.shingle_f1):
        cells = [
            f"`{row.extractor}`",
            str(row.pages),
            _fmt(row.shingle_precision),
            _fmt(row.shingle_recall),
            f"{row.shingle_f1:.3f} ± {row.shingle_f1_se:.3f}",
            f"{row.bow_f1_mean:.3f} ± {row.bow_f1_se:.3f}",
            _fmt(row.bow_f1_median),
            _fmt(row.char_precision),
            _fmt(row.char_recall),
            _fmt(row.char_f1),
        ]
        if snippets:
            cells += [_fmt(row.with_rate), _fmt(row.without_rate)]
        cells.append(str(row.errors))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def type_table(
    scores_by_extractor: Mapping[str, Sequence[PageScore]],
    metric: Callable[[Sequence[PageScore]], float] = _shingle_f1,
) -> str:
    """Markdown table: one row per extractor, one column per page type (``metric``, default
    shingle F1), with the page count of each type in the header."""
    counts: dict[str, int] = {}
    for score in next(iter(scores_by_extractor.values()), []):
        counts[score.page_type or "?"] = counts.get(score.page_type or "?", 0) + 1
    types = sorted(counts, key=lambda t: (-counts[t], t))
    header = ["extractor"] + [f"{t} ({counts[t]})" for t in types]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for name, scores in scores_by_extractor.items():
        cells = [f"`{name}`"]
        for page_type in types:
            subset = [s for s in scores if (s.page_type or "?") == page_type]
            cells.append(_fmt(metric(subset)))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)
