"""Filters: small steps over a :class:`~scrapy_boilerplate.model.document.TextDocument`.

A filter is any callable ``filter(doc) -> bool`` that changes the document in place (flags,
labels, merged or deleted blocks) and returns True if it changed anything. Extractors are
chains of filters (see :mod:`scrapy_boilerplate.extractors`).
"""

from __future__ import annotations

from collections.abc import Callable

from ..model.document import TextDocument

__all__ = ["Filter"]

#: The filter interface: change the document in place, return True if anything changed.
Filter = Callable[[TextDocument], bool]
