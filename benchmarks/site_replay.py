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
class SiteFigures:
    site: str
    pages: int
    first: float  # page 1 (never any state)
    late_pages: int
    late_alone: float
    late_with: dict[str, float]  # per variant


def site_figures(rows: list[ReplayPage], late: int, variants: Sequence[str]) -> SiteFigures:
    late_rows = [row for row in rows if row.position >= late]
    return SiteFigures(
        rows[0].site if rows else "-",
        len(rows),
        _f1([row for row in rows if row.position == 1], _alone),
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
    whole = site_figures(rows, late, variants)
    sites = [site_figures(group, late, variants) for group in by_site.values()]
    sites = [figures for figures in sites if figures.late_pages]
    cells = [
        f"{whole.late_with[v]:.3f} ({whole.late_with[v] - whole.late_alone:+.4f})" for v in variants
    ]
    worst = []
    for variant in variants:
        gains = [(f.late_with[variant] - f.late_alone, f.site) for f in sites]
        worst.append(f"{min(gains)[1]} ({min(gains)[0]:+.4f})" if gains else "-")
    first = _f1([row for row in rows if row.position == 1], _alone)
    summary = (
        f"| {name} | {len(by_site)} | {len(rows)} | {first:.3f} | {whole.late_pages} |"
        f" {whole.late_alone:.3f} | " + " | ".join(cells) + " | " + " | ".join(worst) + " |"
    )
    site_rows = [
        f"| {name} | {f.site} | {f.pages} | {f.first:.3f} | {f.late_pages} | {f.late_alone:.3f} | "
        + " | ".join(
            f"{f.late_with[v]:.3f} ({f.late_with[v] - f.late_alone:+.4f})" for v in variants
        )
        + " |"
        for f in sites
    ]
    return summary, site_rows


def markdown(
    results: dict[str, list[ReplayPage]], min_pages: int, variants: Sequence[str], command: str
) -> str:
    late = min_pages + 1
    head = [
        "## Site templates: crawl replay",
        "",
        f"Generated {datetime.now(UTC):%Y-%m-%d} by `{command}` on {platform.machine()},"
        f" Python {platform.python_version()}. Each site's pages extracted in order by the"
        f" learned `article` with the site state of the pages before it (templates used from"
        f" page {late}: `BOILERPLATE_SITE_MIN_PAGES` = {min_pages}) and without it; word-shingle"
        " F1 (benchmark aggregation). `penalty p`: `article:site_templates=true,"
        "template_penalty=p` (a block inside a site template loses p of its score before the"
        " threshold; 1 drops every such block).",
        "",
        f"| set | sites | pages | F1 page 1 | pages >= {late} | F1 alone | "
        + " | ".join(f"F1 `{v}` (gain)" for v in variants)
        + " | "
        + " | ".join(f"worst site `{v}`" for v in variants)
        + " |",
        "|---|---:|---:|---:|---:|---:|" + "---:|" * len(variants) + "---|" * len(variants),
    ]
    per_site = [
        "",
        f"Per site (sites with pages >= {late}):",
        "",
        f"| set | site | pages | F1 page 1 | pages >= {late} | F1 alone | "
        + " | ".join(f"F1 `{v}` (gain)" for v in variants)
        + " |",
        "|---|---|---:|---:|---:|---:|" + "---:|" * len(variants),
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
