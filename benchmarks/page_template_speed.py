#!/usr/bin/env python
"""Per-page time of ``page-template`` beside ``article`` (same pages, same run); digests of
page-template's intermediate values.

The pages: the first 500 of WCXB-dev (id order; ``--limit``, ``--dataset``). Each page is
decoded to ``str`` first (not timed); then both extractors run on it one after the other (the
order alternates from page to page, so a busy machine slows both alike), each call bracketed by
``time.perf_counter()`` (parsing included). The first page is run once untimed (imports, model
loading).

``--stages`` then times page-template's stages on the same pages, in a second pass: parse,
segmentation, node table, visible tree (areas, folding), feature rows, scores, smoothing and
block owners (feature rows and scores in one stage, as the filter runs them).
``--digests-out FILE`` writes, per page of every shared dataset (WCXB-dev,
L3S-GN1, CleanEval dev and final), a digest of every intermediate value (node table columns,
areas, visible tree, feature rows, raw and smoothed scores, block owners) and of the blocks'
scores and decisions; ``--digests-check FILE`` compares with such a file: proof that a
speed-up changed no value. Floats enter the digests by ``repr`` (exact).

    python benchmarks/page_template_speed.py --stages --digests-out /tmp/pt-before.json
    python benchmarks/page_template_speed.py --digests-check /tmp/pt-before.json
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from stage_clock import StageClock

from scrapy_boilerplate import BoilerplateError, get_extractor
from scrapy_boilerplate.classifiers.template import (
    PageNodes,
    load_template_model,
    node_weights,
    page_nodes,
    page_template_scores,
    smoothed_scores,
    template_scores,
)
from scrapy_boilerplate.evaluation.datasets import DATASETS_ENV, load_pages, resolve_dataset
from scrapy_boilerplate.evaluation.report import page_text
from scrapy_boilerplate.features.nodes import areas, block_owners, fold_hidden, node_table
from scrapy_boilerplate.model import labels as L
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import segment

REPO = Path(__file__).resolve().parents[1]
DATASETS_ROOT = Path(os.environ.get(DATASETS_ENV) or REPO.parent / "shared" / "datasets")
os.environ[DATASETS_ENV] = str(DATASETS_ROOT)
#: Datasets whose every page enters the digests.
DIGEST_DATASETS: tuple[str, ...] = ("wcxb-dev", "l3s-gn1", "cleaneval/dev", "cleaneval/final")
_TABLE_COLUMNS: tuple[str, ...] = (
    "parent", "depth", "chars", "words", "anchor_chars", "anchor_words", "links",
    "internal_links", "images", "inputs", "title_words", "html_bytes", "first_char", "last_char",
)  # fmt: skip


def sample_pages(name: str, limit: int | None) -> Iterator[tuple[str, str, str | None]]:
    """(page id, decoded html, url) of the first ``limit`` pages of a dataset."""
    for page in load_pages(resolve_dataset(name), limit=limit):
        yield f"{name}/{page.id}", page_text(page), page.url


def stage_times(html: str, url: str | None) -> dict[str, float]:
    """Seconds of each of page-template's stages on one page (the filter's steps one by one)."""
    model = load_template_model("")
    timed = StageClock()

    root = timed("parse", lambda: parse_html(html))
    doc = timed("segment", lambda: segment(root, url=url))
    keep_hidden = any(L.HIDDEN in block.labels for block in doc.blocks)
    table = timed(
        "node table", lambda: node_table(doc.root, doc.url, doc.title, keep_hidden=keep_hidden)
    )
    area = timed("areas", lambda: areas(table))
    tree = timed("fold", lambda: fold_hidden(table, area))
    nodes = PageNodes(table, area, tree, owners=[])
    scores = timed("rows+scores", lambda: page_template_scores(model, nodes))
    visible_area = [area[i] for i in tree.nodes]
    visible_words = [table.words[i] for i in tree.nodes]
    weights = node_weights(tree.weight, visible_words, "words")
    timed(
        "smoothing",
        lambda: smoothed_scores(tree.parent, scores, weights, visible_area, c=0.01, levels=64),
    )
    timed("owners", lambda: block_owners(table, tree, doc.blocks))
    return timed.times


def value_digest(html: str, url: str | None) -> str:
    """A digest of every intermediate value of page-template on one page, and of its output."""
    nodes = page_nodes(segment(parse_html(html), url=url))
    table, area, tree, rows, owners = nodes.table, nodes.area, nodes.tree, nodes.rows, nodes.owners
    scores = template_scores(load_template_model(""), rows)
    weights = node_weights(tree.weight, nodes.visible_words, "words")
    smoothed = (
        smoothed_scores(tree.parent, scores, weights, nodes.visible_area, c=0.01, levels=64)
        if scores
        else []
    )
    parts = [
        str(table.title_vocabulary),
        ",".join(element.tag for element in table.elements),
        *(f"{name}={getattr(table, name)!r}" for name in _TABLE_COLUMNS),
        repr(area),
        repr((tree.nodes, tree.parent, tree.weight, tree.owner)),
        repr(rows),
        repr(scores),
        repr(smoothed),
        repr(owners),
    ]
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:16]


def output_digest(result: Any) -> str:
    """A digest of a result's title, text and blocks' scores and decisions."""
    parts = [result.title or "", result.text]
    parts += [f"{block.score!r}{block.is_content}" for block in result.blocks]
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:16]


def all_digests() -> dict[str, str]:
    """Page id -> intermediate-value digest and output digest, on every shared page."""
    extractor = get_extractor("page-template")
    digests = {}
    for name in DIGEST_DATASETS:
        for page_id, html, url in sample_pages(name, None):
            try:
                values = value_digest(html, url)
                output = output_digest(extractor.extract(html, url))
            except BoilerplateError as exc:
                values = output = type(exc).__name__
            digests[page_id] = f"{values} {output}"
    return digests


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--limit", type=int, default=500, help="first N pages of the dataset")
    parser.add_argument(
        "--dataset", default="wcxb-dev", choices=DIGEST_DATASETS, help="the pages timed"
    )
    parser.add_argument("--stages", action="store_true", help="also time the stages")
    parser.add_argument("--no-timing", action="store_true", help="digests only")
    parser.add_argument("--digests-out", type=Path, help="write per-page value digests")
    parser.add_argument("--digests-check", type=Path, help="compare with recorded digests")
    args = parser.parse_args(argv)
    if not args.no_timing:
        time_extractors(args.dataset, args.limit, args.stages)
    if not (args.digests_out or args.digests_check):
        return 0
    digests = all_digests()
    if args.digests_out:
        args.digests_out.write_text(json.dumps(digests, indent=0, sort_keys=True), "utf-8")
        print(f"{len(digests)} page digests written to {args.digests_out}")
    if args.digests_check:
        expected = json.loads(args.digests_check.read_text(encoding="utf-8"))
        changed = sorted(
            k for k in set(expected) | set(digests) if expected.get(k) != digests.get(k)
        )
        for page_id in changed[:20]:
            print(f"CHANGED: {page_id}", file=sys.stderr)
        print(f"{len(changed)} of {len(digests)} page digests differ from {args.digests_check}")
        return 1 if changed else 0
    return 0


def time_extractors(dataset: str, limit: int, stages: bool) -> None:
    """Print article's and page-template's per-page medians (and page-template's stages)."""
    extractors = {name: get_extractor(name) for name in ("page-template", "article")}
    seconds: dict[str, list[float]] = {name: [] for name in extractors}
    pages = list(sample_pages(dataset, limit))
    for number, (_, html, url) in enumerate(pages):
        if number == 0:
            for extractor in extractors.values():
                extractor.extract(html, url)
        order = list(extractors) if number % 2 == 0 else list(reversed(extractors))
        for name in order:
            start = time.perf_counter()
            with contextlib.suppress(BoilerplateError):
                extractors[name].extract(html, url)
            seconds[name].append(time.perf_counter() - start)
    print(f"{len(pages)} pages (first {limit} of {dataset})")
    for name, values in seconds.items():
        ordered = sorted(values)
        p95 = ordered[int(0.95 * (len(ordered) - 1))]
        print(
            f"{name:<14} median {1000 * statistics.median(values):6.2f} ms  "
            f"mean {1000 * statistics.fmean(values):6.2f} ms  p95 {1000 * p95:6.2f} ms"
        )
    ratio = statistics.median(seconds["page-template"]) / statistics.median(seconds["article"])
    print(f"page-template / article (ratio of medians) {ratio:.2f}")
    if not stages:
        return
    per_stage: dict[str, list[float]] = {}
    for _, html, url in pages:
        try:
            for stage, value in stage_times(html, url).items():
                per_stage.setdefault(stage, []).append(value)
        except BoilerplateError:
            continue
    print("page-template stages:")
    for stage, values in per_stage.items():
        print(
            f"  {stage:<11} median {1000 * statistics.median(values):6.2f} ms  "
            f"mean {1000 * statistics.fmean(values):6.2f} ms"
        )


if __name__ == "__main__":
    sys.exit(main())
