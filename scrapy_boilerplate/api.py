"""The one-call Python API."""

from __future__ import annotations

from typing import Any

from .extractors import get_extractor
from .model.context import ExtractionContext
from .model.result import ExtractionResult

__all__ = ["extract"]


def extract(
    html: str | bytes,
    url: str | None = None,
    *,
    extractor: str = "article",
    content_type: str | None = None,
    context: ExtractionContext | None = None,
    **options: Any,
) -> ExtractionResult:
    """Extract the article text and title of one HTML page.

    ``html`` is the page as text or as bytes (decoded by BOM, ``content_type`` charset,
    ``<meta>``, then sniffing). ``context`` carries per-site data to the extractor's chain.
    ``options`` are the extractor's parameters (for ``article``:
    ``ancestor_depth``...); an unknown name or bad value raises ``ValueError`` naming it.
    Raises :class:`~scrapy_boilerplate.errors.InvalidInputError` if ``html`` is empty or binary.
    """
    return get_extractor(extractor, **options).extract(
        html, url, content_type=content_type, context=context
    )
