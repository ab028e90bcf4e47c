"""Agreement of our boilerpipe chains with boilerpy3's ArticleExtractor (a dev-only check).

Runs ``boilerpipe-article`` (1.3 chain) and ``boilerpipe-article-1.2`` over the first N pages of
WCXB-dev and compares each output with boilerpy3's ``ArticleExtractor().get_content(html)``
(boilerpy3 ports the 1.2 chain) by token-set F1; also prints each extractor's token-set F1
against the gold main content. Differences from parser tag balancing are expected.

Usage: python benchmarks/compare_boilerpy3.py [--limit 100] [--worst 3] [--strict]
Needs ``pip install boilerpy3`` (not a dependency of the package).
"""

from __future__ import annotations

import argparse
import gzip
import json
import logging
import os
import re
import statistics
import sys
from pathlib import Path

from scrapy_boilerplate import get_extractor
from scrapy_boilerplate.errors import BoilerplateError
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import segment

_TOKEN = re.compile(r"\w+")
OURS = ("boilerpipe-article", "boilerpipe-article-1.2")


def datasets_dir() -> Path:
    """``$BOILERPLATE_DATASETS`` or ``../shared/datasets`` next to the repository."""
    env = os.environ.get("BOILERPLATE_DATASETS")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "shared" / "datasets"


def tokens(text: str) -> set[str]:
    return set(_TOKEN.findall(text.lower()))


def token_f1(a: str, b: str) -> float:
    """Token-set F1 of two texts (1.0 if both are empty)."""
    ta, tb = tokens(a), tokens(b)
    if not ta and not tb:
        return 1.0
    common = len(ta & tb)
    return 2 * common / (len(ta) + len(tb)) if common else 0.0


def content_text(name: str, html: str, strict_reference: bool) -> str:
    """The reference-format output (content block texts, one per line) of extractor ``name``."""
    extractor = get_extractor(name, strict_reference=strict_reference)
    doc = segment(parse_html(html), strict_reference=strict_reference)
    return extractor.process(doc).content_text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=100)
    parser.add_argument("--worst", type=int, default=3)
    parser.add_argument(
        "--strict", action="store_true", help="segment with strict_reference (reference quirks)"
    )
    args = parser.parse_args()
    try:
        from boilerpy3.extractors import ArticleExtractor
    except ImportError:
        print("boilerpy3 is not installed: pip install boilerpy3", file=sys.stderr)
        return 2
    root = datasets_dir() / "wcxb-dev"
    if not root.is_dir():
        print(f"dataset not found: {root}", file=sys.stderr)
        return 2
    logging.getLogger("boilerpy3").setLevel(logging.CRITICAL)  # nested-<a> warnings
    reference = ArticleExtractor(raise_on_failure=True)
    rows = []
    failures = 0
    for path in sorted((root / "html").glob("*.html.gz"))[: args.limit]:
        page_id = path.name.split(".")[0]
        html = gzip.decompress(path.read_bytes()).decode("utf-8")
        gold = json.loads((root / "ground-truth" / f"{page_id}.json").read_text("utf-8"))
        gold_text = gold["ground_truth"]["main_content"] or ""
        try:
            theirs = reference.get_content(html)
        except Exception:  # boilerpy3's html.parser handler fails on some pages; skip them
            failures += 1
            continue
        row = {"id": page_id, "boilerpy3": theirs, "gold_f1:boilerpy3": token_f1(theirs, gold_text)}
        for name in OURS:
            try:
                ours = content_text(name, html, args.strict)
            except BoilerplateError as exc:
                print(f"{page_id}: {name} failed: {exc!r}", file=sys.stderr)
                ours = ""
            row[name] = ours
            row[f"agree:{name}"] = token_f1(ours, theirs)
            row[f"gold_f1:{name}"] = token_f1(ours, gold_text)
        rows.append(row)
    if not rows:
        print("no pages compared", file=sys.stderr)
        return 1
    print(f"pages compared: {len(rows)} (skipped, boilerpy3 failed: {failures})")
    print(f"{'measure':45} {'mean':>7} {'median':>7} {'=1.0':>6}")
    for key in [f"agree:{n}" for n in OURS] + [f"gold_f1:{n}" for n in (*OURS, "boilerpy3")]:
        values = [row[key] for row in rows]
        exact = sum(value >= 0.9999 for value in values)
        print(
            f"{key:45} {statistics.mean(values):7.3f} {statistics.median(values):7.3f} {exact:6d}"
        )
    for name in OURS:
        print(f"\nworst agreement, {name} vs boilerpy3:")
        print(f"{'id':6} {'F1':>6} {'ours words':>10} {'theirs words':>12}")
        for row in sorted(rows, key=lambda r: r[f"agree:{name}"])[: args.worst]:
            ours_words, theirs_words = len(row[name].split()), len(row["boilerpy3"].split())
            print(f"{row['id']:6} {row[f'agree:{name}']:6.3f} {ours_words:10d} {theirs_words:12d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
