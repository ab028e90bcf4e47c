"""Inline content of a paragraph-like element: text with links, emphasis, code and line breaks.

The structured outputs (:mod:`.structure`) render a paragraph from the DOM when its blocks
are all content, so links and emphasis survive. Rules:

- *Phrasing* elements (:data:`PHRASING_TAGS`: ``a``, ``b``, ``span``, ``time``, ``small`` ...)
  are read through; ``<b>``/``<strong>`` become strong, ``<i>``/``<em>`` emphasis,
  ``<code>``/``<kbd>``/``<samp>``/``<tt>`` code, ``<a href>`` a link (an ``<a>`` inside a link
  is plain text), ``<br>`` a line break.
- Any other element (block-level, ignorable, hidden) is skipped with its content; the text
  after it (its tail) still belongs to the paragraph.
- Where the segmentation splits blocks (a skipped element, or a phrasing element that is not
  one of its inline tags: ``<time>``, ``<small>``, ``<img>``, ``<label>`` ...) and around
  ``<a href>`` (as the segmentation does), the edges count as a space:
  ``1,992<span hidden>..</span>2 badges`` reads ``1,992 2 badges``.
- Whitespace runs (no-break spaces included) become one space; spaces at the edges of the
  paragraph, around line breaks and before punctuation (as in the article text) are dropped.
- Link targets are resolved against the page's base URL; in-page (``#...``), ``javascript:``
  and ``data:`` links are dropped (their text is kept).

The walk is iterative: nesting depth is bounded only by the parser.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final
from urllib.parse import urljoin

from ..model.document import Element
from ..page.tags import (
    EXTRA_IGNORABLE_TAGS,
    IGNORABLE_TAGS,
    INLINE_SPACED_TAGS,
    INLINE_TAGS,
    is_hidden,
)
from .text import tidy_text

__all__ = [
    "Span",
    "Text",
    "LineBreak",
    "Code",
    "Styled",
    "Link",
    "PHRASING_TAGS",
    "inline_spans",
    "plain_text",
    "visible_text",
    "resolve_link",
]


@dataclass(frozen=True, slots=True)
class Text:
    """Plain text (whitespace already collapsed)."""

    text: str


@dataclass(frozen=True, slots=True)
class LineBreak:
    """A hard line break (``<br>``)."""


@dataclass(frozen=True, slots=True)
class Code:
    """Inline code: its text as written, whitespace collapsed."""

    text: str


@dataclass(frozen=True, slots=True)
class Styled:
    """Strong (``"strong"``) or emphasised (``"em"``) content."""

    style: str
    children: tuple[Span, ...]


@dataclass(frozen=True, slots=True)
class Link:
    """A link: an absolute (or, without a base URL, the page's) target and its content."""

    href: str
    children: tuple[Span, ...]


Span = Text | LineBreak | Code | Styled | Link

#: Elements that may sit inside a paragraph without ending it (HTML phrasing content).
PHRASING_TAGS: Final = frozenset(
    {
        "a", "abbr", "acronym", "b", "bdi", "bdo", "big", "br", "cite", "code", "data", "del",
        "dfn", "em", "font", "i", "img", "ins", "kbd", "label", "mark", "nobr", "q", "s",
        "samp", "small", "span", "strike", "strong", "sub", "sup", "time", "tt", "u", "var",
        "wbr",
    }
)  # fmt: skip
_STYLES: Final = {"b": "strong", "strong": "strong", "i": "em", "em": "em"}
_CODE_TAGS: Final = frozenset({"code", "kbd", "samp", "tt"})
# Phrasing elements the segmentation splits blocks at: their edges count as spaces.
_SPLITTING_TAGS: Final = PHRASING_TAGS - INLINE_TAGS - INLINE_SPACED_TAGS - {"a", "br"}
_SPACE: Final = Text(" ")
_SKIPPED_TAGS: Final = IGNORABLE_TAGS | EXTRA_IGNORABLE_TAGS
_DROPPED_SCHEMES = ("javascript:", "data:", "vbscript:")


def resolve_link(href: str | None, base_url: str | None) -> str | None:
    """The absolute target of ``href``, or None for no target, in-page and script links."""
    href = (href or "").strip()
    if not href or href.startswith("#") or href.lower().startswith(_DROPPED_SCHEMES):
        return None
    return urljoin(base_url, href) if base_url else href


@dataclass(slots=True)
class _Frame:
    """An open phrasing element of the walk: where its spans go and how they are wrapped."""

    element: Element
    children: Iterator[Element]
    spans: list[Span]
    style: str | None = None
    href: str | None = None


def inline_spans(owner: Element, base_url: str | None = None) -> tuple[Span, ...]:
    """The inline content of ``owner`` (see the module rules), whitespace normalised.

    A style already open is not opened again (``<b>`` in ``<strong>`` is plain), so spans nest
    at most three deep (a link, strong, emphasis) however deep the markup.
    """
    if not len(owner):  # text only: the common case
        text = _collapse(owner.text or "").strip(" ")
        return (Text(text),) if text else ()
    root: list[Span] = []
    _add_text(root, owner.text)
    stack = [_Frame(owner, iter(owner), root)]
    while stack:
        frame = stack[-1]
        child = next(frame.children, None)
        if child is None:
            stack.pop()
            if stack:
                _close(frame, stack[-1].spans)
            continue
        tag = child.tag
        if not isinstance(tag, str):
            pass  # a comment or processing instruction
        elif tag not in PHRASING_TAGS or is_hidden(child):
            frame.spans.append(_SPACE)  # a block-level, ignorable or hidden element: skipped
        elif tag == "br":
            frame.spans.append(LineBreak())
        elif tag in _CODE_TAGS:
            code = Code(_collapse(visible_text(child)).strip())
            frame.spans += [_SPACE, code, _SPACE] if tag in _SPLITTING_TAGS else [code]
        elif tag in _SPLITTING_TAGS and not len(child):  # <time>, <img>, <small> ...: no markup
            frame.spans += [_SPACE, Text(_collapse(child.text or "")), _SPACE]
        else:
            if tag == "a" and child.get("href") is not None:
                frame.spans.append(_SPACE)
            opened = _Frame(child, iter(child), [], *_wrapper(child, stack, base_url))
            _add_text(opened.spans, child.text)
            stack.append(opened)
            continue
        _add_text(frame.spans, child.tail)
    return _normalise(root)


def _wrapper(
    element: Element, open_frames: Sequence[_Frame], base_url: str | None
) -> tuple[str | None, str | None]:
    """The (style, link target) ``element`` opens: None for what is already open."""
    style = _STYLES.get(element.tag)
    if style is not None and any(frame.style == style for frame in open_frames):
        style = None
    href = resolve_link(element.get("href"), base_url) if element.tag == "a" else None
    if href is not None and any(frame.href is not None for frame in open_frames):
        href = None
    return style, href


def _close(frame: _Frame, parent: list[Span]) -> None:
    """Put a finished frame's spans into its parent's, wrapped, then its tail."""
    element = frame.element
    if element.tag in _SPLITTING_TAGS:
        frame.spans.insert(0, _SPACE)
        frame.spans.append(_SPACE)
    if frame.href is not None:
        parent.append(Link(frame.href, tuple(frame.spans)))
    elif frame.style is not None:
        parent.append(Styled(frame.style, tuple(frame.spans)))
    else:
        parent.extend(frame.spans)
    if element.tag == "a" and element.get("href") is not None:
        parent.append(_SPACE)
    _add_text(parent, element.tail)


def visible_text(element: Element) -> str:
    """The text of ``element`` as written (whitespace kept; ``<br>`` ends a line, a
    block-level element is on lines of its own), without ignorable or hidden descendants."""
    parts = [element.text or ""]
    # per open element: its children, its tail, whether it ends a line
    stack: list[tuple[Iterator[Element], str, bool]] = [(iter(element), "", False)]
    while stack:
        children, tail, ends_line = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            if ends_line and not _at_line_start(parts):
                parts.append("\n")
            parts.append(tail)
        elif child.tag == "br":
            parts.append("\n" + (child.tail or ""))
        elif isinstance(child.tag, str) and child.tag not in _SKIPPED_TAGS and not is_hidden(child):
            block_level = child.tag not in PHRASING_TAGS
            if block_level and not _at_line_start(parts):
                parts.append("\n")
            parts.append(child.text or "")
            stack.append((iter(child), child.tail or "", block_level))
        else:
            parts.append(child.tail or "")
    return "".join(parts)


def _at_line_start(parts: list[str]) -> bool:
    """Whether the text of ``parts`` is empty or ends with a newline."""
    last = next((part for part in reversed(parts) if part), "")
    return not last or last.endswith("\n")


def plain_text(spans: Sequence[Span]) -> str:
    """The text of ``spans`` (a line break is a newline)."""
    return "".join(_plain(span) for span in spans)


def _plain(span: Span) -> str:
    if isinstance(span, Text | Code):
        return span.text
    if isinstance(span, LineBreak):
        return "\n"
    return plain_text(span.children)


def _collapse(text: str) -> str:
    """Whitespace runs as one space (kept at the edges)."""
    inner = " ".join(text.split())
    if not inner:
        return " " if text else ""
    return (" " if text[0].isspace() else "") + inner + (" " if text[-1].isspace() else "")


def _add_text(spans: list[Span], text: str | None) -> None:
    if text:
        spans.append(Text(_collapse(text)))


def _normalise(spans: Sequence[Span]) -> tuple[Span, ...]:
    """Merge adjacent texts; drop doubled spaces, spaces at the edges and around line breaks,
    line breaks at the edges and empty wrappers."""
    out = _trimmed(spans, [True])
    while out and isinstance(out[-1], LineBreak):
        out.pop()
    return tuple(_rstripped(out))


def _trimmed(spans: Sequence[Span], space_before: list[bool]) -> list[Span]:
    """``spans`` with leading spaces dropped where a space (or the start) precedes them;
    ``space_before[0]`` carries that state across nested spans."""
    out: list[Span] = []
    for span in spans:
        if isinstance(span, Text):
            text = span.text.lstrip(" ") if space_before[0] else span.text
            if not text:
                continue
            last = out[-1] if out else None
            if isinstance(last, Text):
                out.pop()
                text = last.text + text
            if " " in text:
                text = tidy_text(text)  # no space before punctuation
            space_before[0] = text.endswith(" ")
            out.append(Text(text))
        elif isinstance(span, LineBreak):
            out = _rstripped(out)
            if out:
                out.append(span)
            space_before[0] = True
        elif isinstance(span, Code):
            if span.text:
                out.append(span)
                space_before[0] = False
        else:
            children = _trimmed(span.children, space_before)
            if children:
                out.append(_rewrapped(span, children))
    return out


def _rstripped(spans: list[Span]) -> list[Span]:
    """``spans`` without trailing spaces (inside the last wrapper too)."""
    if not spans:
        return spans
    last = spans[-1]
    if isinstance(last, Text):
        text = last.text.rstrip(" ")
        return [*spans[:-1], Text(text)] if text else _rstripped(spans[:-1])
    if isinstance(last, Styled | Link):
        children = _rstripped(list(last.children))
        return [*spans[:-1], _rewrapped(last, children)] if children else _rstripped(spans[:-1])
    return spans


def _rewrapped(span: Styled | Link, children: Sequence[Span]) -> Span:
    if isinstance(span, Styled):
        return Styled(span.style, tuple(children))
    return Link(span.href, tuple(children))
