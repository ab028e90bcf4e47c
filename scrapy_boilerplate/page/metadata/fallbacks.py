"""The article's values from plain HTML, when structured data lacks them: the page's
``<meta>`` and ``<link>`` declarations (:func:`read_fallbacks`), then what it shows
(:func:`read_visible`: datelines and bylines, read only for a field still missing).

Fields, each from the first key (or element) with a valid value:

* published: ``<meta name>`` ``article:published``, ``article.published``, ``pubdate``,
  ``publishdate``, ``publish-date``, ``publish_date``, ``publication_date``, ``date``,
  ``dc.date.issued``, ``dcterms.issued``, ``dc.date``, ``dcterms.date``, ``dcterms.created``,
  ``parsely-pub-date``, ``sailthru.date``, ``published``, ``published-date``,
  ``publication-date``, ``pub_date``, ``citation_publication_date``, ``citation_date``,
  ``citation_online_date``, ``prism.publicationdate``, ``dc.date.created``,
  ``original-publish-date``; the ``content`` or ``datetime`` of an element with
  ``itemprop="datePublished"``; then the ``<time datetime>`` nearest the article (see
  :func:`nearest_time`); then the day the page's URL names (``/2019/11/19/``); shown: a written
  date in the dateline near the article (see :func:`nearest_dateline`), then near the first
  ``<h1>`` (a dateline, then a ``<time datetime>``); then the first valid ``<time datetime>``
  of the page; then a written date in an element named for a date (see
  :func:`dated_element_text`). A page without an article (no first content element) gets
  none of the visible dates: only the URL's.
* modified: ``article:modified``, ``article.updated``, ``last-modified``, ``revised``,
  ``dc.date.modified``, ``dcterms.modified``; ``itemprop="dateModified"``.
* authors: ``author``, ``dc.creator``, ``dcterms.creator``, ``parsely-author``,
  ``sailthru.author`` (all values of the first key that has any); shown: the bylines around
  the first ``<h1>`` or the article (see :func:`byline_names` and :func:`article_region`).
* language: ``<html lang>``, then ``<meta http-equiv="content-language">``, ``language``,
  ``dc.language``.
* canonical URL: ``<link rel="canonical" href>``.
* description: ``description``, ``twitter:description``, ``dc.description``.
* image: ``twitter:image``, ``twitter:image:src``, ``thumbnail``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from lxml import etree

from ...model.document import Element
from ..declarations import in_comment
from .dates import url_date, written_date
from .found import Found
from .tags import PageTags
from .values import clean_date

__all__ = [
    "article_region",
    "read_visible",
    "byline_names",
    "dated_element_text",
    "ANCESTOR_LEVELS",
    "DATELINE_CHARS",
    "nearest_time",
    "nearest_dateline",
    "read_fallbacks",
]

#: How many ancestors of the article's first element are searched for a ``<time datetime>``.
ANCESTOR_LEVELS: Final = 4

_PUBLISHED: Final = (
    "article:published",
    "article.published",
    "pubdate",
    "publishdate",
    "publish-date",
    "publish_date",
    "publication_date",
    "date",
    "dc.date.issued",
    "dcterms.issued",
    "dc.date",
    "dcterms.date",
    "dcterms.created",
    "parsely-pub-date",
    "sailthru.date",
    "datepublished",
    "published",
    "published-date",
    "publication-date",
    "pub_date",
    "citation_publication_date",
    "citation_date",
    "citation_online_date",
    "prism.publicationdate",
    "dc.date.created",
    "original-publish-date",
)
_MODIFIED: Final = (
    "article:modified",
    "article.updated",
    "last-modified",
    "revised",
    "dc.date.modified",
    "dcterms.modified",
    "datemodified",
)
_AUTHORS: Final = ("author", "dc.creator", "dcterms.creator", "parsely-author", "sailthru.author")
_LANGUAGE: Final = ("content-language", "language", "dc.language")
_DESCRIPTION: Final = ("description", "twitter:description", "dc.description")
_IMAGE: Final = ("twitter:image", "twitter:image:src", "thumbnail")
_TIMES: Final = etree.XPath("descendant::time[@datetime]/@datetime")
#: Most byline elements read per kind.
MAX_BYLINES: Final = 10
#: Longest byline text read.
MAX_BYLINE_CHARS: Final = 100
_BYLINES: Final = (
    etree.XPath("descendant::a[@rel='author'] | descendant::*[@itemprop='author']"),
    etree.XPath(
        "descendant::*[contains(@class, 'author') or contains(@class, 'byline')]"
        "[not(self::img or self::script or self::style or self::meta or self::link)]"
        "[not(.//*[contains(@class, 'author') or contains(@class, 'byline')])]"
    ),
)
_NAME_PROP: Final = etree.XPath(".//*[@itemprop='name']")
#: Most characters of text read around the article's start for a dateline.
DATELINE_CHARS: Final = 1500
#: Longest text node read as a dateline (a sentence of the article is not one).
_DATELINE_NODE_CHARS: Final = 80
#: Most elements named for a date whose text is read.
MAX_DATED_ELEMENTS: Final = 50
_DATED_ELEMENTS: Final = etree.XPath(
    "descendant::*[contains(@class, 'date') or contains(@class, 'time')"
    " or contains(@class, 'publish') or contains(@class, 'posted') or contains(@id, 'date')]"
    "[not(self::script)]"
)


def nearest_time(anchor: Element | None) -> str | None:
    """The ``datetime`` of the first ``<time datetime>`` inside the lowest of the
    :data:`ANCESTOR_LEVELS` ancestors of ``anchor`` (the article's first element) that holds
    one, ``anchor`` itself first; None without an anchor or such an element."""
    element = anchor
    for _ in range(ANCESTOR_LEVELS + 1):
        if element is None:
            return None
        found = _TIMES(element)
        if isinstance(found, list) and found:
            return str(found[0])
        element = element.getparent()
    return None


def nearest_dateline(anchor: Element | None) -> str | None:
    """The first short text (at most 80 characters) holding a written date, in the text of the
    lowest of the :data:`ANCESTOR_LEVELS` ancestors of ``anchor`` that holds one (up to
    :data:`DATELINE_CHARS` characters read in each); None without an anchor or such a text."""
    element = anchor
    for _ in range(ANCESTOR_LEVELS + 1):
        if element is None:
            return None
        read = 0
        for text in element.itertext():
            read += len(text)
            if read > DATELINE_CHARS:
                break
            stripped = str(text).strip()
            if 6 <= len(stripped) <= _DATELINE_NODE_CHARS and written_date(stripped):
                return stripped
        element = element.getparent()
    return None


def dated_element_text(region: Element) -> str | None:
    """The first short text holding a written date in an element of ``region`` whose
    ``class`` or ``id`` names a date (``date``, ``time``, ``publish``, ``posted``), among the first
    :data:`MAX_DATED_ELEMENTS` such elements; None without one."""
    found = _DATED_ELEMENTS(region)
    elements = (
        [e for e in found if isinstance(e, etree._Element)] if isinstance(found, list) else []
    )
    for element in elements[:MAX_DATED_ELEMENTS]:
        text = " ".join(str(part) for part in element.itertext()).strip()
        if 6 <= len(text) <= _DATELINE_NODE_CHARS and written_date(text):
            return " ".join(text.split())
    return None


def byline_names(region: Element) -> list[str]:
    """The texts of the bylines in ``region``: the first :data:`MAX_BYLINES` elements that are
    ``rel="author"`` links, hold ``itemprop="author"`` (its ``name`` when it has one) or whose
    ``class`` names an author or a byline, in that order of kinds, outside reader comments
    (:func:`~..declarations.in_comment`), each text at most :data:`MAX_BYLINE_CHARS` long."""
    texts: list[str] = []
    for query in _BYLINES:
        found = query(region)
        for element in found[:MAX_BYLINES] if isinstance(found, list) else ():
            if not isinstance(element, etree._Element) or in_comment(element):
                continue  # a reader comment's author is not the article's
            named = _NAME_PROP(element)
            source = named[0] if isinstance(named, list) and named else element
            if not isinstance(source, etree._Element):
                continue
            text = " ".join(" ".join(str(t) for t in source.itertext()).split())
            if 2 <= len(text) <= MAX_BYLINE_CHARS and text not in texts:
                texts.append(text)
        if texts:
            return texts
    return texts


def _visible_dates(tags: PageTags, anchor: Element | None, region: Element) -> Iterator[str | None]:
    """The visible date candidates in rank order, each looked for on demand; none for a page
    without an article (no ``anchor``)."""
    if anchor is None:
        return
    yield nearest_dateline(anchor)
    yield nearest_dateline(tags.headline)
    yield nearest_time(tags.headline)
    yield next((time for time in tags.times if clean_date(time)), None)
    yield dated_element_text(region)


def article_region(tags: PageTags, anchor: Element | None) -> Element | None:
    """Where the article's dateline and byline are looked for: the highest of the
    :data:`ANCESTOR_LEVELS` ancestors of the first ``<h1>`` (else of ``anchor``) below
    ``<body>``; None without either."""
    start = tags.headline if tags.headline is not None else anchor
    region = start
    for _ in range(ANCESTOR_LEVELS):
        parent = region.getparent() if region is not None else None
        if parent is None or parent.tag in ("body", "html"):
            break
        region = parent
    return region


def read_visible(found: Found, tags: PageTags, anchor: Element | None) -> None:
    """Offer ``found`` what the page shows around its article (see :func:`article_region`):
    a dateline or date element, the bylines' names. Read only for a field no other source
    has."""
    region = article_region(tags, anchor)
    if region is None:
        return
    for value in _visible_dates(tags, anchor, region):
        if "published" in found.values:
            break
        found.offer("published", value)
    found.offer_authors(byline_names(region))


def read_fallbacks(
    found: Found, tags: PageTags, anchor: Element | None, url: str | None = None
) -> None:
    """Offer ``found`` the page's plain-HTML values (``anchor``: the article's first element,
    ``url``: the page's URL)."""
    found.offer_all("published", tags.values(*_PUBLISHED))
    if "published" not in found.values:
        found.offer("published", nearest_time(anchor))
    if "published" not in found.values:
        found.offer("published", url_date(url))
    found.offer_all("modified", tags.values(*_MODIFIED))
    for key in _AUTHORS:
        found.offer_authors(tags.values(key))
    found.offer("language", tags.lang)
    found.offer_all("language", tags.values(*_LANGUAGE))
    found.offer_all("canonical_url", tags.canonical)
    found.offer_all("description", tags.values(*_DESCRIPTION))
    found.offer_all("image", tags.values(*_IMAGE))
