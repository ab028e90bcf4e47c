"""Reading dates as pages write them and normalising them to ISO 8601.

Rules:

* Accepted shapes: ISO 8601 (``2019-11-18``, ``2019-11-18T17:19:53.5+0100``, a space for the
  ``T``, a trailing zone name), RFC 2822 (``Tue, 19 Nov 2019 17:19:53 GMT``), and written dates
  with a month name in English, German, French, Spanish, Italian, Portuguese or Dutch, or digits
  (``November 19, 2019``, ``19. November 2019``, ``01:38:07 PM IST Nov 20, 2019``,
  ``19.11.2019 17:19``), each with an optional time (12- or 24-hour). A digits-only date is
  day first (``19/11/2019``) unless only month first can be valid (``11/19/2019``), or it is
  written with ``/`` or ``-`` on a page in American English (``month_first``: ``3/4/2025`` is
  March 4; a date with dots stays day first); a year must have four digits.
* The result is ``YYYY-MM-DD`` for a date alone and ``YYYY-MM-DDThh:mm:ss`` for a time, with
  the offset (``+01:00``; ``+00:00`` for ``Z``, ``GMT`` and ``UTC``) when the page gives one
  (an offset, or a zone name with one fixed meaning such as ``EST`` or ``CEST``; an ambiguous
  name such as ``IST`` is dropped). A time without a zone stays without one: no zone is
  invented. Fractions of a second are dropped.
* Validity: a real calendar day from :data:`MIN_YEAR` on, and not after tomorrow (UTC, so a
  page published just now anywhere on Earth is valid).
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta, timezone
from email.utils import parsedate_to_datetime
from typing import Final

__all__ = [
    "MIN_YEAR",
    "MONTH_NAMES",
    "WEEKDAY_NAMES",
    "iso_date",
    "month_first",
    "normalise_date",
    "plausible",
    "url_date",
    "written_date",
]

#: Earliest year of a valid publication date.
MIN_YEAR: Final = 1990

_MONTHS: Final = {
    name: number
    for number, names in enumerate(
        (
            "january jan januar janv janvier enero ene gennaio gen janeiro januari jänner",
            "february feb februar fev févr fevr février fevrier febrero febbraio fevereiro "
            "februari",
            "march mar märz maerz mars marzo março marco maart mrt",
            "april apr avril abril aprile",
            "may mai mayo maggio maio mei",
            "june jun juni juin junio giugno junho",
            "july jul juli juil juillet julio luglio julho",
            "august aug august août aout agosto ago augustus",
            "september sep sept septembre septiembre settembre set setembro",
            "october oct oktober octobre octubre ottobre ott outubro out okt",
            "november nov novembre noviembre novembro",
            "december dec dez dezember décembre decembre diciembre dic dicembre dezembro",
        ),
        start=1,
    )
    for name in names.split()
}
#: Month names and abbreviations (lower case) in the languages read.
MONTH_NAMES: Final = frozenset(_MONTHS)
#: Weekday names and their English abbreviations, lowercase.
WEEKDAY_NAMES: Final = frozenset(
    {"mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun", "monday",
     "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}
)  # fmt: skip
_ZONES: Final = {
    "z": 0,
    "gmt": 0,
    "utc": 0,
    "wet": 0,
    "bst": 60,
    "cet": 60,
    "mez": 60,
    "cest": 120,
    "mesz": 120,
    "eet": 120,
    "eest": 180,
    "msk": 180,
    "est": -300,
    "edt": -240,
    "cst": -360,
    "cdt": -300,
    "mst": -420,
    "mdt": -360,
    "pst": -480,
    "pdt": -420,
    "jst": 540,
    "kst": 540,
    "aest": 600,
    "aedt": 660,
}
_ISO: Final = re.compile(
    r"(\d{4})-(\d\d)-(\d\d)"
    r"(?:(?:T|\s+)(\d\d):(\d\d)(?::(\d\d)(?:[.,]\d+)?)?"
    r"\s*(Z|[+-]\d\d(?::?\d\d)?|\(?[A-Za-z]{2,5}\b\)?(?:\s*[+-]\d\d:?\d\d)?)?)?",
    re.IGNORECASE,
)
_WORD_MONTH: Final = r"(?P<month>[^\W\d_]{3,10})\.?"
_DAY: Final = r"(?P<day>\d{1,2})(?:st|nd|rd|th|er|º|°)?\.?"
_YEAR4: Final = r"(?P<year>\d{4})"
_DATE_SHAPES: Final = (
    # 19 November 2019, 19. November 2019, 19 de noviembre de 2019
    re.compile(rf"\b{_DAY}\s*(?:de\s+)?{_WORD_MONTH}\s*,?\s*(?:de\s+)?{_YEAR4}\b", re.IGNORECASE),
    # November 19, 2019
    re.compile(rf"\b{_WORD_MONTH}\s+{_DAY}\s*,?\s*{_YEAR4}\b", re.IGNORECASE),
    # 19.11.2019, 19/11/2019, 11/19/2019
    re.compile(r"\b(?P<first>\d{1,2})([./-])(?P<second>\d{1,2})\2(?P<year>\d{4})\b"),
    # 2019/11/19, 2019.11.19, 2019-11-19 (within text)
    re.compile(r"\b(?P<year>\d{4})([./-])(?P<month>\d{1,2})\2(?P<day>\d{1,2})\b"),
    # 2019 Nov 19
    re.compile(rf"\b{_YEAR4}\s+{_WORD_MONTH}\s+{_DAY}(?!\d)", re.IGNORECASE),
)
_TIME: Final = re.compile(
    r"(?<![\d:])(?P<hour>\d{1,2})[:h](?P<minute>\d\d)(?::(?P<second>\d\d))?(?:[.,]\d+)?"
    r"\s*(?P<half>[ap]\.?\s?m\.?)?(?:\s*(?P<zone>[+-]\d\d:?\d\d|[A-Za-z]{1,5}\b"
    r"(?:\s*[+-]\d\d?(?::?\d\d)?)?))?",
    re.IGNORECASE,
)
_URL_DATE: Final = re.compile(
    r"/((?:19|20)\d\d)(?:/|-|_)?(0[1-9]|1[0-2])(?:/|-|_)?(0[1-9]|[12]\d|3[01])(?![^\W_])"
)
_FOUR_DIGITS: Final = re.compile(r"\d{4}")  # every written date has its year so
_ISO_DATE_TIME: Final = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d")
_OFFSET: Final = re.compile(r"([+-])(\d\d?)(?::?(\d\d))?$")


def plausible(day: date, today: date | None = None) -> bool:
    """Whether ``day`` is a publication date: from :data:`MIN_YEAR` to tomorrow (UTC)."""
    today = today or datetime.now(timezone.utc).date()
    return day.year >= MIN_YEAR and day <= today + timedelta(days=1)


def month_first(lang: str | None) -> bool:
    """Whether a page in language ``lang`` (a language tag) writes digits-only dates month
    first: American English (``en-US``; ``en`` alone names no country, and British, Irish,
    Indian or Australian English write the day first)."""
    return (lang or "").strip().lower().replace("_", "-") == "en-us"


def normalise_date(
    text: str, today: date | None = None, *, month_first: bool = False
) -> str | None:
    """``text`` as ISO 8601 by the rules of the module docstring; None if it holds no valid
    date (``today``: the day validity is judged on, by default today in UTC;
    ``month_first``: the page writes ambiguous digits-only dates month first)."""
    text = text.strip()
    moment = _iso(text) or _rfc2822(text) or _written(text, month_first)
    if moment is None:
        return None
    if not plausible(moment.date() if isinstance(moment, datetime) else moment, today):
        return None
    return _iso_text(moment)


def written_date(text: str) -> bool:
    """Whether ``text`` holds a written date (a day, a month and a four-digit year), or is an
    ISO 8601 date-time (``2022-11-23T08:10+02:00``)."""
    if _FOUR_DIGITS.search(text) is None:
        return False
    return _written(text) is not None or _ISO_DATE_TIME.match(text.strip()) is not None


def url_date(url: str | None, today: date | None = None) -> str | None:
    """The day a URL path names (``/2019/11/19/``, ``/2019-11-19-slug``, ``/2019-11-19+slug``,
    ``/20191119/``: no letter or digit right after the day), as
    ``YYYY-MM-DD``; None without a valid one."""
    if not url:
        return None
    match = _URL_DATE.search(url.split("?", 1)[0])
    if match is None:
        return None
    try:
        day = date(*map(int, match.groups()))
    except ValueError:
        return None
    return day.isoformat() if plausible(day, today) else None


def iso_date(text: str) -> str | None:
    """``text`` as ISO 8601 if it is an ISO-like or RFC 2822 date (any year), else None."""
    moment = _iso(text.strip()) or _rfc2822(text.strip())
    return None if moment is None else _iso_text(moment)


def _iso_text(moment: datetime | date) -> str:
    if isinstance(moment, datetime):
        return moment.replace(microsecond=0).isoformat()
    return moment.isoformat()


def _zone(name: str | None) -> timezone | None:
    """The fixed offset a zone name or offset stands for; None for none or an ambiguous one."""
    if not name:
        return None
    name = name.strip().strip("()").strip()
    offset = _OFFSET.search(name)
    if offset is not None:
        sign, hours, minutes = offset.groups()
        delta = timedelta(hours=int(hours), minutes=int(minutes or 0))
        if delta >= timedelta(days=1):
            return None
        return timezone(-delta if sign == "-" else delta)
    minutes_east = _ZONES.get(name.lower())
    return None if minutes_east is None else timezone(timedelta(minutes=minutes_east))


def _iso(text: str) -> datetime | date | None:
    match = _ISO.match(text)
    if match is None:
        return None
    year, month, day, hour, minute, second, zone = match.groups()
    zone_offset = _zone(zone)
    if zone and zone_offset is None and zone[0] in "+-":
        return None  # an offset of a day or more
    try:
        if hour is None:
            return date(int(year), int(month), int(day))
        return datetime(
            int(year),
            int(month),
            int(day),
            int(hour),
            int(minute),
            int(second or 0),
            tzinfo=zone_offset,
        )
    except ValueError:  # 2024-13-45, or 25:00
        return None


def _rfc2822(text: str) -> datetime | None:
    if "," not in text[:5] and not text[:1].isdigit():
        return None
    try:
        moment = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if re.search(r"-0000\b", text):  # RFC 2822's "zone unknown"
        return moment.replace(tzinfo=None)
    return moment


def _written(text: str, month_first: bool = False) -> datetime | date | None:
    """A written date (and the time around it) found anywhere in ``text``."""
    for shape in _DATE_SHAPES:
        match = shape.search(text)
        if match is None:
            continue
        day = _day(match, month_first)
        if day is None:
            continue
        rest = text[: match.start()] + " " + text[match.end() :]
        return _with_time(day, rest)
    return None


def _day(match: re.Match[str], month_first: bool = False) -> date | None:
    parts = match.groupdict()
    year = int(parts["year"])
    if parts.get("first") is not None:
        first, second = int(parts["first"]), int(parts["second"])
        american = month_first and match.group(2) != "." and first <= 12
        day, month = (second, first) if first <= 12 < second or american else (first, second)
    else:
        month_text = parts["month"]
        month = int(month_text) if month_text.isdigit() else _MONTHS.get(month_text.lower(), 0)
        day = int(parts["day"])
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _with_time(day: date, rest: str) -> datetime | date:
    match = _TIME.search(rest)
    if match is None:
        return day
    hour, minute = int(match["hour"]), int(match["minute"])
    half = (match["half"] or "").lower().replace(".", "").replace(" ", "")
    if half and not 1 <= hour <= 12:
        return day
    if half == "pm" and hour != 12:
        hour += 12
    elif half == "am" and hour == 12:
        hour = 0
    try:
        return datetime(
            day.year,
            day.month,
            day.day,
            hour,
            minute,
            int(match["second"] or 0),
            tzinfo=_zone(match["zone"]),
        )
    except ValueError:
        return day
