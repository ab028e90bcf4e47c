"""What one metadata source found: cleaned values per field, the first valid offer winning."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from .authors import drop_organisations, split_names
from .values import (
    MAX_DATE_CHARS,
    clean_date,
    clean_description,
    clean_language,
    clean_name,
    clean_text,
    clean_url,
)

__all__ = ["Found", "MAX_AUTHORS"]

#: Most author names kept, and most author values looked at, per source.
MAX_AUTHORS: Final = 20
_DATES: Final = ("published", "modified")


class Found:
    """One source's values: ``offer`` cleans a raw value for a field (see
    :mod:`.values`) and keeps it if the field has no value yet; invalid values are ignored.
    ``raw`` keeps a date's value as the page wrote it (whitespace collapsed)."""

    __slots__ = ("authors", "base_url", "raw", "values")

    def __init__(self, base_url: str | None) -> None:
        self.base_url = base_url
        self.values: dict[str, str] = {}
        self.raw: dict[str, str] = {}
        self.authors: tuple[str, ...] = ()

    def offer(self, field: str, raw: object) -> None:
        """Keep ``raw`` cleaned as ``field`` (a scalar field) unless the field has a value."""
        if raw is None or field in self.values:
            return
        value = self._clean(field, raw)
        if value is not None:
            self.values[field] = value
            if field in _DATES:
                self.raw[field] = clean_text(raw, MAX_DATE_CHARS) or value

    def offer_all(self, field: str, raws: Iterable[object]) -> None:
        """Offer each of ``raws`` in turn."""
        for raw in raws:
            if field in self.values:
                return
            self.offer(field, raw)

    def offer_authors(self, raws: Iterable[object]) -> None:
        """Keep the valid names of ``raws`` (deduplicated, page order) unless authors were
        found already: one group of authors per source, never a mix."""
        if self.authors:
            return
        names: list[str] = []
        for count, raw in enumerate(raws):
            if count >= MAX_AUTHORS or len(names) >= MAX_AUTHORS:
                break
            value = clean_name(raw)
            for name in split_names(value) if value is not None else ():
                if name not in names and len(names) < MAX_AUTHORS:
                    names.append(name)
        self.authors = tuple(drop_organisations(names))

    def _clean(self, field: str, raw: object) -> str | None:
        if field in _DATES:
            return clean_date(raw)
        if field == "language":
            return clean_language(raw)
        if field in ("canonical_url", "image"):
            return clean_url(raw, self.base_url)
        if field == "description":
            return clean_description(raw)
        raise ValueError(f"not a scalar metadata field: {field!r}")
