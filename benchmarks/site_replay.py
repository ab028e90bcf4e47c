"""Site templates replayed as a crawl on every shared set with several pages per site.

    python benchmarks/site_replay.py [--write] [--min-pages 4] [--sets l3s-gn1 fundus ...]

Each site's pages are extracted in order by the learned ``article`` with the site state of the
pages before (the crawl's learner, in memory, ``BOILERPLATE_SITE_MIN_PAGES`` = ``--min-pages``:
templates are used from page min-pages + 1) and without it (:mod:`reproduce.sitelevel`).
Sets (``../shared/datasets`` or ``$BOILERPLATE_DATASETS``; a missing one is left out):

* ``l3s-gn1``: sites with at least 5 pages, full-text gold (headline and full text);
* ``fundus``: publishers (hosts) with at least 2 pages;
* ``magic-html``: hosts with at least 2 pages;
* ``demo``: the example project's three news sites (listing and static pages learnt from
  first, as a crawl that extracts every page meets them first; article pages scored in
  generation order); ``demo-articles``: the same article pages, nothing else learnt (as a
  ``BOILERPLATE_EXTRACT = "auto"`` crawl, where listing callbacks never ask for the article).

Word-shingle F1 (benchmark aggregation) of page 1, of pages from the first one that can carry
templates on (min-pages + 1), per set and per site; the worst site named. ``--write``
replaces the ``site-replay`` section of ``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from reproduce.sitelevel import (
    MIN_PAGES,
    ReplayPage,
    demo_sites,
    replay_site,
    sites_of,
)

from scrapy_boilerplate import Extractor, get_extractor
from scrapy_boilerplate.evaluation.datasets import FULL_TEXT_SUFFIX, load_pages
from scrapy_boilerplate.evaluation.metrics import Counts, benchmark_scores
from scrapy_boilerplate.extractors.builtin import TEMPLATE_PENALTY

REPO = Path(__file__).resolve().parents[1]
DATASETS = REPO.parent / "shared" / "datasets"
SETS = ("l3s-gn1", "fundus", "magic-html", "demo", "demo-articles")
#: The fewest pages of a site in each set's replay.
MIN_SITE_PAGES = {"l3s-gn1": 5, "fundus": 2, "magic-html": 2}
#: The state variants measured by default: ``template_penalty`` values (1 = the hard drop).
PENALTIES = (TEMPLATE_PENALTY, 1.0)

Scored = tuple[bytes, str | None, str | None]
Learnt = tuple[bytes, str | None]


@dataclass
class ReplaySet:
    name: str
    sites: dict[str, list[Scored]]
    learn_from: dict[str, list[Learnt]] = field(default_factory=dict)


def load_set(name: str, root: Path) -> ReplaySet | None:
    """The sites of one set (None when its data is missing)."""
    if name.startswith("demo"):
        scored, learnt = demo_sites()
        return ReplaySet(name, scored, learnt if name == "demo" else {})
    if not (root / name).is_dir():
        return None
    path = f"{root / name}{FULL_TEXT_SUFFIX}" if name == "l3s-gn1" else root / name
    sites = sites_of(load_pages(path), MIN_SITE_PAGES[name])
    return ReplaySet(
        name, {site: [(p.html, p.url, p.gold_text) for p in pages] for site, pages in sites.items()}
    )


def replay_set(
    replay: ReplaySet, min_pages: int, variants: dict[str, Extractor]
) -> list[ReplayPage]:
    rows: list[ReplayPage] = []
    for site, pages in replay.sites.items():
        learnt = replay.learn_from.get(site, [])
        rows += replay_site(site, pages, min_pages, learnt, "article", variants)
        print(f"  {replay.name}: {site} ({len(pages)} pages)", file=sys.stderr)
    return rows


def _f1(rows: Sequence[ReplayPage], counts: Callable[[ReplayPage], Counts]) -> float:
    return benchmark_scores([counts(row) for row in rows]).f1 if rows else float("nan")


def _alone(row: ReplayPage) -> Counts:
    return row.without_state


def _state(variant: str) -> Callable[[ReplayPage], Counts]:
    return lambda row: row.with_states[variant]


@dataclass(frozen=True)
class Figures:
    """F1 of one site or set: page 1 and pages from ``late``, alone and per variant."""

    pages: int
    first_alone: float
    first_with: dict[str, float]
    late_pages: int
    late_alone: float
    late_with: dict[str, float]

    def late_gain(self, variant: str) -> float:
        return self.late_with[variant] - self.late_alone

    def first_cells(self, variants: Sequence[str]) -> str:
        """Page 1 alone / with each variant."""
        return " / ".join(f"{f:.3f}" for f in [self.first_alone, *self.first_with.values()])

    def late_cells(self, variants: Sequence[str]) -> list[str]:
        if not self.late_pages:
            return ["-"] * (1 + len(variants))
        with_state = [f"{self.late_with[v]:.3f} ({self.late_gain(v):+.4f})" for v in variants]
        return [f"{self.late_alone:.3f}", *with_state]


def figures(rows: list[ReplayPage], late: int, variants: Sequence[str]) -> Figures:
    first = [row for row in rows if row.position == 1]
    late_rows = [row for row in rows if row.position >= late]
    return Figures(
        len(rows),
        _f1(first, _alone),
        {name: _f1(first, _state(name)) for name in variants},
        len(late_rows),
        _f1(late_rows, _alone),
        {name: _f1(late_rows, _state(name)) for name in variants},
    )


def set_markdown(
    name: str, rows: list[ReplayPage], late: int, variants: Sequence[str]
) -> tuple[str, list[str]]:
    """The set's summary row and its per-site rows (sites with pages from ``late``)."""
    by_site: dict[str, list[ReplayPage]] = defaultdict(list)
    for row in rows:
        by_site[row.site].append(row)
    whole = figures(rows, late, variants)
    sites = {site: figures(group, late, variants) for site, group in by_site.items()}
    late_sites = {site: f for site, f in sites.items() if f.late_pages}
    worst = []
    for variant in variants:
        gains = sorted((f.late_gain(variant), site) for site, f in late_sites.items())
        worst.append(f"{gains[0][1]} ({gains[0][0]:+.4f})" if gains else "-")
    most = max((f.pages for f in sites.values()), default=0)
    cells = [name, str(len(by_site)), f"{len(rows)} ({most})", whole.first_cells(variants)]
    summary = "| " + " | ".join(
        [*cells, str(whole.late_pages), *whole.late_cells(variants), *worst]
    )
    site_rows = [
        "| "
        + " | ".join(
            [
                name,
                site,
                str(f.pages),
                f.first_cells(variants),
                str(f.late_pages),
                *f.late_cells(variants),
            ]
        )
        + " |"
        for site, f in late_sites.items()
    ]
    return summary + " |", site_rows


def markdown(
    results: dict[str, list[ReplayPage]], min_pages: int, variants: Sequence[str], command: str
) -> str:
    late = min_pages + 1
    first = " / ".join(["alone", *(f"`{v}`" for v in variants)])
    late_heads = ["F1 alone", *(f"F1 `{v}` (gain)" for v in variants)]
    head = [
        "## Site templates: crawl replay",
        "",
        f"Generated {datetime.now(UTC):%Y-%m-%d} by `{command}` on {platform.machine()},"
        f" Python {platform.python_version()}. Each site's pages extracted in order by the"
        f" learned `article` with the site state of the pages before it (templates used from"
        f" page {late}: `BOILERPLATE_SITE_MIN_PAGES` = {min_pages}) and without it; word-shingle"
        " F1 (benchmark aggregation). `penalty p`: `article:site_templates=true,"
        "template_penalty=p` (a block inside a site template is dropped unless its score minus"
        " p still reaches the threshold; 1 drops every such block). Page 1 carries templates"
        " only where other pages of the site were learnt first (`demo`: its listing pages).",
        "",
        "| "
        + " | ".join(
            ["set", "sites", "pages (most per site)", f"F1 page 1: {first}", f"pages >= {late}"]
            + late_heads
            + [f"worst site `{v}`" for v in variants]
        )
        + " |",
        "|---|---:|---:|---:|---:|" + "---:|" * len(late_heads) + "---|" * len(variants),
    ]
    per_site = [
        "",
        f"Per site (sites with pages >= {late}):",
        "",
        "| "
        + " | ".join(["set", "site", "pages", f"F1 page 1: {first}", f"pages >= {late}"])
        + " | "
        + " | ".join(late_heads)
        + " |",
        "|---|---|---:|---:|---:|" + "---:|" * len(late_heads),
    ]
    for name, rows in results.items():
        summary, site_rows = set_markdown(name, rows, late, variants)
        head.append(summary)
        per_site += site_rows
    return "\n".join(head + per_site)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="+", default=list(SETS), choices=SETS)
    parser.add_argument("--min-pages", type=int, default=MIN_PAGES)
    parser.add_argument("--penalties", nargs="+", type=float, default=list(PENALTIES))
    parser.add_argument("--datasets", type=Path, default=DATASETS)
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    args = parser.parse_args(argv)
    variants = {
        f"penalty {penalty:g}": get_extractor(
            "article", site_templates=True, template_penalty=penalty
        )
        for penalty in args.penalties
    }
    results: dict[str, list[ReplayPage]] = {}
    started = time.time()
    for name in args.sets:
        replay = load_set(name, args.datasets)
        if replay is None:
            print(f"{name}: not found under {args.datasets}, left out", file=sys.stderr)
            continue
        results[name] = replay_set(replay, args.min_pages, variants)
        print(f"{name} done at {time.time() - started:.0f}s", file=sys.stderr)
    command = "python benchmarks/site_replay.py " + " ".join(argv or sys.argv[1:])
    text = markdown(results, args.min_pages, list(variants), command.strip())
    print(text)
    if args.write:
        from run_benchmarks import replace_section

        doc = REPO / "docs" / "benchmarks.md"
        doc.write_text(replace_section(doc.read_text("utf-8"), "site-replay", text), "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
