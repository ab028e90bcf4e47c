"""The document model: text blocks and documents, block labels, extractor options, the
extraction context, the article metadata and the extraction result.

The lowest stage of the package: it imports nothing of the package but
:mod:`scrapy_boilerplate.errors`; every other stage builds on it.
"""

from __future__ import annotations

from .context import NO_CONTEXT, ExtractionContext
from .document import EMPTY_BLOCK, Element, TextBlock, TextDocument
from .metadata import ArticleMetadata
from .options import Option
from .result import ExtractionResult

__all__ = [
    "Element",
    "TextBlock",
    "TextDocument",
    "EMPTY_BLOCK",
    "Option",
    "ExtractionContext",
    "NO_CONTEXT",
    "ExtractionResult",
    "ArticleMetadata",
]
