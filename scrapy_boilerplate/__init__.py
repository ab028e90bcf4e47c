"""scrapy-boilerplate: clean article text for every Scrapy crawl.

Public API: :func:`extract`, :func:`get_extractor`, :func:`register_extractor`,
:func:`available_extractors`, :class:`ExtractionResult` (with its :class:`ArticleMetadata`),
:class:`ExtractionContext` and the exceptions; the Scrapy components live in
:mod:`scrapy_boilerplate.integration`.

The package is layered, each stage importing only the stages before it: ``model`` (blocks,
documents, options, context, result) -> ``page`` (parsing, tokens, segmentation) ->
``features``, ``filters``, ``output`` -> ``classifiers``, ``site`` -> ``extractors`` ->
``api``, ``integration``, ``evaluation`` -> ``cli``.
"""

from __future__ import annotations

from typing import Any

from .api import extract
from .errors import BoilerplateError, ExtractionError, InvalidInputError
from .extractors import Extractor, available_extractors, get_extractor, register_extractor
from .model import ArticleMetadata, ExtractionContext, ExtractionResult, Option

__version__ = "0.1.0"

__all__ = [
    "extract",
    "get_extractor",
    "register_extractor",
    "available_extractors",
    "Extractor",
    "ExtractionResult",
    "ArticleMetadata",
    "ExtractionContext",
    "Option",
    "BoilerplateError",
    "InvalidInputError",
    "ExtractionError",
    "Addon",
    "article_for",
    "article_of",
    "__version__",
]

#: Scrapy-layer names re-exported lazily, so ``import scrapy_boilerplate`` does not import Scrapy.
_LAZY_SCRAPY_NAMES = {"Addon", "article_for", "article_of"}


def __getattr__(name: str) -> Any:
    if name in _LAZY_SCRAPY_NAMES:
        from . import integration

        return getattr(integration, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
