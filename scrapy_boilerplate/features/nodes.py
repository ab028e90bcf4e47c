"""The node table: subtree counts of every element of a page's ``<body>``, for the templateness
classifier and the isotonic smoothing (Chakrabarti, Kumar, Punera 2007).

One iterative walk (``etree.iterwalk``, no recursion) numbers the elements of ``<body>`` in
document (pre-)order, so ``parent[i] < i`` and node 0 is ``<body>``. Elements whose text a
reader never sees are not nodes: the segmenter's ignorable tags (``script``, ``style``, ``svg``,
``iframe``...), hidden elements (``hidden``, ``aria-hidden``, ``display: none``: see
:func:`~scrapy_boilerplate.page.tags.is_hidden`), comments and entities; their tails (text
after them) still count for their parent.

Per node, over its subtree (units in brackets):

* ``chars`` (visible non-space characters of the texts and tails inside it), ``words``
  (whitespace tokens holding a letter or digit; a word split by a tag counts twice),
  ``anchor_chars`` and ``anchor_words`` (those inside an ``<a href>``), ``links`` (``<a href>``
  elements), ``internal_links`` (relative ``href``, or the page's host without ``www.``),
  ``images`` (``<img>``), ``inputs`` (``input select textarea button``), ``title_words``
  (words found in the ``<title>``'s words, stop words left out);
* ``html_bytes`` (characters), an estimate of the subtree's HTML: per element
  ``2·len(tag) + 5`` plus ``len(name) + len(value) + 4`` per attribute, plus the raw texts and
  tails inside it; a skipped element counts its own tag and text only;
* ``first_char`` / ``last_char``: offsets in the page's visible characters (document order) of
  the subtree's first character and just after its last (equal when it has none).

**Stand-ins for rendering** (the paper rendered pages with Mozilla; we do not render):

* *position*: the document-order character offsets stand for the screen position (a node
  near the start or the end of the text is near a "margin"; the middle is the "centre");
* *area*: :func:`areas` gives ``chars + 100·images + 30·inputs`` ("character-equivalents";
  about 125 px² per character, so the paper's 2,000 px² "hidden" cut is :data:`MIN_AREA` = 16);
* *hidden nodes*: nodes under :data:`MIN_AREA` are folded into their nearest visible ancestor
  (:func:`fold_hidden`); a visible node with ``k`` hidden children weighs ``k + 1`` (the
  paper's rule). Area only grows up the tree, so a hidden node's subtree is hidden.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final
from urllib.parse import urlsplit

from lxml import etree

from ..model.document import Element, TextBlock
from ..page.segmentation import compiled_twin
from ..page.tags import (
    EXTRA_IGNORABLE_TAGS,
    IGNORABLE_TAGS,
    NOT_BLOCK_LEVEL_TAGS,
    is_hidden,
    string_value,
)

__all__ = [
    "NodeTable",
    "VisibleTree",
    "MIN_AREA",
    "IMAGE_AREA",
    "INPUT_AREA",
    "STOP_WORDS",
    "ACCELERATED",
    "node_table",
    "node_table_pure",
    "areas",
    "areas_pure",
    "fold_hidden",
    "fold_hidden_pure",
    "block_owners",
    "block_owners_pure",
    "block_link_counts",
]

#: Area (character-equivalents) below which a node is hidden (the paper's 2,000 px²).
MIN_AREA: Final = 16.0
#: Character-equivalents of an image and of a form control in the area proxy.
IMAGE_AREA: Final = 100.0
INPUT_AREA: Final = 30.0

_SKIPPED_TAGS: Final = IGNORABLE_TAGS | EXTRA_IGNORABLE_TAGS
_INPUT_TAGS: Final = frozenset({"input", "select", "textarea", "button"})
_WORD: Final = re.compile(r"\S*[^\W_]\S*")
_TITLE_WORD: Final = re.compile(r"[^\W_]+")
#: The columns the compiled twin returns, in order (``chars`` is derived from the offsets).
_TWIN_COLUMNS: Final = (
    "elements", "parent", "depth", "words", "anchor_chars", "anchor_words", "links",
    "internal_links", "images", "inputs", "title_words", "html_bytes", "first_char", "last_char",
    "chars",
)  # fmt: skip
#: English stop words left out of the title overlap.
STOP_WORDS: Final = frozenset((
    "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "has", "have", "in", "is",
    "it", "its", "of", "on", "or", "that", "the", "this", "to", "was", "were", "will", "with",
    "you", "your", "we", "our", "not", "but", "all", "new", "more", "about", "how", "what",
    "when", "who", "why",
))  # fmt: skip


@dataclass(slots=True)
class NodeTable:
    """Subtree counts of the visible elements of ``<body>`` (module docstring), one list per
    column, in document order (``parent[i] < i``; node 0 is ``<body>``, its parent -1)."""

    elements: list[Element] = field(default_factory=list)
    parent: list[int] = field(default_factory=list)
    depth: list[int] = field(default_factory=list)
    chars: list[int] = field(default_factory=list)
    words: list[int] = field(default_factory=list)
    anchor_chars: list[int] = field(default_factory=list)
    anchor_words: list[int] = field(default_factory=list)
    links: list[int] = field(default_factory=list)
    internal_links: list[int] = field(default_factory=list)
    images: list[int] = field(default_factory=list)
    inputs: list[int] = field(default_factory=list)
    title_words: list[int] = field(default_factory=list)
    html_bytes: list[int] = field(default_factory=list)
    first_char: list[int] = field(default_factory=list)
    last_char: list[int] = field(default_factory=list)
    #: Distinct title words (stop words left out) the ``title_words`` counts refer to.
    title_vocabulary: int = 0

    def __len__(self) -> int:
        return len(self.elements)

    def index(self) -> dict[Element, int]:
        """Element -> node number."""
        return {element: i for i, element in enumerate(self.elements)}


@dataclass(slots=True)
class VisibleTree:
    """The tree of visible nodes (area at least the cut; ``<body>`` always).

    ``nodes[j]`` is the node-table number of visible node ``j`` (ascending, so
    ``parent[j] < j``); ``weight[j]`` is 1 + its hidden children; ``owner[i]`` is the visible
    node of table node ``i``: itself, or its nearest visible ancestor.
    """

    nodes: list[int]
    parent: list[int]
    weight: list[float]
    owner: list[int]


def _is_internal(href: str, host: str) -> bool:
    """Whether ``href`` stays on the page's site: relative, or the same host minus ``www.``."""
    href = href.strip()
    if href.startswith("//"):
        return bool(host) and (urlsplit("http:" + href).hostname or "").removeprefix("www.") == host
    if ":" in href.split("/", 1)[0]:  # a scheme: http:, mailto:, javascript: ...
        if not href.lower().startswith(("http:", "https:")):
            return False
        return bool(host) and (urlsplit(href).hostname or "").removeprefix("www.") == host
    return True


def _attribute_bytes(attributes: list[tuple[str, str]]) -> int:
    """``name="value"`` with its space: name and value lengths plus 4, per attribute."""
    size = 4 * len(attributes)
    for name, value in attributes:
        size += len(name) + len(value)
    return size


def _title_word_count(text: str, vocabulary: set[str]) -> int:
    """Words of ``text`` (lower-cased runs of letters and digits) found in ``vocabulary``."""
    return sum(1 for word in _TITLE_WORD.findall(text.lower()) if word in vocabulary)


def node_table(
    root: Element | None,
    url: str | None = None,
    title: str | None = None,
    *,
    keep_hidden: bool = False,
) -> NodeTable:
    """The node table of the ``<body>`` of ``root`` (an ``<html>`` element); empty without one.

    ``url`` decides which links are internal; ``title`` (the page's ``<title>``) gives the
    title words. ``keep_hidden`` keeps hidden elements as nodes (for pages whose hidden text
    the segmenter keeps because it outweighs the visible text). :func:`node_table_pure`, by
    the compiled twin when :data:`ACCELERATED` (the pure code for trees it does not take:
    comments, processing instructions, entities, namespaces).
    """
    if _nodes is None:
        return node_table_pure(root, url, title, keep_hidden=keep_hidden)
    body = _body(root)
    if body is None:
        return NodeTable()
    vocabulary = _title_vocabulary(title)
    columns = _nodes.node_columns(body, _host(url), vocabulary, keep_hidden)
    if columns is None:
        return node_table_pure(root, url, title, keep_hidden=keep_hidden)
    table = NodeTable(**dict(zip(_TWIN_COLUMNS, columns, strict=True)))
    table.title_vocabulary = len(vocabulary)
    return table


def _body(root: Element | None) -> Element | None:
    return None if root is None else (root if root.tag == "body" else root.find("body"))


def _host(url: str | None) -> str:
    return (urlsplit(url).hostname or "").removeprefix("www.") if url else ""


def _title_vocabulary(title: str | None) -> set[str]:
    return {word for word in _TITLE_WORD.findall((title or "").lower()) if word not in STOP_WORDS}


def node_table_pure(
    root: Element | None,
    url: str | None = None,
    title: str | None = None,
    *,
    keep_hidden: bool = False,
) -> NodeTable:
    """:func:`node_table` in pure Python (the reference of the compiled twin)."""
    table = NodeTable()
    body = _body(root)
    if body is None:
        return table
    host = _host(url)
    title_vocabulary = _title_vocabulary(title)
    table.title_vocabulary = len(title_vocabulary)
    elements, parent, depth = table.elements, table.parent, table.depth
    words, anchor_chars, anchor_words = table.words, table.anchor_chars, table.anchor_words
    links, internal_links, images = table.links, table.internal_links, table.images
    inputs, title_words, html_bytes = table.inputs, table.title_words, table.html_bytes
    first_char, last_char = table.first_char, table.last_char
    position = 0  # visible characters so far
    in_anchor = 0
    stack: list[int] = []  # open nodes
    anchors: list[bool] = []  # per open node: is it an <a href>
    walker = etree.iterwalk(body, events=("start", "end"))
    for event, element in walker:
        tag = element.tag
        if event == "start":
            attributes = element.items() if isinstance(tag, str) else []
            if (
                not isinstance(tag, str)
                or tag in _SKIPPED_TAGS
                or (attributes and not keep_hidden and is_hidden(element))
            ):
                walker.skip_subtree()
                if stack:
                    size = len(element.text or "")
                    if isinstance(tag, str):
                        size += 2 * len(tag) + 5 + _attribute_bytes(attributes)
                    html_bytes[stack[-1]] += size
                continue
            node = len(elements)
            elements.append(element)
            parent.append(stack[-1] if stack else -1)
            depth.append(len(stack))
            href = element.get("href") if tag == "a" else None
            is_anchor = href is not None
            anchors.append(is_anchor)
            in_anchor += is_anchor
            links.append(int(is_anchor))
            internal_links.append(int(href is not None and _is_internal(href, host)))
            images.append(int(tag == "img"))
            inputs.append(int(tag in _INPUT_TAGS))
            html_bytes.append(
                2 * len(tag) + 5 + (_attribute_bytes(attributes) if attributes else 0)
            )
            words.append(0)
            anchor_chars.append(0)
            anchor_words.append(0)
            title_words.append(0)
            first_char.append(position)
            last_char.append(position)
            stack.append(node)
            text = element.text
        else:
            text = element.tail
            if stack and stack[-1] < len(elements) and elements[stack[-1]] is element:
                node = stack.pop()
                in_anchor -= anchors.pop()
                last_char[node] = position
                if stack:
                    up = stack[-1]
                    words[up] += words[node]
                    anchor_chars[up] += anchor_chars[node]
                    anchor_words[up] += anchor_words[node]
                    links[up] += links[node]
                    internal_links[up] += internal_links[node]
                    images[up] += images[node]
                    inputs[up] += inputs[node]
                    title_words[up] += title_words[node]
                    html_bytes[up] += html_bytes[node]
            if element is body:
                break
        if not text or not stack:
            continue
        node = stack[-1]
        html_bytes[node] += len(text)
        if text.isspace():
            continue
        chars = sum(map(len, text.split()))
        position += chars
        tokens = _WORD.findall(text)
        if not tokens:
            continue
        words[node] += len(tokens)
        if in_anchor:
            anchor_chars[node] += chars
            anchor_words[node] += len(tokens)
        if title_vocabulary:
            title_words[node] += _title_word_count(text, title_vocabulary)
    table.chars = [last - first for first, last in zip(first_char, last_char, strict=True)]
    return table


def areas(table: NodeTable) -> list[float]:
    """:func:`areas_pure`, by the compiled twin in ``_nodes`` when it is built."""
    if _nodes is not None:
        area: list[float] | None = _nodes.areas(
            table.chars, table.images, table.inputs, IMAGE_AREA, INPUT_AREA
        )
        if area is not None:
            return area
    return areas_pure(table)


def areas_pure(table: NodeTable) -> list[float]:
    """The area proxy of every node: ``chars + IMAGE_AREA·images + INPUT_AREA·inputs``."""
    return [
        chars + IMAGE_AREA * images + INPUT_AREA * inputs
        for chars, images, inputs in zip(table.chars, table.images, table.inputs, strict=True)
    ]


def fold_hidden(table: NodeTable, area: Sequence[float], min_area: float = MIN_AREA) -> VisibleTree:
    """:func:`fold_hidden_pure`, by the compiled twin in ``_nodes`` when it is built."""
    if _nodes is not None:
        folded = _nodes.fold_hidden(table.parent, list(area), min_area)
        if folded is not None:
            return VisibleTree(*folded)
    return fold_hidden_pure(table, area, min_area)


def fold_hidden_pure(
    table: NodeTable, area: Sequence[float], min_area: float = MIN_AREA
) -> VisibleTree:
    """The visible tree: nodes with ``area >= min_area`` (and ``<body>``), hidden ones folded
    into their nearest visible ancestor (module docstring)."""
    nodes: list[int] = []
    parent: list[int] = []
    weight: list[float] = []
    owner: list[int] = []
    for i, up in enumerate(table.parent):
        if up < 0 or area[i] >= min_area:
            owner.append(len(nodes))
            parent.append(owner[up] if up >= 0 else -1)
            nodes.append(i)
            weight.append(1.0)
        else:
            owner.append(owner[up])
            if nodes[owner[up]] == up:  # a hidden child of a visible node
                weight[owner[up]] += 1.0
    return VisibleTree(nodes, parent, weight, owner)


def block_owners(table: NodeTable, tree: VisibleTree, blocks: Sequence[TextBlock]) -> list[int]:
    """:func:`block_owners_pure`, by the compiled twin in ``_nodes`` when it is built."""
    if _nodes is not None:
        owners: list[int] = _nodes.block_owners(table.elements, tree.owner, list(blocks))
        return owners
    return block_owners_pure(table, tree, blocks)


def block_owners_pure(
    table: NodeTable, tree: VisibleTree, blocks: Sequence[TextBlock]
) -> list[int]:
    """The visible node of each block: the owner of its element, or of the nearest ancestor
    that is a node (``<body>``, visible node 0, when there is none)."""
    index = table.index()
    owners = []
    for block in blocks:
        element = block.element
        while element is not None and element not in index:
            element = element.getparent()
        owners.append(tree.owner[index[element]] if element is not None else 0)
    return owners


def block_link_counts(table: NodeTable, blocks: Sequence[TextBlock]) -> list[int]:
    """The ``<a href>`` elements with text of each block.

    A link belongs to the block whose element is the link's container (its nearest
    ancestor-or-self that is not inline, the segmenter's rule); when several blocks share that
    element, to the first whose text holds the link's text, else the first of them.
    """
    by_element: dict[Element, list[int]] = {}
    for b, block in enumerate(blocks):
        for element in block.elements:
            by_element.setdefault(element, []).append(b)
    counts = [0] * len(blocks)
    for i, element in enumerate(table.elements):
        if element.tag != "a" or element.get("href") is None or table.chars[i] == 0:
            continue
        container: Element | None = element
        while container is not None and container.tag in NOT_BLOCK_LEVEL_TAGS:
            container = container.getparent()
        candidates = by_element.get(container) if container is not None else None
        if not candidates:
            continue
        text = " ".join(string_value(element).split())
        chosen = next((b for b in candidates if text in blocks[b].text), candidates[0])
        counts[chosen] += 1
    return counts


_nodes = compiled_twin(f"{__package__}._nodes")
#: True when :func:`node_table` and :func:`~.node_features.node_feature_rows` run the compiled
#: twin (``features/_nodes.pyx``).
ACCELERATED: Final = _nodes is not None
