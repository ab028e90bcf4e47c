"""The structure of the main content: headings, paragraphs, lists, tables, code and quotes.

Built from the content blocks of a processed page and their DOM elements; rendered by
:mod:`.markdown` and :mod:`.html`. Nothing outside the content blocks gets in: an element is
never copied whole, only the blocks kept as content are read. Rules:

- **Pieces.** Every atomic block is a piece (a merged block is split back into its lines, one
  per element). A piece's *owner* is the nearest ancestor-or-self of its element that is not a
  phrasing element (:data:`~.inline.PHRASING_TAGS`): the paragraph it belongs to.
- **Paragraphs.** A run of content pieces that holds every piece of their owner is rendered
  from the owner's inline content (links, emphasis, code, ``<br>``), when that content has the
  pieces' text; otherwise each piece is a paragraph of its block text, as in ``result.text``.
- **Structure from the DOM** (the owner and its ancestors): ``<h1>``-``<h6>`` a heading of that
  level; ``<li>`` a list item of its ``<ul>``/``<ol>`` (nested lists by nesting, ``<ol
  start>`` kept); ``<blockquote>`` a quote; ``<pre>`` a code block (the ``<pre>``'s text as
  written when all its pieces are content, else the content pieces' lines; the language from
  a ``language-*``/``lang-*`` class); a *data table* (:func:`is_data_table`) a table whose
  rows are those holding content, header cells ``<th>``. Layout tables are transparent. A
  heading, list or quote inside a table cell or a ``<pre>`` is read as cell or code text.
- **Victor labels** (:data:`~scrapy_boilerplate.model.labels.VICTOR_LABELS`): when any block
  carries one, the labels decide headings and list items: ``VICTOR_HEADER`` a heading (the
  level of its ``<h1>``-``<h6>``, else 2), ``VICTOR_LIST`` a list item (nested as in the DOM
  when inside ``<li>``, else in a bulleted list of consecutive items, a leading bullet
  character removed), any other a paragraph outside any list (Victor has already joined
  continuations to their segment; a ``VICTOR_CONTINUATION`` block opens a paragraph). Tables,
  code blocks and quotes still come from the DOM; a segment over several cells of a data
  table gives each of those cells its text from the DOM.
- A heading wholly in bold or italics loses that style. Containers nest at most
  :data:`MAX_DEPTH` deep (deeper ones are flattened into the deepest kept).
- Blocks without DOM elements (a result that went through pickling) give plain paragraphs.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final
from urllib.parse import urljoin

from ..model import labels as L
from ..model.document import Element, TextBlock
from ..page.tags import string_value
from .inline import PHRASING_TAGS, Span, Styled, Text, inline_spans, plain_text, visible_text
from .text import tidy_text

__all__ = [
    "Paragraph",
    "Heading",
    "CodeBlock",
    "TableCell",
    "TableRow",
    "Table",
    "ListItem",
    "ListBlock",
    "Quote",
    "Node",
    "content_structure",
    "is_data_table",
    "page_base_url",
    "MAX_CELL_WORDS",
    "MAX_DEPTH",
]


@dataclass(slots=True)
class Paragraph:
    spans: list[Span]


@dataclass(slots=True)
class Heading:
    level: int  # 1-6
    spans: list[Span]


@dataclass(slots=True)
class CodeBlock:
    text: str  # lines as written, no trailing newline
    language: str | None = None


@dataclass(slots=True)
class TableCell:
    spans: list[Span]
    header: bool = False
    colspan: int = 1


@dataclass(slots=True)
class TableRow:
    cells: list[TableCell]
    header: bool = False  # in <thead>, or every cell a <th>


@dataclass(slots=True)
class Table:
    rows: list[TableRow] = field(default_factory=list)
    caption: list[Span] = field(default_factory=list)


@dataclass(slots=True)
class ListItem:
    children: list[Node] = field(default_factory=list)


@dataclass(slots=True)
class ListBlock:
    ordered: bool
    start: int = 1
    items: list[ListItem] = field(default_factory=list)


@dataclass(slots=True)
class Quote:
    children: list[Node] = field(default_factory=list)


Node = Paragraph | Heading | CodeBlock | Table | ListBlock | Quote

#: Containers (quotes, lists, list items) deeper than this are flattened into the deepest kept
#: (so rendering never recurses deeper than about twice this).
MAX_DEPTH: Final = 40
#: A cell holding more words than this makes its table a layout table.
MAX_CELL_WORDS: Final = 120
_HEADING_LEVELS: Final = {f"h{n}": n for n in range(1, 7)}
# Elements a data table's cells never hold (they hold pages laid out in a grid).
_CELL_BLOCKERS: Final = frozenset(
    {"table", "div", "ul", "ol", "dl", "pre", "blockquote", "section", "article", "form",
     "header", "footer", "nav", "aside", "main", "figure", "iframe", *_HEADING_LEVELS}
)  # fmt: skip
_CELLS: Final = ("td", "th")
_LANGUAGE_CLASS = re.compile(r"\b(?:language|lang)-([\w+#.-]+)")
_BULLET = re.compile(r"^[•·▪‣◦●○■□►▸–—*+-]\s*")
_VICTOR_PRIORITY: Final = (
    L.VICTOR_HEADER,
    L.VICTOR_LIST,
    L.VICTOR_PARAGRAPH,
    L.VICTOR_CONTINUATION,
    L.VICTOR_OTHER,
)
#: The list of Victor list items that are not in an ``<li>``.
_BULLETED: Final = object()

# A structural container of a piece, outside in: ("quote" | "list" | "item", its key).
_Container = tuple[str, object]


@dataclass(frozen=True, slots=True)
class _Role:
    """Where a piece goes: its containers (outermost first) and its leaf kind."""

    containers: tuple[_Container, ...] = ()
    leaf: str = "paragraph"  # paragraph, heading, code, table
    level: int = 0  # of a heading
    key: Element | None = None  # the <pre> of a code leaf, the <table> of a table leaf


@dataclass(slots=True)
class _Piece:
    text: str
    owner: Element | None
    label: str | None
    is_content: bool
    #: All elements of a block whose text has no line per element (a Victor segment).
    spread: Sequence[Element] = ()


def page_base_url(root: Element | None, url: str | None) -> str | None:
    """The URL relative links resolve against: ``<base href>`` (resolved against ``url``),
    else ``url``."""
    head = root.find("head") if root is not None else None
    base = head.find("base") if head is not None else None
    href = (base.get("href") or "").strip() if base is not None else ""
    if not href:
        return url
    return urljoin(url, href) if url else href


def is_data_table(table: Element) -> bool:
    """Whether ``table`` holds data rather than a page layout: not ``role="presentation"``, a
    row of two or more cells, no nested table or block container (``div``, lists, headings,
    ``pre``, sections ...) inside, and no cell over :data:`MAX_CELL_WORDS` words."""
    if (table.get("role") or "").strip().lower() in ("presentation", "none"):
        return False
    widest = 0
    for element in table.iterdescendants():
        tag = element.tag
        if tag in _CELL_BLOCKERS:
            return False
        if tag == "tr":
            widest = max(widest, sum(1 for cell in element if cell.tag in _CELLS))
        elif tag in _CELLS and len(string_value(element).split()) > MAX_CELL_WORDS:
            return False
    return widest >= 2


def content_structure(blocks: Sequence[TextBlock], base_url: str | None = None) -> list[Node]:
    """The content blocks of ``blocks`` as a tree of nodes (see the module rules); link targets
    are resolved against ``base_url``."""
    pieces = _pieces(blocks)
    builder = _Builder(pieces, base_url)
    owners = Counter(piece.owner for piece in pieces if piece.owner is not None)
    victor = any(piece.label is not None for piece in pieces)
    index = 0
    while index < len(pieces):
        piece = pieces[index]
        if not piece.is_content:
            index += 1
            continue
        role = _role(piece, victor, builder.roles)
        end = index + 1
        while end < len(pieces) and _same_paragraph(piece, pieces[end]):
            end += 1
        group = pieces[index:end]
        if piece.owner is not None and len(group) == owners[piece.owner]:
            spans = inline_spans(piece.owner, base_url)
            if _squashed(plain_text(spans)) == _squashed("".join(p.text for p in group)):
                builder.add(role, list(spans), piece.label, group)
                index = end
                continue
        builder.add(role, _plain_spans(piece.text), piece.label, [piece])
        index += 1
    return builder.finish()


def _pieces(blocks: Sequence[TextBlock]) -> list[_Piece]:
    """Every atomic block as a piece, in document order."""
    pieces: list[_Piece] = []
    for block in blocks:
        label = None
        if block.labels and not block.labels.isdisjoint(L.VICTOR_LABELS):
            label = next(name for name in _VICTOR_PRIORITY if name in block.labels)
        if "\n" not in block.text:
            spread = block.elements if len(block.elements) > 1 else ()
            owner = _owner(block.element)
            pieces.append(_Piece(block.text, owner, label, block.is_content, spread))
            continue
        lines = block.text.split("\n")
        elements: Sequence[Element | None] = block.elements
        if len(elements) != len(lines):
            elements = [block.element] * len(lines)
        for line, element in zip(lines, elements, strict=True):
            pieces.append(_Piece(line, _owner(element), label, block.is_content))
    return pieces


def _owner(element: Element | None) -> Element | None:
    """The nearest ancestor-or-self of ``element`` that is not a phrasing element."""
    while element is not None and element.tag in PHRASING_TAGS:
        element = element.getparent()
    return element


def _same_paragraph(first: _Piece, other: _Piece) -> bool:
    return (
        other.is_content
        and other.owner is not None
        and other.owner is first.owner
        and other.label == first.label
    )


def _squashed(text: str) -> str:
    return "".join(text.split())


def _plain_spans(text: str) -> list[Span]:
    tidy = tidy_text(text).strip()
    return [Text(tidy)] if tidy else []


class _Roles:
    """The DOM role of each element (see the module rules), computed once per element from
    its parent's: the walk up stops at the first element already known."""

    def __init__(self) -> None:
        self._known: dict[Element, _Role] = {}
        self._data_tables: dict[Element, bool] = {}

    def of(self, owner: Element) -> _Role:
        chain: list[Element] = []
        element: Element | None = owner
        while element is not None and element not in self._known:
            if element.tag in ("body", "html"):
                break
            chain.append(element)
            element = element.getparent()
        role = self._known.get(element, _Role()) if element is not None else _Role()
        for element in reversed(chain):  # outside in
            role = self._known[element] = self._inner(role, element)
        return role

    def _inner(self, outer: _Role, element: Element) -> _Role:
        """The role of ``element`` inside an element of role ``outer``."""
        if outer.key is not None:
            return outer  # inside a <pre> or a data table, nothing else counts
        tag = element.tag
        if tag == "pre" or (tag == "table" and self._is_data(element)):
            return _Role(outer.containers, "code" if tag == "pre" else "table", 0, element)
        containers = outer.containers
        if tag == "li" and len(containers) + 2 <= MAX_DEPTH:
            parent = element.getparent()
            containers = (*containers, ("list", element if parent is None else parent))
            containers = (*containers, ("item", element))
        elif tag == "blockquote" and len(containers) < MAX_DEPTH:
            containers = (*containers, ("quote", element))
        level = _HEADING_LEVELS.get(tag, outer.level)
        if containers is outer.containers and level == outer.level:
            return outer
        return _Role(containers, "heading" if level else "paragraph", level)

    def _is_data(self, table: Element) -> bool:
        if table not in self._data_tables:
            self._data_tables[table] = is_data_table(table)
        return self._data_tables[table]


def _role(piece: _Piece, victor: bool, roles: _Roles) -> _Role:
    role = roles.of(piece.owner) if piece.owner is not None else _Role()
    return _victor_role(role, piece.label) if victor else role


def _victor_role(role: _Role, label: str | None) -> _Role:
    """The role once Victor's label decides heading and list item (code and tables stay)."""
    if role.leaf in ("code", "table"):
        return role
    quotes = tuple(c for c in role.containers if c[0] == "quote")
    if label == L.VICTOR_HEADER:
        return _Role(quotes, "heading", role.level or 2)
    if label == L.VICTOR_LIST:
        if any(kind == "item" for kind, _ in role.containers):
            return _Role(role.containers)
        return _Role((*quotes, ("list", _BULLETED), ("item", object())))
    return _Role(quotes)


class _Builder:
    """Puts leaves into containers as they come, in document order."""

    def __init__(self, pieces: list[_Piece], base_url: str | None) -> None:
        self.pieces = pieces
        self.base_url = base_url
        self.roles = _Roles()
        self.nodes: list[Node] = []
        self.open: list[tuple[object, Quote | ListBlock | ListItem]] = []
        self.sources: dict[int, Element] = {}  # id(code or table node) -> its <pre>/<table>
        # id(table node) -> the node, its <table>, the spans of its cells
        self.tables_made: dict[int, tuple[Table, Element, dict[Element, list[Span]]]] = {}
        self.full_code: dict[Element, bool] = {}

    def add(self, role: _Role, spans: list[Span], label: str | None, group: list[_Piece]) -> None:
        self._open(role.containers)
        children = self._children()
        if role.leaf == "code" and role.key is not None:
            self._add_code(children, role.key, group)
        elif role.leaf == "table" and role.key is not None:
            self._add_cell(children, role.key, group[0], spans)
        elif spans:
            if len(role.containers) > 1 and role.containers[-2][1] is _BULLETED:
                spans = _without_bullet(spans)
            node: Paragraph | Heading = (
                Heading(role.level, _unstyled(spans))
                if role.leaf == "heading"
                else Paragraph(spans)
            )
            children.append(node)

    def finish(self) -> list[Node]:
        """The finished tree (tables get their rows)."""
        for table, source, cells in self.tables_made.values():
            _fill_table(table, source, cells)
        return self.nodes

    def _open(self, containers: tuple[_Container, ...]) -> None:
        """Close the open containers that ``containers`` does not start with, open the rest."""
        keep = 0
        while (
            keep < len(self.open)
            and keep < len(containers)
            and self.open[keep][0] is containers[keep][1]
        ):
            keep += 1
        del self.open[keep:]
        for kind, key in containers[keep:]:
            node: Quote | ListBlock | ListItem
            if kind == "item":
                node = ListItem()
                self._list().items.append(node)
            elif kind == "list":
                node = _list_block(key)
                self._children().append(node)
            else:
                node = Quote()
                self._children().append(node)
            self.open.append((key, node))

    def _list(self) -> ListBlock:
        parent = self.open[-1][1] if self.open else None
        if isinstance(parent, ListBlock):
            return parent
        block = ListBlock(False)  # an item outside a list: never from the roles above
        self._children().append(block)
        self.open.append((object(), block))
        return block

    def _children(self) -> list[Node]:
        if not self.open:
            return self.nodes
        parent = self.open[-1][1]
        if isinstance(parent, ListBlock):  # a leaf right in a list: never from the roles above
            item = ListItem()
            parent.items.append(item)
            self.open.append((object(), item))
            return item.children
        return parent.children

    def _add_code(self, children: list[Node], pre: Element, group: list[_Piece]) -> None:
        last = children[-1] if children else None
        if isinstance(last, CodeBlock) and self.sources.get(id(last)) is pre:
            if not self._all_content(pre):
                last.text += "\n" + _lines(group)
            return
        if self._all_content(pre):
            text = visible_text(pre).removeprefix("\n").rstrip()
        else:
            text = _lines(group)
        block = CodeBlock(text, _language(pre))
        children.append(block)
        self.sources[id(block)] = pre

    def _all_content(self, container: Element) -> bool:
        """Whether every piece inside ``container`` is content."""
        if container not in self.full_code:
            inside = set(container.iter())
            self.full_code[container] = all(
                piece.is_content for piece in self.pieces if piece.owner in inside
            )
        return self.full_code[container]

    def _add_cell(
        self, children: list[Node], table: Element, piece: _Piece, spans: list[Span]
    ) -> None:
        last = children[-1] if children else None
        if not (isinstance(last, Table) and self.sources.get(id(last)) is table):
            last = Table()
            children.append(last)
            self.sources[id(last)] = table
            self.tables_made[id(last)] = (last, table, {})
        cells = self.tables_made[id(last)][2]
        spread = {_cell_of(element, table) for element in piece.spread} - {None}
        if len(spread) > 1:  # one block over several cells: each cell as the DOM has it
            for element in spread:
                if element is not None and element not in cells:
                    cells[element] = list(inline_spans(element, self.base_url))
            return
        cell = _cell_of(piece.owner, table)
        target = last.caption if cell is None else cells.setdefault(cell, [])
        if target and spans:
            target.append(Text(" "))
        target.extend(spans)


def _lines(group: list[_Piece]) -> str:
    """The pieces' block texts, one a line (the segmentation has collapsed their whitespace)."""
    return "\n".join(tidy_text(piece.text).strip() for piece in group)


def _list_block(key: object) -> ListBlock:
    if not isinstance(key, Element) or key.tag != "ol":
        return ListBlock(False)
    try:
        start = int((key.get("start") or "1").strip())
    except ValueError:
        start = 1
    return ListBlock(True, max(0, min(start, 10**9)))


def _unstyled(spans: list[Span]) -> list[Span]:
    """A heading's spans without a strong or emphasis wrapper around all of them."""
    while len(spans) == 1 and isinstance(spans[0], Styled):
        spans = list(spans[0].children)
    return spans


def _without_bullet(spans: list[Span]) -> list[Span]:
    first = spans[0] if spans else None
    if isinstance(first, Text):
        text = _BULLET.sub("", first.text, count=1)
        return [Text(text), *spans[1:]] if text else spans[1:]
    return spans


def _language(pre: Element) -> str | None:
    for element in (pre, *pre.iterchildren("code")):
        found = _LANGUAGE_CLASS.search(element.get("class") or "")
        if found:
            return found.group(1)
    return None


def _cell_of(owner: Element | None, table: Element) -> Element | None:
    """The ``<td>``/``<th>`` of ``table`` holding ``owner``; None for its caption or text
    outside any cell."""
    element = owner
    while element is not None and element is not table:
        if element.tag in _CELLS:
            return element
        element = element.getparent()
    return None


def _fill_table(table: Table, source: Element, cells: dict[Element, list[Span]]) -> None:
    """The rows of ``source`` that hold content, each with all its cells."""
    for row in source.iter("tr"):
        row_cells = [cell for cell in row if cell.tag in _CELLS]
        if not any(cell in cells for cell in row_cells):
            continue
        parent = row.getparent()
        header = (parent is not None and parent.tag == "thead") or all(
            cell.tag == "th" for cell in row_cells
        )
        table.rows.append(
            TableRow(
                [
                    TableCell(cells.get(cell, []), cell.tag == "th", _colspan(cell))
                    for cell in row_cells
                ],
                header,
            )
        )


def _colspan(cell: Element) -> int:
    try:
        return max(1, min(int((cell.get("colspan") or "1").strip()), 50))
    except ValueError:
        return 1
