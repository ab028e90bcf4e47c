"""The article's metadata (dates, authors, language, canonical URL, description, main image)
read from the parsed page: JSON-LD, microdata, OpenGraph, then plain HTML.

Precedence: each field comes from the first source, in this order, that has a valid value for
it (values are cleaned by :mod:`.values`; ``authors`` all come from one source):

1. JSON-LD (:mod:`.jsonld`, :mod:`.schema`): the article object, then the web page object;
2. microdata (:mod:`.microdata`, read only with extruct installed, and only when a field is
   still missing after JSON-LD), its article items that are a listing's teasers aside (see
   :func:`.schema.without_teasers`);
3. OpenGraph (:mod:`.opengraph`);
4. plain HTML (:mod:`.fallbacks`): ``<meta>`` names, the ``<time>`` nearest the article,
   the date in the URL, ``<link rel=canonical>``, ``<html lang>``;
5. for the publication date and the authors only, what the page shows (:mod:`.fallbacks`):
   datelines and bylines.

Dates are normalised to ISO 8601 (:mod:`.dates`; an ambiguous digits-only date is month first
on a page whose ``<html lang>`` is ``en-US``); a value that is no valid date does not
count, so the next source is asked. A source that gives the day only yields to a later one
that gives a time on that same day. A published date equal to the same source's modified date
(within :data:`STAMP_SECONDS`) is the stamp of a save (a CMS writing one value into both), not
the first publication, and so is one after the modified day: a date the page shows (the
visible source), when earlier, is taken instead. A published instant given in UTC yields to a
``<time datetime>`` of the page writing the same instant with the publisher's offset (see
:func:`_local_instant`).
``published_raw`` and ``modified_raw`` keep the chosen value as written. Author values are
split into person names and cleaned (:mod:`.authors`); a source naming only organisations (an
agency, the site itself) or user names of the site's publishing system (``andrew.keaveney``)
yields to a later source naming a person, and keeps the field when none does.

The canonical URL is the exception: ``<link rel="canonical">`` comes first (it is the page's
own statement of its canonical URL), then JSON-LD, microdata and ``og:url``.

URLs are resolved against the page URL (joined with ``<base href>``). extruct (the
``metadata`` extra), when installed, reads microdata and the JSON-LD scripts :mod:`json` cannot
parse (JavaScript comments); without it microdata is not read. extruct's OpenGraph extractor is
not used (see :mod:`.opengraph`). Reading never raises: a source
that fails (malformed or hostile markup, a bug) contributes nothing, and the others still count.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Final, TypeVar
from urllib.parse import urljoin

from ...model.document import Element
from ...model.metadata import METADATA_FIELDS, ArticleMetadata
from .authors import drop_organisations, is_account_name, is_organisation, site_keys
from .dates import month_first
from .extruct_support import extruct_extractors
from .fallbacks import read_fallbacks, read_visible
from .found import Found
from .jsonld import jsonld_documents
from .microdata import microdata_documents
from .opengraph import read_opengraph
from .schema import read_schema, schema_objects, without_teasers
from .tags import PageTags, page_tags
from .values import clean_date

__all__ = [
    "SOURCES",
    "FIELD_SOURCES",
    "STAMP_SECONDS",
    "read_metadata",
    "extruct_available",
]

logger = logging.getLogger(__name__)

#: The sources, in their default order of precedence.
SOURCES: Final = ("jsonld", "microdata", "opengraph", "html")
#: For each field, its sources in order of precedence ("visible": what the page shows).
FIELD_SOURCES: Final[Mapping[str, tuple[str, ...]]] = {
    **{name: SOURCES for name in METADATA_FIELDS},
    "published": (*SOURCES, "visible"),
    "authors": (*SOURCES, "visible"),
    "canonical_url": ("html", "jsonld", "microdata", "opengraph"),
}

_NO_TAGS: Final = PageTags()
_DATES: Final = ("published", "modified")
_SITE_NAMES: Final = ("og:site_name", "application-name")
_T = TypeVar("_T")
#: Most seconds between a source's published and modified times for both to be one save's stamp.
STAMP_SECONDS: Final = 60


def extruct_available() -> bool:
    """Whether extruct (the ``metadata`` extra) is installed."""
    return extruct_extractors() is not None


class _Reader:
    """Reads the sources of one page on demand, each at most once.

    It holds no callable bound to itself: a reference cycle would keep the page's tree alive
    until the next garbage collection instead of freeing it with the reader.
    """

    def __init__(
        self, root: Element, url: str | None, anchor: Element | None, use_extruct: bool
    ) -> None:
        self.root = root
        self.url = url
        self.anchor = anchor
        self.extruct = extruct_extractors() if use_extruct else None
        self.tags = _guarded("tags", lambda: page_tags(root), _NO_TAGS)
        self.base_url = _base_url(url, self.tags.base_href)
        self.sites = site_keys(self.tags.values(*_SITE_NAMES), url)
        self.found: dict[str, Found] = {}

    def source(self, name: str) -> Found:
        """What source ``name`` found (read on first call)."""
        if name not in self.found:
            found = Found(self.base_url, month_first(self.tags.lang))
            _guarded(name, lambda: self._read(name, found), None)
            self.found[name] = found
        return self.found[name]

    def _read(self, name: str, found: Found) -> None:
        if name == "jsonld":
            self._jsonld(found)
        elif name == "microdata":
            self._microdata(found)
        elif name == "opengraph":
            read_opengraph(found, self.tags)
        elif name == "html":
            read_fallbacks(found, self.tags, self.anchor, self.url)
        elif name == "visible":
            read_visible(found, self.tags, self.anchor)
        else:
            raise ValueError(f"unknown metadata source {name!r}")

    def _jsonld(self, found: Found) -> None:
        read_schema(found, schema_objects(jsonld_documents(self.tags.jsonld, self.extruct)))

    def _microdata(self, found: Found) -> None:
        if self.extruct is not None:
            documents = microdata_documents(
                self.root, self.base_url, self.extruct, self.tags.item_types
            )
            page_urls = [url for url in (self.url, *self.tags.canonical) if url]
            read_schema(found, schema_objects(without_teasers(documents, page_urls)))


def _guarded(name: str, read: Callable[[], _T], default: _T) -> _T:
    """``read()``, or ``default`` if it raises (logged at DEBUG)."""
    try:
        return read()
    except Exception as exc:  # a hostile page or a library bug never fails extraction
        logger.debug("metadata source %s failed: %r", name, exc)
        return default


def _base_url(url: str | None, base_href: str | None) -> str | None:
    """The URL relative URLs resolve against: ``url`` joined with ``<base href>``."""
    if not base_href:
        return url
    try:
        return urljoin(url, base_href.strip()) if url else base_href.strip()
    except ValueError:
        return url


def read_metadata(
    root: Element,
    url: str | None = None,
    *,
    anchor: Element | None = None,
    use_extruct: bool = True,
) -> ArticleMetadata:
    """The metadata of the page ``root`` (at ``url``) by the rules of the module docstring.

    ``anchor`` is the article's first element (its nearest ``<time>`` is the date of last
    resort); ``use_extruct=False`` reads as if extruct were not installed. Never raises.
    """
    reader = _Reader(root, url, anchor, use_extruct)
    values: dict[str, str] = {}
    authors: tuple[str, ...] = ()
    for name in METADATA_FIELDS:
        if name == "authors":
            authors = _authors(reader)
            continue
        for index, source in enumerate(FIELD_SOURCES[name]):
            found = reader.source(source)
            value = found.value(name)
            if value is not None:
                if name in _DATES:
                    later = FIELD_SOURCES[name][index + 1 :]
                    found = _precise_date(reader, name, found, later)
                    if name == "published" and "visible" in later:
                        found = _first_publication(reader, found)
                    value = found.value(name) or value
                    values[f"{name}_raw"] = found.raw[name]
                    local = _local_instant(reader.tags, value) if name == "published" else None
                    if local is not None:
                        value, values[f"{name}_raw"] = local
                values[name] = value
                break
    return ArticleMetadata(authors=authors, **values)


def _authors(reader: _Reader) -> tuple[str, ...]:
    """The authors of the first source (in :data:`FIELD_SOURCES` order) naming someone who is
    not an organisation, its organisations dropped; a source naming only user names of the
    site's publishing system (:func:`.authors.is_account_name`) yields to a later one naming a
    person as people's names are written (:func:`_written_name`); else the first user names
    found, else the first organisations; none without any."""
    authors: tuple[str, ...] = ()
    accounts = False  # ``authors`` are user names
    for source in FIELD_SOURCES["authors"]:
        names = reader.source(source).authors
        if not names:
            continue
        if all(is_organisation(author, reader.sites) for author in names):
            authors = authors or names
        elif all(is_account_name(author) for author in names):
            authors = authors if accounts else names
            accounts = True
        elif not accounts or any(_written_name(author) for author in names):
            return tuple(drop_organisations(names, reader.sites))
    return authors


def _written_name(author: str) -> bool:
    """Whether ``author`` is written as a person's name: two words or more, each capitalised."""
    words = author.split()
    return len(words) >= 2 and all(word[:1].isupper() for word in words)


def _first_publication(reader: _Reader, found: Found) -> Found:
    """``found``, or the visible source when ``found``'s published date is a save's stamp
    (:func:`_one_stamp` with its modified date) or after its modified day (no first
    publication follows a modification) and the page shows an earlier day."""
    published, modified = found.value("published"), found.value("modified")
    if published is None or modified is None:
        return found
    if not _one_stamp(published, modified) and published[:10] <= modified[:10]:
        return found
    visible = reader.source("visible")
    shown = visible.value("published")
    return visible if shown is not None and shown[:10] < published[:10] else found


def _local_instant(tags: PageTags, published: str) -> tuple[str, str] | None:
    """The first ``<time datetime>`` of the page (value, raw) that writes ``published``, an
    instant given in UTC, with the publisher's offset: the same instant (within
    :data:`STAMP_SECONDS`) with another offset (the day a page shows is its local day); None
    without one."""
    if not published.endswith("+00:00"):
        return None
    for raw in tags.times:
        if "+" not in raw[10:] and "-" not in raw[10:]:
            continue  # no offset: not looked at
        value = clean_date(raw) or ""
        offset = value[19:]
        if offset[:1] in ("+", "-") and offset != "+00:00" and _one_stamp(value, published):
            return value, raw
    return None


def _one_stamp(first: str, second: str) -> bool:
    """Whether two ISO 8601 values are one stamp: the same day when either has no time, else
    at most :data:`STAMP_SECONDS` apart (wall clocks when either has no zone)."""
    if len(first) == 10 or len(second) == 10:
        return first[:10] == second[:10]
    try:
        one, other = datetime.fromisoformat(first), datetime.fromisoformat(second)
        if (one.tzinfo is None) != (other.tzinfo is None):
            one, other = one.replace(tzinfo=None), other.replace(tzinfo=None)
        return abs((one - other).total_seconds()) <= STAMP_SECONDS
    except ValueError:
        return False


def _precise_date(reader: _Reader, name: str, found: Found, later: tuple[str, ...]) -> Found:
    """``found``, or the first later source whose date is the same day with a time (a
    source that gives the day only yields to one that gives the time)."""
    day = found.value(name)
    if day is None or len(day) != 10:
        return found
    for source in later:
        other = reader.source(source)
        value = other.value(name)
        if value is not None and len(value) > 10 and value.startswith(day):
            return other
    return found
