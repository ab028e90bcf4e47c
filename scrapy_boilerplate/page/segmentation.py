"""Segmentation: an lxml tree becomes a :class:`~scrapy_boilerplate.model.document.TextDocument`.

Rules (reference boilerpipe, reference §1): every tag starts a new block except ``<a>`` and the
inline tags; ``<a>`` text counts as linked words; text inside ``<script>``, ``<style>`` and the
other ignorable tags is dropped; text outside ``<body>`` never forms a block, but the
``<title>`` text is kept as the document title.

Unless ``strict_reference`` is set, the walk reads the page as a reader sees it: only
``<a href>`` is a link (an ``<a name>`` is inline text); text inside hidden elements
(:func:`~.tags.is_hidden`) forms blocks of its own, labelled ``HIDDEN`` and dropped by
:func:`drop_hidden_blocks`; characters of the page equal to the link markers become U+FFFD;
text of format characters only (zero-width spaces, :func:`~.tokens.shows_nothing`) forms no
block.

The walk is iterative, so nesting depth is bounded only by the parser. It visits elements
(and entity references), as ``etree.iterwalk`` does: in a tree that still holds comments or
processing instructions, those are passed over with the text that follows them
(:func:`~scrapy_boilerplate.page.parsing.parse_html` drops them while parsing and keeps that
text).

The walk and the word counts have a compiled twin (``_speedups``, built with Cython when the
package is installed) that gives the same blocks; the code here is the reference, and runs
when the twin is not built or :data:`PURE_PYTHON_ENV` is set.

Citations "reference §N" and "Q<n>" point to ``docs/reference-quirks.md``.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import Final

from lxml import etree

from ..model import labels as L
from ..model.document import Element, TextBlock, TextDocument
from .javacompat import COMMON_WHITESPACE, JAVA_WHITESPACE
from .tags import LABELS_BY_TAG, NOT_BLOCK_LEVEL_TAGS, TAG_CLASSES, TagClass, head_title, is_hidden
from .tokens import (
    LINK_END,
    LINK_START,
    block_word_stats,
    drop_format_characters,
    shows_nothing,
    strip_markers,
    unmark,
)

__all__ = [
    "segment",
    "document_title",
    "build_blocks",
    "ACCELERATED",
    "PURE_PYTHON_ENV",
    "compiled_twin",
]

#: Set this environment variable (to any non-empty value) to run the pure-Python walk even
#: when the compiled speedups are built.
PURE_PYTHON_ENV: Final = "SCRAPY_BOILERPLATE_PURE_PYTHON"

# The tag classes as module globals: the hot loop compares them without an attribute lookup.
_DEFAULT, _IGNORABLE, _ANCHOR, _BODY = (
    TagClass.DEFAULT,
    TagClass.IGNORABLE,
    TagClass.ANCHOR,
    TagClass.BODY,
)
_INLINE, _INLINE_SPACED, _LABELLED = TagClass.INLINE, TagClass.INLINE_SPACED, TagClass.LABELLED


class _Segmenter:
    """The reference SAX handler's state machine, fed by an iterative tree walk.

    The walk is the hot path of the package: element events are handled inline with local
    variables; only block emission (``_flush``) is a method call.
    """

    def __init__(self, strict_reference: bool) -> None:
        self.strict = strict_reference
        self.parts: list[str] = []
        self.label_stack: list[frozenset[str]] = []
        self.title: str | None = None
        # the block being buffered: tag level of its first text, its element, its labels
        self.block_tag_level = -1
        self.block_element: Element | None = None
        self.block_labels: set[str] = set()
        # (token buffer, text, tag level, labels, element) of each block, in order
        self.pending: list[tuple[str, str, int, set[str], Element | None]] = []

    def run(self, root: Element) -> None:
        classes = TAG_CLASSES[self.strict]
        strict = self.strict
        parts = self.parts
        label_stack = self.label_stack
        java_whitespace = JAVA_WHITESPACE.sub
        last_was_ws = False
        in_body = in_anchor = in_ignorable = 0
        tag_level = 0
        flush_pending = False
        last_start_tag = ""
        in_hidden = 0
        hidden_open: list[Element] = []  # the hidden elements around the walk's position

        walker = etree.iterwalk(root, events=("start", "end"))
        for event, element in walker:
            tag = element.tag
            kind = classes.get(tag, _DEFAULT)
            if kind == _ANCHOR and not strict and element.get("href") is None:
                kind = _INLINE  # only <a href> is a link (an <a name> is a plain inline tag)
            if event == "start":
                if not strict and kind != _IGNORABLE and is_hidden(element):
                    hidden_open.append(element)
                    in_hidden += 1
                    flush_pending = True  # hidden text never shares a block with visible text
                if kind == _IGNORABLE:
                    walker.skip_subtree()  # no text inside counts; its end event still comes
                elif tag == "head" and not strict:
                    self.title = head_title(element)
                    walker.skip_subtree()
                if kind == _INLINE:
                    pass
                elif kind == _DEFAULT:
                    tag_level += 1
                    flush_pending = True
                elif kind == _ANCHOR:
                    tag_level += 1
                    in_anchor += 1
                    if not in_ignorable:
                        if not last_was_ws:
                            parts.append(" ")
                        if in_anchor == 1:
                            parts.append(LINK_START + " ")
                        last_was_ws = True
                elif kind == _IGNORABLE:
                    tag_level += 1
                    in_ignorable += 1
                    flush_pending = True
                elif kind == _LABELLED:
                    tag_level += 1
                    label_stack.append(LABELS_BY_TAG[tag])
                    flush_pending = True
                elif kind == _BODY:
                    tag_level += 1
                    if parts:
                        self._flush(in_body, last_start_tag, last_was_ws)
                    in_body += 1
                elif not last_was_ws:  # _INLINE_SPACED
                    parts.append(" ")
                    last_was_ws = True
                last_start_tag = tag
                chunk = element.text
                is_tail = False
            else:
                if hidden_open and hidden_open[-1] is element:
                    hidden_open.pop()
                    in_hidden -= 1
                    flush_pending = True
                if kind == _INLINE:
                    pass
                else:
                    if kind == _DEFAULT or kind == _LABELLED:
                        flush_pending = True
                    elif kind == _ANCHOR:
                        in_anchor = max(0, in_anchor - 1)
                        if in_anchor == 0 and not in_ignorable:
                            if not last_was_ws:
                                parts.append(" ")
                            parts.append(LINK_END + " ")
                            last_was_ws = True
                    elif kind == _IGNORABLE:
                        in_ignorable -= 1
                        flush_pending = True
                    elif kind == _BODY:
                        if parts:
                            self._flush(in_body, last_start_tag, last_was_ws)
                        in_body -= 1
                    elif not last_was_ws:  # _INLINE_SPACED
                        parts.append(" ")
                        last_was_ws = True
                    if kind != _INLINE_SPACED:
                        tag_level -= 1
                    if flush_pending and parts:
                        self._flush(in_body, last_start_tag, last_was_ws)
                    if kind == _LABELLED:
                        label_stack.pop()
                chunk = element.tail
                is_tail = True
            if not chunk:
                continue
            # text event
            if flush_pending:
                if parts:
                    self._flush(in_body, last_start_tag, last_was_ws)
                flush_pending = False
            if in_ignorable:
                continue
            if chunk.strip(COMMON_WHITESPACE):
                chunk = java_whitespace(" ", chunk)
                stripped = unmark(chunk.strip(" "))
            else:
                stripped = ""  # the usual whitespace between tags
            if not stripped:
                if not last_was_ws:
                    parts.append(" ")
                    last_was_ws = True
                continue
            if chunk[0] == " " and not last_was_ws:
                parts.append(" ")
            if self.block_element is None:
                if self.block_tag_level == -1:
                    self.block_tag_level = tag_level
                # the text's container: the element itself, or its parent for a tail
                container = element.getparent() if is_tail else element
                while container is not None and container.tag in NOT_BLOCK_LEVEL_TAGS:
                    container = container.getparent()
                self.block_element = container if container is not None else element
                if not strict:
                    self.block_labels = set().union(*label_stack)
                    if in_hidden:
                        self.block_labels.add(L.HIDDEN)
            parts.append(stripped)
            if chunk[-1] == " ":
                parts.append(" ")
                last_was_ws = True
            else:
                last_was_ws = False
        if parts:
            self._flush(in_body, last_start_tag, last_was_ws)

    def _flush(self, in_body: int, last_start_tag: str, last_was_ws: bool) -> None:
        """Emit the buffered text as a block (or capture the title outside ``<body>``)."""
        parts = self.parts
        if not in_body:
            if last_start_tag == "title":
                title = strip_markers("".join(parts)).strip()
                if title:
                    self.title = title
            parts.clear()
            self.block_element = None
            if not self.strict:
                self.block_tag_level = -1
            return
        if self.block_element is None:
            if parts == [" "]:
                parts.clear()  # whitespace only; a buffer holding link markers is kept
            return
        buffer = "".join(parts)
        if len(buffer) == 1 and last_was_ws:
            parts.clear()
            return
        text = strip_markers(buffer).strip(" ")
        if not text:
            return  # link markers only: they go into the next block
        if not self.strict and shows_nothing(text):
            self._drop_invisible(buffer)
            return
        labels = set().union(*self.label_stack) if self.strict else self.block_labels
        self.pending.append((buffer, text, self.block_tag_level, labels, self.block_element))
        parts.clear()
        self.block_tag_level = -1
        self.block_element = None
        self.block_labels = set()

    def _drop_invisible(self, buffer: str) -> None:
        """Forget buffered text that shows nothing (:func:`~.tokens.shows_nothing`): it makes no
        block; link markers in it go into the next block, as markers alone do."""
        if LINK_START in buffer or LINK_END in buffer:
            self.parts[:] = [drop_format_characters(buffer)]
            return
        self.parts.clear()
        self.block_tag_level = -1
        self.block_element = None
        self.block_labels = set()


def _build_blocks(
    pending: list[tuple[str, str, int, set[str], Element | None]],
) -> list[TextBlock]:
    """Turn the walk's queued buffers into blocks, counting words for all of them at once."""
    stats = block_word_stats([buffer for buffer, *_ in pending])
    return [
        TextBlock(
            text,
            counts.words,
            counts.linked_words,
            counts.wrapped_words,
            counts.wrapped_lines,
            counts.word_chars,
            tag_level,
            offset,
            offset,
            labels,
            [element] if element is not None else [],
        )
        for offset, ((_, text, tag_level, labels, element), counts) in enumerate(
            zip(pending, stats, strict=True)
        )
    ]


def build_blocks(
    pending: list[tuple[str, str, int, set[str], Element | None]],
) -> list[TextBlock]:
    """Blocks from queued ``(marked buffer, text, tag level, labels, element)``: the buffers'
    word counts (:func:`~.tokens.block_word_stats`, the link state carried from buffer to
    buffer), offsets in queue order; by the compiled twin when it is built."""
    if _speedups is not None:
        blocks: list[TextBlock] = _speedups.build_blocks(pending, TextBlock)
        return blocks
    return _build_blocks(pending)


def segment(
    root: Element, *, url: str | None = None, strict_reference: bool = False
) -> TextDocument:
    """Split a parsed page into atomic text blocks.

    With ``strict_reference`` the reference's accidental behaviours are kept (the first body
    block takes the ``<title>``'s tag level; text just before ``<li>``/``<h1-3>`` gets their
    labels) and only the reference's ignorable tags are dropped.
    """
    declared = None
    if _speedups is not None:
        title, pending, declared = _speedups.walk(root, strict_reference)
    else:
        segmenter = _Segmenter(strict_reference)
        segmenter.run(root)
        title, pending = segmenter.title, segmenter.pending
    if _speedups is not None:
        blocks = _speedups.build_blocks(pending, TextBlock)
    else:
        blocks = _build_blocks(pending)
    if not strict_reference:
        blocks = drop_hidden_blocks(blocks)
    doc = TextDocument(blocks=blocks, title=title, root=root, url=url)
    if declared is not None:  # the compiled walk found them on its way
        doc.memo[DECLARED_ELEMENTS] = (root, declared)
    return doc


def document_title(root: Element) -> str | None:
    """The title :func:`segment` gives the page (without ``strict_reference``), cheaply.

    When every ``<title>`` lies inside a ``<head>`` (the usual case), it is the
    :func:`~.tags.head_title` of the last ``<head>`` that is neither inside another ``<head>``
    nor inside an ignorable element, as the walk finds it; otherwise the page is segmented.
    """
    classes = TAG_CLASSES[False]
    title: str | None = None
    for element in root.iter("head", "title"):
        ancestors = [ancestor.tag for ancestor in element.iterancestors()]
        if element.tag == "title":
            if "head" not in ancestors:
                return segment(root).title  # a <title> in the body's text: the walk decides
            continue
        if "head" not in ancestors and all(classes.get(tag) != _IGNORABLE for tag in ancestors):
            title = head_title(element)
    return title


def drop_hidden_blocks(blocks: list[TextBlock]) -> list[TextBlock]:
    """Drop the blocks labelled ``HIDDEN`` unless they hold more words than the visible ones.

    A reader never sees hidden text (pop-ups, menus, templates), so it is boilerplate; a page
    whose hidden text outweighs its visible text is one that hides its content until a script
    shows it, and keeps everything. Offsets are renumbered as if the hidden blocks never were.
    """
    kept = [block for block in blocks if L.HIDDEN not in block.labels]
    if len(kept) == len(blocks):
        return blocks
    visible_words = sum(block.num_words for block in kept)
    if sum(block.num_words for block in blocks) - visible_words > visible_words:
        return blocks
    for offset, block in enumerate(kept):
        block.offset_start = block.offset_end = offset
    return kept


def compiled_twin(module: str) -> ModuleType | None:
    """The compiled twin ``module`` (absolute dotted name), unless it is not built (or built
    against another lxml or Python) or ``PURE_PYTHON_ENV`` is set."""
    if os.environ.get(PURE_PYTHON_ENV):
        return None
    try:
        return importlib.import_module(module)
    except Exception:  # not built, or built against another lxml or Python
        return None


#: ``doc.memo`` key of ``(root, (h1, meta, script elements))`` that the compiled walk found on
#: its way (:mod:`.declarations` takes them instead of walking the tree again).
DECLARED_ELEMENTS: Final = "declared_elements"

_speedups = compiled_twin(f"{__package__}._speedups")
#: True when segmentation runs the compiled twin of its walk and word counts.
ACCELERATED: Final = _speedups is not None
