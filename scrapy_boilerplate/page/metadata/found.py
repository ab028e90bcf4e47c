"""What one metadata source found: candidates per field, cleaned on demand, the first valid
offer winning.

A source offers candidates (raw values, or iterables of them that may be generators: what is
costly to look for is looked for only when asked); :meth:`Found.value` cleans them in offer
order, only when the field is asked for, and keeps the first valid one. A source's values for
fields another source gives are so never cleaned nor looked for. A candidate whose cleaning or
looking-for raises ends the field's candidates (logged at DEBUG): reading never raises.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
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

logger = logging.getLogger(__name__)

#: Most author names kept, and most author values looked at, per source.
MAX_AUTHORS: Final = 20
_DATES: Final = ("published", "modified")


class Found:
    """One source's candidates: ``offer``/``offer_all`` add candidates for a field (see
    :mod:`.values` for the cleaning), :meth:`value` gives the first valid one, ``raw`` a
    date's value as the page wrote it (whitespace collapsed), :attr:`authors` the names of the
    first group of author values that holds any; ``month_first``: the page writes digits-only
    dates month first (:func:`.dates.month_first`)."""

    __slots__ = (
        "_author_groups", "_authors", "_offers", "_values", "base_url", "month_first", "raw",
    )  # fmt: skip

    def __init__(self, base_url: str | None, month_first: bool = False) -> None:
        self.base_url = base_url
        self.month_first = month_first
        self._offers: dict[str, list[Iterable[object]]] = {}
        self._values: dict[str, str | None] = {}
        self._author_groups: list[Iterable[object]] = []
        self._authors: tuple[str, ...] | None = None
        self.raw: dict[str, str] = {}

    def offer(self, field: str, raw: object) -> None:
        """Add ``raw`` as a candidate for ``field`` (a scalar field)."""
        self.offer_all(field, (raw,))

    def offer_all(self, field: str, raws: Iterable[object]) -> None:
        """Add each of ``raws`` (read only when the earlier candidates are no value)."""
        self._offers.setdefault(field, []).append(raws)

    def offer_authors(self, raws: Iterable[object]) -> None:
        """Add a group of author values; the first group holding valid names gives all the
        source's authors (deduplicated, page order): one group per source, never a mix."""
        self._author_groups.append(raws)

    def value(self, field: str) -> str | None:
        """The first candidate for ``field`` that cleans to a valid value; None without one."""
        if field not in self._values:
            self._values[field] = self._first_valid(field)
        return self._values[field]

    @property
    def authors(self) -> tuple[str, ...]:
        """The names of the first group of author values that holds any (see
        :meth:`offer_authors`)."""
        if self._authors is None:
            self._authors = ()
            try:
                for group in self._author_groups:
                    names = _names(group)
                    if names:
                        self._authors = tuple(drop_organisations(names))
                        break
            except Exception as exc:  # a hostile page or a bug: no (more) authors
                logger.debug("metadata authors failed: %r", exc)
        return self._authors

    def _first_valid(self, field: str) -> str | None:
        try:
            for raw in _candidates(self._offers.get(field, ())):
                value = None if raw is None else self._clean(field, raw)
                if value is not None:
                    if field in _DATES:
                        self.raw[field] = clean_text(raw, MAX_DATE_CHARS) or value
                    return value
        except Exception as exc:  # a hostile page or a bug: no (more) candidates
            logger.debug("metadata field %s failed: %r", field, exc)
        return None

    def _clean(self, field: str, raw: object) -> str | None:
        if field in _DATES:
            return clean_date(raw, self.month_first)
        if field == "language":
            return clean_language(raw)
        if field in ("canonical_url", "image"):
            return clean_url(raw, self.base_url)
        if field == "description":
            return clean_description(raw)
        raise ValueError(f"not a scalar metadata field: {field!r}")


def _candidates(offers: Iterable[Iterable[object]]) -> Iterator[object]:
    for raws in offers:
        yield from raws


def _names(raws: Iterable[object]) -> list[str]:
    """The valid names of the first :data:`MAX_AUTHORS` of ``raws`` (at most that many names,
    deduplicated, page order)."""
    names: list[str] = []
    for count, raw in enumerate(raws):
        if count >= MAX_AUTHORS or len(names) >= MAX_AUTHORS:
            break
        value = clean_name(raw)
        for name in split_names(value) if value is not None else ():
            if name not in names and len(names) < MAX_AUTHORS:
                names.append(name)
    return names
