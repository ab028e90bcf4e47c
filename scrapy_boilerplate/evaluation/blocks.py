"""Block-level scores of registered extractors on L3S-GN1's labelled blocks.

As in the boilerpipe paper, an extractor classifies the blocks of the *annotated* page (segmented
by :func:`~scrapy_boilerplate.evaluation.l3s.segment_annotated`, so every block carries the
assessors' label), and each block weighs its number of words. Content = headline, full text,
supplemental and user comments (two-class problem).
"""

from __future__ import annotations

import os
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import BoilerplateError
from ..extractors import get_extractor
from ..model.document import TextBlock
from .datasets import Page
from .l3s import annotated_html, segment_annotated, two_class
from .metrics import Counts, block_scores, page_f1, weighted_roc_auc
from .peers import parse_spec

__all__ = ["BlockSummary", "l3s_block_summary", "block_table"]


@dataclass(frozen=True)
class BlockSummary:
    """Word-weighted block scores of one extractor over a set of L3S-GN1 pages.

    ``precision`` / ``recall`` / ``f1`` and ``auc`` pool the words of all pages (micro);
    ``auc`` ranks blocks by their model scores when every block has one
    (``auc_from_scores``), else by the content decisions; ``mean_page_f1`` is the mean of
    the pages' F1; ``errors`` counts pages that failed.
    """

    extractor: str
    pages: int
    precision: float
    recall: float
    f1: float
    auc: float | None
    mean_page_f1: float
    errors: int
    auc_from_scores: bool = False


def _decisions(
    original: Sequence[TextBlock], processed: Sequence[TextBlock]
) -> list[tuple[bool, float | None]]:
    """Content decision and score of each original block: its own, or, if a filter merged it
    into the block before it, that block's."""
    survivors = {id(block) for block in processed}
    decisions: list[tuple[bool, float | None]] = []
    current: tuple[bool, float | None] = (False, None)
    for block in original:
        if id(block) in survivors:
            current = (block.is_content, block.score)
        decisions.append(current)
    return decisions


def l3s_block_summary(
    spec: str, root: str | os.PathLike[str], pages: Sequence[Page]
) -> BlockSummary:
    """Classify the labelled blocks of each page's annotated version with the extractor ``spec``
    (a registered extractor, ``name[:opt=value,...]``) and pool the word-weighted results."""
    name, options = parse_spec(spec)
    extractor = get_extractor(name, **options)
    weights: list[float] = []
    gold: list[bool] = []
    predicted: list[bool] = []
    scores: list[float | None] = []
    page_counts: list[Counts] = []
    errors = 0
    for page in pages:
        try:
            annotated = segment_annotated(annotated_html(root, page.id), page.url)
            original = list(annotated.doc.blocks)
            page_weights = [float(block.num_words) for block in original]
            extractor.process(annotated.doc)
        except BoilerplateError:
            errors += 1
            continue
        page_gold = [bool(two_class(label)) for label in annotated.labels]
        page_decisions = _decisions(original, annotated.doc.blocks)
        page_predicted = [decision for decision, _ in page_decisions]
        page_counts.append(block_scores(page_weights, page_gold, page_predicted))
        weights += page_weights
        gold += page_gold
        predicted += page_predicted
        scores += [score for _, score in page_decisions]
    total = block_scores(weights, gold, predicted)
    precision = total.tp / total.predicted if total.predicted else 0.0
    recall = total.tp / total.gold if total.gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    known = [score for score in scores if score is not None]
    from_scores = bool(scores) and len(known) == len(scores)
    ranking = known if from_scores else [float(p) for p in predicted]
    return BlockSummary(
        extractor=spec,
        pages=len(page_counts),
        precision=precision,
        recall=recall,
        f1=f1,
        auc=weighted_roc_auc(weights, gold, ranking),
        mean_page_f1=statistics.fmean(map(page_f1, page_counts)) if page_counts else 0.0,
        errors=errors,
        auc_from_scores=from_scores,
    )


def block_table(rows: Sequence[BlockSummary]) -> str:
    """Markdown table of block summaries, best F1 first."""
    lines = [
        "| extractor | pages | block P | block R | block F1 | ROC AUC | mean page F1 | errors |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in sorted(rows, key=lambda r: -r.f1):
        auc = "-" if row.auc is None else f"{row.auc:.3f}"
        lines.append(
            f"| `{row.extractor}` | {row.pages} | {row.precision:.3f} | {row.recall:.3f} | "
            f"{row.f1:.3f} | {auc} | {row.mean_page_f1:.3f} | {row.errors} |"
        )
    return "\n".join(lines)
