"""What a page says about its article: dates, authors, language, canonical URL, description
and main image (read by :mod:`scrapy_boilerplate.page.metadata`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["ArticleMetadata", "METADATA_FIELDS"]


@dataclass(frozen=True)
class ArticleMetadata:
    """The article's metadata; each field is None (or no authors) when the page lacks it.

    ``published`` and ``modified`` are ISO 8601 (``2024-03-05`` or
    ``2024-03-05T10:00:00+01:00``) when the page's value can be read as a date, else the value
    as found. ``language`` is a BCP 47 tag (``en-US``); ``canonical_url`` and ``image`` are
    absolute http(s) URLs. ``authors`` holds names in page order, without duplicates.
    """

    published: str | None = None
    modified: str | None = None
    authors: tuple[str, ...] = ()
    language: str | None = None
    canonical_url: str | None = None
    description: str | None = None
    image: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable view: every field, ``authors`` as a list."""
        return {
            "published": self.published,
            "modified": self.modified,
            "authors": list(self.authors),
            "language": self.language,
            "canonical_url": self.canonical_url,
            "description": self.description,
            "image": self.image,
        }


#: The field names of :class:`ArticleMetadata`, in order.
METADATA_FIELDS = (
    "published",
    "modified",
    "authors",
    "language",
    "canonical_url",
    "description",
    "image",
)
