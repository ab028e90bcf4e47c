"""Cleaning metadata values: text, names, dates, language tags and URLs.

Rules shared by every cleaner: only strings are values; a value longer than its limit is
dropped (never truncated), so a hostile page cannot make a field huge; HTML character
references are decoded (JSON-LD often carries ``&amp;``); whitespace runs become one space and
the ends are stripped; an empty value is None.
"""

from __future__ import annotations

import html
import re
from datetime import datetime, timedelta, timezone
from email.utils import parsedate_to_datetime
from typing import Final
from urllib.parse import urljoin, urlsplit

__all__ = [
    "MAX_TEXT_CHARS",
    "MAX_NAME_CHARS",
    "MAX_DATE_CHARS",
    "MAX_URL_CHARS",
    "clean_text",
    "clean_name",
    "clean_date",
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
_ISO: Final = re.compile(
    r"(\d{4})-(\d\d)-(\d\d)"
    r"(?:[T ](\d\d):(\d\d)(?::(\d\d)(?:[.,]\d+)?)?\s*(Z|[+-]\d\d(?::?\d\d)?)?)?",
    re.IGNORECASE,
)
_YEAR: Final = re.compile(r"(?<!\d)\d{4}(?!\d)")
_LANGUAGE: Final = re.compile(r"[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*")
_URL_PREFIX: Final = re.compile(r"https?://", re.IGNORECASE)


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


def iso_date(text: str) -> str | None:
    """``text`` as ISO 8601 if it is an ISO-like or RFC 2822 date, else None.

    A date alone stays a date (``2024-03-05``); a time gains its seconds and a normalised
    offset (``Z`` and ``+0100`` become ``+00:00`` and ``+01:00``); fractions of a second go;
    a time without offset stays naive.
    """
    match = _ISO.fullmatch(text)
    if match is None:
        return _rfc2822_date(text)
    year, month, day, hour, minute, second, offset = match.groups()
    try:
        if hour is None:
            return datetime(int(year), int(month), int(day)).date().isoformat()
        zone = _timezone(offset) if offset else None
        moment = datetime(
            int(year), int(month), int(day), int(hour), int(minute), int(second or 0), tzinfo=zone
        )
    except ValueError:  # 2024-13-45, or an offset of a day or more
        return None
    return moment.isoformat()


def _timezone(offset: str) -> timezone:
    if offset.upper() == "Z":
        return timezone.utc
    digits = offset[1:].replace(":", "")
    delta = timedelta(hours=int(digits[:2]), minutes=int(digits[2:] or 0))
    return timezone(-delta if offset[0] == "-" else delta)


def _rfc2822_date(text: str) -> str | None:
    """``Tue, 05 Mar 2024 10:00:00 GMT`` as ISO 8601, else None."""
    try:
        return parsedate_to_datetime(text).isoformat()
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


def clean_date(value: object) -> str | None:
    """A date as ISO 8601 (see :func:`iso_date`), else as found if it holds a four-digit year;
    None otherwise."""
    text = clean_text(value, MAX_DATE_CHARS)
    if text is None:
        return None
    return iso_date(text) or (text if _YEAR.search(text) else None)


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
    try:
        url = urljoin(base_url, text) if base_url else text
        scheme = urlsplit(url).scheme.lower()
    except ValueError:  # e.g. a bad IPv6 host
        return None
    return url if scheme in ("http", "https") and len(url) <= MAX_URL_CHARS else None
