"""The page's headline: the article title without the site name glued on.

Rules, in order: an ``<h1>`` (or ``og:title``) whose words are mostly in the ``<title>`` and
that holds at least half the words of the ``<title>`` without its site name (so a site-logo
``<h1>`` such as "Salon" never wins); else the ``<title>`` with its site-name part removed (the
longest part when split on ``|``, `` - ``, `` — ``, `` · ``, ``»`` or `` :: ``); else the first
``<h1>``.
"""

from __future__ import annotations

import re

from ..model.document import Element, TextDocument
from ..page.declarations import Declarations, document_declarations
from ..page.tags import string_value

__all__ = ["find_title", "strip_site_name"]

_SEPARATORS = re.compile(r"\s+[|\-–—·»:]{1,2}\s+|\s*[|»]\s*")
_SPACES = re.compile(r"\s+")
_WORD = re.compile(r"\w+")
#: Share of a candidate's words that must appear in the <title> for it to be taken as headline.
MIN_TITLE_OVERLAP = 0.6
#: Share of the words of the <title> without its site name that a candidate must hold.
MIN_TITLE_COVERAGE = 0.5
MAX_HEADLINE_CHARS = 300


def _normalise(text: str) -> str:
    return _SPACES.sub(" ", text).strip()


def strip_site_name(title: str) -> str:
    """Return the longest separator-delimited part of a ``<title>`` (the site name goes)."""
    parts = [part.strip() for part in _SEPARATORS.split(title) if part.strip()]
    if len(parts) < 2:
        return title.strip()
    return max(parts, key=len)


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def _share_in(words: set[str], other: set[str]) -> float:
    """The share of ``words`` that are in ``other`` (0 without words)."""
    return len(words & other) / len(words) if words else 0.0


# <meta> tags that hold a title: by property, by name.
_META_TITLE_PROPERTIES = frozenset({"og:title"})
_META_TITLE_NAMES = frozenset({"og:title", "twitter:title"})


def _first_text(values: object) -> str | None:
    for value in values if isinstance(values, list) else ():
        text = _normalise(str(value))
        if text:
            return text
    return None


def _meta_title(root: Element, declared: Declarations) -> str | None:
    """The first non-empty ``og:title``/``twitter:title``, the ones inside ``<head>`` first."""
    head = root.find("head")
    found = None
    if head is not None:
        found = _first_text(declared.meta_contents(_META_TITLE_PROPERTIES, _META_TITLE_NAMES, head))
    if found is None:
        found = _first_text(declared.meta_contents(_META_TITLE_PROPERTIES, _META_TITLE_NAMES))
    return found


def find_title(doc: TextDocument) -> str | None:
    """Return the document's headline, or None if the page has neither ``<title>`` nor ``<h1>``.

    Computed once per document (kept in ``doc.memo`` with the ``title`` and ``root`` it came
    from; a document whose ``title`` or ``root`` is replaced gets a new answer)."""
    memo = doc.memo.get("find_title")
    if memo is not None and memo[0] is doc.root and memo[1] == doc.title:
        headline: str | None = memo[2]
        return headline
    headline = _find_title(doc)
    doc.memo["find_title"] = (doc.root, doc.title, headline)
    return headline


def _find_title(doc: TextDocument) -> str | None:
    title = _normalise(doc.title or "")
    headings: list[str] = []
    declared = document_declarations(doc)
    if doc.root is not None and declared is not None:
        headings = [_normalise(string_value(h)) for h in declared.headings]
        headings = [h for h in headings if h and len(h) <= MAX_HEADLINE_CHARS]
        meta = _meta_title(doc.root, declared)
        if meta:
            headings.append(strip_site_name(meta) if title else meta)
    if title:
        main = strip_site_name(title)
        title_words, main_words = _words(title), _words(main)
        best, best_overlap = None, -1.0
        for heading in headings:
            words = _words(heading)
            overlap = _share_in(words, title_words)
            if (
                overlap > best_overlap  # the first of equals wins
                and overlap >= MIN_TITLE_OVERLAP
                and _share_in(main_words, words) >= MIN_TITLE_COVERAGE
            ):
                best, best_overlap = heading, overlap
        return best if best is not None else main
    return headings[0] if headings else None
