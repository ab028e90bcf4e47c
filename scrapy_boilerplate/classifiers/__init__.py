"""Block classifiers: filters that set each block's ``is_content`` (and, for learned models,
its ``score``).

:mod:`.rules` holds the paper's decision trees and the reference's rule classifiers; learned
models will sit beside them, with their model files as package data.
"""

from __future__ import annotations

from .rules import (
    CANOLA_RULES,
    CLEANEVAL_RULE,
    DENSITY_RULES,
    NUM_WORDS_RULES,
    TEXT_DENSITY_1R,
    MinWordsClassifier,
    NeighbourClassifier,
    NeighbourRule,
    canola_rule,
    cleaneval_rule,
    density_rule,
    num_words_rule,
    text_density_1r_rule,
)

__all__ = [
    "NeighbourRule",
    "NeighbourClassifier",
    "density_rule",
    "num_words_rule",
    "canola_rule",
    "text_density_1r_rule",
    "cleaneval_rule",
    "DENSITY_RULES",
    "NUM_WORDS_RULES",
    "CANOLA_RULES",
    "TEXT_DENSITY_1R",
    "CLEANEVAL_RULE",
    "MinWordsClassifier",
]
