"""The article's OpenGraph values (``<meta property="og:...">``, or ``name=``).

Fields: ``article:published_time`` (or ``og:published_time``), ``article:modified_time``
(or ``og:updated_time``), ``article:author`` (names only: profile URLs are no names),
``og:locale``, ``og:url``, ``og:description``, ``og:image`` (or ``og:image:url``,
``og:image:secure_url``). extruct's OpenGraph extractor is not used: it needs an
``lxml.html`` tree and reads ``<head>`` only.
"""

from __future__ import annotations

from .found import Found
from .tags import PageTags

__all__ = ["read_opengraph"]


def read_opengraph(found: Found, tags: PageTags) -> None:
    """Offer ``found`` the page's OpenGraph values."""
    found.offer_all("published", tags.values("article:published_time", "og:published_time"))
    found.offer_all("modified", tags.values("article:modified_time", "og:updated_time"))
    found.offer_authors(tags.values("article:author"))
    found.offer_all("language", tags.values("og:locale"))
    found.offer_all("canonical_url", tags.values("og:url"))
    found.offer_all("description", tags.values("og:description"))
    found.offer_all("image", tags.values("og:image", "og:image:url", "og:image:secure_url"))
