"""Turning bytes or text into an lxml HTML tree.

:func:`parse_html` takes ``str`` or bytes-like input (``bytes``, ``bytearray``, ``memoryview``;
anything else raises :class:`TypeError`); bytes are decoded to text by :mod:`.decoding`. The
page is parsed with libxml2 (``huge_tree``; comments and processing instructions dropped);
valid UTF-8 bytes are handed to libxml2 as they are (same tree as their text, less
conversion), and text is encoded to UTF-8 for the same reason (encoding costs less than
libxml2's conversion of text input and the raw-text passes over text). Before parsing,
``<noscript>`` is resolved as a reader sees it (:mod:`.noscript`).
Three things would make libxml2 stop early or crawl:

* A lone surrogate in text input stops libxml2 there: the page is parsed again with each lone
  surrogate replaced by U+FFFD (looked for only then, so ordinary text costs nothing).
* libxml2 checks each attribute against the tag's earlier ones (40,000 attributes took
  seconds): crowded start tags are shortened first (:mod:`.crowded_tags`).
* libxml2 stops at 2,048 open elements (256 without ``huge_tree``) and reports a fatal error:
  the rest of the page would be lost. The page is then parsed again without its inline
  formatting tags (:data:`~.tags.INLINE_TAGS`: they neither split blocks nor change the tag
  level, and runs of unclosed ``<font>`` or ``<b>`` are the usual cause); if it is still too
  deep, :class:`InvalidInputError` is raised.

Any other fatal libxml2 error also raises :class:`InvalidInputError`: a truncated tree is never
returned. Parsers are per thread (a parser serves one parse at a time, and its error log is read
after it).
"""

from __future__ import annotations

import re
import threading

from lxml import etree

from ..errors import InvalidInputError
from ..model.document import Element
from .crowded_tags import cap_crowded_tags
from .decoding import decode_html, decode_page, looks_binary
from .noscript import resolve_noscript
from .tags import INLINE_TAGS

__all__ = [
    "decode_html",
    "parse_html",
    "parse_as_text",
    "looks_binary",
    "strip_xml_declaration",
]

_UTF8_BOM = b"\xef\xbb\xbf"
_SURROGATE = re.compile("[\ud800-\udfff]")
# An XML declaration (lxml refuses one with an encoding in text input); "?>" may be missing.
_XML_DECLARATION = re.compile(r"[\s\ufeff]*<\?xml[^>]*>")

_INLINE_NAMES = "|".join(sorted(INLINE_TAGS, key=len, reverse=True))
_INLINE_TAG = re.compile(rf"</?(?:{_INLINE_NAMES})(?=[\t\n\f\r />])[^<>]*>", re.IGNORECASE)


class _Parsers(threading.local):
    """One pair of parsers per thread: a parser serves one parse at a time, and its error log
    must be read by the thread that parsed."""

    def __init__(self) -> None:
        self.text = etree.HTMLParser(remove_comments=True, remove_pis=True, huge_tree=True)
        # For bytes known to be valid UTF-8: libxml2 reads them as they are, where text input
        # would be handed over in CPython's internal encoding and converted (about 20% of the
        # parse time).
        self.utf8 = etree.HTMLParser(
            remove_comments=True, remove_pis=True, huge_tree=True, encoding="utf-8"
        )


_PARSERS = _Parsers()


class _TooDeepError(InvalidInputError):
    """libxml2 stopped at its nesting limit."""


class _BadCharacterError(InvalidInputError):
    """libxml2 stopped at a character it cannot read (a lone surrogate in text input)."""


# -- preparing text ------------------------------------------------------------------------------


def strip_xml_declaration(text: str) -> str:
    """Remove a leading XML declaration (lxml refuses text input that declares an encoding).

    Leading whitespace and BOMs go with it; a declaration missing its ``?>`` ends at the first
    ``>``.
    """
    declaration = _XML_DECLARATION.match(text)
    return text[declaration.end() :] if declaration else text


def _replace_lone_surrogates(text: str) -> str:
    """U+FFFD for each lone surrogate; a pair written as two code points becomes its character."""
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def _prepare(text: str) -> str:
    """Text input as libxml2 gets it: no NUL, no XML declaration, ``<noscript>`` resolved,
    crowded tags shortened."""
    if "\x00" in text:
        text = text.replace("\x00", "")
    return cap_crowded_tags(resolve_noscript(strip_xml_declaration(text)))


# -- parsing -------------------------------------------------------------------------------------


def parse_html(
    html: str | bytes | bytearray | memoryview, content_type: str | None = None
) -> Element:
    """Parse a page into an ``<html>`` element by the rules of the module docstring.

    ``content_type`` is the HTTP ``Content-Type`` of bytes. Raises :class:`TypeError` for input
    that is neither text nor bytes-like, and :class:`InvalidInputError` for empty,
    whitespace-only or binary input and for pages libxml2 cannot parse to their end.
    """
    utf8: bytes | None = None
    if isinstance(html, str):
        text = html
        utf8 = _utf8_of(html)
    elif isinstance(html, (bytes, bytearray, memoryview)):
        data = html.tobytes() if isinstance(html, memoryview) else bytes(html)
        text, valid_utf8 = decode_page(data, content_type)
        # Valid UTF-8 gives the same tree when parsed as bytes.
        if valid_utf8 and b"\x00" not in data:
            utf8 = data.removeprefix(_UTF8_BOM)
    else:
        raise TypeError(
            f"parse_html() takes str, bytes, bytearray or memoryview, not {type(html).__name__}"
        )
    if not text or text.isspace() or text == "\ufeff":
        raise InvalidInputError("empty document")
    try:
        return _parse_page(text, utf8)
    except _BadCharacterError:
        # Looking for surrogates only now keeps the search off the common path.
        if isinstance(html, str) and _SURROGATE.search(html):
            return _parse_page(_replace_lone_surrogates(html), None)
        raise


def parse_as_text(text: str) -> Element:
    """The tree of ``text`` handed to libxml2 as text (no UTF-8 encoding first): the reference
    that :func:`parse_html` matches on every page, by the same rules."""
    return _parse_page(strip_xml_declaration(text), None)


def _utf8_of(text: str) -> bytes | None:
    """``text`` (without an XML declaration) as UTF-8 bytes, the cheaper input for libxml2 and
    for the raw-text passes; None when it holds a NUL, a lone surrogate or a leading BOM (the
    text path handles those)."""
    try:
        data = strip_xml_declaration(text).encode("utf-8")
    except UnicodeEncodeError:
        return None
    return None if b"\x00" in data or data.startswith(_UTF8_BOM) else data


def _parse_page(text: str, utf8: bytes | None) -> Element:
    """The tree of a page: of ``utf8`` (its valid UTF-8 bytes) if given, else of ``text``;
    parsed again without inline formatting tags if it is nested too deep."""
    try:
        if utf8 is not None:
            return _parse(cap_crowded_tags(resolve_noscript(utf8)), _PARSERS.utf8)
        return _parse(_prepare(text), _PARSERS.text)
    except _TooDeepError:
        pass
    try:
        return _parse(_INLINE_TAG.sub("", _prepare(text)), _PARSERS.text)
    except _TooDeepError as exc:
        raise InvalidInputError(
            f"HTML nested deeper than libxml2 can parse, even without its inline formatting"
            f" tags ({exc}): the rest of the page would be lost"
        ) from None


def _parse(html: str | bytes, parser: etree.HTMLParser) -> Element:
    """The tree of ``html``; :class:`InvalidInputError` if libxml2 stopped before the end."""
    try:
        root = etree.fromstring(html, parser=parser)
    except (etree.ParserError, etree.XMLSyntaxError, ValueError) as exc:
        raise InvalidInputError(f"cannot parse HTML: {exc}") from exc
    for error in parser.error_log.filter_from_fatals():
        message = error.message.strip()
        if "depth" in message.lower():  # "Excessive depth in document: 2048, use ..."
            raise _TooDeepError(f"{message.split(', use ')[0]}, at line {error.line}")
        if error.type == etree.ErrorTypes.ERR_INVALID_ENCODING:
            raise _BadCharacterError(f"cannot parse HTML: {message} at line {error.line}")
        raise InvalidInputError(
            f"cannot parse HTML: libxml2 stopped at line {error.line}: {message}"
        )
    if root is None:
        raise InvalidInputError("empty document")
    return root
