"""The stored form of an article: what the pipeline writes, the spool keeps and replay reads."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from typing import Any
from urllib.parse import urlsplit

__all__ = ["ArticleRecord", "METADATA_FIELDS", "content_hash"]

_SPACE_RUN = re.compile(r"\s+")


def content_hash(title: str | None, text: str) -> str:
    """SHA-256 (hex) of the title and text with whitespace runs collapsed.

    Re-crawls that only change markup or spacing hash the same and do not make a new version.
    """
    normal = _SPACE_RUN.sub(" ", f"{title or ''}\n{text}").strip()
    return hashlib.sha256(normal.encode("utf-8")).hexdigest()


#: The metadata fields of a record (besides ``canonical_url``, stored since the first schema).
METADATA_FIELDS = ("published", "modified", "authors", "language", "description", "image")


@dataclass(frozen=True)
class ArticleRecord:
    """One fetched article. ``fetched_at`` is timezone-aware UTC; ``domain`` the URL's host.

    The metadata is the page's as the add-on read it: ``published`` and ``modified`` are ISO 8601
    strings when the page's value reads as a date (``2024-05-30`` or
    ``2024-05-30T18:00:00+00:00``), else the value as found; ``authors`` are names in page order;
    ``language`` a BCP 47 tag; ``canonical_url`` and ``image`` absolute URLs. None (or no
    authors) when the page lacks the value. ``page_type`` is the page type the extractor gave
    (``article``, ``listing``, ``forum``, ``product``, ``collection``, ``documentation`` or
    ``service``); None when the extractor does not classify pages.
    """

    url: str
    title: str | None
    text: str
    canonical_url: str | None = None
    extractor: str | None = None
    extractor_options: dict[str, Any] = field(default_factory=dict)
    fetched_at: datetime = field(default_factory=lambda: datetime.now(timezone.utc))
    published: str | None = None
    modified: str | None = None
    authors: tuple[str, ...] = ()
    language: str | None = None
    description: str | None = None
    image: str | None = None
    page_type: str | None = None

    @property
    def domain(self) -> str:
        return (urlsplit(self.url).hostname or "").lower()

    @property
    def content_hash(self) -> str:
        return content_hash(self.title, self.text)

    @property
    def options_json(self) -> str:
        return json.dumps(self.extractor_options, sort_keys=True, default=str)

    @property
    def authors_json(self) -> str:
        return json.dumps(list(self.authors), ensure_ascii=False)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["fetched_at"] = self.fetched_at.isoformat()
        data["authors"] = list(self.authors)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ArticleRecord:
        """Inverse of :meth:`to_json`; KeyError, ValueError or TypeError if malformed.

        Lines spooled before the metadata (or the page type) existed read without it.
        """
        fetched = datetime.fromisoformat(data["fetched_at"])
        authors = data.get("authors") or []
        if not isinstance(authors, list) or not all(isinstance(a, str) for a in authors):
            raise TypeError(f"authors must be a list of names, not {authors!r}")
        return cls(
            url=data["url"],
            title=data.get("title"),
            text=data["text"],
            canonical_url=data.get("canonical_url"),
            extractor=data.get("extractor"),
            extractor_options=dict(data.get("extractor_options") or {}),
            fetched_at=fetched if fetched.tzinfo else fetched.replace(tzinfo=timezone.utc),
            published=data.get("published"),
            modified=data.get("modified"),
            authors=tuple(authors),
            language=data.get("language"),
            description=data.get("description"),
            image=data.get("image"),
            page_type=data.get("page_type"),
        )
