"""Main-content HTML: the outermost elements of the content blocks, serialised."""

from __future__ import annotations

from collections.abc import Sequence

from lxml import etree

from ..model.document import Element, TextBlock

__all__ = ["content_html"]


def content_html(blocks: Sequence[TextBlock]) -> str:
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
