#!/usr/bin/env python
"""Where the learned ``article`` spends a page: median milliseconds per stage, and the whole
``extract()`` against the bare lxml parse of the same pages.

    python benchmarks/stage_profile.py --limit 250 --datasets wcxb-dev fundus

Per page (decoded to ``str`` first, not timed, as ``run_benchmarks.py`` does): the bare
``lxml.html.document_fromstring``, then ``extract()`` with the stage clocks off (the *total*
and the *ratio to parse*), then ``extract()`` again with every stage of :data:`STAGES` timed
(``--repeat N``: the page's fastest of N runs; its stages from its fastest timed run). A
stage's time is exclusive: the time of the stages it calls is not counted twice (``other`` is
what no listed stage covers: the chain factory, the result, freeing the tree, glue). Times are
``time.perf_counter`` seconds (``--cpu``: the thread's CPU time, ``time.thread_time``, which
time spent waiting for a CPU on a shared machine does not inflate), one page at a time in one
thread; report medians. ``--memory`` adds a pass (after the timed ones, untimed) that reports the
Python heap a page's ``extract()`` takes at its peak, by ``tracemalloc`` (libxml2's tree is
allocated outside Python's heap and is not counted), and the page sizes.
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import lxml.html

REPO = Path(__file__).resolve().parents[1]
os.environ.setdefault("BOILERPLATE_DATASETS", str(REPO.parent / "shared" / "datasets"))

from scrapy_boilerplate import get_extractor  # noqa: E402
from scrapy_boilerplate.evaluation.datasets import load_pages  # noqa: E402
from scrapy_boilerplate.evaluation.report import page_text  # noqa: E402

#: (stage, module, attribute): a module-level function (where the caller looks it up) or a
#: ``Class.__call__`` or a compiled twin's function (``_twin.name``), in the order a page
#: meets them.
_RAW = "raw-text passes (UTF-8, noscript, crowded tags)"
_PARSING = "scrapy_boilerplate.page.parsing"
STAGES: tuple[tuple[str, str, str], ...] = (
    ("libxml2 parse", "scrapy_boilerplate.extractors.base", "parse_html"),
    (_RAW, _PARSING, "_prepare"),
    (_RAW, _PARSING, "_utf8_of"),
    (_RAW, _PARSING, "resolve_noscript"),
    (_RAW, _PARSING, "cap_crowded_tags"),
    ("segmentation walk", "scrapy_boilerplate.page.segmentation", "_speedups.walk"),
    ("segmentation blocks", "scrapy_boilerplate.page.segmentation", "_speedups.build_blocks"),
    ("segmentation (rest)", "scrapy_boilerplate.extractors.base", "segment"),
    ("headline finder", "scrapy_boilerplate.extractors.builtin", "find_title"),
    ("declarations", "scrapy_boilerplate.page.declarations", "_declarations_of"),
    ("rule decisions", "scrapy_boilerplate.classifiers.features", "rule_decisions"),
    ("metadata texts", "scrapy_boilerplate.classifiers.features", "page_texts"),
    (
        "feature matrix (text, rules, metadata)",
        "scrapy_boilerplate.classifiers.features",
        "_features.feature_matrix",
    ),
    ("structure features", "scrapy_boilerplate.classifiers.features", "structure_into"),
    ("page type", "scrapy_boilerplate.classifiers.page_type", "PageTypeClassifier.__call__"),
    ("trees", "scrapy_boilerplate.classifiers.learned", "predict_proba"),
    ("ScoreGapFilter", "scrapy_boilerplate.filters.scores", "ScoreGapFilter.__call__"),
    ("CommentRegionFilter", "scrapy_boilerplate.filters.regions", "CommentRegionFilter.__call__"),
    (
        "CommentSectionFilter",
        "scrapy_boilerplate.filters.comment_sections",
        "CommentSectionFilter.__call__",
    ),
    (
        "NewsConventionsFilter",
        "scrapy_boilerplate.filters.conventions",
        "NewsConventionsFilter.__call__",
    ),
    ("ScoreGroupFilter", "scrapy_boilerplate.filters.scores", "ScoreGroupFilter.__call__"),
    ("DropHeadlineFilter", "scrapy_boilerplate.filters.regions", "DropHeadlineFilter.__call__"),
    ("result title", "scrapy_boilerplate.extractors.base", "article_title"),
    ("result text + comments", "scrapy_boilerplate.extractors.base", "article_text"),
    ("result text + comments", "scrapy_boilerplate.extractors.base", "comments_text"),
)
OTHER = "other (chain, result, glue)"


#: The clock of every figure (``--cpu`` sets ``time.thread_time``).
now: Callable[[], float] = time.perf_counter


class Clock:
    """Exclusive seconds per stage of the current page."""

    def __init__(self) -> None:
        self.times: dict[str, float] = {}
        self.active = True
        self._stack: list[float] = []  # seconds of nested stages, per open stage

    def wrap(self, stage: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            if not self.active:
                return function(*args, **kwargs)
            self._stack.append(0.0)
            start = now()
            try:
                return function(*args, **kwargs)
            finally:
                spent = now() - start
                nested = self._stack.pop()
                self.times[stage] = self.times.get(stage, 0.0) + spent - nested
                if self._stack:
                    self._stack[-1] += spent

        return timed


def instrument(clock: Clock) -> None:
    """Wrap every stage of :data:`STAGES` with ``clock`` (for the rest of the process)."""
    for stage, module_name, attribute in STAGES:
        module = importlib.import_module(module_name)
        if not hasattr(module, attribute.split(".")[0]):  # another version of the package
            continue
        owner: Any = module
        name = attribute
        if "." in attribute:
            owner_name, name = attribute.split(".")
            owner = getattr(module, owner_name)
            if owner is None:  # a compiled twin that is not built: the stage is not timed
                continue
        setattr(owner, name, clock.wrap(stage, getattr(owner, name)))


def pages(datasets: list[str], limit: int) -> Iterator[tuple[str, str | None]]:
    for name in datasets:
        for page in load_pages(name, limit=limit):
            yield page_text(page), page.url


def _ms(values: list[float]) -> str:
    return f"{1000 * statistics.median(values):.3f}" if values else "-"


def _page_times(
    extractor: Any, clock: Clock, html: str, url: str | None
) -> tuple[float, float, dict[str, float]]:
    """Seconds of the lxml parse, of ``extract()`` with the clock off, and per stage."""
    start = now()
    lxml.html.document_fromstring(html)
    parse = now() - start
    clock.active = False
    start = now()
    extractor.extract(html, url)
    total = now() - start
    clock.active, clock.times = True, {}
    start = now()
    extractor.extract(html, url)
    staged = now() - start
    clock.times[OTHER] = staged - sum(clock.times.values())
    return parse, total, clock.times


def _memory(extractor: Any, loaded: list[tuple[str, str | None]]) -> None:
    """Print the median and p99 of the peak Python heap of one page's ``extract()``."""
    peaks = []
    tracemalloc.start()
    try:
        for html, url in loaded:
            tracemalloc.reset_peak()
            before = tracemalloc.get_traced_memory()[0]
            extractor.extract(html, url)
            peaks.append(tracemalloc.get_traced_memory()[1] - before)
    finally:
        tracemalloc.stop()
    sizes = [len(html.encode("utf-8")) for html, _ in loaded]
    print(
        f"peak Python heap of extract() per page (tracemalloc, libxml2's tree not counted): "
        f"median {_kib(peaks)} KiB, p99 {_kib(peaks, 99)} KiB; "
        f"page size median {_kib(sizes)} KiB, p99 {_kib(sizes, 99)} KiB"
    )


def _kib(values: list[int], percentile: int = 50) -> str:
    if percentile == 50 or len(values) < 2:
        value = statistics.median(values)
    else:
        value = statistics.quantiles(values, n=100)[percentile - 1]
    return f"{value / 1024:.0f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", nargs="+", default=["wcxb-dev", "fundus"])
    parser.add_argument("--limit", type=int, default=250, help="first N pages of each dataset")
    parser.add_argument("--extractor", default="article")
    parser.add_argument(
        "--repeat", type=int, default=1, help="runs per page; each figure is the page's fastest"
    )
    parser.add_argument(
        "--memory", action="store_true", help="also the peak Python heap per page (tracemalloc)"
    )
    parser.add_argument(
        "--cpu", action="store_true", help="time with the thread's CPU clock (shared machines)"
    )
    args = parser.parse_args()
    if args.cpu:
        global now
        now = time.thread_time
    clock = Clock()
    instrument(clock)  # first: the chain built with the extractor holds the timed functions
    extractor = get_extractor(args.extractor)
    samples: dict[str, list[float]] = {}
    floor, totals, ratios = [], [], []
    loaded = list(pages(args.datasets, args.limit))
    extractor.extract(*loaded[0])  # warm-up (imports, model load)
    for html, url in loaded:
        runs = [_page_times(extractor, clock, html, url) for _ in range(args.repeat)]
        parse, total = min(run[0] for run in runs), min(run[1] for run in runs)
        fastest = min((run[2] for run in runs), key=lambda times: sum(times.values()))
        for stage, seconds in fastest.items():
            samples.setdefault(stage, []).append(seconds)
        floor.append(parse)
        totals.append(total)
        ratios.append(total / parse)
    count = len(loaded)
    order = [*dict.fromkeys(stage for stage, _, _ in STAGES), OTHER]
    print(
        f"{count} pages ({', '.join(args.datasets)}, first {args.limit} of each), "
        f"fastest of {args.repeat} run(s) per page, "
        f"{'thread CPU time' if args.cpu else 'wall-clock time'}\n"
    )
    print("| stage | median ms | mean ms | share of mean total |")
    print("|---|---:|---:|---:|")
    mean_total = statistics.fmean(totals)
    for stage in order:
        values = samples.get(stage, [])
        values += [0.0] * (count - len(values))  # pages that skipped the stage
        mean = statistics.fmean(values)
        print(f"| {stage} | {_ms(values)} | {1000 * mean:.3f} | {100 * mean / mean_total:.0f}% |")
    print(f"| **extract() total** | {_ms(totals)} | {1000 * mean_total:.3f} | 100% |")
    print(f"| lxml parse (floor) | {_ms(floor)} | {1000 * statistics.fmean(floor):.3f} | |")
    p99 = statistics.quantiles(totals, n=100)[98] if count > 1 else totals[0]
    print(f"\nmedian per-page ratio to the lxml parse: {statistics.median(ratios):.2f}")
    print(f"p99 of extract(): {1000 * p99:.1f} ms")
    if args.memory:
        clock.active = False
        _memory(extractor, loaded)
    return 0


if __name__ == "__main__":
    sys.exit(main())
