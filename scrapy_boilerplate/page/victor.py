"""Victor's block split (Marek 2007, §3.2-3.3): pre-cleaning, then a block at every tag.

A second segmentation beside boilerpipe's (:mod:`.segmentation`), for the ``victor``
extractor's CRF. Rules, on the tree :func:`~.parsing.parse_html` gives (libxml2 stands in for
HTML Tidy):

* **Pre-cleaning**: the subtrees of :data:`DELETED_TAGS` (scripts, styles, embedded objects,
  form widgets with option text, ``<head>``) are skipped; so are hidden elements
  (:func:`~.tags.is_hidden`), unless their text outweighs the visible text (a page that
  hides its content until a script shows it). An ``<img alt="...">`` gives its alternative
  text as a block inside the ``<img>``; ``<input value>`` is ignored.
* **Split**: every start and end tag ends the current block, so ``<p>Hello <b><i>world</i></b>!
  </p>`` gives "Hello", "world" and "!". Inside ``<pre>`` every line is a block of its own (an
  artificial ``br`` separates them). Text is whitespace-collapsed; whitespace-only text gives
  no block.
* **Per block** (§3.3): ``containers`` (the ancestors' tag names below ``<body>``, outermost
  first, ``img`` for alternative text), ``distance`` (the tags seen since the previous block,
  ``"x"`` for ``<x>`` and ``"/x"`` for ``</x>``; a void element such as ``<br>`` only ``"x"``),
  ``div_group`` / ``td_group`` (the nearest
  enclosing ``<div>`` / ``<td>``, §4.2; 0 = none), ``glued`` (no whitespace between this block
  and the previous one and only :data:`INLINE_SPLIT_TAGS` between them, as in
  ``world</i></b>!``: a continuation is re-joined without a space) and ``element`` (the
  innermost element holding the text).

The walk is iterative (``etree.iterwalk``): pages 10,000 elements deep cost no recursion.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from lxml import etree

from ..model.document import Element
from .tags import EXTRA_IGNORABLE_TAGS, IGNORABLE_TAGS, is_hidden

__all__ = [
    "VictorBlock",
    "DELETED_TAGS",
    "INLINE_SPLIT_TAGS",
    "PRE_LINE_BREAK",
    "VOID_TAGS",
    "victor_blocks",
]

#: Elements deleted with their subtree before the split (the thesis's ``tag-delete`` list is
#: not published; this is boilerpipe's ignorable set plus form widgets and image maps).
DELETED_TAGS: Final = (
    IGNORABLE_TAGS | EXTRA_IGNORABLE_TAGS | {"select", "button", "map", "head", "title"}
)
#: Tags of ``split.class-inline`` (every other tag is ``split.class-block``).
INLINE_SPLIT_TAGS: Final = frozenset(
    [
        "a",
        "b",
        "i",
        "u",
        "em",
        "strong",
        "span",
        "font",
        "small",
        "big",
        "sub",
        "sup",
        "code",
        "tt",
        "abbr",
        "acronym",
        "cite",
        "q",
        "s",
        "strike",
        "img",
        "label",
        "var",
        "kbd",
        "samp",
        "dfn",
        "mark",
        "ins",
        "del",
        "time",
    ]
)
#: The tag name put in ``distance`` between two lines of a ``<pre>``.
PRE_LINE_BREAK: Final = "br"
#: Void elements: only their start tag counts in ``distance`` (one ``<br>`` is one tag).
VOID_TAGS: Final = frozenset(
    ["br", "hr", "img", "input", "wbr", "area", "col", "embed", "meta", "param", "source", "track"]
)


@dataclass(eq=False, slots=True)
class VictorBlock:
    """One block of Victor's split (fields as in the module docstring)."""

    text: str
    containers: tuple[str, ...]
    distance: tuple[str, ...]
    glued: bool
    div_group: int
    td_group: int
    element: Element
    hidden: bool = False


class _Walk:
    """The walk's state; :meth:`add_text` turns one text node into blocks."""

    def __init__(self) -> None:
        self.blocks: list[VictorBlock] = []
        self.stack: list[str] = []  # tag names below <body>, outermost first
        self.distance: list[str] = []
        self.only_inline = True  # every tag in ``distance`` is inline
        self.space_before = True  # whitespace since the previous block's last character
        self.div_groups: list[int] = [0]
        self.td_groups: list[int] = [0]
        self.next_group = 1
        self.hidden = 0
        self.pre = 0

    def tag(self, name: str) -> None:
        self.distance.append(name)
        if name.lstrip("/") not in INLINE_SPLIT_TAGS:
            self.only_inline = False

    def add_text(self, chunk: str, element: Element, containers: tuple[str, ...]) -> None:
        lines = chunk.split("\n") if self.pre else [chunk]
        for number, line in enumerate(lines):
            if number:
                self.tag(PRE_LINE_BREAK)
                self.space_before = True
            words = line.split()
            if not words:
                self.space_before = self.space_before or bool(line)
                continue
            glued = bool(self.blocks) and self.only_inline and not self.space_before
            glued = glued and not line[0].isspace()
            self.blocks.append(
                VictorBlock(
                    " ".join(words),
                    containers,
                    tuple(self.distance),
                    glued,
                    self.div_groups[-1],
                    self.td_groups[-1],
                    element,
                    self.hidden > 0,
                )
            )
            self.distance = []
            self.only_inline = True
            self.space_before = line[-1].isspace()

    def open(self, element: Element, name: str) -> None:
        self.tag(name)
        self.stack.append(name)
        if name == "div":
            self.div_groups.append(self.next_group)
            self.next_group += 1
        elif name == "td":
            self.td_groups.append(self.next_group)
            self.next_group += 1
        elif name == "pre":
            self.pre += 1

    def close(self, name: str) -> None:
        if name not in VOID_TAGS:
            self.tag("/" + name)
        self.stack.pop()
        if name == "div":
            self.div_groups.pop()
        elif name == "td":
            self.td_groups.pop()
        elif name == "pre":
            self.pre -= 1


def _tag_name(element: Element) -> str | None:
    tag = element.tag
    return tag.lower() if isinstance(tag, str) else None


def victor_blocks(root: Element) -> list[VictorBlock]:
    """Split the ``<body>`` of a parsed page into Victor's blocks, in document order."""
    body = root if _tag_name(root) == "body" else root.find("body")
    if body is None:
        return []
    walk = _Walk()
    hidden_open: list[Element] = []
    walker = etree.iterwalk(body, events=("start", "end"))
    for event, element in walker:
        name = _tag_name(element)
        if element is body:
            if event == "start" and body.text:
                walk.add_text(body.text, body, ())
            continue
        if name is None:
            if event == "end" and element.tail:
                walk.add_text(element.tail, _parent(element), tuple(walk.stack))
            continue
        if event == "start":
            if name in DELETED_TAGS:
                walker.skip_subtree()
                hidden_open.append(element)  # marks a skipped subtree: its end closes nothing
                continue
            if is_hidden(element):
                hidden_open.append(element)
                walk.hidden += 1
            walk.open(element, name)
            if name == "img":
                alt = element.get("alt")
                if alt:
                    walk.add_text(alt, element, tuple(walk.stack))
            if element.text:
                walk.add_text(element.text, element, tuple(walk.stack))
            continue
        if hidden_open and hidden_open[-1] is element:
            hidden_open.pop()
            if name in DELETED_TAGS:
                walk.space_before = True
                if element.tail:
                    walk.add_text(element.tail, _parent(element), tuple(walk.stack))
                continue
            walk.hidden -= 1
        walk.close(name)
        if element.tail:
            walk.add_text(element.tail, _parent(element), tuple(walk.stack))
    return _drop_hidden(walk.blocks)


def _drop_hidden(blocks: list[VictorBlock]) -> list[VictorBlock]:
    """The visible blocks, unless hidden text outweighs visible text (then all blocks)."""
    hidden_words = sum(len(b.text.split()) for b in blocks if b.hidden)
    if not hidden_words:
        return blocks
    visible = [block for block in blocks if not block.hidden]
    if hidden_words > sum(len(b.text.split()) for b in visible):
        return blocks
    return visible


def _parent(element: Element) -> Element:
    """The element a tail text belongs to (its parent; the element itself at the root)."""
    parent = element.getparent()
    return element if parent is None else parent
