"""The ``victor`` filter: Victor's blocks labelled by the CRF and joined into segments.

The filter re-segments the page's tree with Victor's split (:mod:`..page.victor`), computes
the features (:mod:`..features.victor`), tags the blocks (:mod:`.crf`) and **replaces**
``doc.blocks`` by the labelled result (Marek 2007, §2.3):

* a ``header``, ``paragraph`` or ``list`` block starts a segment; a ``continuation`` block
  joins the segment before it (without a space when it is ``glued``, as in ``world</b>!``);
  a continuation after noise or at the page's start opens a paragraph of its own;
* each segment becomes one content :class:`TextBlock` with the Victor label of its first
  block (``VICTOR_HEADER`` ... ``VICTOR_CONTINUATION``); a header segment also gets
  ``HEADING`` (and ``H1``-``H3`` inside those tags), a list segment ``LI``, so renderers of
  the segmentation's labels see the same structure;
* each ``other`` block stays as a block of its own, not content, labelled ``VICTOR_OTHER``.

So ``article_text`` gives one paragraph per segment, and every later filter, the title finder
and the Scrapy add-on work unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..features.victor import victor_features
from ..model import labels as L
from ..model.document import Element, TextBlock, TextDocument
from ..page.segmentation import build_blocks
from ..page.tags import NOT_BLOCK_LEVEL_TAGS
from ..page.tokens import LINK_END, LINK_START
from ..page.victor import VictorBlock, victor_blocks
from .crf import VictorModel

__all__ = [
    "VictorClassifier",
    "LABELS_BY_CODE",
    "CONTENT_CODES",
    "assemble_segments",
    "segment_spans",
    "join_blocks",
]

#: Model label code -> block label.
LABELS_BY_CODE: Final = {
    "h": L.VICTOR_HEADER,
    "p": L.VICTOR_PARAGRAPH,
    "l": L.VICTOR_LIST,
    "c": L.VICTOR_CONTINUATION,
    "o": L.VICTOR_OTHER,
}
#: Label codes of content blocks.
CONTENT_CODES: Final = frozenset("hplc")
_HEADING_LEVELS: Final = {"h1": L.H1, "h2": L.H2, "h3": L.H3}


def segment_spans(codes: Sequence[str]) -> list[tuple[str, list[int]]]:
    """Group labelled blocks into segments (module docstring): per segment, the code of its
    first block and its block indices; ``o`` blocks stay alone."""
    spans: list[tuple[str, list[int]]] = []
    previous = "o"
    for index, code in enumerate(codes):
        if code == "c" and previous != "o" and spans:
            spans[-1][1].append(index)
        else:
            spans.append((code, [index]))
        previous = code
    return spans


def join_blocks(texts: Sequence[str], glued: Sequence[bool]) -> str:
    """Block texts joined with a space, none before a glued block."""
    parts: list[str] = []
    for number, (text, is_glued) in enumerate(zip(texts, glued, strict=True)):
        if number and not is_glued:
            parts.append(" ")
        parts.append(text)
    return "".join(parts)


def _marked(block: VictorBlock) -> str:
    """The block's text, in link markers when it is inside ``<a>`` (for the word counts)."""
    return f"{LINK_START} {block.text} {LINK_END}" if "a" in block.containers else block.text


def _block_element(element: Element, found: dict[Element, Element]) -> Element:
    """The nearest ancestor-or-self that is not an inline tag or a link (``found`` caches)."""
    block_element = found.get(element)
    if block_element is None:
        current: Element | None = element
        while current is not None and current.tag in NOT_BLOCK_LEVEL_TAGS:
            current = current.getparent()
        block_element = found[element] = element if current is None else current
    return block_element


def _segment_labels(code: str, first: VictorBlock) -> set[str]:
    labels = {LABELS_BY_CODE[code]}
    if code == "h":
        labels.add(L.HEADING)
        labels.update(_HEADING_LEVELS[tag] for tag in first.containers if tag in _HEADING_LEVELS)
    elif code == "l":
        labels.add(L.LI)
    return labels


def assemble_segments(blocks: Sequence[VictorBlock], codes: Sequence[str]) -> list[TextBlock]:
    """The labelled blocks as the result's :class:`TextBlock`s (module docstring)."""
    pending: list[tuple[str, str, int, set[str], Element | None]] = []
    segment_elements: list[list[Element]] = []
    content: list[bool] = []
    found: dict[Element, Element] = {}
    for code, indices in segment_spans(codes):
        first = blocks[indices[0]]
        if len(indices) == 1:
            text, marked = first.text, _marked(first)
            elements = [_block_element(first.element, found)]
        else:
            segment = [blocks[i] for i in indices]
            glued = [b.glued for b in segment]
            text = join_blocks([b.text for b in segment], glued)
            marked = join_blocks([_marked(b) for b in segment], glued)
            elements = []
            for block in segment:
                element = _block_element(block.element, found)
                if element not in elements:
                    elements.append(element)
        labels = _segment_labels(code, first)
        pending.append((marked, text, len(first.containers) + 2, labels, None))
        segment_elements.append(elements)
        content.append(code in CONTENT_CODES)
    result = build_blocks(pending)
    for text_block, elements, is_content in zip(result, segment_elements, content, strict=True):
        text_block.elements = elements
        text_block.is_content = is_content
    return result


@dataclass(frozen=True)
class VictorClassifier:
    """Replace ``doc.blocks`` by Victor's labelled segments (module docstring)."""

    model: VictorModel

    def __call__(self, doc: TextDocument) -> bool:
        if doc.root is None:
            return False
        blocks = victor_blocks(doc.root)
        codes = self.model.tag(victor_features(blocks))
        doc.blocks = assemble_segments(blocks, codes)
        return True
