"""The result of an extraction, and how content blocks become article text."""

from __future__ import annotations

import pickle
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lxml import etree

from .document import Element, TextBlock, TextDocument, blocks_from_rows, blocks_to_rows

__all__ = ["ExtractionResult", "article_text", "content_html"]

# Where a pickled result keeps its blocks until they are first read.
_PACKED_BLOCKS = "_packed_blocks"

# Block texts hold no whitespace but the space and the characters Java keeps (NBSP ...).
_SPACE_RUN = re.compile(" {2,}")
_KEPT_SPACES = "\xa0\u2007\u202f\x85"
# Anchors force a space on both sides ("see <a>here</a>." -> "see here ."); undo it for display.
_SPACE_BEFORE_PUNCTUATION = re.compile(r" (?=[.,;:!?)\]](?:\s|$))")


def article_text(blocks: list[TextBlock]) -> str:
    """Join the content blocks' lines: one paragraph per atomic block, blank lines between.

    Internal whitespace runs are collapsed and the space anchors force before punctuation is
    removed; a merged block contributes one paragraph per line.
    """
    text = "\n".join(block.text for block in blocks if block.is_content)
    for space in _KEPT_SPACES:
        if space in text:
            text = text.replace(space, " ")
    text = _SPACE_BEFORE_PUNCTUATION.sub("", _SPACE_RUN.sub(" ", text))
    return "\n\n".join(line for line in (line.strip() for line in text.split("\n")) if line)


def content_html(blocks: list[TextBlock]) -> str:
    """Serialise the outermost distinct elements of the content blocks, in document order."""
    chosen: list[Element] = []
    seen: set[Element] = set()
    for block in blocks:
        if not block.is_content:
            continue
        for element in block.elements:
            if element in seen or any(ancestor in seen for ancestor in element.iterancestors()):
                continue
            seen.add(element)
            chosen.append(element)
    parts = [
        etree.tostring(element, method="html", encoding="unicode", with_tail=False)
        for element in chosen
    ]
    return "<article>\n" + "\n".join(parts) + "\n</article>" if parts else ""


@dataclass(eq=False)
class ExtractionResult:
    """What an extractor found on one page.

    ``text`` holds the article text (paragraphs separated by blank lines, headings on their own
    lines); ``blocks`` all blocks with their features and labels; ``html`` the main-content
    HTML when asked for (``include_html=True``), else None.

    A pickled result carries its blocks as one opaque blob that is unpickled on first use of
    ``blocks``: a result sent back by a worker process costs the receiver little unless the
    blocks are read. Pickling drops the blocks' DOM references (``block.elements``).
    """

    title: str | None
    text: str
    blocks: list[TextBlock]
    extractor: str
    options: dict[str, Any] = field(default_factory=dict)
    url: str | None = None
    html: str | None = None

    @classmethod
    def from_document(
        cls,
        doc: TextDocument,
        *,
        title: str | None,
        extractor: str,
        options: dict[str, Any],
        include_html: bool = False,
    ) -> ExtractionResult:
        """Build the result of a processed document."""
        return cls(
            title=title,
            text=article_text(doc.blocks),
            blocks=doc.blocks,
            extractor=extractor,
            options=options,
            url=doc.url,
            html=content_html(doc.blocks) if include_html else None,
        )

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        if "blocks" in state:
            rows = blocks_to_rows(state.pop("blocks"))
            state[_PACKED_BLOCKS] = pickle.dumps(rows, pickle.HIGHEST_PROTOCOL)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    if not TYPE_CHECKING:  # keeps attribute typos visible to type checkers

        def __getattr__(self, name: str) -> Any:
            """Unpickle the blocks of an unpickled result on first access."""
            if name == "blocks" and _PACKED_BLOCKS in self.__dict__:
                self.blocks = blocks_from_rows(pickle.loads(self.__dict__.pop(_PACKED_BLOCKS)))
                return self.blocks
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @property
    def content_blocks(self) -> list[TextBlock]:
        """The blocks kept as content."""
        return [block for block in self.blocks if block.is_content]

    def to_dict(self, *, include_blocks: bool = True) -> dict[str, Any]:
        """A JSON-serialisable view: title, text, extractor, options, url, html, blocks."""
        data: dict[str, Any] = {
            "url": self.url,
            "title": self.title,
            "text": self.text,
            "extractor": self.extractor,
            "options": dict(self.options),
        }
        if self.html is not None:
            data["html"] = self.html
        if include_blocks:
            data["blocks"] = [block.to_dict() for block in self.blocks]
        return data
