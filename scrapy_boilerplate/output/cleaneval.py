"""An extraction in the CLEANEVAL 2007 format: a ``URL:`` line, then one segment per content
block, starting with ``<h>`` (heading), ``<l>`` (list item) or ``<p>`` (paragraph).

Blocks labelled ``VICTOR_HEADER`` / ``VICTOR_LIST`` (the ``victor`` extractor), else
``HEADING`` / ``LI`` (the segmentation's tags), are ``<h>`` / ``<l>``; every other content
block is ``<p>`` (a merged block's lines are joined with spaces).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..model import labels as L
from ..model.document import TextBlock

__all__ = ["SEGMENT_TAGS", "cleaneval_document"]

#: Segment codes and their tags.
SEGMENT_TAGS: Final = {"p": "<p>", "h": "<h>", "l": "<l>"}


def _code_of(block: TextBlock) -> str:
    labels = block.labels
    if L.VICTOR_HEADER in labels or (L.HEADING in labels and L.VICTOR_OTHER not in labels):
        return "h"
    if L.VICTOR_LIST in labels or L.LI in labels:
        return "l"
    return "p"


def cleaneval_document(blocks: Sequence[TextBlock], url: str | None = None) -> str:
    """The content blocks in the CleanEval format: the ``URL:`` line, one segment per block
    (a merged block's lines join with spaces)."""
    lines = [f"URL: {url or ''}"]
    for block in blocks:
        text = " ".join(block.text.split())
        if block.is_content and text:
            lines.append(f"{SEGMENT_TAGS[_code_of(block)]} {text}")
    return "\n".join(lines) + "\n"
