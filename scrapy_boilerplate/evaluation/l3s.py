"""The L3S-GN1 collection (Kohlschütter et al., WSDM 2010): pages, gold text and block labels.

Layout: ``original/<uuid>.html.gz`` (the page as crawled, in its own charset),
``annotated/<uuid>.html.gz`` (the browser-serialised page where assessors wrapped text in
``<span class="x-nc-selN">``) and ``url-mapping.txt`` (``<urn:uuid:...>``, tab, URL).

Label rules:

* a piece of text takes the label of its innermost ``x-nc-selN`` span; text in no span is
  *not content* (0), as in the paper ("unselected text is regarded not content");
* the annotated page is segmented with :func:`~scrapy_boilerplate.page.segmentation.segment` (the
  spans are inline, so they do not split blocks); a block holding text of several labels takes
  the label covering most of its words (ties: the label met first);
* two-class problem: content = headline, full text, supplemental, user comments (the paper
  treats comments as main content); boilerplate = not content and related content;
* four-class problem (paper §4.3.1): boilerplate (not content, related content), full
  text/comments, headline, supplemental.

Label boundaries are found by putting a private-use marker token into the annotated tree's
text where the label changes (the original text is restored afterwards). A marker splits a
word only when a label boundary falls inside a word, which the annotator's tool avoided.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path
from typing import Final

from lxml import etree

from ..model.document import Element, TextDocument
from ..page.files import read_html
from ..page.parsing import parse_html
from ..page.segmentation import segment
from ..page.tags import EXTRA_IGNORABLE_TAGS, IGNORABLE_TAGS, is_hidden
from ..page.tokens import is_word, tokenize

__all__ = [
    "L3SLabel",
    "CONTENT_LABELS",
    "FOUR_CLASS_NAMES",
    "two_class",
    "four_class",
    "AnnotatedDocument",
    "segment_annotated",
    "label_blocks",
    "read_url_mapping",
    "page_ids",
    "annotated_html",
    "original_html",
]


class L3SLabel(IntEnum):
    """The assessors' classes (``x-nc-selN``)."""

    NOT_CONTENT = 0
    HEADLINE = 1
    FULL_TEXT = 2
    SUPPLEMENTAL = 3
    RELATED_CONTENT = 4
    COMMENTS = 5


#: Labels counted as content in the two-class problem and in the gold text.
CONTENT_LABELS: Final = frozenset(
    {L3SLabel.HEADLINE, L3SLabel.FULL_TEXT, L3SLabel.SUPPLEMENTAL, L3SLabel.COMMENTS}
)
#: Class names of :func:`four_class`, by class number.
FOUR_CLASS_NAMES: Final = ("boilerplate", "full text/comments", "headline", "supplemental")

_FOUR_CLASS: Final = {
    L3SLabel.NOT_CONTENT: 0,
    L3SLabel.RELATED_CONTENT: 0,
    L3SLabel.FULL_TEXT: 1,
    L3SLabel.COMMENTS: 1,
    L3SLabel.HEADLINE: 2,
    L3SLabel.SUPPLEMENTAL: 3,
}
_CLASS_PATTERN: Final = re.compile(r"\bx-nc-sel([0-5])\b")
_MARKER_BASE: Final = 0xE100
_MARKERS: Final = re.compile(f"([{chr(_MARKER_BASE)}-{chr(_MARKER_BASE + 5)}]) ?")
_SKIPPED_TAGS: Final = IGNORABLE_TAGS | EXTRA_IGNORABLE_TAGS


def two_class(label: L3SLabel) -> int:
    """1 for content (:data:`CONTENT_LABELS`), 0 for boilerplate."""
    return 1 if label in CONTENT_LABELS else 0


def four_class(label: L3SLabel) -> int:
    """The four-class number of ``label`` (names in :data:`FOUR_CLASS_NAMES`)."""
    return _FOUR_CLASS[label]


@dataclass(frozen=True)
class AnnotatedDocument:
    """A segmented annotated page with, per block, its label and its text pieces by label."""

    doc: TextDocument
    labels: list[L3SLabel]
    pieces: list[list[tuple[L3SLabel, str]]]

    def text_of(self, labels: frozenset[L3SLabel] = CONTENT_LABELS) -> str:
        """Text of the pieces with one of ``labels``: pieces of a block joined by a space,
        blocks by a newline."""
        lines = []
        for block_pieces in self.pieces:
            line = " ".join(text for label, text in block_pieces if label in labels)
            if line:
                lines.append(line)
        return "\n".join(lines)


def _span_label(element: Element, inherited: L3SLabel) -> L3SLabel:
    if element.tag == "span":
        match = _CLASS_PATTERN.search(element.get("class") or "")
        if match:
            return L3SLabel(int(match.group(1)))
    return inherited


def _insert_markers(root: Element) -> list[tuple[Element, str, str | None]]:
    """Put a label marker before text where the label changes; return what to restore."""
    saved: list[tuple[Element, str, str | None]] = []
    stack: list[L3SLabel] = []
    skipped = 0
    current: L3SLabel | None = None

    def mark(element: Element, attribute: str, label: L3SLabel) -> None:
        nonlocal current
        text = getattr(element, attribute)
        if not text or not text.strip() or skipped:
            return
        if label != current:
            stripped = text.lstrip()
            lead = text[: len(text) - len(stripped)]
            saved.append((element, attribute, text))
            setattr(element, attribute, f"{lead}{chr(_MARKER_BASE + label)} {stripped}")
            current = label
        return

    for event, element in etree.iterwalk(root, events=("start", "end")):
        if not isinstance(element.tag, str):
            continue
        if event == "end" and is_hidden(element):
            current = None  # the segmentation may drop the hidden text and the markers in it
        if event == "start":
            label = _span_label(element, stack[-1] if stack else L3SLabel.NOT_CONTENT)
            stack.append(label)
            if element.tag in _SKIPPED_TAGS:
                skipped += 1
            mark(element, "text", label)
        else:
            stack.pop()
            if element.tag in _SKIPPED_TAGS:
                skipped -= 1
            mark(element, "tail", stack[-1] if stack else L3SLabel.NOT_CONTENT)
    return saved


def _split_pieces(text: str, label: L3SLabel) -> tuple[list[tuple[L3SLabel, str]], L3SLabel]:
    """Split marked block text into (label, text) pieces; return them and the last label."""
    pieces: list[tuple[L3SLabel, str]] = []
    parts = _MARKERS.split(text)
    for index, part in enumerate(parts):
        if index % 2:
            label = L3SLabel(ord(part) - _MARKER_BASE)
        elif part.strip():
            pieces.append((label, part.strip()))
    return pieces, label


def _majority(pieces: list[tuple[L3SLabel, str]], fallback: L3SLabel) -> L3SLabel:
    words: dict[L3SLabel, int] = {}
    for label, text in pieces:
        words[label] = words.get(label, 0) + sum(1 for token in tokenize(text) if is_word(token))
    if not words:
        return fallback
    best = max(words.values())
    return next(label for label, count in words.items() if count == best)


def segment_annotated(html: bytes | str, url: str | None = None) -> AnnotatedDocument:
    """Segment an annotated L3S-GN1 page and label its blocks (see the module rules).

    Raises :class:`~scrapy_boilerplate.errors.InvalidInputError` for unparsable input.
    """
    root = parse_html(html)
    saved = _insert_markers(root)
    try:
        doc = segment(root, url=url)
    finally:
        for element, attribute, text in reversed(saved):
            setattr(element, attribute, text)
    labels: list[L3SLabel] = []
    all_pieces: list[list[tuple[L3SLabel, str]]] = []
    current = L3SLabel.NOT_CONTENT
    for block in doc.blocks:
        start_label = current
        pieces, current = _split_pieces(block.text, current)
        block.text = " ".join(text for _, text in pieces)
        labels.append(_majority(pieces, start_label))
        all_pieces.append(pieces)
    return AnnotatedDocument(doc=doc, labels=labels, pieces=all_pieces)


def label_blocks(html: bytes | str, url: str | None = None) -> tuple[TextDocument, list[L3SLabel]]:
    """The blocks of an annotated page and the assessors' label of each block."""
    annotated = segment_annotated(html, url)
    return annotated.doc, annotated.labels


def read_url_mapping(path: str | os.PathLike[str]) -> dict[str, str]:
    """``uuid -> URL`` from ``url-mapping.txt`` (lines ``<urn:uuid:ID>\\tURL``)."""
    mapping: dict[str, str] = {}
    file = Path(path) / "url-mapping.txt"
    if not file.is_file():
        return mapping
    for line in file.read_text(encoding="utf-8", errors="replace").splitlines():
        key, _, url = line.partition("\t")
        key = key.strip().strip("<>").removeprefix("urn:uuid:")
        if key and url.strip():
            mapping[key] = url.strip()
    return mapping


def page_ids(path: str | os.PathLike[str]) -> list[str]:
    """Sorted ids of the pages that have both an original and an annotated file."""
    root = Path(path)
    suffix = ".html.gz"
    annotated = {p.name[: -len(suffix)] for p in (root / "annotated").glob(f"*{suffix}")}
    original = {p.name[: -len(suffix)] for p in (root / "original").glob(f"*{suffix}")}
    return sorted(annotated & original)


def annotated_html(path: str | os.PathLike[str], page_id: str) -> bytes:
    """The annotated page ``page_id`` of the collection at ``path``."""
    return read_html(Path(path) / "annotated" / f"{page_id}.html.gz")


def original_html(path: str | os.PathLike[str], page_id: str) -> bytes:
    """The original page ``page_id`` of the collection at ``path`` (bytes in its own charset)."""
    return read_html(Path(path) / "original" / f"{page_id}.html.gz")
