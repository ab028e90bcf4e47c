"""``<noscript>`` as a reader sees it, applied to the page source before parsing.

A browser runs scripts and reads a ``<noscript>`` element's content as raw text that is never
shown; libxml2 parses that content as markup, so an unclosed ``<div>`` inside it swallows the
rest of the page. Before parsing, therefore:

* when the text inside the page's ``<noscript>`` elements is longer than the rest of its text
  (forum software such as Discourse serves its whole readable page there, for readers without
  scripts), the ``<noscript>`` tags become ``<div data-noscript>`` and their content is read
  like any other;
* otherwise each ``<noscript>`` element is emptied (the element stays, a block boundary as
  before), so nothing inside it can hide what follows.

Text size here is the count of non-whitespace characters (bytes, for bytes input) outside tags,
``<script>`` and ``<style>``. A ``<noscript>`` start tag without an end tag is dropped. Every
step is a forward scan: linear in the page's length. For bytes, the elements are found by a
compiled twin when it is built (``_speedups.noscript_spans``: the same spans, from ``<`` to
``<`` without the regular expressions).
"""

from __future__ import annotations

import re
from typing import AnyStr

from .segmentation import compiled_twin

__all__ = ["resolve_noscript"]

# Start tags are bounded in length so that a "<noscript" never followed by ">" costs one scan.
_SOURCES = {
    "noscript_open": r"<noscript\b[^<>]{0,4096}>",
    "noscript_close": r"</noscript\s*>",
    "hidden_open": r"<(script|style)\b[^<>]{0,4096}>",
    "script_close": r"</script\s*>",
    "style_close": r"</style\s*>",
    "tag": r"<[^<>]*>",
    "lt": "<",
    "space": r"\s+",
}
#: Text is counted by windows cut before a "<": the first of about this many characters (bytes),
#: each next one twice as long, up to :data:`_MAX_WINDOW` (a count that stops early reads little).
_FIRST_WINDOW = 4 * 1024
_MAX_WINDOW = 64 * 1024
_STR_PATTERNS = {name: re.compile(source, re.I) for name, source in _SOURCES.items()}
_BYTES_PATTERNS = {name: re.compile(source.encode(), re.I) for name, source in _SOURCES.items()}


def _patterns(html: AnyStr) -> dict[str, re.Pattern[AnyStr]]:
    """The compiled patterns for ``str`` or ``bytes`` input."""
    if isinstance(html, str):
        return _STR_PATTERNS
    return _BYTES_PATTERNS


def _spans(
    html: AnyStr, opening: re.Pattern[AnyStr], closing: re.Pattern[AnyStr]
) -> list[tuple[int, int, int, int | None]]:
    """``(start, content_start, content_end, end)`` of each element, in order; ``end`` is None
    for a start tag without its end tag (the content then runs to the end of the page)."""
    spans: list[tuple[int, int, int, int | None]] = []
    position = 0
    while (start := opening.search(html, position)) is not None:
        end = closing.search(html, start.end())
        if end is None:
            spans.append((start.start(), start.end(), len(html), None))
            break
        spans.append((start.start(), start.end(), end.start(), end.end()))
        position = end.end()
    return spans


def _text_size(html: AnyStr, limit: int | None = None) -> int:
    """Non-whitespace characters of ``html`` outside tags, ``<script>`` and ``<style>``; once
    the count passes ``limit``, counting stops and a number above ``limit`` is returned."""
    patterns = _patterns(html)
    size = 0
    position = 0
    while position < len(html):
        start = patterns["hidden_open"].search(html, position)
        stop = len(html) if start is None else start.start()
        size += _plain_text_size(html, position, stop, patterns, limit, size)
        if start is None or (limit is not None and size > limit):
            break
        name = start.group(1).lower()
        closing = patterns["script_close" if name in ("script", b"script") else "style_close"]
        end = closing.search(html, start.end())
        position = len(html) if end is None else end.end()
    return size


def _plain_text_size(
    html: AnyStr,
    start: int,
    stop: int,
    patterns: dict[str, re.Pattern[AnyStr]],
    limit: int | None,
    counted: int,
) -> int:
    """Non-whitespace characters outside tags in ``html[start:stop]``, by growing windows cut
    before a ``<``; stops after the window where ``counted`` plus it passes ``limit``."""
    size = 0
    window_size = _FIRST_WINDOW
    empty = html[:0]
    lt = patterns["lt"].pattern
    while start < stop:
        cut = html.find(lt, min(start + window_size, stop), stop)
        window_size = min(2 * window_size, _MAX_WINDOW)
        cut = stop if cut < 0 else cut
        window = patterns["tag"].sub(empty, html[start:cut])
        size += len(patterns["space"].sub(empty, window))
        if limit is not None and counted + size > limit:
            break
        start = cut
    return size


def resolve_noscript(html: AnyStr) -> AnyStr:
    """``html`` with its ``<noscript>`` elements emptied, or opened up when they hold the
    page's readable content (see the module docstring); unchanged without ``<noscript>``."""
    patterns = _patterns(html)
    if _speedups is not None and isinstance(html, bytes):
        spans = _speedups.noscript_spans(html)
    else:
        spans = _spans(html, patterns["noscript_open"], patterns["noscript_close"])
    if not spans:
        return html
    inside = sum(_text_size(html[begin:stop]) for _, begin, stop, _ in spans)
    # The rest of the page is counted only as far as needed: usually the noscript text is small.
    opened = inside > 0 and _text_size(_join_outside(html, spans), limit=inside) < inside
    empty = html[:0]
    pieces: list[AnyStr] = []
    position = 0
    for start, content_start, content_end, end in spans:
        pieces.append(html[position:start])
        if end is None:  # a start tag without an end tag: dropped
            pieces.append(html[content_start:])
            position = len(html)
            break
        if opened:
            open_tag = html[start:content_start]
            pieces += [_as_div(open_tag), html[content_start:content_end], _text(html, "</div>")]
        else:
            pieces += [html[start:content_start], html[content_end:end]]
        position = end
    pieces.append(html[position:])
    return empty.join(pieces)


def _join_outside(html: AnyStr, spans: list[tuple[int, int, int, int | None]]) -> AnyStr:
    """``html`` without the ``<noscript>`` elements of ``spans``."""
    pieces: list[AnyStr] = []
    position = 0
    for start, _, _, end in spans:
        pieces.append(html[position:start])
        position = len(html) if end is None else end
    pieces.append(html[position:])
    return html[:0].join(pieces)


def _as_div(open_tag: AnyStr) -> AnyStr:
    """``<noscript ...>`` as ``<div data-noscript ...>``."""
    return _text(open_tag, "<div data-noscript") + open_tag[len("<noscript") :]


def _text(like: AnyStr, text: str) -> AnyStr:
    """``text`` as the same type as ``like`` (ASCII only)."""
    if isinstance(like, str):
        return text
    return text.encode("ascii")


#: The compiled twin of :func:`_spans` for bytes (``_speedups.noscript_spans``), or None.
_speedups = compiled_twin(f"{__package__}._speedups")
