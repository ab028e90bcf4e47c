#!/usr/bin/env python
"""Per-page time of ``victor`` beside ``article`` (same pages, same run); victor's output digests.

The pages: the first 300 of WCXB-dev, 150 of L3S-GN1 and 150 of CleanEval final (id order).
Each page is decoded to ``str`` first (not timed); then both extractors run on it one after the
other (the order alternates from page to page, so a busy machine slows both alike), each call
bracketed by ``time.perf_counter()`` (parsing included). The first page is run once untimed
(imports, model loading).

``--stages`` then times victor's stages on the same pages, in a second pass with victor's
text caches emptied first: parse, Victor's split, features, tagging (attribute ids, scores,
Viterbi), segment assembly. ``--digests-out FILE`` writes, per page, a digest of victor's
result (title; every block's text, labels, content flag, counts and elements);
``--digests-check FILE`` compares with such a file: proof that a speed-up changed no output.

    python benchmarks/victor_speed.py                      # medians, p95
    python benchmarks/victor_speed.py --stages --digests-out /tmp/victor-before.json
"""

from __future__ import annotations

import argparse
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
from scrapy_boilerplate.evaluation.datasets import DATASETS_ENV, load_pages, resolve_dataset
from scrapy_boilerplate.evaluation.report import page_text
from scrapy_boilerplate.features import victor as victor_feature_module
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.victor import victor_blocks

REPO = Path(__file__).resolve().parents[1]
DATASETS_ROOT = Path(os.environ.get(DATASETS_ENV) or REPO.parent / "shared" / "datasets")
os.environ[DATASETS_ENV] = str(DATASETS_ROOT)
#: (dataset, pages) measured.
SAMPLE: tuple[tuple[str, int], ...] = (
    ("wcxb-dev", 300),
    ("l3s-gn1", 150),
    ("cleaneval/final", 150),
)


def sample_pages() -> Iterator[tuple[str, str, str | None]]:
    """(page id, decoded html, url) of the sample."""
    for name, limit in SAMPLE:
        for page in load_pages(resolve_dataset(name), limit=limit):
            yield f"{name}/{page.id}", page_text(page), page.url


def result_digest(result: Any) -> str:
    """A digest of a result's title and blocks (text, labels, content flag, counts, elements)."""
    parts = [result.title or ""]
    for b in result.blocks:
        counts = (b.num_words, b.num_linked_words, b.num_wrapped_words, b.num_wrapped_lines)
        paths = [e.getroottree().getpath(e) for e in b.elements]
        facts = (b.num_word_chars, b.tag_level, b.offset_start, paths, b.is_content)
        parts.append(f"{b.text}\x01{','.join(sorted(b.labels))}\x01{counts}{facts}")
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:16]


def clear_text_caches() -> None:
    """Empty the feature module's caches (texts, markup, tokens), as in a fresh process."""
    for name in ("_cached_text_values", "_markup_values", "_token_code", "token_class"):
        getattr(victor_feature_module, name).cache_clear()


def stage_times(html: str, url: str | None) -> dict[str, float]:
    """Seconds of each of victor's stages on one page (the filter's steps, run one by one)."""
    from scrapy_boilerplate.classifiers import victor as victor_classifier
    from scrapy_boilerplate.classifiers.crf import load_victor_model
    from scrapy_boilerplate.features.victor import victor_features

    model = load_victor_model("")
    timed = StageClock()

    root = timed("parse", lambda: parse_html(html))
    blocks = timed("split", lambda: victor_blocks(root))
    rows = timed("features", lambda: victor_features(blocks))
    codes = timed("tagging", lambda: model.tag(rows))
    timed("assembly", lambda: victor_classifier.assemble_segments(blocks, codes))
    return timed.times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--stages", action="store_true", help="also time victor's stages")
    parser.add_argument("--digests-out", type=Path, help="write victor's per-page digests")
    parser.add_argument("--digests-check", type=Path, help="compare with recorded digests")
    args = parser.parse_args(argv)
    extractors = {name: get_extractor(name) for name in ("victor", "article")}
    seconds: dict[str, list[float]] = {name: [] for name in extractors}
    stages: dict[str, list[float]] = {}
    digests: dict[str, str] = {}
    blocks: list[int] = []
    for number, (page_id, html, url) in enumerate(sample_pages()):
        if number == 0:
            for extractor in extractors.values():
                extractor.extract(html, url)
        order = list(extractors) if number % 2 == 0 else list(reversed(extractors))
        for name in order:
            error = ""
            start = time.perf_counter()
            try:
                result = extractors[name].extract(html, url)
            except BoilerplateError as exc:
                result = None
                error = type(exc).__name__
            seconds[name].append(time.perf_counter() - start)
            if name == "victor":
                digests[page_id] = error if result is None else result_digest(result)
    if args.stages:
        clear_text_caches()
        for _, html, url in sample_pages():
            for stage, value in stage_times(html, url).items():
                stages.setdefault(stage, []).append(value)
            blocks.append(len(victor_blocks(parse_html(html))))
    pages = len(digests)
    print(f"{pages} pages ({', '.join(f'{n} {name}' for name, n in SAMPLE)})")
    for name, values in seconds.items():
        ordered = sorted(values)
        p95 = ordered[int(0.95 * (len(ordered) - 1))]
        print(
            f"{name:<8} median {1000 * statistics.median(values):6.2f} ms  "
            f"mean {1000 * statistics.fmean(values):6.2f} ms  p95 {1000 * p95:6.2f} ms"
        )
    if stages:
        print(f"victor stages (median blocks per page {statistics.median(blocks):.0f}):")
        for stage, values in stages.items():
            print(
                f"  {stage:<11} median {1000 * statistics.median(values):6.2f} ms  "
                f"mean {1000 * statistics.fmean(values):6.2f} ms"
            )
    if args.digests_out:
        args.digests_out.write_text(json.dumps(digests, indent=0, sort_keys=True), "utf-8")
    if args.digests_check:
        expected = json.loads(args.digests_check.read_text(encoding="utf-8"))
        changed = sorted(
            k for k in set(expected) | set(digests) if expected.get(k) != digests.get(k)
        )
        for page_id in changed[:20]:
            print(f"CHANGED: {page_id}", file=sys.stderr)
        print(f"{len(changed)} of {pages} victor outputs differ from {args.digests_check}")
        return 1 if changed else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
