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
  ``original-publish-date``, ``dateCreated`` (a question's or a post's, on Q&A and forum
  pages), ``ms.date`` (technical documentation's date of its last revision); the ``content``
  or ``datetime`` of an element with ``itemprop="datePublished"``; then any key ending, after
  a prefix, in a publication date's name (``w-published-date``); then the
  ``<time datetime>`` nearest the article (see :func:`nearest_time`); then the day the page's
  URL names (``/2019/11/19/``); shown: a written date in the dateline near the article (see
  :func:`nearest_dateline`), then near the headline (:func:`article_headline`: a dateline, then a
  ``<time datetime>``); then the first valid ``<time datetime>`` of the page; then a written
  date in an element named for a date (see :func:`dated_element_text`), then the first
  dateline of the region read for the byline (see :func:`article_region`); then a written date
  in an element named for a date just after the headline (:meth:`AfterHeadline.date`). A page
  without an article (no first content element) gets none of the visible dates: only the
  URL's.
* modified: ``article:modified``, ``article.updated``, ``last-modified``, ``revised``,
  ``dc.date.modified``, ``dcterms.modified``; ``itemprop="dateModified"``.
* authors: ``author``, ``dc.creator``, ``dcterms.creator``, ``parsely-author``,
  ``sailthru.author``, ``citation_author`` (a paper's, one per author) (all values of the
  first key that has any), then any key ending, after a prefix, in ``author``
  (``cXenseParse:author``), then the labelled values of the Twitter card (``twitter:dataN``
  whose ``twitter:labelN`` is "Written by", as WordPress SEO plugins write them, or
  ``twitter:misc:written by``); shown: the bylines around
  the headline or the article (see :func:`byline_names` and :func:`article_region`), then
  those in the first elements after the headline (:meth:`AfterHeadline.bylines`: bylines, then
  a link to the author's page, ``/author/<name>``), then the first post's author in forum
  software's markup (:func:`forum_starter`).
* language: ``<html lang>``, then ``<meta http-equiv="content-language">``, ``language``,
  ``dc.language``.
* canonical URL: ``<link rel="canonical" href>``.
* description: ``description``, ``twitter:description``, ``dc.description``.
* image: ``twitter:image``, ``twitter:image:src``, ``thumbnail``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import Final
from urllib.parse import urlsplit

from lxml import etree

from ...model.document import Element
from ..declarations import in_comment
from ..segmentation import compiled_twin
from .authors import split_names
from .dates import url_date, written_date
from .found import Found
from .tags import PageTags, forum_poster_pure
from .values import clean_date

__all__ = [
    "article_headline",
    "article_region",
    "region_above",
    "read_visible",
    "byline_names",
    "AfterHeadline",
    "following_elements",
    "MAX_FOLLOWING_ELEMENTS",
    "text_byline",
    "MAX_TEXT_BYLINE_ELEMENTS",
    "card_authors",
    "declared_date",
    "forum_starter",
    "dated_element_text",
    "ANCESTOR_LEVELS",
    "ARTICLE_LEVELS",
    "DATELINE_CHARS",
    "nearest_time",
    "nearest_dateline",
    "leading_texts_pure",
    "read_fallbacks",
]

#: How many ancestors of the article's first element are searched for a ``<time datetime>``.
ANCESTOR_LEVELS: Final = 4
#: How many ancestors of the article's headline (or first element) are searched for the
#: ``<article>`` element holding it.
ARTICLE_LEVELS: Final = 10

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
    "datecreated",
    "ms.date",
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
_AUTHORS: Final = (
    "author",
    "dc.creator",
    "dcterms.creator",
    "parsely-author",
    "sailthru.author",
    "citation_author",
)
#: The end of a ``<meta>`` key, after a prefix, that names the publication date
#: (``w-published-date``, ``og:article:publish_date``).
_PUBLISHED_SUFFIX: Final = re.compile(
    r"\w[-_:.](?:published|publish|publication|pub)[-_]?(?:date|time)$"
)
#: The end of a ``<meta>`` key, after a prefix, that names the author (``cxenseparse:author``).
_AUTHOR_SUFFIX: Final = re.compile(r"\w[-_:.]author$")
#: Twitter card labels whose ``twitter:dataN`` names the author (lower case).
_AUTHOR_LABELS: Final = frozenset(
    ("written by", "author", "by", "geschrieben von", "écrit par", "escrito por", "scritto da")
)
#: Most ``twitter:labelN``/``twitter:dataN`` pairs read.
_MAX_CARD_LABELS: Final = 4
_LANGUAGE: Final = ("content-language", "language", "dc.language")
_DESCRIPTION: Final = ("description", "twitter:description", "dc.description")
_IMAGE: Final = ("twitter:image", "twitter:image:src", "thumbnail")
_TIMES: Final = etree.XPath("descendant::time[@datetime]/@datetime")
#: Most byline elements read per kind.
MAX_BYLINES: Final = 10
#: Longest byline text read.
MAX_BYLINE_CHARS: Final = 100
_AUTHOR_ELEMENTS: Final = etree.XPath(
    "descendant::a/@rel[. = 'author']/.. | descendant::*/@itemprop[. = 'author']/.."
)
#: The ``class`` attributes below an element that name an author or a byline, in document order
#: (matched by libxml2 on the attribute axis: no string is made for the others).
_BYLINE_CLASSES: Final = etree.XPath(
    "descendant::*/@class[contains(., 'author') or contains(., 'byline')"
    " or contains(., 'username')]"
)
#: The ``class`` and ``id`` attributes below an element, in document order: their words are
#: matched in Python (libxml2's ``contains()`` in this union costs twice as much).
_CLASSES_AND_IDS: Final = etree.XPath("descendant::*/@class | descendant::*/@id")
#: The words a byline's ``class`` holds (substrings: ``post-author``, ``bylines``; a forum
#: thread's first ``username`` is its starter's).
_BYLINE_CLASS: Final = re.compile("author|byline|username")
_NOT_BYLINES: Final = frozenset(("img", "script", "style", "meta", "link"))
#: A ``class`` word naming what a byline shows beside the name, not the name: the author's
#: job title (``author-title``, ``byline__role``) or a heading ("Insights from").
_BESIDE_NAME_CLASS: Final = re.compile(
    r"(?:author|byline)[-_]{0,2}(?:titl|role|position|job|heading)", re.IGNORECASE
)
#: The words a date element's ``class`` holds (its ``id``: ``date`` only).
_DATE_CLASS: Final = re.compile("date|time|publish|posted")
_ANY_CASE_DATE_CLASS: Final = re.compile(_DATE_CLASS.pattern, re.IGNORECASE)
#: The words of a ``class`` naming a byline or a date, any case (a filter for both).
_NAMED_AFTER: Final = re.compile(f"{_BYLINE_CLASS.pattern}|{_DATE_CLASS.pattern}", re.IGNORECASE)
#: Words of a shown date that is a modification's.
_UPDATED: Final = re.compile(
    r"updated|modified|revised|aktualisiert|mis à jour|actualizado|aggiornato", re.IGNORECASE
)
#: The words of the ``class`` of a long element named for a date whose first dateline is read.
_LONG_DATED_CLASS: Final = re.compile("date|publish|posted")
_NAME_PROP: Final = etree.XPath(".//*[@itemprop='name']")
#: The path of a link to an author's page, as publishing systems name it (WordPress's
#: ``/author/<name>/``, ``/authors/<name>``): its last segment, after ``author`` or ``authors``.
_AUTHOR_PAGE: Final = re.compile(r"/authors?/[^/?#]+/?$")
#: The words of the ``class`` of an ``<h1>`` that names the site, not the article.
_SITE_NAME_CLASS: Final = re.compile(r"logo|site[-_]?(?:name|title)", re.IGNORECASE)
#: How many levels above the first byline the others must join it.
_NEAR_LEVELS: Final = 3
#: Most elements read for a text byline.
MAX_TEXT_BYLINE_ELEMENTS: Final = 200
#: Most elements after the headline read for a byline or a date (see :class:`AfterHeadline`).
MAX_FOLLOWING_ELEMENTS: Final = 25
#: A byline label at the start of a text, up to its separator.
_TEXT_LABEL: Final = re.compile(
    r"\s*(?:(?:written|posted|published|article|story|words|text)\s+by|by|von|par|por|door"
    r"|authors?|autor(?:in)?|auteur)(?:\s*[:|\-–—]\s*|\s+|$)",
    re.IGNORECASE,
)
#: Lower-case words of a person's name (``Ludwig van Beethoven``).
_NAME_PARTICLES: Final = frozenset(
    ("van", "von", "der", "den", "de", "del", "della", "di", "da", "du", "la", "le", "bin", "al")
)
#: The elements passed over between a byline label and the name after it (see
#: :func:`_after_label`).
_PASSED_OVER: Final = frozenset(("br", "wbr", "img", "picture", "svg"))
#: Most characters of text read around the article's start for a dateline.
DATELINE_CHARS: Final = 1500
#: Longest text node read as a dateline (a sentence of the article is not one).
_DATELINE_NODE_CHARS: Final = 80
#: Shortest text node read as a dateline.
_SHORTEST_DATELINE: Final = 6
#: Most elements named for a date whose text is read.
MAX_DATED_ELEMENTS: Final = 50


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


def _time_near(tags: PageTags, element: Element | None) -> str | None:
    """:func:`nearest_time` of ``element``, not looked for when ``tags`` read the whole tree
    of ``element`` and found no ``<time datetime>``."""
    if element is None or (not tags.times and tags.read_whole(element)):
        return None
    return nearest_time(element)


def nearest_dateline(anchor: Element | None) -> str | None:
    """The first short text (at most 80 characters) holding a written date, in the text of the
    lowest of the :data:`ANCESTOR_LEVELS` ancestors of ``anchor`` that holds one (up to
    :data:`DATELINE_CHARS` characters read in each, as :meth:`itertext` gives them); None
    without an anchor or such a text.

    Each ancestor's texts are read from its start (by the compiled twin of
    :func:`leading_texts_pure` when built): the texts of the element below it, read already,
    are not tested again (they hold no dateline, and more characters come before them now)."""
    element = anchor
    rejected: set[str] = set()  # the texts tested already: no dateline
    for _ in range(ANCESTOR_LEVELS + 1):
        if element is None:
            return None
        dateline = _dateline_in(element, rejected)
        if dateline is not None:
            return dateline
        element = element.getparent()
    return None


def _dateline_in(element: Element, rejected: set[str]) -> str | None:
    """The first dateline in the first :data:`DATELINE_CHARS` characters of the texts of
    ``element``; the short texts tested and ``rejected`` (no dateline) are added to it."""
    read = (DATELINE_CHARS, _SHORTEST_DATELINE, _DATELINE_NODE_CHARS)  # no other text returned
    found = _speedups.leading_texts(element, *read) if _speedups is not None else None
    for text in found if found is not None else leading_texts_pure(element, *read):
        stripped = text.strip()
        if _SHORTEST_DATELINE <= len(stripped) <= _DATELINE_NODE_CHARS and stripped not in rejected:
            if written_date(stripped):
                return stripped
            rejected.add(stripped)
    return None


def leading_texts_pure(
    element: Element, limit: int, shortest: int = 0, longest: int = -1
) -> list[str]:
    """The texts of ``element`` (:meth:`itertext`) as long as their total length is at most
    ``limit`` characters, whose length once stripped is from ``shortest`` to ``longest`` (no
    bound when negative; the others count towards ``limit``)."""
    texts: list[str] = []
    read = 0
    for text in map(str, element.itertext()):
        read += len(text)
        if read > limit:
            break
        length = len(text.strip()) if shortest > 0 or longest >= 0 else 0
        if shortest <= length and (longest < 0 or length <= longest):
            texts.append(text)
    return texts


def _stripped_text(element: Element, limit: int) -> str | None:
    """``" ".join(element.itertext()).strip()``, or None as soon as that is longer than
    ``limit`` characters (the rest of the text is not read)."""
    parts: list[str] = []
    length = 0  # from the first to the last non-space character so far
    pending = 0  # spaces after the last non-space character
    for part in map(str, element.itertext()):
        piece = f" {part}" if parts else part
        parts.append(piece)
        content = piece.rstrip()
        if content:
            length = length + pending + len(content) if length else len(content.lstrip())
            pending = len(piece) - len(content)
            if length > limit:
                return None
        else:
            pending += len(piece)
    return "".join(parts).strip()


def _collapsed_text(element: Element, limit: int) -> str | None:
    """The text of ``element`` with each run of spaces as one space (its texts joined by a
    space), or None as soon as that is longer than ``limit`` characters."""
    words: list[str] = []
    length = -1
    for part in map(str, element.itertext()):
        for word in part.split():
            words.append(word)
            length += len(word) + 1
        if length > limit:
            return None
    return " ".join(words)


def _attributes(
    query: etree.XPath, element: Element, words: re.Pattern[str]
) -> list[tuple[etree._ElementUnicodeResult, Element]]:
    """The attributes ``query`` selects below ``element`` that hold one of ``words``, each with
    the element holding it (the words are matched first: the owner of every attribute is not
    looked up)."""
    found = query(element)
    return [
        (value, owner)
        for value in (found if isinstance(found, list) else ())
        if isinstance(value, etree._ElementUnicodeResult)
        and words.search(value) is not None
        and (owner := value.getparent()) is not None
    ]


def _dated_elements(region: Element) -> list[Element]:
    """The first :data:`MAX_DATED_ELEMENTS` elements of ``region`` (``<script>`` aside) whose
    ``class`` holds ``date``, ``time``, ``publish`` or ``posted``, or whose ``id`` holds
    ``date``, in document order (by the compiled twin when built)."""
    found: list[Element] | None = (
        _speedups.date_named_elements(region, MAX_DATED_ELEMENTS) if _speedups is not None else None
    )
    if found is not None:
        return found
    elements: list[Element] = []
    for value, element in _attributes(_CLASSES_AND_IDS, region, _DATE_CLASS):
        named = value.attrname == "class" or "date" in value
        repeated = bool(elements) and elements[-1] is element  # its class, then its id
        if element.tag != "script" and not repeated and named:
            elements.append(element)
            if len(elements) >= MAX_DATED_ELEMENTS:
                break
    return elements


def dated_element_text(region: Element) -> str | None:
    """The first short text holding a written date in an element of ``region`` whose
    ``class`` or ``id`` names a date (``date``, ``time``, ``publish``, ``posted``), among the first
    :data:`MAX_DATED_ELEMENTS` such elements: its whole text, or when that is long and its
    ``class`` names a date, a publication or a post (not a time: ``timeline``), its first
    dateline (``<div class="meta date-header"><span>Posted on April 13, 2023</span><ul
    class="tags">...``); None without one."""
    return _dated_text(_dated_elements(region))


def _dated_text(elements: Iterable[Element]) -> str | None:
    """The first short text holding a written date of ``elements`` (each named for a date), as
    :func:`dated_element_text` reads them; None without one."""
    for element in elements:
        text = _stripped_text(element, _DATELINE_NODE_CHARS)
        if text is None and _LONG_DATED_CLASS.search(element.get("class") or ""):
            text = _dateline_in(element, set())
        if text is not None and len(text) >= 6 and written_date(text):
            return " ".join(text.split())
    return None


def _is_below(element: Element, ancestor: Element, top: Element) -> bool:
    """Whether ``element`` is below ``ancestor`` (both below ``top``)."""
    for parent in element.iterancestors():
        if parent is ancestor:
            return True
        if parent is top:
            return False
    return False


def _classed_bylines(region: Element) -> list[Element]:
    """The first :data:`MAX_BYLINES` elements of ``region`` whose ``class`` names an author or a
    byline and that hold no such element (images, scripts, styles, ``<meta>`` and ``<link>``
    aside), in document order.

    An element holds one exactly when the next such element in document order is below it, so
    each walk up from that next element ends at the element (its length is then paid by the
    elements walked, each once) or, at most :data:`MAX_BYLINES` times, at ``region``."""
    found = _speedups.byline_class_elements(region) if _speedups is not None else None
    named = (
        found
        if found is not None
        else [element for _, element in _attributes(_BYLINE_CLASSES, region, _BYLINE_CLASS)]
    )
    elements: list[Element] = []
    for index, element in enumerate(named):
        if element.tag in _NOT_BYLINES:
            continue
        following = named[index + 1] if index + 1 < len(named) else None
        if following is None or not _is_below(following, element, region):
            elements.append(element)
            if len(elements) >= MAX_BYLINES:
                break
    return elements


def _author_elements(region: Element) -> list[Element]:
    """The ``rel="author"`` links and ``itemprop="author"`` elements below ``region``, in
    document order (by the compiled twin when built)."""
    compiled: list[Element] | None = (
        _speedups.author_elements(region) if _speedups is not None else None
    )
    if compiled is not None:
        return compiled
    found = _AUTHOR_ELEMENTS(region)
    return [e for e in found if isinstance(e, etree._Element)] if isinstance(found, list) else []


def byline_names(region: Element) -> list[str]:
    """The texts of the bylines in ``region``: the first :data:`MAX_BYLINES` elements that are
    ``rel="author"`` links, hold ``itemprop="author"`` (its ``name`` when it has one: a
    ``<meta itemprop="name">`` gives its ``content``) or whose ``class`` names an author, a
    byline or a username (a forum's), in that order of kinds, outside reader comments
    (:func:`~..declarations.in_comment`), each text at most :data:`MAX_BYLINE_CHARS` long; of
    one kind, only the first element naming someone and those near it (:func:`_near`:
    co-authors' links in one byline; the bylines of answers, replies or other stories further
    down are not the page's)."""
    for find in (_author_elements, _classed_bylines):
        texts = _byline_texts(find(region)[:MAX_BYLINES])
        if texts:
            return texts
    return []


def _byline_texts(elements: Iterable[Element]) -> list[str]:
    """The texts of the byline ``elements`` that name someone, outside reader comments: the
    first and those near it (see :func:`byline_names`)."""
    texts: list[str] = []
    first: Element | None = None
    for element in elements:
        if _BESIDE_NAME_CLASS.search(element.get("class") or "") is not None:
            continue  # "Senior Editor", "About the author"
        if in_comment(element):
            continue  # a reader comment's author is not the article's
        if first is not None and not _near(element, first):
            continue
        text = _byline_text(element)
        if text is None or len(text) < 2 or text in texts or not split_names(text):
            continue  # no name: a label ("By") or a picture
        texts.append(text)
        first = first if first is not None else element
    return texts


def following_elements(start: Element, limit: int) -> Iterator[Element]:
    """The first ``limit`` elements after ``start`` in document order, its own descendants
    aside, up to the end of ``<body>``."""
    count = 0
    node: Element | None = start
    while node is not None and node.tag not in ("body", "html"):
        for sibling in node.itersiblings(etree.Element):
            for element in sibling.iter(etree.Element):
                yield element
                count += 1
                if count >= limit:
                    return
        node = node.getparent()


_Named = tuple[list[Element], list[Element], list[Element], list[Element]]


def _named_after(headline: Element) -> _Named:
    """Among the first :data:`MAX_FOLLOWING_ELEMENTS` elements after ``headline``: the
    ``rel="author"`` links and ``itemprop="author"`` elements, those whose ``class`` names an
    author, a byline or a username, those whose ``class`` names a date in any case (the
    classes of images, scripts, styles, ``<meta>`` and ``<link>`` aside), and the links to an
    author's page (:data:`_AUTHOR_PAGE`, the query and fragment aside)."""
    declared: list[Element] = []
    bylines: list[Element] = []
    dated: list[Element] = []
    linked: list[Element] = []
    for element in following_elements(headline, MAX_FOLLOWING_ELEMENTS):
        if element.get("itemprop") == "author" or (
            element.tag == "a" and element.get("rel") == "author"
        ):
            declared.append(element)
        if element.tag == "a" and _is_author_page(element.get("href")):
            linked.append(element)
        names = element.get("class")
        if not names or _NAMED_AFTER.search(names) is None or element.tag in _NOT_BYLINES:
            continue  # one search for most classes: they name neither
        if _BYLINE_CLASS.search(names) is not None:
            bylines.append(element)
        if _ANY_CASE_DATE_CLASS.search(names) is not None:
            dated.append(element)
    return declared, bylines, dated, linked


def _is_author_page(href: str | None) -> bool:
    """Whether ``href`` links to an author's page (:data:`_AUTHOR_PAGE`)."""
    if not href or "author" not in href:
        return False
    path = href.split("#", 1)[0].split("?", 1)[0]
    return _AUTHOR_PAGE.search(path) is not None


class AfterHeadline:
    """The elements named for a byline or a date among the first
    :data:`MAX_FOLLOWING_ELEMENTS` elements after the article's headline (a block of its own
    between the headline's block and the article's: an author box, a dateline under the
    title), gathered in one pass on first use; none without a headline."""

    __slots__ = ("_found", "headline")

    def __init__(self, headline: Element | None) -> None:
        self.headline = headline
        self._found: _Named | None = None

    def _named(self) -> _Named:
        if self._found is None:
            self._found = _named_after(self.headline) if self.headline is not None else None
        return self._found or ([], [], [], [])

    def date(self) -> str | None:
        """The first short text holding a written date in the elements whose ``class`` names
        a date (``date``, ``time``, ``publish``, ``posted``, any case:
        ``Author_publicationTime``), read as :func:`dated_element_text` reads them; None
        without one, or when that text names an update ("Updated Feb. 27, 2025": not the
        publication)."""
        text = _dated_text(self._named()[2])
        return None if text is None or _UPDATED.search(text) is not None else text

    def bylines(self) -> list[str]:
        """The texts of the bylines: ``rel="author"`` links and ``itemprop="author"``
        elements, else the innermost elements whose ``class`` names an author, a byline or a
        username, as :func:`byline_names` reads them; else the texts of the links to an
        author's page that name people (:func:`_names_people`: ``<a href="/author/ana-lima/">
        Ana Lima</a>``, not "Articles by Ana")."""
        declared, classed, _, linked = self._named()
        innermost = [
            element
            for index, element in enumerate(classed)
            if index + 1 == len(classed)
            or not any(parent is element for parent in classed[index + 1].iterancestors())
        ]
        for elements in (declared, innermost):
            texts = _byline_texts(elements[:MAX_BYLINES])
            if texts:
                return texts
        return [text for text in _byline_texts(linked[:MAX_BYLINES]) if _names_people(text)]


def _byline_text(element: Element) -> str | None:
    """The text of a byline element: its ``itemprop="name"`` element's (a ``<meta>``'s
    ``content``) when it has one, else its own; None when longer than
    :data:`MAX_BYLINE_CHARS`."""
    named = _NAME_PROP(element)
    source = named[0] if isinstance(named, list) and named else element
    if not isinstance(source, etree._Element):
        return None
    if source.tag == "meta":
        content = source.get("content") or ""
        return " ".join(content.split()) if len(content) <= MAX_BYLINE_CHARS else None
    return _collapsed_text(source, MAX_BYLINE_CHARS)


def _near(element: Element, first: Element) -> bool:
    """Whether ``element`` and ``first`` are below one ancestor at most :data:`_NEAR_LEVELS`
    levels above ``first``."""
    above = set(islice(first.iterancestors(), _NEAR_LEVELS))
    return any(parent in above for parent in islice(element.iterancestors(), _NEAR_LEVELS))


def text_byline(region: Element) -> str | None:
    """A byline written as text near the headline: the text (at most
    :data:`MAX_BYLINE_CHARS` long) of the first of the first :data:`MAX_TEXT_BYLINE_ELEMENTS`
    elements of ``region`` whose own text starts with a byline label ("By", "Written by",
    "Von", "Par", "Por", "Author:", ...; a label alone: the text after it, see
    :func:`_after_label`) and that names people whose names are capitalised (``By clicking
    Submit`` names none); None without one."""
    for element in _labelled(region):
        byline = _collapsed_text(element, MAX_BYLINE_CHARS)
        if byline is not None and _TEXT_LABEL.fullmatch(byline):
            byline = _after_label(element)
        if byline is None or not _names_people(byline):
            byline = _linked_name(element)
        if byline is not None and _names_people(byline):
            return byline
    return None


def _after_label(label: Element) -> str | None:
    """The text after an element holding a byline label alone: its tail when that holds more
    than spaces (``<strong>By:</strong> Ana Lima``), else the text of the element after it,
    line breaks, pictures and comments passed over (``<b>Written by</b><br><a>Ana Lima</a>``)
    or the text after them (``<b>By</b><br>Ana Lima``); None without one, or when it is
    longer than :data:`MAX_BYLINE_CHARS`."""
    tail = " ".join((label.tail or "").split())
    if tail:
        return tail if len(tail) <= MAX_BYLINE_CHARS else None
    for following in label.itersiblings():
        if isinstance(following.tag, str) and following.tag not in _PASSED_OVER:
            return _collapsed_text(following, MAX_BYLINE_CHARS)
        if (following.tail or "").strip():
            return _after_label(following)  # <b>By</b><br>Ana Lima: the tail of the <br>
    return None


def _linked_name(element: Element) -> str | None:
    """The text of the link that follows a byline label, the whole own text of ``element``,
    with no text between them (``By <a>Name</a> · View in print``: the link is the name, the
    rest is not); None without one."""
    if not _TEXT_LABEL.fullmatch(element.text or ""):
        return None
    for child in element:
        if isinstance(child.tag, str):
            return _collapsed_text(child, MAX_BYLINE_CHARS) if child.tag == "a" else None
        if (child.tail or "").strip():
            return None  # a comment, then text
    return None


def _labelled(region: Element) -> Iterator[Element]:
    """The elements among the first :data:`MAX_TEXT_BYLINE_ELEMENTS` of ``region.iter()`` whose
    own text starts with a byline label (the compiled twin, when built, passes over those whose
    text cannot)."""
    found = (
        _speedups.label_candidates(region, MAX_TEXT_BYLINE_ELEMENTS)
        if _speedups is not None
        else None
    )
    for element in found if found is not None else islice(region.iter(), MAX_TEXT_BYLINE_ELEMENTS):
        text = element.text
        if text and isinstance(element.tag, str) and _TEXT_LABEL.match(text) is not None:
            yield element


def _names_people(byline: str) -> bool:
    """Whether ``byline`` holds names, each of capitalised words (particles aside, and not
    particles alone: ``Montag, den 1. Mai`` names no one)."""
    names = split_names(byline)
    return bool(names) and all(
        all(word[:1].isupper() or word.lower() in _NAME_PARTICLES for word in name.split())
        and any(word[:1].isupper() for word in name.split())
        for name in names
    )


def _visible_dates(
    tags: PageTags, anchor: Element | None, region: Element, after: AfterHeadline
) -> Iterator[str | None]:
    """The visible date candidates in rank order, each looked for on demand; none for a page
    without an article (no ``anchor``)."""
    if anchor is None:
        return
    yield declared_date(nearest_dateline(anchor), tags, anchor)
    headline = after.headline
    yield declared_date(nearest_dateline(headline), tags, anchor)
    yield _time_near(tags, headline)
    yield next((time for time in tags.times if clean_date(time)), None)
    yield declared_date(dated_element_text(region), tags, anchor)
    yield declared_date(_dateline_in(region, set()), tags, anchor)
    yield declared_date(after.date(), tags, anchor)


def declared_date(dateline: str | None, tags: PageTags, element: Element) -> str | None:
    """``dateline``, or the ``datetime`` of the first ``<time>`` element of the page of
    ``element`` whose whole text ``dateline`` is, when that is a valid date: the markup's
    statement of the date the page shows (``<time datetime="2023-10-12">10/12/2023</time>``
    is October 12, whatever the page's language); None without a dateline."""
    if dateline is None or not tags.times:
        return dateline
    shown = " ".join(dateline.split())
    for time in element.getroottree().getroot().iter("time"):
        value = time.get("datetime")
        if value and _collapsed_text(time, _DATELINE_NODE_CHARS) == shown and clean_date(value):
            return value
    return dateline


def article_headline(tags: PageTags) -> Element | None:
    """The page's first ``<h1>``, unless it is the site's name in the banner: inside a link
    (at most :data:`_NEAR_LEVELS` levels up), holding a link to the site's home page (path
    ``/``), or with a ``class`` naming a logo or the site's name or title."""
    headline = tags.headline
    if headline is None or _SITE_NAME_CLASS.search(headline.get("class") or ""):
        return None
    if any(parent.tag == "a" for parent in islice(headline.iterancestors(), _NEAR_LEVELS)):
        return None
    return None if any(_is_home(link.get("href")) for link in headline.iter("a")) else headline


def _is_home(href: str | None) -> bool:
    """Whether ``href`` links to a site's home page (``/``, ``https://host/``)."""
    href = (href or "").strip()
    if not href or href.startswith("#"):
        return False
    try:
        parts = urlsplit(href)
    except ValueError:
        return False
    return parts.path in ("", "/", "./") and not parts.query


def article_region(tags: PageTags, anchor: Element | None) -> Element | None:
    """Where the article's dateline and byline are looked for: the region above the article's
    headline (:func:`article_headline`; else above ``anchor``), see :func:`region_above`;
    None without either."""
    headline = article_headline(tags)
    return region_above(headline if headline is not None else anchor)


def region_above(start: Element | None) -> Element | None:
    """The highest of the :data:`ANCESTOR_LEVELS` ancestors of ``start`` below ``<body>``, or
    the ``<article>`` element holding ``start`` when it is higher (at most
    :data:`ARTICLE_LEVELS` levels up: it holds the article's header); None without ``start``."""
    region = start
    for level, parent in enumerate(start.iterancestors() if start is not None else ()):
        if level >= ARTICLE_LEVELS or parent.tag in ("body", "html"):
            break
        if level < ANCESTOR_LEVELS or parent.tag == "article":
            region = parent
        if parent.tag == "article" and level >= ANCESTOR_LEVELS:
            break
    return region


def read_visible(found: Found, tags: PageTags, anchor: Element | None) -> None:
    """Offer ``found`` what the page shows around its article (see :func:`article_region`):
    a dateline or date element, the bylines' names; each looked for only when asked."""
    region = article_region(tags, anchor)
    if region is None:
        return
    after = AfterHeadline(article_headline(tags))
    found.offer_all("published", _visible_dates(tags, anchor, region, after))
    found.offer_authors(_visible_authors(region, anchor, after, tags))


def _visible_authors(
    region: Element, anchor: Element | None, after: AfterHeadline, tags: PageTags | None = None
) -> Iterator[str]:
    """The bylines' names in ``region`` (:func:`byline_names`), else its text byline
    (:func:`text_byline`); else those of the region above ``anchor`` (:func:`region_above`)
    when it is not within ``region`` (a headline far from the article's start: a hero
    banner's); else the bylines just after the headline (:meth:`AfterHeadline.bylines`);
    else a forum thread's starter (:func:`forum_starter`); looked for on the first
    ``next()``."""
    for place in (region, region_above(anchor)):
        if place is None or (place is not region and _is_below(place, region, place)):
            continue
        names = byline_names(place)
        if not names:
            byline = text_byline(place)
            names = [byline] if byline is not None else []
        if names:
            yield from names
            return
    names = after.bylines()
    if not names:
        starter = forum_starter(region, tags)
        names = [starter] if starter is not None else []
    yield from names


def forum_starter(element: Element, tags: PageTags | None = None) -> str | None:
    """The name of the first post's author (a thread's starter) in the page of ``element``, as
    forum software without a ``class`` naming an author or a username writes it (see
    :func:`.tags.forum_poster_pure`: found by the walk of ``tags`` when it walked the tree of
    ``element``); None without one, or when its text is longer than :data:`MAX_BYLINE_CHARS`."""
    root = element.getroottree().getroot()
    walked = tags is not None and tags.tree is root
    poster = tags.forum_poster if tags is not None and walked else forum_poster_pure(root)
    if poster is None:
        return None
    return _collapsed_text(poster, MAX_BYLINE_CHARS) or None


def _later(find: Callable[[], str | None]) -> Iterator[str | None]:
    """The value ``find()`` gives, found on the first ``next()``."""
    yield find()


def card_authors(tags: PageTags) -> list[str]:
    """The author values of the page's Twitter card: each ``twitter:dataN`` (``N`` up to
    :data:`_MAX_CARD_LABELS`) whose ``twitter:labelN`` is an author label ("Written by"), then
    ``twitter:misc:written by``."""
    values: list[str] = []
    for number in range(1, _MAX_CARD_LABELS + 1):
        labels = tags.meta.get(f"twitter:label{number}")
        if labels and " ".join(labels[0].split()).lower() in _AUTHOR_LABELS:
            values += tags.meta.get(f"twitter:data{number}", ())
    return values + tags.values("twitter:misc:written by")


def _suffixed_values(tags: PageTags, suffix: re.Pattern[str]) -> Iterator[str]:
    """The values of the ``<meta>`` keys that end with ``suffix`` (a vendor's or a site's
    prefix before a known name: ``cXenseParse:author``, ``w-published-date``), key by key in
    page order; read on the first ``next()``."""
    for key, values in tags.meta.items():
        if suffix.search(key) is not None:
            yield from values


def read_fallbacks(
    found: Found, tags: PageTags, anchor: Element | None, url: str | None = None
) -> None:
    """Offer ``found`` the page's plain-HTML values (``anchor``: the article's first element,
    ``url``: the page's URL)."""
    found.offer_all("published", tags.values(*_PUBLISHED))
    found.offer_all("published", _suffixed_values(tags, _PUBLISHED_SUFFIX))
    found.offer_all("published", _later(lambda: _time_near(tags, anchor)))
    found.offer_all("published", _later(lambda: url_date(url)))
    found.offer_all("modified", tags.values(*_MODIFIED))
    for key in _AUTHORS:
        found.offer_authors(tags.values(key))
    found.offer_authors(_suffixed_values(tags, _AUTHOR_SUFFIX))
    found.offer_authors(card_authors(tags))
    found.offer("language", tags.lang)
    found.offer_all("language", tags.values(*_LANGUAGE))
    found.offer_all("canonical_url", tags.canonical)
    found.offer_all("description", tags.values(*_DESCRIPTION))
    found.offer_all("image", tags.values(*_IMAGE))


_speedups = compiled_twin(f"{__name__.rsplit('.', 2)[0]}._speedups")
