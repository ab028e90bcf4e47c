"""The optional ``extruct`` library (the ``metadata`` extra): its extractors, if installed.

Imported on first use only (importing ``extruct`` takes about 0.2 s); the extractors keep no
state between calls, so one instance of each serves every thread.
"""

from __future__ import annotations

import functools
from typing import Any

__all__ = ["ExtructExtractors", "extruct_extractors"]


class ExtructExtractors:
    """extruct's JSON-LD and microdata extractors."""

    __slots__ = ("jsonld", "microdata")

    def __init__(self, jsonld: Any, microdata: Any) -> None:
        self.jsonld = jsonld
        self.microdata = microdata


@functools.cache
def extruct_extractors() -> ExtructExtractors | None:
    """The extractors, or None when extruct is not installed."""
    try:
        from extruct.jsonld import JsonLdExtractor
        from extruct.w3cmicrodata import MicrodataExtractor
    except ImportError:
        return None
    return ExtructExtractors(JsonLdExtractor(), MicrodataExtractor())
