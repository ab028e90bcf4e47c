"""The page's metadata elements, found in one walk over ``<meta>``, ``<link>``, ``<base>``,
``<script>``, ``<time>`` and ``<h1>`` (lxml's tag filter: no XPath over the whole tree per kind).

Rules: a ``<meta>`` with a ``content`` is filed under each of its ``name``, ``property``,
``http-equiv`` and ``itemprop`` values, lower-cased (``DC.date`` is ``dc.date``); a ``<time>``
with an ``itemprop`` and a ``datetime`` (``<time itemprop="datePublished">``) is filed under
its ``itemprop`` too, and the ``datetime`` of every ``<time>`` (the first :data:`MAX_TIMES`) is
kept in page order; the first ``<h1>`` is kept. Values keep page order; at most
:data:`MAX_TAGS` elements are read.
JSON-LD scripts are those whose ``type`` is ``application/ld+json`` (any case, parameters
allowed). The same walk gathers the page's ``itemtype`` values (microdata is read only when
one names a type that is read), and the first element holding a forum post's author in the
markup of forum software without a ``class`` naming an author (:func:`forum_poster_pure`;
looked for in the whole tree whatever the limit). The walk is made by the compiled twin of
:func:`metadata_elements_pure` in ``page/_speedups`` when it is built (its
``file_metadata_elements`` files the values too).
"""

from __future__ import annotations

from itertools import islice
from typing import Final

from lxml import etree

from ...model.document import Element
from ..segmentation import compiled_twin

__all__ = [
    "MAX_TAGS",
    "MAX_TIMES",
    "PageTags",
    "forum_poster_pure",
    "metadata_elements_pure",
    "page_tags",
]

#: Most elements read per page (of the six tags).
MAX_TAGS: Final = 5_000
#: Most ``<time datetime>`` values kept.
MAX_TIMES: Final = 20

_KEYS: Final = frozenset(("name", "property", "http-equiv", "itemprop"))
_TAGS: Final = ("meta", "link", "base", "script", "time", "h1")
_ITEM_TYPES: Final = etree.XPath("descendant-or-self::*/@itemtype", smart_strings=False)
#: The tags of the elements that hold a forum post's author in the markup of forum software
#: whose author elements have no ``class`` naming an author or a username (see
#: :func:`forum_poster_pure`).
FORUM_POSTER_TAGS: Final = ("dt", "h3", "h4")


class PageTags:
    """``meta``: values by lower-cased key; ``canonical``: ``<link rel=canonical>`` hrefs;
    ``base_href``: the first ``<base href>``; ``lang``: the root's ``lang`` attribute;
    ``jsonld``: the JSON-LD ``<script>`` elements; ``times``: ``<time datetime>`` values;
    ``headline``: the first ``<h1>``; ``item_types``: the ``itemtype`` values (None: not
    looked for); ``whole_tree``: the root of the tree when every element of it was read;
    ``forum_poster``: the first forum post's author element (:func:`forum_poster_pure`) of the
    tree of ``tree``, the root walked when it is the root of its tree (else None)."""

    __slots__ = (
        "base_href", "canonical", "forum_poster", "headline", "item_types", "jsonld", "lang",
        "meta", "times", "tree", "whole_tree",
    )  # fmt: skip

    def __init__(self, lang: str | None = None) -> None:
        self.meta: dict[str, list[str]] = {}
        self.canonical: list[str] = []
        self.base_href: str | None = None
        self.lang = lang
        self.jsonld: list[Element] = []
        self.times: list[str] = []
        self.headline: Element | None = None
        self.item_types: list[str] | None = None
        self.whole_tree: Element | None = None
        self.tree: Element | None = None
        self.forum_poster: Element | None = None

    def read_whole(self, element: Element) -> bool:
        """Whether every element of the tree of ``element`` was read."""
        return self.whole_tree is not None and element.getroottree().getroot() is self.whole_tree

    def values(self, *keys: str) -> list[str]:
        """The values filed under ``keys``, key by key."""
        return [value for key in keys for value in self.meta.get(key, ())]

    def add(self, element: Element) -> None:
        """File ``element`` (one of the six tags) by the rules of the module docstring."""
        tag = element.tag
        if tag == "meta":
            value = element.get("content")
            if value is not None:
                self._file_meta(element, value)
        elif tag == "script":
            kind = element.get("type")
            if kind and kind.strip().lower().startswith("application/ld+json"):
                self.jsonld.append(element)
        elif tag == "time":
            value = element.get("datetime")
            if value is not None and element.get("itemprop"):
                self._file_meta(element, value)
            if value is not None and len(self.times) < MAX_TIMES:
                self.times.append(value)
        elif tag == "h1":
            if self.headline is None:
                self.headline = element
        elif tag == "link":
            href = element.get("href")
            if href is not None and "canonical" in (element.get("rel") or "").lower().split():
                self.canonical.append(href)
        elif tag == "base" and self.base_href is None:
            self.base_href = element.get("href")

    def _file_meta(self, element: Element, value: str) -> None:
        meta = self.meta
        for attribute, key in element.items():  # one call for all: cheaper than a get per key
            if attribute in _KEYS and key and isinstance(key, str):
                name = key.strip().lower()
                values = meta.get(name)
                if values is None:
                    meta[name] = [value]
                else:
                    values.append(value)


def metadata_elements_pure(root: Element) -> tuple[list[Element], list[str]]:
    """The first :data:`MAX_TAGS` ``<meta>``, ``<link>``, ``<base>``, ``<script>``, ``<time>``
    and ``<h1>`` elements of the tree under ``root`` (``root`` included) and the tree's
    ``itemtype`` values, each in document order."""
    elements = list(islice(root.iter(*_TAGS), MAX_TAGS))
    types = _ITEM_TYPES(root)
    return elements, [str(kind) for kind in types] if isinstance(types, list) else []


def page_tags(root: Element) -> PageTags:
    """Read the page's metadata elements by the rules of the module docstring (filed by the
    compiled twin of :func:`_file_elements` when it is built)."""
    tags = PageTags(root.get("lang") or root.get("xml:lang"))
    read = (
        _speedups.file_metadata_elements(root, tags, MAX_TAGS, MAX_TIMES)
        if _speedups is not None
        else None
    )
    if read is None:
        read = _file_elements(tags, root)
    poster = tags.forum_poster
    if poster is not None and not _is_forum_poster(poster):  # a class the twin left to it
        tags.forum_poster = forum_poster_pure(root)
    if root.getparent() is None:
        tags.tree = root
        if read < MAX_TAGS:
            tags.whole_tree = root
    return tags


def forum_poster_pure(root: Element) -> Element | None:
    """The first element of the tree under ``root`` (``root`` included) that holds a forum
    post's author as forum software without a ``class`` naming an author or a username writes
    it: punBB and FluxBB (``<div class="postleft"><dl><dt>``), Flarum's page for crawlers
    (``<h3 class="PostUser-name">``), SMF (``<div class="poster"><h4>``); None without one."""
    for poster in root.iter(*FORUM_POSTER_TAGS):
        if _is_forum_poster(poster):
            return poster
    return None


def _is_forum_poster(element: Element) -> bool:
    """Whether ``element`` (a ``<dt>``, ``<h3>`` or ``<h4>``) holds a post's author in the
    markup :func:`forum_poster_pure` reads."""
    if element.tag == "h3":
        return "PostUser-name" in (element.get("class") or "").split()
    parent = element.getparent()
    if parent is None:
        return False
    if element.tag == "h4":
        return "poster" in (parent.get("class") or "").split()
    above = parent.getparent() if parent.tag == "dl" else None
    return above is not None and "postleft" in (above.get("class") or "").split()


def _file_elements(tags: PageTags, root: Element) -> int:
    """File the metadata elements and ``itemtype`` values of the tree under ``root`` into
    ``tags``; how many elements were read."""
    found = _speedups.metadata_elements(root, MAX_TAGS) if _speedups is not None else None
    elements, item_types = found if found is not None else metadata_elements_pure(root)
    tags.item_types = item_types
    tags.forum_poster = forum_poster_pure(root)
    add, file_meta = tags.add, tags._file_meta
    for element in elements:  # the many metas, scripts and links are sorted out here
        tag = element.tag
        if tag == "meta":
            value = element.get("content")
            if value is not None:
                file_meta(element, value)
        elif tag == "script":
            if element.get("type"):
                add(element)
        elif tag == "link":
            rel = element.get("rel")
            if rel and "canonical" in rel.lower():
                add(element)
        else:
            add(element)
    return len(elements)


_speedups = compiled_twin(f"{__name__.rsplit('.', 2)[0]}._speedups")
