"""Markdown of the main content (CommonMark, with GitHub-flavoured tables).

Rendering rules for the nodes of :mod:`.structure`:

- Blocks are separated by a blank line; a heading is ``#`` times its level; a code block is
  fenced with backticks (more than any run in the code) and the language when known.
- List items are ``- `` or ``N. `` (numbered from the list's start); an item's further blocks
  and nested lists are indented by the marker's width; items are not separated by blank lines.
- A quote prefixes its lines with ``> ``.
- A table is a pipe table: its first kept row is the header row (Markdown has no table
  without one), cells spanning columns are padded with empty cells, ``|`` is escaped and line
  breaks in cells become spaces; its caption is a paragraph before it.
- Inline: ``**strong**``, ``*emphasis*``, ```code```, ``[text](target)``, a line break is two
  spaces and a newline. Text is escaped where Markdown would read it as markup (``\\ * ` [ ]
  <``, ``_`` at a word edge, and ``#``, ``>``, ``-``, ``+``, ``1.``, ``===``/``---`` at the
  start of a line), nothing more.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

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
    content_structure,
)

__all__ = ["content_markdown", "render_markdown", "escape_markdown"]

_SPECIAL = "\\`*[]<_"
_ESCAPED = re.compile(r"[\\`*\[\]<]|(?<![^\W_])_|_(?![^\W_])")
_BLOCK_MARKER = re.compile(r"^(#{1,6}(?=\s|$)|>|[-+](?=\s|$)|[-=]+\s*$|~~~)")
_NUMBERED = re.compile(r"^(\d{1,9})([.)])(?=\s|$)")
_CLOSING_HASHES = re.compile(r"(\s)(#+)\s*$")
_BACKTICK_RUN = re.compile(r"`+")


def content_markdown(blocks: Sequence[TextBlock], base_url: str | None = None) -> str:
    """The content blocks of ``blocks`` as Markdown (``""`` when there are none)."""
    return render_markdown(content_structure(blocks, base_url))


def render_markdown(nodes: Sequence[Node]) -> str:
    """``nodes`` as Markdown (see the module rules)."""
    return "\n".join(_blocks(nodes))


def escape_markdown(text: str) -> str:
    """``text`` with the characters escaped that Markdown would read as inline markup."""
    if not any(character in text for character in _SPECIAL):
        return text
    return _ESCAPED.sub(lambda found: "\\" + found.group(0), text)


def _blocks(nodes: Sequence[Node]) -> list[str]:
    """The lines of ``nodes``, a blank line between blocks."""
    lines: list[str] = []
    for node in nodes:
        block = _block(node)
        if block:
            if lines:
                lines.append("")
            lines.extend(block)
    return lines


def _block(node: Node) -> list[str]:
    if isinstance(node, Paragraph):
        return [_escape_line_start(line) for line in _inline(node.spans).split("\n") if line]
    if isinstance(node, Heading):
        text = _CLOSING_HASHES.sub(r"\1\\\2", _inline(node.spans, line_break=" ").strip())
        return ["#" * node.level + " " + text] if text else []
    if isinstance(node, CodeBlock):
        runs = [len(run) for run in _BACKTICK_RUN.findall(node.text)]
        fence = "`" * max(3, max(runs, default=0) + 1)
        return [fence + (node.language or ""), *node.text.split("\n"), fence]
    if isinstance(node, Table):
        return _table(node)
    if isinstance(node, Quote):
        return [f"> {line}" if line else ">" for line in _blocks(node.children)]
    return _list(node)


def _list(node: ListBlock) -> list[str]:
    lines: list[str] = []
    for number, item in enumerate(node.items, node.start):
        marker = f"{number}. " if node.ordered else "- "
        body = _item(item) or [""]
        lines.append((marker + body[0]).rstrip())
        lines.extend(" " * len(marker) + line if line else "" for line in body[1:])
    return lines


def _item(item: ListItem) -> list[str]:
    """An item's blocks; a nested list follows a paragraph without a blank line."""
    lines: list[str] = []
    previous: Node | None = None
    for child in item.children:
        block = _block(child)
        if not block:
            continue
        if lines and not (isinstance(child, ListBlock) and isinstance(previous, Paragraph)):
            lines.append("")
        lines.extend(block)
        previous = child
    return lines


def _table(table: Table) -> list[str]:
    lines = [_escape_line_start(_inline(table.caption, line_break=" "))] if table.caption else []
    rows = [
        [
            text
            for cell in row.cells
            for text in [_inline(cell.spans, line_break=" ", cell=True), *[""] * (cell.colspan - 1)]
        ]
        for row in table.rows
    ]
    if not rows:
        return lines
    width = max(len(row) for row in rows)
    if lines:
        lines.append("")
    for index, row in enumerate(rows):
        lines.append("| " + " | ".join(row + [""] * (width - len(row))) + " |")
        if index == 0:
            lines.append("|" + "|".join(["---"] * width) + "|")
    return lines


def _inline(spans: Sequence[Span], *, line_break: str = "  \n", cell: bool = False) -> str:
    parts: list[str] = []
    for span in spans:
        if isinstance(span, Text):
            text = escape_markdown(span.text)
            parts.append(text.replace("|", "\\|") if cell else text)
        elif isinstance(span, LineBreak):
            parts.append(line_break)
        elif isinstance(span, Code):
            parts.append(_code_span(span.text, cell))
        elif isinstance(span, Styled):
            marker = "**" if span.style == "strong" else "*"
            parts.append(_wrapped(_inline(span.children, line_break=line_break, cell=cell), marker))
        else:
            parts.append(_link(span, line_break, cell))
    return "".join(parts)


def _wrapped(inner: str, marker: str) -> str:
    """``inner`` between markers, with its edge whitespace outside them."""
    core = inner.strip()
    if not core:
        return inner
    start = inner.index(core[0])
    return f"{inner[:start]}{marker}{core}{marker}{inner[start + len(core) :]}"


def _link(link: Link, line_break: str, cell: bool) -> str:
    inner = _inline(link.children, line_break=line_break, cell=cell)
    if not inner.strip():
        return inner
    target = link.href.replace(" ", "%20").replace("(", "%28").replace(")", "%29")
    if cell:
        target = target.replace("|", "%7C")
    return f"[{inner}]({target})"


def _code_span(text: str, cell: bool) -> str:
    if cell:
        text = text.replace("|", "\\|")
    runs = [len(run) for run in _BACKTICK_RUN.findall(text)]
    fence = "`" * (max(runs, default=0) + 1)
    padded = f" {text} " if text.startswith("`") or text.endswith("`") else text
    return f"{fence}{padded}{fence}"


def _escape_line_start(line: str) -> str:
    """``line`` with a leading block marker escaped (a heading, quote, list item, rule)."""
    numbered = _NUMBERED.match(line)
    if numbered:
        return f"{numbered.group(1)}\\{line[numbered.end(1) :]}"
    if _BLOCK_MARKER.match(line):
        return "\\" + line
    return line
