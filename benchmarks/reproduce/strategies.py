"""Reproduction of Kohlschütter et al. 2010, Figure 2b: token-level strategies on GoogleNews.

Each named extractor runs on the *original* L3S-GN1 pages; its text is compared with the gold
text (headline, full text, supplemental, comments) by bag-of-words precision/recall/F1 per page
(:func:`scrapy_boilerplate.evaluation.metrics.bag_of_words_counts`); µ = mean, m = median of
page F1. A page the extractor cannot parse scores F1 = 0.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from scrapy_boilerplate.errors import BoilerplateError
from scrapy_boilerplate.evaluation.datasets import Page
from scrapy_boilerplate.evaluation.metrics import bag_of_words_counts, page_f1
from scrapy_boilerplate.extractors import available_extractors, get_extractor

#: (label, extractor name, options, paper strategy, paper µ, paper m) — paper values Fig. 2b.
STRATEGIES: list[tuple[str, str, dict[str, object], str, float, float]] = [
    ("keep-everything", "keep-everything", {}, "Baseline (keep everything)", 68.30, 70.60),
    (
        "keep-everything-min-words (10)",
        "keep-everything-min-words",
        {"min_words": 10},
        "Keep everything with >= 10 words",
        80.78,
        85.10,
    ),
    ("numwords", "numwords", {}, "NumWords/LinkDensity classifier", 91.08, 95.87),
    ("density", "density", {}, "Densitometric classifier", 90.61, 95.56),
    (
        "largest-content",
        "largest-content",
        {},
        "NumWords/LinkDensity + Largest Content Filter",
        92.17,
        97.65,
    ),
    (
        "boilerpipe-article",
        "boilerpipe-article",
        {},
        "NumWords/LinkDensity + Main Content Filter",
        95.93,
        98.66,
    ),
    ("article (product default)", "article", {}, "(not in the paper)", float("nan"), float("nan")),
]


@dataclass(frozen=True)
class StrategyResult:
    label: str
    paper_strategy: str
    mean_f1: float
    median_f1: float
    paper_mean: float
    paper_median: float
    failures: int


def run_strategies(pages: list[Page]) -> list[StrategyResult]:
    """Score every available strategy on ``pages`` (percent)."""
    results = []
    names = set(available_extractors())
    for label, name, options, paper_name, paper_mean, paper_median in STRATEGIES:
        if name not in names:
            continue
        extractor = get_extractor(name, **options)
        f1s: list[float] = []
        failures = 0
        for page in pages:
            try:
                text = extractor.extract(page.html, page.url).text
            except BoilerplateError:
                failures += 1
                text = ""
            f1s.append(page_f1(bag_of_words_counts(page.gold_text, text)))
        results.append(
            StrategyResult(
                label,
                paper_name,
                100 * statistics.fmean(f1s),
                100 * statistics.median(f1s),
                paper_mean,
                paper_median,
                failures,
            )
        )
    return results


def strategies_markdown(results: list[StrategyResult]) -> str:
    lines = [
        "| Extractor | Paper strategy | µ F1 | paper µ | m F1 | paper m | unparsable pages |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        paper_mean = "" if r.paper_mean != r.paper_mean else f"{r.paper_mean:.2f}"
        paper_median = "" if r.paper_median != r.paper_median else f"{r.paper_median:.2f}"
        lines.append(
            f"| {r.label} | {r.paper_strategy} | {r.mean_f1:.2f} | {paper_mean} | "
            f"{r.median_f1:.2f} | {paper_median} | {r.failures} |"
        )
    return "\n".join(lines)
