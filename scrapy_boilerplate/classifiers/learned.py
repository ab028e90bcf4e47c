"""The learned block classifier: a boosted tree ensemble scores every block from its feature
row (:mod:`.features`), and each block's ``score`` becomes its probability of being content.

The shipped models (package data) are trained on shippable data only: :data:`SHIPPED_MODEL` on
all pages of the WCXB development split (CC-BY-4.0), :data:`SHIPPED_ARTICLE_MODEL` on the article
pages of WCXB-dev, fundus (MIT) and magic-html (Apache-2.0) (the ``article`` operating point:
lists of linked headlines, comment threads and the like are content on some of WCXB's listing,
collection and forum pages, never on an article page). Users
can train their own with ``scrapy-boilerplate train`` and pass its file. Scores are computed
by the compiled twin of :mod:`.gbdt` when it is built (the same floats as the pure-Python
reference).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Final

from ..model.document import TextDocument
from .features import feature_matrix, feature_names, rule_decisions
from .gbdt import TreeEnsemble, load_model, predict_proba

__all__ = [
    "SHIPPED_MODEL",
    "SHIPPED_ARTICLE_MODEL",
    "MAX_SCORED_BLOCKS",
    "LearnedBlockClassifier",
    "load_block_model",
    "HeadlineFinder",
]

logger = logging.getLogger(__name__)
#: Most blocks of a page the model scores (the largest page of the shared datasets has 2,644).
MAX_SCORED_BLOCKS: Final = 20_000

#: File name of the shipped model of every page type inside
#: ``scrapy_boilerplate/classifiers/models``.
SHIPPED_MODEL: Final = "article-v1.json.gz"
#: File name of the shipped model of article pages (same folder).
SHIPPED_ARTICLE_MODEL: Final = "article-pages-v2.json.gz"

#: Finds a page's headline (the title-position features need it).
HeadlineFinder = Callable[[TextDocument], "str | None"]


@functools.lru_cache(maxsize=8)
def load_block_model(path: str = "", shipped: str = SHIPPED_MODEL) -> TreeEnsemble:
    """The block model at ``path`` (for ``""``, the shipped file named ``shipped``), loaded
    once per process.

    Raises ``ValueError`` when the file is not a model of this package or its features are not
    the ones this version computes.
    """
    if path:
        model = load_model(Path(path))
    else:
        source = resources.files(__package__).joinpath("models").joinpath(shipped)
        model = load_model(source.read_bytes())
    if list(model.feature_names) != feature_names():
        raise ValueError(
            f"block model {path or shipped!r} was trained on other features than this "
            "version of scrapy-boilerplate computes; retrain it with `scrapy-boilerplate train`"
        )
    return model


@dataclass(frozen=True)
class LearnedBlockClassifier:
    """Set every block's ``score`` from the model, and ``is_content`` to ``score >= threshold``.

    Computing the features runs the ``article-rules`` chain first (its decisions are features).
    When no block reaches the threshold (pages unlike any the model saw, such as a page of one
    paragraph), the rule chain's decisions stay: the page is not left empty by the model alone.
    A page of more than :data:`MAX_SCORED_BLOCKS` blocks is not scored (its feature matrix
    would take 1.4 KB a block): the rule chain decides it, blocks keep ``score = None``, and a
    warning is logged.
    """

    model: TreeEnsemble
    headline: HeadlineFinder
    threshold: float = 0.5

    def __call__(self, doc: TextDocument) -> bool:
        if len(doc.blocks) > MAX_SCORED_BLOCKS:
            logger.warning(
                "%s: %d text blocks, more than the %d the block model scores; the rule chain's "
                "decisions stand",
                doc.url or "page",
                len(doc.blocks),
                MAX_SCORED_BLOCKS,
            )
            rule_decisions(doc)
            return True
        matrix, n_rows = feature_matrix(doc, self.headline(doc))
        if not n_rows:
            return False
        scores = predict_proba(self.model, matrix, n_rows)
        keep_rules = max(scores) < self.threshold
        for block, score in zip(doc.blocks, scores, strict=True):
            block.score = score
            if not keep_rules:
                block.is_content = score >= self.threshold
        return True
