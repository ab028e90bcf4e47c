"""The stored form of an article: what the pipeline writes, the spool keeps and replay reads."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from typing import Any
from urllib.parse import urlsplit

__all__ = ["ArticleRecord", "content_hash"]

_SPACE_RUN = re.compile(r"\s+")


def content_hash(title: str | None, text: str) -> str:
    """SHA-256 (hex) of the title and text with whitespace runs collapsed.

    Re-crawls that only change markup or spacing hash the same and do not make a new version.
    """
    normal = _SPACE_RUN.sub(" ", f"{title or ''}\n{text}").strip()
    return hashlib.sha256(normal.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class ArticleRecord:
    """One fetched article. ``fetched_at`` is timezone-aware UTC; ``domain`` the URL's host."""

    url: str
    title: str | None
    text: str
    canonical_url: str | None = None
    extractor: str | None = None
    extractor_options: dict[str, Any] = field(default_factory=dict)
    fetched_at: datetime = field(default_factory=lambda: datetime.now(timezone.utc))

    @property
    def domain(self) -> str:
        return (urlsplit(self.url).hostname or "").lower()

    @property
    def content_hash(self) -> str:
        return content_hash(self.title, self.text)

    @property
    def options_json(self) -> str:
        return json.dumps(self.extractor_options, sort_keys=True, default=str)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["fetched_at"] = self.fetched_at.isoformat()
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ArticleRecord:
        """Inverse of :meth:`to_json`; KeyError, ValueError or TypeError if malformed."""
        fetched = datetime.fromisoformat(data["fetched_at"])
        return cls(
            url=data["url"],
            title=data.get("title"),
            text=data["text"],
            canonical_url=data.get("canonical_url"),
            extractor=data.get("extractor"),
            extractor_options=dict(data.get("extractor_options") or {}),
            fetched_at=fetched if fetched.tzinfo else fetched.replace(tzinfo=timezone.utc),
        )
