"""CleanEval inputs: the page wrapped in ``<text id="URL" title="..." encoding="...">``.

:func:`cleaneval_page_html` gives the page's bytes and URL (the evaluation's CleanEval reader
and ``scrapy-boilerplate extract --cleaneval`` use it).
"""

from __future__ import annotations

import re

__all__ = ["cleaneval_page_html"]

_CLEANEVAL_HEADER = re.compile(rb"\A\s*<text\b([^>]*)>")
_CLEANEVAL_ATTRIBUTE = re.compile(rb'(\w+)="([^"]*)"')
_UTF8_BOM = b"\xef\xbb\xbf"


def cleaneval_page_html(raw: bytes) -> tuple[bytes, str | None]:
    """A CleanEval input as the page's bytes and URL: the ``<text>`` wrapper's ``encoding``
    decodes it, and the page is given back as UTF-8 with a BOM (so no ``<meta>`` overrules it);
    an unknown encoding leaves the bytes as they are."""
    header = _CLEANEVAL_HEADER.match(raw)
    if header is None:
        return raw, None
    attributes = {
        key.decode("ascii"): value.decode("utf-8", "replace")
        for key, value in _CLEANEVAL_ATTRIBUTE.findall(header.group(1))
    }
    body = raw[header.end() :].replace(b"</text>", b"")
    encoding = attributes.get("encoding", "").removeprefix("unknown-")
    try:
        text = body.decode(encoding or "utf-8")
    except (LookupError, UnicodeDecodeError):
        return body, attributes.get("id")
    return _UTF8_BOM + text.encode("utf-8", "surrogatepass"), attributes.get("id")
