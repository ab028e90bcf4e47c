"""Article text: the content blocks as paragraphs."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..model import labels as L
from ..model.document import TextBlock
from ..page.tokens import shows_nothing

__all__ = ["article_text", "comments_text", "tidy_text"]

# Block texts hold no whitespace but the space and the characters Java keeps (NBSP ...).
_KEPT_SPACES = "\xa0\u2007\u202f\x85"
# Anchors force a space on both sides ("see <a>here</a>." -> "see here ."); undo it for display.
_SPACE_BEFORE_PUNCTUATION = re.compile(r" (?=[.,;:!?)\]](?:\s|$))")
_SPACED_PUNCTUATION = tuple(f" {mark}" for mark in ".,;:!?)]")


def article_text(blocks: Sequence[TextBlock]) -> str:
    """Join the content blocks' lines: one paragraph per atomic block, blank lines between;
    a line that shows nothing (:func:`~..page.tokens.shows_nothing`) is no paragraph.

    Internal whitespace runs are collapsed and the space anchors force before punctuation is
    removed; a merged block contributes one paragraph per line.
    """
    text = tidy_text("\n".join(block.text for block in blocks if block.is_content))
    lines = map(str.strip, text.split("\n"))
    return "\n\n".join(line for line in lines if line and not shows_nothing(line))


def comments_text(blocks: Sequence[TextBlock]) -> str:
    """The reader comments (blocks labelled ``COMMENT_TEXT``), in page order: one paragraph
    per comment (a ``COMMENT_START`` block begins one; blank lines between), its blocks on lines
    of their own."""
    comments: list[list[str]] = []
    for block in blocks:
        if L.COMMENT_TEXT not in block.labels:
            continue
        line = " ".join(tidy_text(block.text).split())
        if L.COMMENT_START in block.labels or not comments:
            comments.append([])
        comments[-1].append(line)
    return "\n\n".join("\n".join(lines) for lines in comments)


def tidy_text(text: str) -> str:
    """Block text for display: the spaces Java keeps become plain spaces, space runs one space,
    and the space anchors force before punctuation is removed (lines are not stripped)."""
    for space in _KEPT_SPACES:
        if space in text:
            text = text.replace(space, " ")
    while "  " in text:  # each pass halves every space run: a few passes beat a regex scan
        text = text.replace("  ", " ")
    for pair in _SPACED_PUNCTUATION:  # the substring tests skip the regex scan of most texts
        if pair in text:
            return _SPACE_BEFORE_PUNCTUATION.sub("", text)
    return text
