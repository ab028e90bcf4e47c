"""Structural features of text blocks: where a block sits in the page's DOM tree.

Every block is described by its container element (the innermost block-level element holding
its first text, :attr:`~scrapy_boilerplate.model.document.TextBlock.element`) and that element's
ancestors:

* **tags**: one-hot of the container's tag and of its parent's tag (:data:`CONTAINER_TAGS`,
  :data:`PARENT_TAGS`; any other tag sets ``*_other``);
* **distances**, in tree levels from the container (0 = the container itself), to the nearest
  ancestor-or-self that is a semantic container (:data:`LANDMARK_TAGS`), has a landmark
  ``role`` or ``itemprop`` (:data:`ATTRIBUTE_GROUPS`), or whose ``class``/``id`` holds a
  keyword of a group (:data:`KEYWORD_GROUPS`: comment, related, share, footer, byline, caption,
  content, ...); :data:`FAR` when there is none;
* **subtree aggregates** of the container and its ancestors 1 to :data:`AGGREGATE_LEVELS` - 1:
  share of the page's words inside that subtree, its link density, the share of its words in
  blocks that a given selection (e.g. a rule chain's decision) keeps, and its share of the
  page's blocks.

Class/id keyword matching goes through a cache of ``class``/``id`` strings, so each distinct
attribute value is matched once per process. Only the standard library and lxml are used.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Sequence
from typing import Final

from ..model.document import Element, TextBlock
from ..page.segmentation import compiled_twin

__all__ = [
    "CONTAINER_TAGS",
    "PARENT_TAGS",
    "LANDMARK_TAGS",
    "ATTRIBUTE_GROUPS",
    "KEYWORD_GROUPS",
    "AGGREGATE_LEVELS",
    "FAR",
    "structure_feature_names",
    "structure_features",
    "keyword_mask",
    "element_bits",
    "element_bits_pure",
    "structure_features_pure",
    "structure_into",
    "element_bit_names",
    "MASK_ATTRIBUTES",
]

#: Container tags with a one-hot feature of their own (``container_other`` for the rest).
CONTAINER_TAGS: Final = (
    "p", "div", "li", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "span", "section",
    "article", "blockquote", "pre", "dd", "dt", "figcaption", "caption", "label", "button",
    "time", "address", "header", "footer", "body", "form", "ul", "table", "main", "nav",
)  # fmt: skip
#: Parent tags with a one-hot feature of their own (``parent_other`` for the rest).
PARENT_TAGS: Final = (
    "p", "div", "li", "td", "ul", "ol", "section", "article", "main", "header", "footer",
    "nav", "aside", "form", "figure", "blockquote", "body", "tr", "dl", "span",
)  # fmt: skip
#: Semantic containers whose distance from the block is a feature; a tuple is one group.
LANDMARK_TAGS: Final[tuple[tuple[str, ...], ...]] = (
    ("article",),
    ("main",),
    ("aside",),
    ("nav",),
    ("footer",),
    ("header",),
    ("figure",),
    ("form",),
    ("table",),
    ("li",),
    ("ul", "ol"),
    ("blockquote",),
    ("section",),
    ("dl",),
    ("button", "select", "label"),
)
#: Groups of (attribute, value pattern) whose nearest ancestor's distance is a feature.
ATTRIBUTE_GROUPS: Final[tuple[tuple[str, str, str], ...]] = (
    ("itemprop_body", "itemprop", r"articlebody|reviewbody|text|description"),
    ("itemprop_meta", "itemprop", r"author|datepublished|datemodified|publisher|name|headline"),
    ("itemtype_comment", "itemtype", r"comment"),
    ("role_main", "role", r"main|article"),
    ("role_navigation", "role", r"navigation|menu|menubar|banner|contentinfo|search"),
    ("role_complementary", "role", r"complementary|dialog|alert|region"),
)
#: Keyword groups matched against an element's lower-cased ``class`` and ``id`` values.
KEYWORD_GROUPS: Final[tuple[tuple[str, str], ...]] = (
    ("comment", r"comment|reply|respond|disqus|discussion|forum|review"),
    ("related", r"related|recommend|popular|trending|read-?(?:next|more)|more-|teaser|recirc"
     r"|outbrain|taboola|also|suggest|card|tile|grid"),
    ("share", r"share|social|sharing|follow|facebook|twitter|whatsapp|linkedin|print|email"),
    ("footer", r"foot|copyright|legal|bottom|disclaimer|imprint"),
    ("navigation", r"nav|menu|breadcrumb|header|masthead|topbar|toolbar|skip|drawer|dropdown"),
    ("byline", r"byline|author|meta|date|time|posted|publish|dateline|info|profile|bio"),
    ("caption", r"caption|credit|photo|image|img|gallery|media|video|figure|thumb|picture"),
    ("content", r"content|article|body|post|entry|story|text|main|prose|rich|detail|single"),
    ("sidebar", r"sidebar|side|widget|aside|rail|column|col-"),
    ("ad", r"(?:^|[-_ ])ads?(?:$|[-_ ])|advert|sponsor|promo|banner|dfp|gpt|affiliate"),
    ("newsletter", r"newsletter|subscri|signup|sign-up|cta|paywall|register|login|account"),
    ("tags", r"tag|categor|topic|keyword|label|badge"),
    ("overlay", r"cookie|consent|gdpr|modal|popup|overlay|dialog|notice|alert"),
    ("title", r"title|headline|heading|hero"),
    ("list", r"list|items|feed|archive|results|search|pagination|pager|paging"),
    ("product", r"product|price|cart|buy|shop|offer|spec"),
    ("question", r"question|answer|faq|accordion|vote|accepted"),
    ("docs", r"doc|markdown|wiki|manual|guide|tutorial|api|highlight|code|syntax"),
)  # fmt: skip
#: Ancestors (0 = the container) whose subtree aggregates are features.
AGGREGATE_LEVELS: Final = 7
#: The distance given when no ancestor-or-self matches (and the cap of every distance).
FAR: Final = 99.0
_AGGREGATES: Final = ("text_share", "link_density", "selected_share", "block_share")

#: The attributes :func:`element_bits` reads: an element without any has its tag's bits only.
MASK_ATTRIBUTES: Final = (
    *dict.fromkeys(attribute for _, attribute, _ in ATTRIBUTE_GROUPS),
    "class",
    "id",
)
_KEYWORD_PATTERNS: Final = tuple(re.compile(pattern) for _, pattern in KEYWORD_GROUPS)
_ATTRIBUTE_PATTERNS: Final = tuple(
    (attribute, re.compile(pattern)) for _, attribute, pattern in ATTRIBUTE_GROUPS
)
_LANDMARK_BITS: Final[dict[str, int]] = {}
for _bit, _group in enumerate(LANDMARK_TAGS):
    for _name in _group:
        _LANDMARK_BITS[_name] = _LANDMARK_BITS.get(_name, 0) | 1 << _bit
_ATTRIBUTE_SHIFT: Final = len(LANDMARK_TAGS)
_KEYWORD_SHIFT: Final = _ATTRIBUTE_SHIFT + len(ATTRIBUTE_GROUPS)
_NUM_BITS: Final = _KEYWORD_SHIFT + len(KEYWORD_GROUPS)
_ALL_BITS: Final = (1 << _NUM_BITS) - 1
_DISTANCES_START: Final = len(CONTAINER_TAGS) + len(PARENT_TAGS) + 2
_WIDTH: Final = _DISTANCES_START + _NUM_BITS + AGGREGATE_LEVELS * len(_AGGREGATES)
_CONTAINER_INDEX: Final = {tag: i for i, tag in enumerate(CONTAINER_TAGS)}
_PARENT_INDEX: Final = {tag: i for i, tag in enumerate(PARENT_TAGS)}
_nodes = compiled_twin(f"{__package__}._nodes")
_keyword_cache: dict[str, int] = {}
_KEYWORD_CACHE_LIMIT: Final = 100_000


def keyword_mask(value: str) -> int:
    """The keyword groups (bit ``i`` for :data:`KEYWORD_GROUPS` ``[i]``) matching a lower-cased
    ``class``/``id`` value; cached per distinct value."""
    mask = _keyword_cache.get(value)
    if mask is None:
        mask = 0
        for bit, pattern in enumerate(_KEYWORD_PATTERNS):
            if pattern.search(value):
                mask |= 1 << bit
        if len(_keyword_cache) >= _KEYWORD_CACHE_LIMIT:
            _keyword_cache.clear()
        _keyword_cache[value] = mask
    return mask


def _element_mask(element: Element) -> int:
    """All the bits of one element: landmark tag, attribute groups, class/id keyword groups."""
    tag = element.tag
    mask = _LANDMARK_BITS.get(tag, 0) if isinstance(tag, str) else 0
    for bit, (attribute, pattern) in enumerate(_ATTRIBUTE_PATTERNS):
        value = element.get(attribute)
        if value and pattern.search(value.lower()):
            mask |= 1 << (_ATTRIBUTE_SHIFT + bit)
    names = " ".join(value for value in (element.get("class"), element.get("id")) if value)
    if names:
        mask |= keyword_mask(names.lower()) << _KEYWORD_SHIFT
    return mask


def element_bits(element: Element) -> int:
    """The landmark tag, ``role``/``itemprop`` and ``class``/``id`` keyword groups of one
    element as bits, named by :func:`element_bit_names` (:func:`element_bits_pure`, by the
    compiled twin in ``_nodes`` when it is built)."""
    if _nodes is not None:
        bits: int = _nodes.element_bits(element)
        return bits
    return _element_mask(element)


def element_bits_pure(element: Element) -> int:
    """:func:`element_bits` in pure Python (the reference of the compiled twin)."""
    return _element_mask(element)


def element_bit_names() -> list[str]:
    """Names of the bits of :func:`element_bits`, lowest first."""
    names = ["_".join(group) for group in LANDMARK_TAGS]
    names += [name for name, _, _ in ATTRIBUTE_GROUPS]
    return names + [f"class_{name}" for name, _ in KEYWORD_GROUPS]


def structure_feature_names() -> list[str]:
    """The names of :func:`structure_features`' values, in order."""
    names = [f"container_{tag}" for tag in CONTAINER_TAGS] + ["container_other"]
    names += [f"parent_{tag}" for tag in PARENT_TAGS] + ["parent_other"]
    names += [f"dist_{'_'.join(group)}" for group in LANDMARK_TAGS]
    names += [f"dist_{name}" for name, _, _ in ATTRIBUTE_GROUPS]
    names += [f"dist_class_{name}" for name, _ in KEYWORD_GROUPS]
    names += [
        f"anc{level}_{aggregate}" for level in range(AGGREGATE_LEVELS) for aggregate in _AGGREGATES
    ]
    return names


class _Tree:
    """Per-element bit masks, each computed once per page, and the distances they give."""

    def __init__(self) -> None:
        self.masks: dict[Element, int] = {}

    def nearest(self, element: Element) -> list[float]:
        """Distance to the nearest ancestor-or-self carrying each bit (:data:`FAR` if none)."""
        distances = [FAR] * _NUM_BITS
        missing = _ALL_BITS
        masks = self.masks
        node: Element | None = element
        level = 0.0
        while node is not None and missing:
            mask = masks.get(node)
            if mask is None:
                mask = masks[node] = element_bits(node)
            found = mask & missing
            if found:
                missing &= ~found
                while found:
                    low = found & -found
                    distances[low.bit_length() - 1] = min(level, FAR)
                    found ^= low
            node = node.getparent()
            level += 1.0
        return distances


def _ancestors(element: Element, count: int) -> list[Element]:
    """``element`` and its ancestors, at most ``count`` elements."""
    chain = [element]
    node = element.getparent()
    while node is not None and len(chain) < count:
        chain.append(node)
        node = node.getparent()
    return chain


def structure_features(blocks: Sequence[TextBlock], selected: Sequence[bool]) -> list[list[float]]:
    """One row of structural features per block (see :func:`structure_feature_names`).

    ``selected`` flags the blocks of a reference selection (a rule chain's decision) whose word
    share inside each ancestor subtree is a feature. Blocks without an element get zeros for
    tags and aggregates and :data:`FAR` distances. :func:`structure_features_pure`, by the
    compiled twin in ``_nodes`` when it is built (and takes the blocks).
    """
    if _nodes is not None and blocks:
        rows: list[list[float]] | None = _nodes.structure_rows(list(blocks), selected)
        if rows is not None:
            return rows
    return structure_features_pure(blocks, selected)


def structure_into(
    blocks: Sequence[TextBlock],
    selected: Sequence[bool],
    out: array[float],
    start: int,
    stride: int,
) -> None:
    """Write the rows of :func:`structure_features` into the doubles ``out``, block ``b``'s at
    ``start + b * stride`` (by the compiled twin in ``_nodes`` when it is built and takes the
    blocks)."""
    if _nodes is not None and _nodes.structure_into(list(blocks), selected, out, start, stride):
        return
    for index, row in enumerate(structure_features_pure(blocks, selected)):
        at = start + index * stride
        out[at : at + len(row)] = array("d", row)


def structure_features_pure(
    blocks: Sequence[TextBlock], selected: Sequence[bool]
) -> list[list[float]]:
    """:func:`structure_features` in pure Python (the reference of the compiled twin)."""
    tree = _Tree()
    chains = [
        _ancestors(block.element, AGGREGATE_LEVELS) if block.element is not None else []
        for block in blocks
    ]
    words: dict[Element, int] = {}
    linked: dict[Element, int] = {}
    chosen: dict[Element, int] = {}
    count: dict[Element, int] = {}
    for block, chain, keep in zip(blocks, chains, selected, strict=True):
        for node in chain:
            words[node] = words.get(node, 0) + block.num_words
            linked[node] = linked.get(node, 0) + block.num_linked_words
            count[node] = count.get(node, 0) + 1
            if keep:
                chosen[node] = chosen.get(node, 0) + block.num_words
    page_words = max(1, sum(block.num_words for block in blocks))
    page_blocks = max(1, len(blocks))
    rows: list[list[float]] = []
    for chain in chains:
        if not chain:
            row = [0.0] * _WIDTH
            row[_DISTANCES_START : _DISTANCES_START + _NUM_BITS] = [FAR] * _NUM_BITS
            rows.append(row)
            continue
        container = [0.0] * (len(CONTAINER_TAGS) + 1)
        container[_CONTAINER_INDEX.get(_tag(chain[0]), len(CONTAINER_TAGS))] = 1.0
        parent = [0.0] * (len(PARENT_TAGS) + 1)
        if len(chain) > 1:
            parent[_PARENT_INDEX.get(_tag(chain[1]), len(PARENT_TAGS))] = 1.0
        aggregates: list[float] = []
        for level in range(AGGREGATE_LEVELS):
            node = chain[min(level, len(chain) - 1)]
            node_words = words[node]
            aggregates += [
                node_words / page_words,
                linked[node] / node_words if node_words else 0.0,
                chosen.get(node, 0) / node_words if node_words else 0.0,
                count[node] / page_blocks,
            ]
        rows.append(container + parent + tree.nearest(chain[0]) + aggregates)
    return rows


def _tag(element: Element) -> str:
    tag = element.tag
    return tag if isinstance(tag, str) else ""
