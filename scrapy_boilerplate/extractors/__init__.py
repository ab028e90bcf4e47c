"""Named extractors: the registry, the built-in chains and the headline finder.

Imports every lower stage (model, page, output, features, filters, classifiers, site) and is
imported by the API, the integrations and the evaluation.
"""

from __future__ import annotations

from .base import ChainFactory, Extractor, ExtractorSpec
from .registry import available_extractors, get_extractor, get_spec, register_extractor

__all__ = [
    "Extractor",
    "ExtractorSpec",
    "ChainFactory",
    "register_extractor",
    "get_extractor",
    "get_spec",
    "available_extractors",
]
