"""Feature rows of the visible nodes of a page, for the templateness classifier.

One row per node of the :class:`~.nodes.VisibleTree`, from the :class:`~.nodes.NodeTable`
(subtree counts). ``C`` is the page's visible characters, ``A`` a node's area proxy,
``s = first_char / C`` and ``e = last_char / C`` its document-order span.

The paper's features (Chakrabarti et al. 2007, §5.2), with our stand-ins for rendering
(:data:`PAPER_FEATURES`):

==================== =========================================================================
margin               ``min(s, 1 - e)``: closeness to the start or end of the text (the
                     paper's closeness to the page margins)
center_dist          ``|(s + e)/2 - 0.5|`` (distance from the page centre)
links_per_word       links / max(1, words)
anchor_frac          anchor characters / max(1, characters)
anchor_size          anchor words / max(1, links)
internal_link_frac   internal links / links (0 without links); ``has_links`` 1 if any
visible_ratio        characters / max(1, estimated HTML bytes)
title_overlap        min(1, title words / distinct title words)
log_area, area_share ``log(1 + A)``, ``A / A_body``
==================== =========================================================================

Ours (:data:`EXTENDED_FEATURES` adds them): relative and absolute depth, ``log(1 + words)``,
characters per word, share of the parent's characters, title words per word, visible
children and hidden children (``log(1 + n)``), images and form controls (``log(1 + n)``),
the page's words (``log(1 + n)``), a one-hot tag group (:data:`TAG_GROUPS`), and the bits of
:func:`~.structure.element_bits` (landmark tag, ``role``/``itemprop``, ``class``/``id``
keyword groups) of the node itself (``own_*``) and of any ancestor-or-self (``in_*``).
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Sequence
from typing import Final

from ..page.segmentation import compiled_twin
from .nodes import NodeTable, VisibleTree
from .structure import element_bit_names, element_bits_pure

__all__ = [
    "TAG_GROUPS",
    "PAPER_FEATURES",
    "EXTENDED_FEATURES",
    "node_feature_names",
    "node_feature_rows",
    "node_feature_matrix",
    "node_feature_rows_pure",
]

#: Tag groups of the one-hot tag features; any other tag is ``tag_other``.
TAG_GROUPS: Final[tuple[tuple[str, tuple[str, ...]], ...]] = (
    ("div", ("div",)),
    ("table", ("table", "tbody", "thead", "tfoot", "tr", "td", "th")),
    ("list", ("ul", "ol", "li", "dl", "dt", "dd", "menu")),
    ("p", ("p", "blockquote", "pre")),
    ("nav", ("nav",)),
    ("header", ("header",)),
    ("footer", ("footer",)),
    ("aside", ("aside",)),
    ("article", ("article", "main")),
    ("section", ("section",)),
    ("form", ("form", "fieldset", "label", "input", "select", "button")),
    ("heading", ("h1", "h2", "h3", "h4", "h5", "h6")),
    ("a", ("a",)),
    ("inline", ("span", "b", "i", "em", "strong", "small", "font", "time")),
    ("figure", ("figure", "figcaption", "img", "picture")),
    ("body", ("body",)),
)
PAPER_FEATURES: Final = (
    "margin",
    "center_dist",
    "links_per_word",
    "anchor_frac",
    "anchor_size",
    "internal_link_frac",
    "has_links",
    "visible_ratio",
    "title_overlap",
    "log_area",
    "area_share",
)
_OURS: Final = (
    "depth_share",
    "log_depth",
    "log_words",
    "chars_per_word",
    "parent_char_share",
    "title_share",
    "log_visible_children",
    "log_hidden_children",
    "log_images",
    "log_inputs",
    "log_page_words",
)
_TAG_INDEX: Final = {tag: i for i, (_, tags) in enumerate(TAG_GROUPS) for tag in tags}
_BIT_NAMES: Final = tuple(element_bit_names())
#: Every feature, in row order.
EXTENDED_FEATURES: Final = (
    *PAPER_FEATURES,
    *_OURS,
    *(f"tag_{name}" for name, _ in TAG_GROUPS),
    "tag_other",
    *(f"own_{name}" for name in _BIT_NAMES),
    *(f"in_{name}" for name in _BIT_NAMES),
)


_nodes = compiled_twin(f"{__package__}._nodes")


def node_feature_names() -> list[str]:
    """The names of the values of a row of :func:`node_feature_rows`, in order."""
    return list(EXTENDED_FEATURES)


_bits_cache: dict[int, tuple[float, ...]] = {}
_tail_cache: dict[tuple[int, int, int], tuple[float, ...]] = {}
_CACHE_LIMIT: Final = 10_000


def _bits(mask: int, width: int) -> tuple[float, ...]:
    """``mask`` as 0.0/1.0 values, lowest bit first (cached: pages repeat a few masks)."""
    bits = _bits_cache.get(mask)
    if bits is None:
        if len(_bits_cache) > _CACHE_LIMIT:
            _bits_cache.clear()
        bits = _bits_cache[mask] = tuple(float(mask >> bit & 1) for bit in range(width))
    return bits


def _row_tail(tag: int, own: int, inherited: int) -> tuple[float, ...]:
    """The end of a row: the one-hot tag group ``tag``, then the ``own`` and ``inherited``
    bits (cached: pages repeat a few combinations)."""
    key = (tag, own, inherited)
    tail = _tail_cache.get(key)
    if tail is None:
        if len(_tail_cache) > _CACHE_LIMIT:
            _tail_cache.clear()
        one_hot = [0.0] * (len(TAG_GROUPS) + 1)
        one_hot[tag] = 1.0
        width = len(_BIT_NAMES)
        tail = _tail_cache[key] = (*one_hot, *_bits(own, width), *_bits(inherited, width))
    return tail


def node_feature_rows(
    table: NodeTable, tree: VisibleTree, area: Sequence[float]
) -> list[list[float]]:
    """One row of :data:`EXTENDED_FEATURES` per visible node, in visible-tree order
    (:func:`node_feature_rows_pure`, by the compiled twin when :data:`~.nodes.ACCELERATED`)."""
    if _nodes is None or not tree.nodes:
        return node_feature_rows_pure(table, tree, area)
    rows: list[list[float]] = _nodes.feature_rows(table, tree, area)
    return rows


def node_feature_matrix(
    table: NodeTable, tree: VisibleTree, area: Sequence[float]
) -> array[float] | None:
    """The rows of :func:`node_feature_rows` one after the other in one flat ``array('d')``
    (no float objects for the collector to track), or ``None`` without the compiled twin."""
    if _nodes is None:
        return None
    if not tree.nodes:
        return array("d")
    matrix: array[float] | None = _nodes.feature_matrix(table, tree, area, len(EXTENDED_FEATURES))
    return matrix


def node_feature_rows_pure(
    table: NodeTable, tree: VisibleTree, area: Sequence[float]
) -> list[list[float]]:
    """:func:`node_feature_rows` in pure Python (the reference of the compiled twin)."""
    if not tree.nodes:
        return []
    page_chars = max(1, table.chars[0])
    page_area = max(1.0, area[0])
    log_page_words = math.log1p(table.words[0])
    max_depth = max(1, max(table.depth[i] for i in tree.nodes))
    visible_children = [0] * len(tree.nodes)
    for up in tree.parent[1:]:
        visible_children[up] += 1
    other_tag = len(TAG_GROUPS)
    title_vocabulary = max(1, table.title_vocabulary)
    inherited: list[int] = []
    rows = []
    for j, i in enumerate(tree.nodes):
        element = table.elements[i]
        chars, words, links = table.chars[i], table.words[i], table.links[i]
        start = table.first_char[i] / page_chars
        end = table.last_char[i] / page_chars
        up = tree.parent[j]
        own = element_bits_pure(element)
        inherited.append(own | (inherited[up] if up >= 0 else 0))
        parent_chars = table.chars[tree.nodes[up]] if up >= 0 else chars
        row = [
            min(start, 1.0 - end),
            abs((start + end) / 2 - 0.5),
            links / max(1, words),
            table.anchor_chars[i] / max(1, chars),
            table.anchor_words[i] / max(1, links),
            table.internal_links[i] / links if links else 0.0,
            1.0 if links else 0.0,
            chars / max(1, table.html_bytes[i]),
            min(1.0, table.title_words[i] / title_vocabulary),
            math.log1p(area[i]),
            area[i] / page_area,
            table.depth[i] / max_depth,
            math.log1p(table.depth[i]),
            math.log1p(words),
            chars / max(1, words),
            chars / max(1, parent_chars),
            table.title_words[i] / max(1, words),
            math.log1p(visible_children[j]),
            math.log(tree.weight[j]),
            math.log1p(table.images[i]),
            math.log1p(table.inputs[i]),
            log_page_words,
        ]
        row += _row_tail(_TAG_INDEX.get(element.tag, other_tag), own, inherited[j])
        rows.append(row)
    return rows
