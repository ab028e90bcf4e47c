"""Features: the numbers learned classifiers read.

:mod:`.blocks` holds the shallow text features of text blocks (the paper's P/C/N sets); features
of DOM nodes will sit beside it. Imports the model and the page stage only.
"""

from __future__ import annotations

from .blocks import (
    BLOCK_FEATURES,
    FLOW_FEATURES,
    POSITION_FEATURES,
    TAG_FEATURES,
    FeatureSet,
    TextStats,
    block_features,
    block_values,
    document_features,
    enclosing_tags,
    feature_names,
    text_stats,
)

__all__ = [
    "FeatureSet",
    "BLOCK_FEATURES",
    "POSITION_FEATURES",
    "FLOW_FEATURES",
    "TAG_FEATURES",
    "TextStats",
    "text_stats",
    "enclosing_tags",
    "block_values",
    "feature_names",
    "block_features",
    "document_features",
]
