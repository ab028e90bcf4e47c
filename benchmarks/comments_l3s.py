#!/usr/bin/env python
"""Reader comments on L3S-GN1: how many of the assessors' comment words (class 5) each extractor
keeps in its text, and how many ``article`` gives as ``result.comments``.

As in the paper's block-level evaluation, every extractor classifies the blocks of the
*annotated* page (each block carries the assessors' label, ``evaluation/l3s.py``); a block's
words count once. Only pages with class-5 blocks are read. Also shown, per extractor, the share
of headline and full-text words (classes 1-2) it keeps, and of related content (class 4).
Writes the ``comments`` section of ``docs/benchmarks.md``.

    python benchmarks/comments_l3s.py          # about a minute
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from datetime import date
from pathlib import Path

from run_benchmarks import DATASETS_ROOT, DOC, write_doc

from scrapy_boilerplate.evaluation.l3s import L3SLabel, annotated_html, page_ids, segment_annotated
from scrapy_boilerplate.evaluation.peers import parse_spec
from scrapy_boilerplate.extractors import get_extractor
from scrapy_boilerplate.model import labels as L

#: Extractor specs (``name:option=value``), as in ``run_benchmarks.py``.
EXTRACTORS = ("article", "article:mode=article", "article-rules")
#: Label classes of the table's columns.
FULL_TEXT = frozenset({L3SLabel.HEADLINE, L3SLabel.FULL_TEXT})


def count_words(root: Path, names: Sequence[str]) -> tuple[int, Counter[tuple[str, str]]]:
    """Pages with comments, and word counts keyed by (extractor, what): ``c5`` (class-5 words),
    ``c5_text`` (of them in the text), ``c5_comments`` (of them in ``result.comments``),
    ``full``/``full_text`` (classes 1-2), ``related``/``related_text`` (class 4)."""
    counts: Counter[tuple[str, str]] = Counter()
    pages = 0
    extractors = {
        spec: get_extractor(name, **options)
        for spec, (name, options) in ((s, parse_spec(s)) for s in names)
    }
    for page_id in page_ids(root):
        html = annotated_html(root, page_id)
        if L3SLabel.COMMENTS not in segment_annotated(html).labels:
            continue
        pages += 1
        for name, extractor in extractors.items():
            annotated = segment_annotated(html)
            blocks = list(annotated.doc.blocks)  # chains that merge blocks are not read here
            extractor.process(annotated.doc)
            for block, label in zip(blocks, annotated.labels, strict=True):
                words = block.num_words
                kind = (
                    "c5"
                    if label == L3SLabel.COMMENTS
                    else "full"
                    if label in FULL_TEXT
                    else "related"
                    if label == L3SLabel.RELATED_CONTENT
                    else None
                )
                if kind is None:
                    continue
                counts[name, kind] += words
                if block.is_content:
                    counts[name, f"{kind}_text"] += words
                if kind == "c5" and L.COMMENT_TEXT in block.labels:
                    counts[name, "c5_comments"] += words
    return pages, counts


def table(names: Sequence[str], counts: Counter[tuple[str, str]]) -> str:
    lines = [
        "| extractor | class-5 words in the text | in `result.comments` | classes 1-2 kept "
        "| class 4 (related) kept |",
        "|---|---:|---:|---:|---:|",
    ]
    for name in names:

        def share(kind: str, of: str, name: str = name) -> str:
            total = counts[name, of]
            return f"{counts[name, kind]:,} ({counts[name, kind] / total:.1%})" if total else "-"

        lines.append(
            f"| `{name}` | {share('c5_text', 'c5')} | {share('c5_comments', 'c5')} "
            f"| {share('full_text', 'full')} | {share('related_text', 'related')} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--extractors", nargs="+", default=list(EXTRACTORS))
    parser.add_argument("--doc", type=Path, default=DOC)
    args = parser.parse_args(argv)
    root = DATASETS_ROOT / "l3s-gn1"
    if not root.is_dir():
        print(f"no l3s-gn1 under {DATASETS_ROOT}", file=sys.stderr)
        return 2
    pages, counts = count_words(root, args.extractors)
    total = counts[args.extractors[0], "c5"]
    body = "\n".join(
        [
            "## Reader comments on L3S-GN1",
            "",
            f"Generated {date.today().isoformat()} by `python benchmarks/comments_l3s.py`: the "
            f"{pages} L3S-GN1 pages with user comments (class 5, {total:,} words), each "
            "extractor classifying the blocks of the annotated page; words of the blocks it keeps "
            "in its text, and (for `article`) of those it gives as `result.comments`. `article` "
            "(`mode=auto`) decodes a page it takes for a forum (confidence >= 0.5) at the `forum` "
            "point, which keeps the comments in the text, and a page of another type than an "
            "article (confidence >= 0.7) at the `page` point, which does not; `mode=article` "
            "never keeps them.",
            "",
            table(args.extractors, counts),
        ]
    )
    print(body)
    write_doc(args.doc, {"comments": body})
    return 0


if __name__ == "__main__":
    sys.exit(main())
