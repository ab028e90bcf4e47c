#!/usr/bin/env python
"""Experiment: smoothing the learned block scores (``article-learned``) over the DOM tree.

Each visible node's templateness is 1 minus the word-weighted mean content score of the blocks
in its subtree (a node without block words takes its parent's), the scores are smoothed by the
regularized tree isotonic regression (``page-template``'s weights and penalties), and a block is
content when its node's smoothed templateness is below ``1 - threshold`` (the model's article
threshold); the headline is then dropped as ``article-learned`` drops it. Compared with
``article-learned`` itself (threshold, gap filling, headline) by word-shingle F1 on pages the
shipped model was not trained on (L3S-GN1 original pages, CleanEval final), and with its
threshold alone (no gap filling, which the smoothing replaces). Prints a table; the
product default changes only if this measures better.

    python benchmarks/learned_smoothing.py [--limit N]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from run_benchmarks import DATASETS_ROOT

from scrapy_boilerplate.classifiers.learned import LearnedBlockClassifier, load_block_model
from scrapy_boilerplate.classifiers.template import (
    PageNodes,
    node_weights,
    page_nodes,
    smoothed_scores,
)
from scrapy_boilerplate.errors import BoilerplateError
from scrapy_boilerplate.evaluation.datasets import load_pages
from scrapy_boilerplate.evaluation.metrics import Counts, benchmark_scores, shingle_counts
from scrapy_boilerplate.extractors import get_extractor
from scrapy_boilerplate.extractors.title import find_title
from scrapy_boilerplate.filters.regions import DropHeadlineFilter
from scrapy_boilerplate.model.document import TextDocument
from scrapy_boilerplate.output.text import article_text
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import segment

PENALTIES = (0.0025, 0.01, 0.04, 0.16)
DATASETS = ("l3s-gn1", "cleaneval/final")


def node_templateness(doc: TextDocument) -> tuple[PageNodes, list[float]]:
    """The page's visible nodes and each one's templateness from its blocks' scores."""
    nodes = page_nodes(doc)
    size = len(nodes.tree.nodes)
    score, words = [0.0] * size, [0.0] * size
    for block, owner in zip(doc.blocks, nodes.owners, strict=True):
        score[owner] += (block.score or 0.0) * block.num_words
        words[owner] += block.num_words
    for j in range(size - 1, 0, -1):
        up = nodes.tree.parent[j]
        score[up] += score[j]
        words[up] += words[j]
    x: list[float] = []
    for j in range(size):
        up = nodes.tree.parent[j]
        x.append(1.0 - score[j] / words[j] if words[j] else (x[up] if up >= 0 else 0.5))
    return nodes, x


def smoothed_text(doc: TextDocument, threshold: float, c: float) -> str:
    nodes, x = node_templateness(doc)
    weights = node_weights(nodes.tree.weight, nodes.visible_words, "words")
    y = smoothed_scores(nodes.tree.parent, x, weights, nodes.visible_area, c=c, levels=64)
    for block, owner in zip(doc.blocks, nodes.owners, strict=True):
        block.is_content = y[owner] < 1.0 - threshold
    DropHeadlineFilter(find_title)(doc)
    return article_text(doc.blocks)


def run(dataset: str, limit: int | None) -> list[str]:
    model = load_block_model()
    threshold = float(model.metadata.get("threshold", 0.5))
    learned = get_extractor("article-learned")
    counts: dict[str, list[Counts]] = {"article-learned": [], "threshold only": []}
    counts.update({f"smoothed, c = {c:g}": [] for c in PENALTIES})
    for page in load_pages(DATASETS_ROOT / dataset, limit=limit):
        try:
            root = parse_html(page.html)
        except BoilerplateError:
            continue
        doc = segment(root, url=page.url)
        learned.process(doc)
        counts["article-learned"].append(shingle_counts(page.gold_text, article_text(doc.blocks)))
        doc = segment(root, url=page.url)
        LearnedBlockClassifier(model, find_title, threshold)(doc)
        DropHeadlineFilter(find_title)(doc)
        counts["threshold only"].append(shingle_counts(page.gold_text, article_text(doc.blocks)))
        for c in PENALTIES:
            doc = segment(root, url=page.url)
            LearnedBlockClassifier(model, find_title, threshold)(doc)
            text = smoothed_text(doc, threshold, c)
            counts[f"smoothed, c = {c:g}"].append(shingle_counts(page.gold_text, text))
    rows = []
    for name, values in counts.items():
        scores = benchmark_scores(values)
        rows.append(
            f"| {dataset} | {name} | {len(values)} | {scores.precision:.3f} | "
            f"{scores.recall:.3f} | {scores.f1:.3f} |"
        )
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, help="first N pages of each dataset")
    args = parser.parse_args(argv)
    print("| dataset | decoding | pages | shingle P | R | F1 |")
    print("|---|---|---:|---:|---:|---:|")
    for dataset in DATASETS:
        if (DATASETS_ROOT / dataset).is_dir():
            print("\n".join(run(dataset, args.limit)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
