"""Which items belong to the page they were yielded from (``BOILERPLATE_ITEM_POLICY = "url"``).

An item belongs to a response when its URL field names the page: the response URL, the
request URL, a URL the request was redirected from, or the page's ``<link rel="canonical">``,
compared after :func:`w3lib.url.canonicalize_url` (fragment dropped, query arguments sorted,
percent-encoding normalised). Items carried from another page (``cb_kwargs``, ``meta``),
teasers on listing pages and items without a URL do not belong.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from itemadapter import ItemAdapter
from scrapy.http import Response
from w3lib.url import canonicalize_url

__all__ = ["page_urls", "item_url", "names_the_page"]

#: How far into the body the ``<link rel="canonical">`` is looked for (bytes).
_HEAD_BYTES = 64 * 1024
_LINK_TAG = re.compile(rb"<link\b[^>]*>", re.IGNORECASE)
_REL_CANONICAL = re.compile(rb"""\brel\s*=\s*["']?\s*canonical\b""", re.IGNORECASE)
_HREF = re.compile(rb"""\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.IGNORECASE)


def item_url(item: Any, url_field: str | None) -> str | None:
    """The item's URL field if it holds a non-empty string, else None."""
    if url_field is None:
        return None
    try:
        value = ItemAdapter(item).get(url_field)
    except (KeyError, AttributeError, TypeError):
        return None
    return value if isinstance(value, str) and value.strip() else None


def page_urls(response: Response) -> Iterator[str]:
    """The URLs naming ``response``'s page, cheapest first (the canonical link last)."""
    yield response.url
    request = getattr(response, "request", None)
    if request is not None:
        yield request.url
        redirects = request.meta.get("redirect_urls")
        if isinstance(redirects, list):
            yield from (url for url in redirects if isinstance(url, str))
    canonical = canonical_link(response.body[:_HEAD_BYTES])
    if canonical:
        yield response.urljoin(canonical)


def canonical_link(head: bytes) -> str | None:
    """The ``href`` of the first ``<link rel="canonical">`` in ``head`` (raw HTML bytes)."""
    for tag in _LINK_TAG.finditer(head):
        if _REL_CANONICAL.search(tag.group()):
            href = _HREF.search(tag.group())
            if href:
                raw = next(group for group in href.groups() if group is not None)
                return raw.decode("utf-8", "replace").strip() or None
    return None


def names_the_page(url: str, response: Response) -> bool:
    """True if ``url`` is one of :func:`page_urls` after canonicalisation."""
    if url == response.url:  # the common case, without canonicalising
        return True
    try:
        wanted = canonicalize_url(url)
        return any(canonicalize_url(page_url) == wanted for page_url in page_urls(response))
    except ValueError:  # not a URL
        return False
