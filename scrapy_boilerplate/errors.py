"""Exceptions raised by scrapy-boilerplate.

Every error the package raises on purpose derives from :class:`BoilerplateError`, so a caller
can catch one class and still let programming errors (``TypeError`` ...) through.
"""

from __future__ import annotations

__all__ = ["BoilerplateError", "InvalidInputError", "ExtractionError"]


class BoilerplateError(Exception):
    """Base class of the package's own exceptions."""


class InvalidInputError(BoilerplateError, ValueError):
    """The input cannot be read as an HTML page (empty, binary, not a document)."""


class ExtractionError(BoilerplateError):
    """An extractor failed on a page it could parse (a bug or a custom filter's error)."""
