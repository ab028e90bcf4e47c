"""Cleaning metadata values: text, descriptions, names, dates, language tags and URLs.

Rules shared by every cleaner: only strings are values; a value longer than its limit is
dropped (never truncated), so a hostile page cannot make a field huge; HTML character
references are decoded (JSON-LD often carries ``&amp;``); whitespace runs become one space and
the ends are stripped; an empty value is None.
"""

from __future__ import annotations

import html
import re
from typing import Final
from urllib.parse import urljoin, urlsplit

from .dates import iso_date, normalise_date

__all__ = [
    "MAX_TEXT_CHARS",
    "MAX_NAME_CHARS",
    "MAX_DATE_CHARS",
    "MAX_URL_CHARS",
    "clean_text",
    "clean_name",
    "clean_date",
    "clean_description",
    "iso_date",
    "clean_language",
    "clean_url",
]

#: Longest description kept (characters, whitespace collapsed).
MAX_TEXT_CHARS: Final = 10_000
#: Longest author name kept.
MAX_NAME_CHARS: Final = 200
#: Longest date value kept.
MAX_DATE_CHARS: Final = 100
#: Longest URL kept.
MAX_URL_CHARS: Final = 4096
_MAX_LANGUAGE_CHARS: Final = 35

_SPACES: Final = re.compile(r"\s+")
_TAG: Final = re.compile(r"<(?:[A-Za-z/!?][^<>]{0,2000})?>")
#: The trailing "read more" link is looked for in this many last characters.
_MORE_LINK_CHARS: Final = 2_200
_MORE_LINK: Final = re.compile(r"\s*\[\s*<a\b[^<>]{0,2000}>[^<>]{0,40}</a>\s*\]\s*$", re.IGNORECASE)
_LANGUAGE: Final = re.compile(r"[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*")
_URL_PREFIX: Final = re.compile(r"https?://", re.IGNORECASE)
#: An absolute http(s) URL that :func:`urllib.parse.urljoin` gives back unchanged: lower-case
#: scheme, a host, no spaces, no empty query or fragment at its end.
_PLAIN_ABSOLUTE: Final = re.compile(r"https?://[^\s/?#\[\]]+(?:[/?#]\S*)?(?<![?#])")


def clean_text(value: object, limit: int = MAX_TEXT_CHARS) -> str | None:
    """``value`` decoded and with its whitespace collapsed; None for a non-string, empty or too
    long one."""
    if not isinstance(value, str) or len(value) > 4 * limit:
        return None
    text = _SPACES.sub(" ", html.unescape(value) if "&" in value else value).strip()
    return text if text and len(text) <= limit else None


def clean_name(value: object) -> str | None:
    """An author name: text up to :data:`MAX_NAME_CHARS`; a URL (a profile link) is no name."""
    name = clean_text(value, MAX_NAME_CHARS)
    return None if name is None or _URL_PREFIX.match(name) else name


def clean_date(value: object, month_first: bool = False) -> str | None:
    """A date normalised to ISO 8601 by :func:`.dates.normalise_date` (a valid day, the page's
    zone kept, none invented; ``month_first``: the page writes digits-only dates month first);
    None for anything else."""
    text = clean_text(value, MAX_DATE_CHARS)
    return None if text is None else normalise_date(text, month_first=month_first)


def clean_description(value: object) -> str | None:
    """A description as text: :func:`clean_text` of ``value`` with its HTML tags removed
    (a trailing bracketed "read more" link with them) and its character references decoded."""
    if not isinstance(value, str) or len(value) > 4 * MAX_TEXT_CHARS:
        return None
    if "&" in value:
        value = html.unescape(value)
    if "<" in value:
        more = _MORE_LINK.search(value, max(0, len(value) - _MORE_LINK_CHARS))
        value = _TAG.sub(" ", value[: more.start()] if more else value)
    return clean_text(value)


def clean_language(value: object) -> str | None:
    """A BCP 47 language tag: the first of a comma-separated list, ``_`` read as ``-``
    (``en_US`` becomes ``en-US``); None if it is not shaped like a tag."""
    text = clean_text(value, 4 * _MAX_LANGUAGE_CHARS)
    if text is None:
        return None
    tag = text.split(",")[0].strip().replace("_", "-")
    return tag if len(tag) <= _MAX_LANGUAGE_CHARS and _LANGUAGE.fullmatch(tag) else None


def clean_url(value: object, base_url: str | None) -> str | None:
    """``value`` resolved against ``base_url``; None unless the result is an http(s) URL."""
    if not isinstance(value, str) or len(value) > MAX_URL_CHARS:
        return None
    text = value.strip()
    if not text:
        return None
    if _PLAIN_ABSOLUTE.fullmatch(text):  # the common case, without urljoin's parsing
        return text if len(text) <= MAX_URL_CHARS else None
    try:
        url = urljoin(base_url, text) if base_url else text
        scheme = urlsplit(url).scheme.lower()
    except ValueError:  # e.g. a bad IPv6 host
        return None
    return url if scheme in ("http", "https") and len(url) <= MAX_URL_CHARS else None
