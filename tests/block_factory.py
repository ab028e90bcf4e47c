"""Hand-made text blocks and documents for filter tests (features set directly, no HTML)."""

from __future__ import annotations

from collections.abc import Iterable

from scrapy_boilerplate.model.document import TextBlock, TextDocument
from scrapy_boilerplate.page.tokens import word_stats


def make_block(
    text: str = "",
    *,
    nw: int | None = None,
    nwa: int = 0,
    td: float | None = None,
    tl: int = 3,
    labels: Iterable[str] = (),
    content: bool = False,
    offset: int | None = None,
) -> TextBlock:
    """A block whose counts come from ``text`` unless given; ``td`` sets wrapped words per line."""
    stats = word_stats(text)
    words = stats.words if nw is None else nw
    if td is not None:
        wrapped, lines = float(td).as_integer_ratio()
    elif nw is None:
        wrapped, lines = stats.wrapped_words, stats.wrapped_lines
    else:
        wrapped, lines = words, 1
    return TextBlock(
        text=text or " ".join(["w"] * words),
        num_words=words,
        num_linked_words=nwa,
        num_wrapped_words=wrapped,
        num_wrapped_lines=lines,
        tag_level=tl,
        offset_start=-1 if offset is None else offset,
        offset_end=-1 if offset is None else offset,
        labels=set(labels),
        is_content=content,
    )


def make_doc(*blocks: TextBlock, title: str | None = None) -> TextDocument:
    """A document of ``blocks``; blocks without an offset get their index."""
    for index, block in enumerate(blocks):
        if block.offset_start == -1:
            block.offset_start = block.offset_end = index
    return TextDocument(blocks=list(blocks), title=title)


def words(count: int, word: str = "word") -> str:
    """``count`` copies of ``word`` separated by spaces."""
    return " ".join([word] * count)


def content_flags(doc: TextDocument) -> list[bool]:
    return [block.is_content for block in doc.blocks]


def texts(doc: TextDocument) -> list[str]:
    return [block.text for block in doc.blocks]
