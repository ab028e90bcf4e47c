"""Crowded start tags, shortened before parsing: libxml2 checks each attribute against the
tag's earlier ones, so one tag with 40,000 attributes took seconds.

A start tag of 4 KiB or more with over 256 attributes keeps its first 32 and the first
``href``, ``class``, ``id``, ``style``, ``hidden`` and ``aria-hidden`` (:func:`cap_crowded_tags`:
linear, and a few percent of the parse time on ordinary pages, which it leaves unchanged).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import AnyStr, Generic

from .tags import HIDING_ATTRIBUTES

__all__ = ["cap_crowded_tags"]

_LONG_TAG = 4096
_MAX_ATTRIBUTES = 256
_KEPT_ATTRIBUTES = 32
_KEPT_NAMES = frozenset({"href", "class", "id", *HIDING_ATTRIBUTES})
#: What can separate two attributes: whitespace, "/", and the quote that closes a value.
_SEPARATORS = b"\t\n\f\r /\"'"
# One attribute as HTML tokenizes it: a name (ended by whitespace, "/", ">" or "="), then maybe
# "=" and a quoted or unquoted value; group "open" is a quote that is not closed in the tag.
_ATTRIBUTE = re.compile(
    r"""([^\t\n\f\r />][^\t\n\f\r />=]*)"""
    r"""(?:[\t\n\f\r ]*=[\t\n\f\r ]*(?:"[^"]*"|'[^']*'|(?P<open>["'])|[^\t\n\f\r >]+))?"""
)
#: :data:`_ATTRIBUTE` without groups, to count at C speed (``findall`` then makes no tuples).
_ATTRIBUTE_TOKEN = (
    r"""[^\t\n\f\r />][^\t\n\f\r />=]*"""
    r"""(?:[\t\n\f\r ]*=[\t\n\f\r ]*(?:"[^"]*"|'[^']*'|["']|[^\t\n\f\r >]+))?"""
)
_TAG_NAME = r"</?[^\t\n\f\r />]*"
_TAG_START = r"<[A-Za-z]"
_MARKUP_START = r"(?P<comment><!--)|(?P<tag></?[A-Za-z])|(?P<other><[/!?])"
# A tag up to its ">" (or the end of the page): quotes delimit a value only after "=", as in
# HTML; an unclosed one runs to the end. It never fails, so it never backtracks.
_TAG_EXTENT = (
    _TAG_NAME + r"""(?:[^>=]+|=[\t\n\f\r ]*"[^"]*(?:"|\Z)|=[\t\n\f\r ]*'[^']*(?:'|\Z)|=)*(?:>|\Z)"""
)
#: Elements whose text holds no tags, by their start: where the text ends.
_RAW_TEXT_ENDS = {
    f"<{name}": f"</{name}"
    for name in (
        "script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "plaintext"
    )
}  # fmt: skip
_HIDDEN_START = "<!--|(?:{})(?=[\t\n\f\r />])".format("|".join(_RAW_TEXT_ENDS))


def _shorten_tag(tag: str) -> str:
    """``tag`` (a start tag without its ``>``) with its first 32 attributes and the first of
    each of :data:`_KEPT_NAMES`, if it has over 256; else, or if a quoted value in it is not
    closed (the tag goes on past a quoted ``>``), ``tag`` itself."""
    name = re.match(_TAG_NAME, tag)
    assert name is not None  # every tag starts with "<"
    kept: list[str] = []
    seen: set[str] = set()
    count = 0
    for attribute in _ATTRIBUTE.finditer(tag, name.end()):
        if attribute.group("open"):
            return tag
        count += 1
        key = attribute.group(1).lower()
        if count <= _KEPT_ATTRIBUTES or (key in _KEPT_NAMES and key not in seen):
            kept.append(attribute.group())
        seen.add(key)
    if count <= _MAX_ATTRIBUTES:
        return tag
    return " ".join([name.group(), *kept])


def _shorten_bytes_tag(tag: bytes) -> bytes:
    return _shorten_tag(tag.decode("latin-1")).encode("latin-1")


def _count_separators(segment: bytes) -> int:
    """How many bytes of ``segment`` are :data:`_SEPARATORS` (one pass, at C speed)."""
    return len(segment) - len(segment.translate(None, _SEPARATORS))


def _count_text_separators(segment: str) -> int:
    # UTF-8 writes every other character with bytes that are not ASCII.
    return _count_separators(segment.encode("utf-8", "surrogatepass"))


@dataclass(frozen=True)
class _Markup(Generic[AnyStr]):
    """What the crowded-tag search looks for, in text or in bytes."""

    gt: AnyStr
    comment_end: AnyStr
    count_separators: Callable[[AnyStr], int]
    tag_name: re.Pattern[AnyStr]
    tag_start: re.Pattern[AnyStr]
    markup_start: re.Pattern[AnyStr]
    tag_extent: re.Pattern[AnyStr]
    attribute_token: re.Pattern[AnyStr]
    #: The start of a comment or of raw text (any case), and the end of each, by its start in
    #: lowercase (as ``<!--`` or ``<script``).
    hidden_start: re.Pattern[AnyStr]
    hidden_ends: dict[AnyStr, re.Pattern[AnyStr]]
    shorten: Callable[[AnyStr], AnyStr]


def _markup(
    convert: Callable[[str], AnyStr],
    shorten: Callable[[AnyStr], AnyStr],
    count_separators: Callable[[AnyStr], int],
) -> _Markup[AnyStr]:
    return _Markup(
        gt=convert(">"),
        comment_end=convert("-->"),
        count_separators=count_separators,
        tag_name=re.compile(convert(_TAG_NAME)),
        tag_start=re.compile(convert(_TAG_START)),
        markup_start=re.compile(convert(_MARKUP_START)),
        tag_extent=re.compile(convert(_TAG_EXTENT)),
        attribute_token=re.compile(convert(_ATTRIBUTE_TOKEN)),
        hidden_start=re.compile(convert(_HIDDEN_START), re.IGNORECASE),
        hidden_ends={
            convert(start): re.compile(convert(re.escape(end)), re.IGNORECASE)
            for start, end in {"<!--": "-->", **_RAW_TEXT_ENDS}.items()
        },
        shorten=shorten,
    )


_TEXT_MARKUP = _markup(str, _shorten_tag, _count_text_separators)
_BYTES_MARKUP = _markup(str.encode, _shorten_bytes_tag, _count_separators)


class _RawText(Generic[AnyStr]):
    """Whether positions of a page, asked in increasing order, fall in a comment or in the text
    of ``<script>``, ``<style>`` and the other :data:`_RAW_TEXT_ENDS` elements: a quick first
    check, blind to tags (:class:`_DataState` follows them).

    From the end of the last such span, the next start is searched (once), then its end: the
    page is read once in all.
    """

    def __init__(self, data: AnyStr, markup: _Markup[AnyStr]) -> None:
        self.data: AnyStr = data
        self.markup: _Markup[AnyStr] = markup
        self.span_end = 0
        self.searched_from = -1
        self.next_start: re.Match[AnyStr] | None = None  # the first start after span_end

    def __contains__(self, position: int) -> bool:
        while position >= self.span_end:
            if self.searched_from != self.span_end:
                self.searched_from = self.span_end
                self.next_start = self.markup.hidden_start.search(self.data, self.span_end)
            start = self.next_start
            if start is None or start.start() >= position:
                return False
            end = self.markup.hidden_ends[start.group().lower()].search(self.data, start.end())
            self.span_end = len(self.data) if end is None else end.end()
        return True


class _DataState(Generic[AnyStr]):
    """Whether positions of a page, asked in increasing order, are in its text (the HTML
    tokenizer's data state) rather than inside a tag, a comment, or the text of ``<script>``,
    ``<style>`` and the other :data:`_RAW_TEXT_ENDS` elements.

    Reads the page once in all, markup by markup: a tag to its ``>`` (by :data:`_TAG_EXTENT`),
    a comment to its ``-->``, raw text to its end tag, ``<!...>`` and ``<?...>`` to their ``>``.
    """

    def __init__(self, data: AnyStr, markup: _Markup[AnyStr]) -> None:
        self.data: AnyStr = data
        self.markup: _Markup[AnyStr] = markup
        self.position = 0  # in data state

    def __contains__(self, target: int) -> bool:
        while self.position < target:
            found = self.markup.markup_start.search(self.data, self.position, target)
            if found is None:
                self.position = target
            else:
                self.position = self._end_of(found)
        return self.position == target

    def _end_of(self, found: re.Match[AnyStr]) -> int:
        """Where the markup that starts with ``found`` ends."""
        data, markup, start = self.data, self.markup, found.start()
        if found.lastgroup == "comment":
            end = data.find(markup.comment_end, found.end())
            return len(data) if end < 0 else end + len(markup.comment_end)
        if found.lastgroup == "other":
            end = data.find(markup.gt, found.end())
            return len(data) if end < 0 else end + 1
        extent = markup.tag_extent.match(data, start)
        assert extent is not None  # the pattern cannot fail
        name = markup.tag_name.match(data, start)
        assert name is not None
        closing = markup.hidden_ends.get(name.group().lower())
        if closing is None:
            return extent.end()
        raw_text_end = closing.search(data, extent.end())
        return len(data) if raw_text_end is None else raw_text_end.start()


def _cap_crowded_tags(data: AnyStr, markup: _Markup[AnyStr]) -> AnyStr:
    """``data`` with every start tag of 4 KiB or more that has over 256 attributes shortened
    (:func:`_shorten_tag`); ``data`` itself if there is none.

    Linear in ``data``, and cheap for ordinary pages: such a tag holds a run of 2 KiB without
    ``>``, so windows of 2 KiB are checked for a ``>`` (one search each). A run of 4 KiB or more
    without ``>`` is looked into only if it has a ``<`` and a letter followed by over 256
    whitespace, ``/`` and quote characters; the tag is shortened only if it has over 256
    attributes, closes its quotes, and starts in the page's text (:class:`_DataState`). A tag
    whose attribute values hold a ``>`` is missed.
    """
    size = len(data)
    window = _LONG_TAG // 2
    pieces: list[AnyStr] = []
    done = 0  # data[:done] is in pieces
    checks: tuple[_RawText[AnyStr], _DataState[AnyStr]] | None = None
    run_start = 0  # just after the last ">" seen
    position = 0
    while position + window <= size:
        last_gt = data.rfind(markup.gt, position, position + window)
        if last_gt >= 0:
            run_start = position = last_gt + 1
            continue
        end = data.find(markup.gt, position + window)
        end = size if end < 0 else end
        tag = markup.tag_start.search(data, run_start, end)
        run_start = position = end + 1
        if tag is None or end - tag.start() < _LONG_TAG:
            continue
        segment = data[tag.start() : end]
        if (
            markup.count_separators(segment) <= _MAX_ATTRIBUTES
            or len(markup.attribute_token.findall(segment)) <= _MAX_ATTRIBUTES + 1  # + its name
        ):
            continue
        if checks is None:
            checks = _RawText(data, markup), _DataState(data, markup)
        if tag.start() in checks[0] or tag.start() not in checks[1]:
            continue
        shortened = markup.shorten(segment)
        if len(shortened) < len(segment):
            pieces += [data[done : tag.start()], shortened]
            done = end
    if not pieces:
        return data
    pieces.append(data[done:])
    return data[:0].join(pieces)


def cap_crowded_tags(data: AnyStr) -> AnyStr:
    """``data`` (page text or bytes) with its crowded start tags shortened (module docstring)."""
    if isinstance(data, str):
        return _cap_crowded_tags(data, _TEXT_MARKUP)
    return _cap_crowded_tags(data, _BYTES_MARKUP)
