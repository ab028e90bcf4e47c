"""Clean main-content HTML: the content, and only the content, in a few structural tags.

Rendered from the nodes of :mod:`.structure` inside one ``<article>``: ``<h1>``-``<h6>``,
``<p>``, ``<ul>``/``<ol>``/``<li>``, ``<table>`` (``<caption>``, ``<thead>`` for the leading
header rows, ``<tbody>``, ``<tr>``, ``<th>``/``<td>``), ``<pre><code>``, ``<blockquote>``, and
inline ``<a href>``, ``<strong>``, ``<em>``, ``<code>``, ``<br>``. The only attributes are
``href`` (absolute when the page URL is known), ``start`` of an ``<ol>`` not starting at 1,
``colspan`` of a cell spanning columns and ``class="language-*"`` of code with a known
language. A list item holding one paragraph (and nested lists) has its text right in the
``<li>``. Nothing of the page is copied: no scripts, styles, attributes or blocks that were
not kept as content.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from ..model.document import TextBlock
from .inline import Code, LineBreak, Link, Span, Styled, Text
from .structure import (
    CodeBlock,
    Heading,
    ListBlock,
    ListItem,
    Node,
    Paragraph,
    Quote,
    Table,
    TableRow,
    content_structure,
)

__all__ = ["content_html", "render_html"]


def content_html(blocks: Sequence[TextBlock], base_url: str | None = None) -> str:
    """The content blocks of ``blocks`` as clean HTML (``""`` when there are none)."""
    return render_html(content_structure(blocks, base_url))


def render_html(nodes: Sequence[Node]) -> str:
    """``nodes`` in an ``<article>`` (see the module rules); ``""`` for no nodes."""
    if not nodes:
        return ""
    return "<article>\n" + "\n".join(_block(node) for node in nodes) + "\n</article>"


def _block(node: Node) -> str:
    if isinstance(node, Paragraph):
        return f"<p>{_inline(node.spans)}</p>"
    if isinstance(node, Heading):
        return f"<h{node.level}>{_inline(node.spans)}</h{node.level}>"
    if isinstance(node, CodeBlock):
        language = f' class="language-{escape(node.language)}"' if node.language else ""
        return f"<pre><code{language}>{escape(node.text, quote=False)}</code></pre>"
    if isinstance(node, Table):
        return _table(node)
    if isinstance(node, Quote):
        return (
            "<blockquote>\n"
            + "\n".join(_block(child) for child in node.children)
            + "\n</blockquote>"
        )
    tag = "ol" if node.ordered else "ul"
    start = f' start="{node.start}"' if node.ordered and node.start != 1 else ""
    items = "\n".join(f"<li>{_item(item)}</li>" for item in node.items)
    return f"<{tag}{start}>\n{items}\n</{tag}>"


def _item(item: ListItem) -> str:
    """An item's content; a single paragraph is not wrapped in ``<p>``."""
    paragraphs = sum(1 for child in item.children if not isinstance(child, ListBlock))
    parts = [
        _inline(child.spans)
        if paragraphs == 1 and isinstance(child, Paragraph)
        else "\n" + _block(child)
        for child in item.children
    ]
    return "".join(parts) + ("\n" if parts and parts[-1].startswith("\n") else "")


def _table(table: Table) -> str:
    lines = ["<table>"]
    if table.caption:
        lines.append(f"<caption>{_inline(table.caption)}</caption>")
    head = 0
    while head < len(table.rows) and table.rows[head].header:
        head += 1
    if head:
        lines += ["<thead>", *(_row(row) for row in table.rows[:head]), "</thead>"]
    if head < len(table.rows):
        lines += ["<tbody>", *(_row(row) for row in table.rows[head:]), "</tbody>"]
    return "\n".join([*lines, "</table>"])


def _row(row: TableRow) -> str:
    cells = []
    for cell in row.cells:
        tag = "th" if cell.header else "td"
        span = f' colspan="{cell.colspan}"' if cell.colspan > 1 else ""
        cells.append(f"<{tag}{span}>{_inline(cell.spans)}</{tag}>")
    return "<tr>" + "".join(cells) + "</tr>"


def _inline(spans: Sequence[Span]) -> str:
    parts: list[str] = []
    for span in spans:
        if isinstance(span, Text):
            parts.append(escape(span.text, quote=False))
        elif isinstance(span, LineBreak):
            parts.append("<br>")
        elif isinstance(span, Code):
            parts.append(f"<code>{escape(span.text, quote=False)}</code>")
        elif isinstance(span, Styled):
            tag = "strong" if span.style == "strong" else "em"
            parts.append(f"<{tag}>{_inline(span.children)}</{tag}>")
        elif isinstance(span, Link):
            parts.append(f'<a href="{escape(span.href)}">{_inline(span.children)}</a>')
    return "".join(parts)
