"""The labelled L3S-GN1 blocks as arrays: features, 2-/4-class labels, word weights, page ids.

Built once per run (about 20 s on one core) from the *annotated* pages, so every block has the
assessors' label (see :mod:`scrapy_boilerplate.evaluation.l3s`).
"""

from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from scrapy_boilerplate.evaluation.datasets import DATASETS_ENV
from scrapy_boilerplate.evaluation.l3s import (
    L3SLabel,
    annotated_html,
    four_class,
    page_ids,
    segment_annotated,
    two_class,
)
from scrapy_boilerplate.features import FeatureSet, block_features, feature_names
from scrapy_boilerplate.model.document import TextDocument

REPO = Path(__file__).resolve().parents[2]
#: The datasets: ``$BOILERPLATE_DATASETS``, else ``../shared/datasets`` beside the repository.
DATASETS_ROOT = Path(os.environ.get(DATASETS_ENV) or REPO.parent / "shared" / "datasets")

ALL_SETS = (FeatureSet.PREVIOUS, FeatureSet.CURRENT, FeatureSet.NEXT, FeatureSet.FLOW)
FREQUENCY_NAMES = ("prev_text_frequency", "curr_text_frequency", "next_text_frequency")
_NORMALISE = re.compile(r"\s+")


def l3s_root() -> Path:
    """The L3S-GN1 folder (``$BOILERPLATE_DATASETS/l3s-gn1`` or ``../shared/datasets/l3s-gn1``)."""
    return DATASETS_ROOT / "l3s-gn1"


@dataclass
class LabelledBlocks:
    """One row per block of every annotated page."""

    names: list[str]
    features: np.ndarray
    labels: np.ndarray  # L3SLabel values
    words: np.ndarray
    page: np.ndarray
    docs: list[TextDocument]
    doc_labels: list[list[L3SLabel]]

    @property
    def y2(self) -> np.ndarray:
        return np.array([two_class(L3SLabel(label)) for label in self.labels])

    @property
    def y4(self) -> np.ndarray:
        return np.array([four_class(L3SLabel(label)) for label in self.labels])

    def columns(self, names: list[str]) -> np.ndarray:
        index = [self.names.index(name) for name in names]
        return self.features[:, index]


def _text_key(text: str) -> str:
    return _NORMALISE.sub(" ", text).strip().lower()


@cache
def labelled_blocks(limit: int | None = None) -> LabelledBlocks:
    """Segment, label and featurise the annotated pages (the first ``limit`` if given).

    The global *text frequency* feature is the number of pages of the collection holding a
    block with the same text (case and whitespace folded).
    """
    root = l3s_root()
    ids = page_ids(root)[:limit]
    docs: list[TextDocument] = []
    doc_labels: list[list[L3SLabel]] = []
    rows: list[list[float]] = []
    labels: list[int] = []
    words: list[int] = []
    pages: list[int] = []
    for number, page_id in enumerate(ids):
        annotated = segment_annotated(annotated_html(root, page_id))
        docs.append(annotated.doc)
        doc_labels.append(annotated.labels)
        rows.extend(block_features(annotated.doc, ALL_SETS))
        labels.extend(int(label) for label in annotated.labels)
        words.extend(block.num_words for block in annotated.doc.blocks)
        pages.extend([number] * len(annotated.doc.blocks))
    frequency: Counter[str] = Counter()
    for doc in docs:
        frequency.update({_text_key(block.text) for block in doc.blocks})
    freq_rows: list[list[float]] = []
    for doc in docs:
        values = [float(frequency[_text_key(block.text)]) for block in doc.blocks]
        for index, value in enumerate(values):
            prev = values[index - 1] if index else 0.0
            nxt = values[index + 1] if index + 1 < len(values) else 0.0
            freq_rows.append([prev, value, nxt])
    features = np.hstack([np.array(rows, dtype=float), np.array(freq_rows, dtype=float)])
    return LabelledBlocks(
        names=feature_names(ALL_SETS) + list(FREQUENCY_NAMES),
        features=features,
        labels=np.array(labels),
        words=np.array(words, dtype=float),
        page=np.array(pages),
        docs=docs,
        doc_labels=doc_labels,
    )
