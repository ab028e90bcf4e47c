"""Turning bytes or text into an lxml HTML tree.

Bytes are decoded with w3lib's rules, in this order: byte-order mark, the HTTP
``Content-Type`` charset, ``<meta>`` declarations, then sniffing (UTF-8, else cp1252).
"""

from __future__ import annotations

import re

from lxml import etree
from w3lib.encoding import html_to_unicode

from ..errors import InvalidInputError
from ..model.document import Element

__all__ = ["decode_html", "parse_html", "looks_binary", "strip_xml_declaration"]

_PARSER = etree.HTMLParser(remove_comments=True, remove_pis=True, huge_tree=True)
# For bytes known to be valid UTF-8: libxml2 reads them as they are, where text input would be
# handed over in CPython's internal encoding and converted (about 20% of the parse time).
_UTF8_PARSER = etree.HTMLParser(
    remove_comments=True, remove_pis=True, huge_tree=True, encoding="utf-8"
)
_UTF8_NAMES = frozenset({"utf-8", "utf8"})
_UTF8_BOM = b"\xef\xbb\xbf"
_BINARY_SAMPLE = 1024
#: Share of control characters in the first KiB above which bytes are taken as binary.
_MAX_CONTROL_SHARE = 0.1
_CONTROL_BYTES = bytes(b for b in range(32) if b not in (9, 10, 12, 13, 27))
# An XML declaration (lxml refuses one with an encoding in text input); "?>" may be missing.
_XML_DECLARATION = re.compile(r"[\s\ufeff]*<\?xml[^>]*>")


def looks_binary(data: bytes) -> bool:
    """Return True if the first KiB of ``data`` has a NUL byte or over 10% control bytes."""
    sample = data[:_BINARY_SAMPLE]
    if not sample:
        return False
    if b"\x00" in sample and not sample.startswith((b"\xff\xfe", b"\xfe\xff")):
        return True
    controls = len(sample) - len(sample.translate(None, _CONTROL_BYTES))
    return controls / len(sample) > _MAX_CONTROL_SHARE


def decode_html(data: bytes, content_type: str | None = None) -> str:
    """Decode page bytes to text (BOM, then header charset, then ``<meta>``, then sniffing).

    Raises :class:`InvalidInputError` for bytes that look binary.
    """
    return _decode(data, content_type)[1]


def _decode(data: bytes, content_type: str | None) -> tuple[str, str]:
    """The encoding w3lib chose for ``data`` and the decoded text."""
    if looks_binary(data):
        raise InvalidInputError("input looks binary, not HTML (NUL or control bytes)")
    return html_to_unicode(content_type, data)


def strip_xml_declaration(text: str) -> str:
    """Remove a leading XML declaration (lxml refuses text input that declares an encoding).

    Leading whitespace and BOMs go with it; a declaration missing its ``?>`` ends at the first
    ``>``.
    """
    declaration = _XML_DECLARATION.match(text)
    return text[declaration.end() :] if declaration else text


def parse_html(html: str | bytes, content_type: str | None = None) -> Element:
    """Parse a page into an ``<html>`` element; comments and processing instructions are dropped.

    Raises :class:`InvalidInputError` for empty, whitespace-only or binary input.
    """
    utf8: bytes | None = None
    if isinstance(html, bytes):
        encoding, text = _decode(html, content_type)
        # Valid UTF-8 (decoding replaced nothing) gives the same tree when parsed as bytes.
        if encoding in _UTF8_NAMES and "\ufffd" not in text and b"\x00" not in html:
            utf8 = html.removeprefix(_UTF8_BOM)
    else:
        text = html
    if not text or text.isspace() or text == "\ufeff":
        raise InvalidInputError("empty document")
    if utf8 is not None:
        return _parse(utf8, _UTF8_PARSER)
    if "\x00" in text:
        text = text.replace("\x00", "")
    return _parse(strip_xml_declaration(text), _PARSER)


def _parse(html: str | bytes, parser: etree.HTMLParser) -> Element:
    try:
        root = etree.fromstring(html, parser=parser)
    except (etree.ParserError, etree.XMLSyntaxError, ValueError) as exc:
        raise InvalidInputError(f"cannot parse HTML: {exc}") from exc
    if root is None:
        raise InvalidInputError("empty document")
    return root
