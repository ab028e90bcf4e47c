"""Cleaning author values into person names.

Rules, for each value a source gives:

* e-mail addresses, URLs and bracketed parts go; a leading label goes: "By", one word and
  "by" ("Written by", "Recipe by"), "Author:", "Von", "Por", "Par", "Door", "Di", "Av",
  "Текст:", "Автор:", "文/", "作者:" and the like, and a label alone is no name (a label such as
  "Photo:", "Foto:" or "Photos by", or "Reviewed by" and "Fact checked by", drops the whole
  part: it credits a picture or a reviewer; after a name, "Reviewed by" and "Fact checked
  by" end the value's names: ``Ana Lima, DVM. Reviewed by Bo Chen``), and so do the labels
  of an author box's links ("More about this author", "Full bio");
* a date or a reading time shown after a name goes (``Luke Kim December 17, 2025``,
  ``Craig McCarthy Last updated on 17 December 2025``, ``5 min read``): a part is cut before
  its first word starting with a digit, and the date's words before it go (month and weekday
  names, "on", "Last updated"); a part left with month and weekday names only (``Sat, 20
  Dec, 2025``) goes;
* a value is split into names at ``;``, ``|``, ``/`` between words, " and ", "&", "und",
  "y", "et", "e", "og", "и" and ``,``; a part that is a role ("AP Auto Writer", "Staff
  reporter", "Co-Founder"), a credential ("PhD", "MS, RD") or an outlet ("NJ Advance Media for
  NJ.com", "CNN Business") goes, so only names remain; a role written after a name of two
  words or more without a separator goes ("Rachel MacDonald Writer");
* a name is at most :data:`MAX_NAME_WORDS` words; a value with no person's name is kept whole
  (an organisation) when it is that short;
* when a page names a person, values that name only an organisation (a news agency, "Staff",
  a name with a corporate word such as "Media", "News", "Foundation" or ".com", the site's own
  name, with or without a leading "The") go: see :func:`drop_organisations`; a source naming
  only user names of the site's publishing system (``andrew.keaveney``, see
  :func:`is_account_name`) yields, as one naming only organisations does, to a later source
  naming a person.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from typing import Final
from urllib.parse import urlsplit

from .dates import MONTH_NAMES, WEEKDAY_NAMES

__all__ = [
    "MAX_NAME_WORDS",
    "split_names",
    "is_organisation",
    "is_account_name",
    "drop_organisations",
    "name_key",
    "site_keys",
]

#: Most words in one person's name.
MAX_NAME_WORDS: Final = 6

_EMAIL: Final = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_URL: Final = re.compile(r"(?:https?://|www\.)\S+", re.IGNORECASE)
_BRACKETS: Final = re.compile(r"\([^)]*\)|\[[^\]]*\]")
_LABEL: Final = re.compile(
    r"^(?:[^\W\d_]+\s+by"
    r"|by|from|author(?:s|ed by)?|autor(?:in|en)?|auteur|autore|von|por|par|door|di|da|av|af"
    r"|text|texto|tekst|testo|redaktion|текст|автор|автори|文|作者|记者|撰文|著者|記者)"
    r"\s*(?:[:/|\-–—]|\s|$)\s*",
    re.IGNORECASE,
)
_CREDIT: Final = re.compile(
    r"^(?:photos?|fotos?|images?|bild(?:er)?|video|illustrations?|grafik|graphics?)\b"
    r"\s*(?:[:/]|by\b)"
    r"|^(?:(?:medically\s+)?reviewed|fact[-\s]?checked)\s+by\b",
    re.IGNORECASE,
)
#: A reviewer's credit after the author's name in one value ("Ana Lima, DVM. Reviewed by Bo
#: Chen"): the value's names end before it.
_LATER_CREDIT: Final = re.compile(
    r"[\s.,;:|·•]+(?:(?:medically\s+)?reviewed|fact[-\s]?checked)\s+by\b", re.IGNORECASE
)
#: The labels of an author box's links ("More about this author", "Full bio", "View more
#: posts"), of a site's account links ("Sign in") and of a comment form's fields ("Name *"):
#: no names.
_LINK_LABEL: Final = re.compile(
    r"^(?:more\s+(?:about|from|by)|read\s+more|full\s+bio|about\s+(?:the\s+)?author"
    r"|learn\s+(?:more\s+)?about|view\s+(?:all\s+|more\s+)?(?:posts|articles|stories)"
    r"|sign\s+(?:in|up)|log\s*in|(?:name|e-?mail|website)\s*\*)(?!\w)",
    re.IGNORECASE,
)
#: The first word starting with a digit, and what follows it: a date, a time, a reading time
#: (a user name such as ``Pippin06`` holds digits, starts with none).
_FROM_DIGIT: Final = re.compile(r"(?<!\S)\d.*$", re.DOTALL)
#: Words a date shown after a name starts with (a month, a weekday, "Last updated on").
_DATE_WORDS: Final = (
    MONTH_NAMES
    | WEEKDAY_NAMES
    | frozenset(
        {"on", "at", "am", "le", "el", "il", "updated", "last", "published", "posted", "reviewed",
         "modified", "aktualisiert", "veröffentlicht"}
    )
)  # fmt: skip
_CALENDAR_WORDS: Final = MONTH_NAMES | WEEKDAY_NAMES
_TRAILING_WORD: Final = re.compile(r"[\s»|•·:,.\-–—]*(\w+)\W*$")
_SEPARATORS: Final = re.compile(
    r"\s*(?:[;|]|\s/\s|,?\s+(?:and|&|und|y|et|e|og|и|и)\s+|&|,)\s*", re.IGNORECASE
)
_DOMAIN: Final = re.compile(
    r"\w\.(?:com|org|net|de|at|ch|fr|es|it|uk|us|ru|jp|cn|in|au|ca|co|io)\b"
)
_KEY_WORD: Final = re.compile(r"\w+")
_WORD: Final = re.compile(r"[^\W\d_][\w'’.-]*")
#: Words of a role, an outlet or an organisation (lower case), never of a person's name.
_ROLE_WORDS: Final = frozenset(
    [
        "writer",
        "writers",
        "reporter",
        "reporters",
        "editor",
        "editors",
        "correspondent",
        "correspondents",
        "staff",
        "contributor",
        "contributors",
        "contributing",
        "columnist",
        "journalist",
        "journalists",
        "producer",
        "photographer",
        "photographers",
        "team",
        "desk",
        "bureau",
        "senior",
        "chief",
        "managing",
        "deputy",
        "associate",
        "assistant",
        "political",
        "business",
        "sports",
        "news",
        "newsroom",
        "media",
        "press",
        "wire",
        "wires",
        "service",
        "agency",
        "agencies",
        "online",
        "digital",
        "magazine",
        "daily",
        "times",
        "post",
        "herald",
        "tribune",
        "journal",
        "gazette",
        "group",
        "inc",
        "foundation",
        "clinic",
        "university",
        "institute",
        "association",
        "society",
        "council",
        "hospital",
        "academy",
        "stiftung",
        "verlag",
        "ltd",
        "llc",
        "gmbh",
        "ag",
        "company",
        "corporation",
        "redaktion",
        "redakteur",
        "redakteurin",
        "korrespondent",
        "korrespondentin",
        "mitarbeiter",
        "autor",
        "autorin",
        "agentur",
        "nachrichten",
        "presse",
        "journaliste",
        "rédaction",
        "redaccion",
        "redacción",
        "redazione",
        "periodista",
        "corresponsal",
        "correspondant",
        "agence",
        "agencia",
        "editorial",
        "guest",
        "special",
        "for",
        "founder",
        "co-founder",
        "cofounder",
        "director",
        "manager",
        "president",
        "ceo",
        "cto",
        "cfo",
        "coo",
        "cmo",
        "officer",
        "expert",
        "specialist",
        "analyst",
        "consultant",
        "strategist",
        "educator",
        "educators",
        "marketing",
        "admin",
        "administrator",
        "moderator",
        "owner",
        "veterinarian",
    ]
)
#: Role words of a person (not of an organisation: "Team", "Desk", "Press"), lower case.
_PERSON_ROLES: Final = frozenset(
    ("writer", "reporter", "correspondent", "columnist", "journalist", "contributor",
     "contributing", "producer", "photographer", "senior", "chief", "founder", "co-founder",
     "cofounder", "director", "manager", "president", "ceo", "cto", "cfo", "coo", "cmo",
     "officer", "specialist", "analyst", "consultant", "strategist", "educator", "owner",
     "admin", "administrator", "moderator", "veterinarian")
)  # fmt: skip
_CREDENTIALS: Final = frozenset(
    [
        "phd",
        "md",
        "ms",
        "ma",
        "mba",
        "mph",
        "rd",
        "rn",
        "dds",
        "jr",
        "sr",
        "cfa",
        "cpa",
        "esq",
        "bsc",
        "msc",
        "llm",
        "mfa",
        "dr",
        "prof",
    ]
)
_AGENCIES: Final = frozenset(
    [
        "ap",
        "afp",
        "dpa",
        "reuters",
        "apa",
        "sda",
        "kna",
        "epd",
        "ansa",
        "efe",
        "upi",
        "pa",
        "xinhua",
        "tass",
        "ria",
        "bloomberg",
    ]
)


#: Words a person's name does not start or hold before a role (lower case).
_NOT_NAMES: Final = _AGENCIES | {"the"}


def _strip(value: str) -> str:
    """``value`` without e-mails, URLs, brackets and leading labels."""
    text = _EMAIL.sub(" ", _URL.sub(" ", _BRACKETS.sub(" ", value)))
    text = " ".join(text.split()).strip(" ,;:|-–—/")
    for _ in range(3):
        stripped = _LABEL.sub("", text, count=1).strip(" ,;:|-–—/")
        if stripped == text:
            break
        text = stripped
    return text


def _without_date(part: str) -> str:
    """``part`` without a date (or a reading time) shown after the name: cut before its first
    word starting with a digit, then without the date's words before it (``Luke Kim December 17``,
    ``Craig McCarthy Last updated on 17 December``, ``Ana » Tue Aug 27``)."""
    cut = _FROM_DIGIT.search(part)
    if cut is None:
        return part
    text = part[: cut.start()]
    while (word := _TRAILING_WORD.search(text)) is not None and word[1].lower() in _DATE_WORDS:
        text = text[: word.start()]
    return text.strip(" ,;:|-–—/»•·")


def _words(part: str) -> list[str]:
    return _WORD.findall(part)


def _only_date_words(part: str) -> bool:
    """Whether ``part`` is only month and weekday names (``Sat``, ``Tue Aug``): a date's
    words left when its digits were cut, no name."""
    words = _words(part)
    return bool(words) and all(word.lower().strip(".") in _CALENDAR_WORDS for word in words)


def _is_role(part: str) -> bool:
    """A role or an outlet: any role word, or a domain name."""
    lowered = [word.lower().strip(".") for word in _words(part)]
    return any(word in _ROLE_WORDS for word in lowered) or bool(_DOMAIN.search(part))


def _without_role(part: str) -> str:
    """``part`` cut before its first word of a person's role (:data:`_PERSON_ROLES`) when two
    or three capitalised words come before it, none a role word, an agency or "The", and it
    names no domain (a name, then the role without a separator: ``Rachel MacDonald Writer``,
    ``Keith Barry Senior Autos Reporter``; ``The Diggs Team`` is an organisation)."""
    if _DOMAIN.search(part):
        return part  # an outlet ("NJ Advance Media for NJ.com"): no name in it
    words = part.split()
    for index, word in enumerate(words):
        lowered = [w.lower().strip(".") for w in _words(word)]
        if lowered and all(w in _ROLE_WORDS for w in lowered):
            name = words[:index]
            person = all(w[:1].isupper() and w.lower() not in _NOT_NAMES for w in name)
            cut = 2 <= len(name) <= 3 and person and all(w in _PERSON_ROLES for w in lowered)
            return " ".join(name) if cut else part
    return part


def _is_credential(part: str) -> bool:
    """Credentials only: known abbreviations, or short upper-case words (``MS``, ``E-RYT``)."""
    words = _words(part)
    return bool(words) and all(
        word.replace(".", "").lower() in _CREDENTIALS
        or (word.isupper() and len(word.replace("-", "")) <= 5)
        for word in words
    )


def _is_name(part: str, first: bool) -> bool:
    """A person's name: a few words, no digit (not a date), no role, and (after the first part)
    no credentials."""
    words = _words(part)
    return (
        0 < len(words) <= MAX_NAME_WORDS
        and not any(character.isdigit() for character in part)
        and not _is_role(part)
        and (first or not _is_credential(part))
    )


def split_names(value: str) -> list[str]:
    """The person names in one author value (see the module docstring)."""
    text = _strip(value)
    if not text or _CREDIT.match(value.lstrip()) or _CREDIT.match(text):
        return []
    later_credit = _LATER_CREDIT.search(text)
    text = text[: later_credit.start()] if later_credit is not None else text
    dated = [_without_date(part) for part in _SEPARATORS.split(text)]
    parts = [_without_role(_strip(part)) for part in dated if not _CREDIT.match(part)]
    parts = [part for part in parts if part and not _only_date_words(part)]
    parts = [part for part in parts if not _LINK_LABEL.match(part)]
    names = [part for index, part in enumerate(parts) if _is_name(part, index == 0)]
    if names:
        return names
    # No part looks like a person: keep the whole value if it is short (an organisation); a
    # value that was only a date or a reading time holds nothing.
    if not parts:
        return []
    whole = parts[0] if len(parts) == 1 else text
    return [whole] if 0 < len(_words(whole)) <= MAX_NAME_WORDS else []


def name_key(text: str) -> str:
    """``text`` compared as a name: case-folded, without spaces and punctuation."""
    return "".join(_KEY_WORD.findall(text.casefold()))


def site_keys(names: Iterable[str], url: str | None) -> set[str]:
    """Keys (:func:`name_key`) of what names the site: ``names`` (its ``og:site_name`` and the
    like) and the labels of the URL's host (``www`` and the top-level domain aside)."""
    keys = {name_key(name) for name in names}
    try:
        host = (urlsplit(url).hostname or "") if url else ""
    except ValueError:  # a malformed host
        host = ""
    keys.update(label for label in host.split(".")[:-1] if label != "www")
    keys.discard("")
    return keys


def is_organisation(name: str, sites: Collection[str] = ()) -> bool:
    """Whether ``name`` names an organisation rather than a person (see the module docstring);
    ``sites``: the keys of the site's names (:func:`site_keys`), an organisation too."""
    lowered = [word.lower().strip(".") for word in _words(name)]
    if not lowered or name_key(name) in sites:
        return True
    if lowered[0] == "the" and len(lowered) > 1 and name_key(name.split(None, 1)[-1]) in sites:
        return True  # "The Commercial Appeal" at commercialappeal.com
    if len(lowered) == 1 and (lowered[0] in _AGENCIES or name.isupper()):
        return True
    return any(word in _ROLE_WORDS for word in lowered) or bool(_DOMAIN.search(name))


#: A user name of a site's publishing system rather than a person's written name: words in
#: lower case joined by ``.`` or ``_`` (``andrew.keaveney``, ``matt_brooks``), or a first name
#: with its last name's initial glued on (``KatieS``).
_ACCOUNT_NAME: Final = re.compile(r"[a-z]+(?:[._][a-z]+)+|[A-Z][a-z]+[A-Z]")


def is_account_name(name: str) -> bool:
    """Whether ``name`` is a user name of the site's publishing system (:data:`_ACCOUNT_NAME`),
    the login of whoever posted the page rather than the author's name as the page writes it."""
    return _ACCOUNT_NAME.fullmatch(name) is not None


def drop_organisations(names: Iterable[str], sites: Collection[str] = ()) -> list[str]:
    """``names`` without organisations when at least one person is named."""
    listed = list(names)
    people = [name for name in listed if not is_organisation(name, sites)]
    return people if people else listed
