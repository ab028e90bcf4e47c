"""The built-in named extractors (registered on first use of the registry)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .classifiers import CANOLA_RULES, DENSITY_RULES, NUM_WORDS_RULES
from .extractors import register_extractor
from .filters import Filter
from .filters.basic import MarkEverythingContent

__all__: list[str] = []


def _keep_everything(options: Mapping[str, Any]) -> Sequence[Filter]:
    return [MarkEverythingContent()]


def _numwords(options: Mapping[str, Any]) -> Sequence[Filter]:
    return [NUM_WORDS_RULES]


def _density(options: Mapping[str, Any]) -> Sequence[Filter]:
    return [DENSITY_RULES]


def _canola(options: Mapping[str, Any]) -> Sequence[Filter]:
    return [CANOLA_RULES]


register_extractor("keep-everything", _keep_everything, description="every block is content")
register_extractor("numwords", _numwords, description="Algorithm 2 (number-of-words tree) alone")
register_extractor("density", _density, description="Algorithm 1 (densitometric tree) alone")
register_extractor("canola", _canola, description="the reference's Canola classifier")
