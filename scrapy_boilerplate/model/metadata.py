"""What a page says about its article: dates, authors, language, canonical URL, description
and main image (read by :mod:`scrapy_boilerplate.page.metadata`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["ArticleMetadata", "METADATA_FIELDS"]


@dataclass(frozen=True)
class ArticleMetadata:
    """The article's metadata; each field is None (or no authors) when the page lacks it.

    ``published`` and ``modified`` are ISO 8601: ``2024-03-05``, ``2024-03-05T10:00:00`` (the
    page gave no zone: none is invented) or ``2024-03-05T10:00:00+01:00``; a value that is no
    valid date is no value. ``published_raw`` and ``modified_raw`` are the same dates as the
    page wrote them. ``language`` is a BCP 47 tag (``en-US``); ``canonical_url`` and ``image``
    are absolute http(s) URLs. ``authors`` holds person names in page order, without
    duplicates; ``description`` is plain text.
    """

    published: str | None = None
    modified: str | None = None
    authors: tuple[str, ...] = ()
    language: str | None = None
    canonical_url: str | None = None
    description: str | None = None
    image: str | None = None
    published_raw: str | None = None
    modified_raw: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable view of the fields that have a value (a missing field is left
        out, as in items), ``authors`` as a list."""
        data: dict[str, Any] = {
            "published": self.published,
            "published_raw": self.published_raw,
            "modified": self.modified,
            "modified_raw": self.modified_raw,
            "authors": list(self.authors),
            "language": self.language,
            "canonical_url": self.canonical_url,
            "description": self.description,
            "image": self.image,
        }
        return {name: value for name, value in data.items() if value}


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
