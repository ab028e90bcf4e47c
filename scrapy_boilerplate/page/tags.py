"""How the segmentation treats each HTML tag (reference §1.2, ``docs/reference-quirks.md``).

Every tag starts a new block except ``<a>`` and the inline tags; the text of ignorable tags is
dropped; ``<li>`` and ``<h1>``-``<h3>`` label the blocks inside them. The compiled twin of the
walk has these tables compiled in; the tests check the two agree.
"""

from __future__ import annotations

import re
from typing import Final

from lxml import etree

from ..model import labels as L
from ..model.document import Element

_STRING_VALUE: Final = etree.XPath("string()")

__all__ = [
    "TagClass",
    "IGNORABLE_TAGS",
    "EXTRA_IGNORABLE_TAGS",
    "INLINE_TAGS",
    "INLINE_SPACED_TAGS",
    "LABELS_BY_TAG",
    "NOT_BLOCK_LEVEL_TAGS",
    "TAG_CLASSES",
    "HIDING_ATTRIBUTES",
    "head_title",
    "is_hidden",
    "spaced_text",
    "string_value",
]


class TagClass:
    """What an element event does in the walk (small ints: the hot loop compares them)."""

    DEFAULT: Final = 0  # a block-level tag: splits blocks, one tag level deeper
    IGNORABLE: Final = 1  # its text is dropped
    ANCHOR: Final = 2  # ``<a>``: linked words, no split
    BODY: Final = 3  # ``<body>``: blocks exist only inside it
    INLINE: Final = 4  # no split, same tag level
    INLINE_SPACED: Final = 5  # no split, same tag level, a space on both sides
    LABELLED: Final = 6  # block-level, and labels the blocks inside


#: Tags whose text is dropped (reference set).
IGNORABLE_TAGS: Final = frozenset(
    {"style", "script", "option", "object", "embed", "applet", "link", "noscript"}
)
#: Tags also ignored unless ``strict_reference`` is set (their text is never article text).
EXTRA_IGNORABLE_TAGS: Final = frozenset(
    {"svg", "template", "math", "iframe", "noembed", "noframes", "textarea"}
)
#: Inline tags: they neither split blocks nor change the tag level.
INLINE_TAGS: Final = frozenset(
    {"b", "i", "u", "strike", "em", "strong", "span", "sup", "sub", "code", "tt", "var", "font"}
)
#: Inline tags that put a space on both sides of their text.
INLINE_SPACED_TAGS: Final = frozenset({"abbr", "acronym"})
#: Labels a block gets while inside these elements.
LABELS_BY_TAG: Final[dict[str, frozenset[str]]] = {
    "li": frozenset({L.LI}),
    "h1": frozenset({L.H1, L.HEADING}),
    "h2": frozenset({L.H2, L.HEADING}),
    "h3": frozenset({L.H3, L.HEADING}),
}
#: Tags that are not a block's container (the block's element is their nearest other ancestor).
NOT_BLOCK_LEVEL_TAGS: Final = INLINE_TAGS | INLINE_SPACED_TAGS | {"a"}


def _tag_classes(strict_reference: bool) -> dict[str, int]:
    classes = dict.fromkeys(IGNORABLE_TAGS, TagClass.IGNORABLE)
    if not strict_reference:
        classes.update(dict.fromkeys(EXTRA_IGNORABLE_TAGS, TagClass.IGNORABLE))
    classes.update(dict.fromkeys(INLINE_TAGS, TagClass.INLINE))
    classes.update(dict.fromkeys(INLINE_SPACED_TAGS, TagClass.INLINE_SPACED))
    classes.update(dict.fromkeys(LABELS_BY_TAG, TagClass.LABELLED))
    classes["a"] = TagClass.ANCHOR
    classes["body"] = TagClass.BODY
    return classes


#: Tag name -> :class:`TagClass` value, by ``strict_reference``; a missing tag is DEFAULT.
TAG_CLASSES: Final[dict[bool, dict[str, int]]] = {
    False: _tag_classes(False),
    True: _tag_classes(True),
}


def string_value(element: Element) -> str:
    """XPath ``string()`` of ``element``: the text of all its descendants, in document order
    (by one XPath compiled at import: compiling it per call costs 5x its evaluation; an
    element without children, such as the usual ``<title>``, is read as its ``.text``, the same)."""
    if not len(element) and isinstance(element.tag, str):
        return element.text or ""
    return str(_STRING_VALUE(element))


#: Tags a reader sees as a line break inside a heading (:func:`spaced_text` puts a space there).
LINE_BREAKING_TAGS: Final = frozenset(
    {"br", "div", "p", "li", "tr", "td", "th", "h2", "h3", "h4", "h5", "h6", "blockquote"}
)


def spaced_text(element: Element) -> str:
    """The text of ``element`` as :func:`string_value` gives it, with a space before and after
    each descendant in :data:`LINE_BREAKING_TAGS` (``<h1>Data Analytics<br>Agency</h1>`` reads
    "Data Analytics Agency", not "Data AnalyticsAgency"); comments' text is left out."""
    if not any(True for _ in element.iter(*LINE_BREAKING_TAGS)):
        return string_value(element)
    parts = [element.text or ""]
    for node in element.iterdescendants():
        if isinstance(node.tag, str):
            spaced = node.tag in LINE_BREAKING_TAGS
            parts += (" " if spaced else "", node.text or "", " " if spaced else "")
        parts.append(node.tail or "")
    return "".join(parts)


def head_title(head: Element) -> str | None:
    """The whitespace-collapsed text of the first non-empty ``<title>`` in ``<head>``."""
    for title in head.iter("title"):
        text = " ".join(string_value(title).split())
        if text:
            return text
    return None


#: The attributes that can hide an element (:func:`is_hidden` reads only these).
HIDING_ATTRIBUTES: Final = ("hidden", "aria-hidden", "style")
_HIDING_STYLE = re.compile(r"(?:^|[;\s])(?:display\s*:\s*none|visibility\s*:\s*hidden)\b", re.I)


#: ARIA roles of a modal window (:func:`is_dialog`).
DIALOG_ROLES: Final = frozenset({"dialog", "alertdialog"})


def is_dialog(element: Element) -> bool:
    """Whether ``element`` is a modal dialog (a cookie notice, a sign-in or newsletter pop-up):
    its ``role`` is ``dialog`` or ``alertdialog``, or it has ``aria-modal="true"`` (values
    compared with case and surrounding spaces ignored)."""
    role = (element.get("role") or "").strip().lower()
    return role in DIALOG_ROLES or (element.get("aria-modal") or "").strip().lower() == "true"


def is_hidden(element: Element) -> bool:
    """Whether a reader never sees ``element``: it has a ``hidden`` attribute,
    ``aria-hidden="true"``, or an inline style with ``display: none`` or ``visibility: hidden``.
    """
    if element.get("hidden") is not None:
        return True
    if (element.get("aria-hidden") or "").strip().lower() == "true":
        return True
    style = element.get("style")
    return style is not None and _HIDING_STYLE.search(style) is not None
