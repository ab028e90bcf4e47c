"""The article's values from plain HTML, when structured data lacks them.

Fields, each from the first key (or element) with a valid value:

* published: ``<meta name>`` ``article:published``, ``article.published``, ``pubdate``,
  ``publishdate``, ``publish-date``, ``publish_date``, ``publication_date``, ``date``,
  ``dc.date.issued``, ``dcterms.issued``, ``dc.date``, ``dcterms.date``, ``dcterms.created``,
  ``parsely-pub-date``, ``sailthru.date``; the ``content`` or ``datetime`` of an element with
  ``itemprop="datePublished"``; then the ``<time datetime>`` nearest the article (see
  :func:`nearest_time`).
* modified: ``article:modified``, ``article.updated``, ``last-modified``, ``revised``,
  ``dc.date.modified``, ``dcterms.modified``; ``itemprop="dateModified"``.
* authors: ``author``, ``dc.creator``, ``dcterms.creator``, ``parsely-author``,
  ``sailthru.author`` (all values of the first key that has any).
* language: ``<html lang>``, then ``<meta http-equiv="content-language">``, ``language``,
  ``dc.language``.
* canonical URL: ``<link rel="canonical" href>``.
* description: ``description``, ``twitter:description``, ``dc.description``.
* image: ``twitter:image``, ``twitter:image:src``, ``thumbnail``.
"""

from __future__ import annotations

from typing import Final

from lxml import etree

from ...model.document import Element
from .found import Found
from .tags import PageTags

__all__ = ["ANCESTOR_LEVELS", "nearest_time", "read_fallbacks"]

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


def read_fallbacks(found: Found, tags: PageTags, anchor: Element | None) -> None:
    """Offer ``found`` the page's plain-HTML values (``anchor``: the article's first element)."""
    found.offer_all("published", tags.values(*_PUBLISHED))
    if "published" not in found.values:
        found.offer("published", nearest_time(anchor))
    found.offer_all("modified", tags.values(*_MODIFIED))
    for key in _AUTHORS:
        found.offer_authors(tags.values(key))
    found.offer("language", tags.lang)
    found.offer_all("language", tags.values(*_LANGUAGE))
    found.offer_all("canonical_url", tags.canonical)
    found.offer_all("description", tags.values(*_DESCRIPTION))
    found.offer_all("image", tags.values(*_IMAGE))
