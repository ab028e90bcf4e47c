"""Reading the article's values from schema.org objects (JSON-LD, or microdata in its shape).

Rules:

* Objects come in document order from the page's documents, the members of lists and
  ``@graph``, and ``mainEntity`` values (never from ``hasPart``, ``itemListElement`` and the
  like: a listing's articles are not the page's article). At most :data:`MAX_OBJECTS`.
* An object counts by its ``@type`` (a name, a URL such as ``https://schema.org/NewsArticle``,
  or a list): article types first (names ending in ``Article`` or ``Posting``, and ``Report``),
  then page types (names ending in ``Page``); other objects are not read. For each field, the
  first object (in that order) holding a valid value gives it.
* Fields: ``datePublished``, ``dateModified``, ``author`` (a name, a ``Person`` or
  ``Organization`` object, a ``{"@id"}`` reference to one, or a list of these; ``publisher``
  is never an author), ``inLanguage`` (a tag or a ``Language`` object), ``url`` then
  ``mainEntityOfPage`` (canonical URL), ``description``, ``image`` then ``thumbnailUrl`` (a
  URL, an ``ImageObject`` or a reference to one, or a list: the first valid).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Final

from .found import MAX_AUTHORS, Found

__all__ = [
    "MAX_OBJECTS",
    "SchemaObjects",
    "may_be_read",
    "schema_objects",
    "read_schema",
    "without_teasers",
]

#: Most objects walked per source.
MAX_OBJECTS: Final = 5_000
#: Most list members looked at for one value (an image or language list).
_MAX_LIST: Final = 20

#: A JSON object.
JsonObject = Mapping[str, Any]


class SchemaObjects:
    """A source's objects in document order and its identified objects by ``@id``."""

    __slots__ = ("ids", "objects")

    def __init__(self, objects: list[JsonObject], ids: dict[str, JsonObject]) -> None:
        self.objects = objects
        self.ids = ids


def schema_objects(documents: Sequence[Any]) -> SchemaObjects:
    """The objects of ``documents`` by the walk of the module docstring (iterative)."""
    objects: list[JsonObject] = []
    ids: dict[str, JsonObject] = {}
    stack: list[Any] = list(reversed(documents))
    walked = 0
    while stack and walked < MAX_OBJECTS:
        item = stack.pop()
        walked += 1
        if isinstance(item, list):
            stack.extend(reversed(item[:MAX_OBJECTS]))
        elif isinstance(item, Mapping):
            objects.append(item)
            node_id = item.get("@id")
            if isinstance(node_id, str) and len(item) > 2:  # more than @id and @type
                ids.setdefault(node_id, item)
            children = (item.get("@graph"), item.get("mainEntity"))
            stack.extend(reversed([child for child in children if child is not None]))
    return SchemaObjects(objects, ids)


def _type_names(node: JsonObject) -> Iterator[str]:
    types = node.get("@type")
    for name in types[:_MAX_LIST] if isinstance(types, list) else [types]:
        if isinstance(name, str):
            yield name.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1].rsplit("#", 1)[-1]


#: What the name of every type that is read holds.
_READ_TYPE_WORDS: Final = ("Article", "Posting", "Report", "Page")


def may_be_read(type_text: str) -> bool:
    """Whether an object of type ``type_text`` (an ``itemtype``: names or URLs) may be read: it
    holds the word an article or page type's name ends with (a cheap test before parsing)."""
    return any(word in type_text for word in _READ_TYPE_WORDS)


def _rank(node: JsonObject) -> int | None:
    """0 for an article, 1 for a web page, None for any other object."""
    names = list(_type_names(node))
    if any(n.endswith(("Article", "Posting")) or n == "Report" for n in names):
        return 0
    if any(n.endswith("Page") for n in names):
        return 1
    return None


def _ranked(objects: list[JsonObject]) -> list[JsonObject]:
    ranked = [
        (rank, index) for index, node in enumerate(objects) if (rank := _rank(node)) is not None
    ]
    return [objects[index] for _, index in sorted(ranked)]


def without_teasers(documents: Sequence[Any], page_urls: Sequence[str]) -> list[Any]:
    """``documents`` (top-level objects) without their article objects when these are a
    listing's teasers: several article objects with different ``datePublished`` values, of
    which only those whose ``url`` is one of ``page_urls`` (the page's URL and canonical URL,
    a trailing ``/`` aside) stay (a box of other stories marked up as articles around a page
    whose own article is not); ``documents`` as they are otherwise."""
    articles = [node for node in documents if isinstance(node, Mapping) and _rank(node) == 0]
    dates = {str(node.get("datePublished")) for node in articles}
    if len(articles) < 2 or len(dates) < 2:
        return list(documents)
    urls = {url.rstrip("/") for url in page_urls}
    return [
        node
        for node in documents
        if not isinstance(node, Mapping)
        or _rank(node) != 0
        or (isinstance(node.get("url"), str) and node["url"].rstrip("/") in urls)
    ]


def _resolve(value: JsonObject, ids: Mapping[str, JsonObject]) -> JsonObject:
    """The object a bare ``{"@id": ...}`` reference points to, else ``value`` itself."""
    node_id = value.get("@id")
    if isinstance(node_id, str) and len(value) <= 2 and node_id in ids:
        return ids[node_id]
    return value


def _members(value: Any) -> list[Any]:
    return value[:_MAX_LIST] if isinstance(value, list) else [value]


def _strings(value: Any) -> Iterator[str]:
    """A string value, or the strings of a list."""
    for member in _members(value):
        if isinstance(member, str):
            yield member


def _names(value: Any, ids: Mapping[str, JsonObject]) -> Iterator[str]:
    """Author names: strings, and the ``name`` (or given and family names) of objects."""
    members = value[: 2 * MAX_AUTHORS] if isinstance(value, list) else [value]
    for member in members:
        if isinstance(member, str):
            yield member
        elif isinstance(member, Mapping):
            node = _resolve(member, ids)
            name = node.get("name")
            if isinstance(name, str):
                yield name
            elif isinstance(node.get("familyName"), str):
                yield f"{node.get('givenName') or ''} {node['familyName']}"


def _urls(value: Any, ids: Mapping[str, JsonObject], keys: tuple[str, ...]) -> Iterator[str]:
    """URLs: strings, and the first string of ``keys`` of (referenced) objects."""
    for member in _members(value):
        if isinstance(member, str):
            yield member
        elif isinstance(member, Mapping):
            node = _resolve(member, ids)
            yield from (url for key in keys if isinstance(url := node.get(key), str))


def _languages(value: Any) -> Iterator[str]:
    for member in _members(value):
        if isinstance(member, str):
            yield member
        elif isinstance(member, Mapping):
            yield from _strings(member.get("alternateName"))


def read_schema(found: Found, source: SchemaObjects) -> None:
    """Offer ``found`` the values of the source's article and page objects (in rank order)."""
    ids = source.ids
    for node in _ranked(source.objects):
        found.offer_all("published", _strings(node.get("datePublished")))
        found.offer_all("modified", _strings(node.get("dateModified")))
        found.offer_authors(_names(node.get("author"), ids))
        found.offer_all("language", _languages(node.get("inLanguage")))
        found.offer_all("canonical_url", _strings(node.get("url")))
        found.offer_all("canonical_url", _urls(node.get("mainEntityOfPage"), ids, ("url", "@id")))
        found.offer_all("description", _strings(node.get("description")))
        found.offer_all("image", _urls(node.get("image"), ids, ("url", "contentUrl")))
        found.offer_all("image", _strings(node.get("thumbnailUrl")))
