"""A copy of the page with every block's element marked as content or boilerplate."""

from __future__ import annotations

from typing import Any

from lxml import etree
from w3lib.url import is_url

from ..model.result import ExtractionResult
from ..page.parsing import parse_html

__all__ = ["highlight_html", "CONTENT_CLASS", "BOILERPLATE_CLASS"]

#: Class names and colours of the ``--highlight`` output.
CONTENT_CLASS = "boilerplate-content"
BOILERPLATE_CLASS = "boilerplate-noise"
HIGHLIGHT_STYLE = f"""
.{CONTENT_CLASS} {{ outline: 3px solid #1a7f37 !important; background: #e6ffec !important; }}
.{BOILERPLATE_CLASS} {{ outline: 1px dashed #cf222e !important; opacity: 0.55; }}
"""


def highlight_html(result: ExtractionResult, page: str | bytes, url: str | None = None) -> str:
    """The page with each block's element marked: content (green) or boilerplate (red, faded).

    An element holding both content and boilerplate blocks is marked as content; each marked
    element gets ``data-boilerplate-labels`` with its blocks' labels.
    """
    elements: dict[Any, tuple[bool, set[str]]] = {}
    for block in result.blocks:
        for element in block.elements:
            content, labels = elements.get(element, (False, set()))
            elements[element] = (content or block.is_content, labels | block.labels)
    root = next(iter(elements)).getroottree().getroot() if elements else parse_html(page)
    for element, (content, labels) in elements.items():
        classes = (element.get("class") or "").split()
        element.set("class", " ".join([*classes, CONTENT_CLASS if content else BOILERPLATE_CLASS]))
        element.set("data-boilerplate-labels", " ".join(sorted(labels)))
    head = root.find("head")
    if head is None:
        head = etree.Element("head")
        root.insert(0, head)
    style = etree.SubElement(head, "style")
    style.text = HIGHLIGHT_STYLE
    if url and is_url(url) and head.find("base") is None:
        head.insert(0, etree.Element("base", href=url))
    return "<!DOCTYPE html>\n" + etree.tostring(root, method="html", encoding="unicode")
