"""Which HTTP responses are HTML pages to extract: media types, body sniffing, the size limit.

The rules, shared by the Scrapy add-on and the WARC reader (no Scrapy here):

* An HTML media type (:data:`HTML_MEDIA_TYPES`, the types Scrapy makes an ``HtmlResponse`` of)
  is HTML, whatever the body holds.
* A response without a ``Content-Type`` is HTML if its body :func:`looks_like_html`.
* With ``sniff_text``, a ``text/*`` type that is not XML is HTML if its body looks like HTML
  (``BOILERPLATE_SNIFF_TEXT`` in a crawl).
* Anything else is not HTML.

Bodies over :data:`DEFAULT_MAX_BODY_SIZE` bytes are not extracted by default.
"""

from __future__ import annotations

__all__ = [
    "DEFAULT_MAX_BODY_SIZE",
    "HTML_MEDIA_TYPES",
    "html_by_content_type",
    "is_html_response_body",
    "looks_like_html",
    "media_type",
]

#: Largest body (bytes, after content decoding) extracted by default: 5 MiB.
DEFAULT_MAX_BODY_SIZE = 5 * 1024 * 1024
#: Media types that are HTML (lower case).
HTML_MEDIA_TYPES = frozenset(
    {"text/html", "application/xhtml+xml", "application/vnd.wap.xhtml+xml"}
)

_SNIFF_BYTES = 1024
_HTML_MARKERS = (b"<!doctype html", b"<html", b"<head", b"<body")


def looks_like_html(body: bytes) -> bool:
    """True if the first KiB holds ``<!doctype html``, ``<html``, ``<head`` or ``<body``."""
    start = body[:_SNIFF_BYTES].lower()
    return any(marker in start for marker in _HTML_MARKERS)


def media_type(content_type: str | None) -> str | None:
    """The ``type/subtype`` of a ``Content-Type``, lower case, parameters dropped; None when
    the header is missing or blank."""
    if content_type is None:
        return None
    value = content_type.partition(";")[0].strip().lower()
    return value or None


def html_by_content_type(content_type: str | None, *, sniff_text: bool) -> bool | None:
    """Whether a response with this ``Content-Type`` is HTML by the module's rules: True or
    False when the header decides, None when the body does (:func:`looks_like_html`)."""
    kind = media_type(content_type)
    if kind in HTML_MEDIA_TYPES:
        return True
    if kind is None or (sniff_text and kind.startswith("text/") and "xml" not in kind):
        return None
    return False


def is_html_response_body(content_type: str | None, body: bytes, *, sniff_text: bool) -> bool:
    """Whether a response with this ``Content-Type`` and ``body`` is HTML, by the module's
    rules."""
    decided = html_by_content_type(content_type, sniff_text=sniff_text)
    return looks_like_html(body) if decided is None else decided
