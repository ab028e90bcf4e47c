"""The page's headline: the article title without the site name glued on.

Two readings, each computed once per document:

:func:`find_title` is the reference the chains match blocks against (the headline block, the
learned model's headline features); its rules are those the shipped models were trained with:
an ``<h1>`` (or ``og:title``) whose words are mostly in the ``<title>`` and that holds at least
half the words of the ``<title>`` without its site name (so a site-logo ``<h1>`` such as
"Salon" never wins); else the ``<title>`` with its site-name part removed (the longest part
when split on ``|``, `` - ``, `` — ``, `` · ``, ``»`` or `` :: ``); else the first ``<h1>``.

:func:`article_title` is the title a result reports, in order:

1. the first ``<h1>`` that is not the site name and whose words are at least
   :data:`MIN_H1_SHARE` in the ``<title>`` or ``og:title`` (the visible headline; an SEO
   ``<title>`` often words it differently), without end parts naming the site (``Headline –
   Site``), and without a kicker: an ``<h1>`` that is the ``og:title`` after the text of an
   element of its own (a topic label or a date: ``<h1><span>Kultur</span>: Ehrengast
   …</h1>``) gives the ``og:title``; an ``<h1>`` is the site name when it equals the
   ``og:site_name``/``application-name`` or a label of the page's host name, or when it equals
   the last part of a ``<title>`` split at its separators and no other part is one of those
   (a site-logo ``<h1>`` such as "Salon");
2. else ``og:title`` (``twitter:title``), else the ``<title>``, without the site name: the end
   parts that name the site are removed, else the longest part is kept (parts are split at
   ``|``, `` - ``, `` — ``, `` · ``, ``»``, `` :: `` and ``•``); a title without those that is
   a trail of three parts or more at `` / `` (forum software's ``Subject / Forum / Board``)
   gives its page's part (see :func:`_trail_page`);
3. a page without ``<title>`` and ``og:title`` gives its first ``<h1>``.

A reported ``<h1>`` is read as a reader sees it, a line break (``<br>``, a ``<div>`` ...) being
a space (:func:`~..page.tags.spaced_text`), and loses the pilcrow of a section link
(``Models¶``).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Iterator
from itertools import compress
from operator import attrgetter

from ..classifiers.gbdt import TreeEnsemble
from ..classifiers.titles import (
    MAX_PER_SOURCE,
    TitleCandidate,
    TitlePage,
    add_candidate,
    best_candidate,
    load_title_model,
    title_key,
)
from ..features.metadata import MAX_JSON_LD_CHARS
from ..model.document import Element, TextDocument
from ..page.declarations import Declarations, document_declarations
from ..page.metadata.authors import name_key, site_keys
from ..page.tags import spaced_text, string_value

__all__ = [
    "article_title",
    "choose_title",
    "find_title",
    "rule_title",
    "strip_site_name",
    "title_candidates",
]

_SEPARATORS = re.compile(r"\s+[|\-–—·»:]{1,2}\s+|\s*[|»]\s*")
#: The separators :func:`article_title` splits at: those of :func:`find_title` (which the
#: shipped models were trained with) and the bullet.
_ARTICLE_SEPARATORS = re.compile(r"\s+[|\-–—·»:•]{1,2}\s+|\s*[|»•]\s*")
_SEPARATOR_SPLIT = re.compile(f"({_ARTICLE_SEPARATORS.pattern})")
_SPACES = re.compile(r"\s+")
#: The separator of the parts of a trail title (``Subject / Forum / Board``): a slash between
#: spaces (``GNU/Linux`` is one word).
_TRAIL_SEPARATOR = re.compile(r"\s+/\s+")
#: Fewest parts of a trail title: with two, `` / `` may join two words of one headline
#: ("Black Friday / Cyber Monday").
MIN_TRAIL_PARTS = 3
_WORD = re.compile(r"\w+")
#: Share of a candidate's words that must appear in the <title> for it to be taken as headline.
MIN_TITLE_OVERLAP = 0.6
#: Share of the words of the <title> without its site name that a candidate must hold.
MIN_TITLE_COVERAGE = 0.5
MAX_HEADLINE_CHARS = 300
#: Share of an ``<h1>``'s words that must be in the ``<title>`` or ``og:title`` for
#: :func:`article_title`.
MIN_H1_SHARE = 0.4
#: What a kicker's text loses at its ends before it is compared (spaces and separators).
_KICKER_STRIP = " :-–—|·»"


def _normalise(text: str) -> str:
    return _SPACES.sub(" ", text).strip()


def strip_site_name(title: str) -> str:
    """Return the longest separator-delimited part of a ``<title>`` (the site name goes)."""
    parts = [part.strip() for part in _SEPARATORS.split(title) if part.strip()]
    if len(parts) < 2:
        return title.strip()
    return max(parts, key=len)


def _title_parts(title: str) -> list[str]:
    return [part.strip() for part in _ARTICLE_SEPARATORS.split(title) if part.strip()]


def _site_keys(doc: TextDocument, declared: Declarations) -> set[str]:
    """Keys of what names the site: its ``og:site_name``/``application-name`` and its host's
    labels (read once per document, kept in ``doc.memo`` with the ``root`` and ``url``)."""
    memo = doc.memo.get("site_keys")
    if memo is not None and memo[0] is doc.root and memo[1] == doc.url:
        keys: set[str] = memo[2]
        return keys
    names = declared.meta_contents(_SITE_NAME_PROPERTIES, _SITE_NAME_NAMES)
    keys = site_keys(names, doc.url)
    doc.memo["site_keys"] = (doc.root, doc.url, keys)
    return keys


def _is_site_name(heading: str, parts: list[str], site_keys: set[str]) -> bool:
    """Whether ``heading`` names the site (see the module docstring); ``parts``: the
    ``<title>``'s parts."""
    key = name_key(heading)
    if key in site_keys:
        return True
    keys = [name_key(part) for part in parts]
    return len(keys) > 1 and key == keys[-1] and not site_keys.intersection(keys)


def _without_site_name(title: str, site_keys: set[str]) -> str:
    """``title`` without the end parts that name the site, else its longest part."""
    stripped = _without_site_parts(title, site_keys)
    if stripped != title:
        return stripped
    parts = _title_parts(title)
    if len(parts) > 1:
        return max(parts, key=len)
    return _trail_page(title, site_keys) or title.strip()


def _trail_page(title: str, site_keys: set[str]) -> str | None:
    """The page's own part of a ``title`` that is a trail of at least :data:`MIN_TRAIL_PARTS`
    parts at `` / `` (forum software's ``Subject / Forum / Board``): the first part, or the
    last when the first names the site (a trail from the site down); None for another title."""
    parts = [part.strip() for part in _TRAIL_SEPARATOR.split(title) if part.strip()]
    if len(parts) < MIN_TRAIL_PARTS:
        return None
    return parts[-1] if name_key(parts[0]) in site_keys else parts[0]


def _without_site_parts(text: str, site_keys: set[str]) -> str:
    """``text`` without its end parts (split at separators) that name the site; ``text`` itself
    when none does."""
    pieces = _SEPARATOR_SPLIT.split(text)  # part, separator, part, ...
    keys = [name_key(part) for part in pieces[0::2]]
    first, last = 0, len(keys)
    while last - first > 1 and keys[last - 1] in site_keys:
        last -= 1
    while last - first > 1 and keys[first] in site_keys:
        first += 1
    if (first, last) != (0, len(keys)):
        return "".join(pieces[2 * first : 2 * last - 1]).strip()
    return text


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def _share_in(words: set[str], other: set[str]) -> float:
    """The share of ``words`` that are in ``other`` (0 without words)."""
    return len(words & other) / len(words) if words else 0.0


#: An ``<h1>``'s normalised text and the element.
Heading = tuple[str, Element]

# <meta> tags that hold a title: by property, by name.
_META_TITLE_PROPERTIES = frozenset({"og:title"})
_META_TITLE_NAMES = frozenset({"og:title", "twitter:title"})
# <meta> tags that hold the site's name.
_SITE_NAME_PROPERTIES = frozenset({"og:site_name"})
_SITE_NAME_NAMES = frozenset({"application-name", "og:site_name"})


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
    return _memoised(doc, "find_title", _find_title)


def _memoised(
    doc: TextDocument, key: str, compute: Callable[[TextDocument], str | None]
) -> str | None:
    """``compute(doc)``, kept in ``doc.memo[key]`` with the ``root`` and ``title`` it came from."""
    memo = doc.memo.get(key)
    if memo is not None and memo[0] is doc.root and memo[1] == doc.title:
        headline: str | None = memo[2]
        return headline
    headline = compute(doc)
    doc.memo[key] = (doc.root, doc.title, headline)
    return headline


def _headings_and_meta_title(doc: TextDocument) -> tuple[list[Heading], str | None]:
    """The page's ``<h1>`` headings (texts normalised, non-empty, at most
    :data:`MAX_HEADLINE_CHARS`) and its :func:`_meta_title`, read once per document for both
    readings of the title (kept in ``doc.memo`` with the ``root`` they came from); none without
    a tree."""
    memo = doc.memo.get("title_sources")
    if memo is not None and memo[0] is doc.root:
        found: tuple[list[Heading], str | None] = memo[1]
        return found
    declared = document_declarations(doc)
    found = [], None
    if doc.root is not None and declared is not None:
        headings = [(_normalise(string_value(h)), h) for h in declared.headings]
        headings = [h for h in headings if h[0] and len(h[0]) <= MAX_HEADLINE_CHARS]
        found = headings, _meta_title(doc.root, declared)
    doc.memo["title_sources"] = (doc.root, found)
    return found


def _spaced_headings(doc: TextDocument, found: list[Heading]) -> list[str]:
    """The texts of the headings ``found`` (:func:`_headings_and_meta_title`) as a reader sees
    them: a line break inside an ``<h1>`` separates words (kept in ``doc.memo`` with them)."""
    memo = doc.memo.get("spaced_headings")
    if memo is not None and memo[0] is found:
        spaced: list[str] = memo[1]
        return spaced
    spaced = [_normalise(spaced_text(element)) for _, element in found]
    doc.memo["spaced_headings"] = (found, spaced)
    return spaced


def _find_title(doc: TextDocument) -> str | None:
    title = _normalise(doc.title or "")
    found, meta = _headings_and_meta_title(doc)
    headings = [text for text, _ in found]
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


def article_title(doc: TextDocument) -> str | None:
    """Return the title the result reports (see the module docstring), or None if the page has
    neither ``<title>``, ``og:title`` nor ``<h1>``; computed once per document, as
    :func:`find_title`."""
    return _memoised(doc, "article_title", _article_title)


def _article_title(doc: TextDocument) -> str | None:
    rule = rule_title(doc)
    return choose_title(load_title_model(), title_candidates(doc, rule), rule)


def choose_title(model: TreeEnsemble, page: TitlePage, rule: str | None) -> str | None:
    """The title of a page of candidates ``page`` (:func:`title_candidates`): the candidate
    ``model`` scores highest, unless it is the rules' ``<h1>`` headline ``rule`` cut
    (:func:`_cuts_the_headline`) or the page has fewer than two candidates: then ``rule``."""
    chosen = best_candidate(model, page) if len(page.candidates) > 1 else None
    if chosen is None or rule is None or _cuts_the_headline(page, rule, chosen):
        return rule
    return chosen.text


def _cuts_the_headline(page: TitlePage, rule: str, chosen: TitleCandidate) -> bool:
    """Whether ``chosen`` is the rules' ``<h1>`` headline without words at its start that are
    no element of their own (a kicker element is cut: ``og:title`` after it)."""
    rule_key, chosen_key = title_key(rule), title_key(chosen.text)
    headline = page.candidates.get(rule_key)
    return (
        headline is not None
        and "h1" in headline.sources
        and rule_key != chosen_key
        and rule_key.endswith(chosen_key)
        and not (page.og_after_kicker and "og" in chosen.sources)
    )


def rule_title(doc: TextDocument) -> str | None:
    """The title by the rules of the module docstring alone (the ranker's ``rule`` source)."""
    title = _normalise(doc.title or "")
    declared = document_declarations(doc)
    if doc.root is None or declared is None:
        return strip_site_name(title) if title else None
    found, meta = _headings_and_meta_title(doc)
    # as a reader sees them: a line break inside an <h1> separates words
    headings = _spaced_headings(doc, found)
    if not title and not meta:
        return headings[0] if headings else None
    site_keys = _site_keys(doc, declared)
    parts = _title_parts(title)
    reference = _words(title) | _words(meta or "")
    for heading, (_, element) in zip(headings, found, strict=True):
        if _share_in(_words(heading), reference) >= MIN_H1_SHARE and not _is_site_name(
            heading, parts, site_keys
        ):
            if meta and _kicker_before(heading, meta, element):
                return meta
            return _headline(_without_site_parts(heading, site_keys))
    if not title:
        return meta
    return _without_site_name(meta or title, site_keys)


def _kicker_before(heading: str, meta: str, element: Element) -> bool:
    """Whether ``heading`` (the text of the ``<h1>`` ``element``) is ``meta`` (``og:title``)
    after a kicker: it ends with ``meta`` (case ignored) and what comes before, separators
    (``:``, ``-``, ``|`` ...) stripped, is the text of an element inside the ``<h1>`` (a topic
    label or a date of its own: "Kultur: Ehrengast der Buchmesse ...")."""
    folded, wanted = heading.casefold(), meta.casefold()
    if folded == wanted or not folded.endswith(wanted):
        return False
    kicker = folded[: len(folded) - len(wanted)].strip(_KICKER_STRIP)
    return bool(kicker) and any(
        _normalise(spaced_text(inner)).casefold().strip(_KICKER_STRIP) == kicker
        for inner in element.iterdescendants()
        if isinstance(inner.tag, str)
    )


def _headline(heading: str) -> str:
    """``heading`` without the pilcrow of a section link (``Models¶``, Sphinx's and Django's
    documentation)."""
    return heading.rstrip("¶ ") or heading


# -- candidates of the title ranker ------------------------------------------------------------

#: A JSON-LD ``"headline": "..."`` pair; group 1 is the JSON string.
_JSON_HEADLINE = re.compile(r'"headline"\s*:\s*("(?:[^"\\\n]|\\.)*")')
_TEXT = attrgetter("text")
#: Blocks of at most this many words are compared with the candidates (a visible title).
MAX_BLOCK_WORDS = 40


def title_candidates(doc: TextDocument, rule: str | None) -> TitlePage:
    """The title candidates of ``doc`` for :mod:`~..classifiers.titles` (``rule``: the rules'
    choice, :func:`rule_title`), in this order: the rules' choice, the ``<h1>`` headings (as
    read and without end parts naming the site), ``og:title`` (as is and without the site
    name), ``twitter:title``, JSON-LD headlines, the ``<title>`` (whole, without the site name,
    before its last separator, each part). A text that names the site (its :func:`name_key` is
    one of the site's keys, or :func:`_is_site_name` for a heading) is no candidate; at most
    :data:`~..classifiers.titles.MAX_PER_SOURCE` of each kind are read; meta and JSON-LD texts
    have character references a page escaped twice decoded."""
    page = TitlePage()
    declared = document_declarations(doc)
    if doc.root is None or declared is None:
        if rule:
            add_candidate(page, rule, "rule")
        return page
    title = _normalise(doc.title or "")
    site_keys = _site_keys(doc, declared)

    def offer(text: str, source: str, *, h1_rank: int = -1, part_rank: int = -1) -> None:
        if name_key(text) not in site_keys:
            add_candidate(page, text, source, h1_rank=h1_rank, part_rank=part_rank)

    if rule:
        offer(rule, "rule")
    parts = _title_parts(title)
    found, _ = _headings_and_meta_title(doc)
    headings = _spaced_headings(doc, found)[:MAX_PER_SOURCE]
    page.title, page.h1_count, page.part_count = title, len(found), len(parts)
    page.first_h1 = headings[0] if headings else ""
    for rank, heading in enumerate(headings):
        if not _is_site_name(heading, parts, site_keys):
            offer(heading, "h1", h1_rank=rank)
            offer(_headline(_without_site_parts(heading, site_keys)), "h1_stripped", h1_rank=rank)
    og, twitter = _social_titles(declared)
    page.og_title = og
    page.og_after_kicker = bool(og) and any(
        _kicker_before(text, og, element) for text, element in found[:MAX_PER_SOURCE]
    )
    if og:
        offer(og, "og")
        offer(_without_site_name(og, site_keys), "og_stripped")
    if twitter:
        offer(twitter, "twitter")
    for count, headline in enumerate(_jsonld_headlines(declared.json_ld)):
        if count >= MAX_PER_SOURCE:
            break
        page.has_jsonld = True
        offer(headline, "jsonld")
    if title:
        offer(title, "title")
        offer(_without_site_name(title, site_keys), "title_stripped")
        separators = list(_ARTICLE_SEPARATORS.finditer(title))
        if separators:
            offer(title[: separators[-1].start()], "title_head")
        for rank, part in enumerate(parts[:MAX_PER_SOURCE]):
            offer(part, "title_part", part_rank=rank)
    page.block_keys = _shown_keys(doc, page)
    return page


def _shown_keys(doc: TextDocument, page: TitlePage) -> frozenset[str]:
    """The keys of those candidates of ``page`` that are the text of a block of ``doc`` (of at
    most :data:`MAX_BLOCK_WORDS` words); only a block as long as a candidate's text is keyed
    (block texts have their spaces collapsed, as candidates)."""
    lengths = {len(candidate.text) for candidate in page.candidates.values()}
    as_long = compress(doc.blocks, map(lengths.__contains__, map(len, map(_TEXT, doc.blocks))))
    keys = (title_key(block.text) for block in as_long if block.num_words <= MAX_BLOCK_WORDS)
    return frozenset(key for key in keys if key in page.candidates)


def _social_titles(declared: Declarations) -> tuple[str, str]:
    """The first non-empty ``og:title`` (by ``property`` or ``name``) and ``twitter:title`` (by
    ``name``), spaces collapsed and references escaped twice decoded; "" for a missing one."""
    og = twitter = ""
    for property_, name, content in declared.meta_attributes:
        if not content or (og and twitter):
            continue
        if not og and (property_ == "og:title" or name == "og:title"):
            og = _normalise(_unescaped(content))
        elif not twitter and name == "twitter:title":
            twitter = _normalise(_unescaped(content))
    return og, twitter


def _unescaped(text: str) -> str:
    """``text`` with the character references a page escaped twice decoded (``&amp;#8217;`` in
    the source is ``&#8217;`` in an attribute value: a reader of the site sees ``’``)."""
    return html.unescape(text) if "&" in text and ";" in text else text


def _jsonld_headlines(scripts: tuple[Element, ...]) -> Iterator[str]:
    """The non-empty string ``headline`` values of the JSON-LD scripts, in document order
    (scripts longer than :data:`MAX_JSON_LD_CHARS` are skipped). Read as ``"headline": "..."``
    pairs, not by parsing the scripts: only the string is decoded (a full parse of a page's
    JSON-LD cost more than the rest of the candidates)."""
    for script in scripts:
        raw = script.text or ""
        if '"headline"' not in raw or len(raw) > MAX_JSON_LD_CHARS:
            continue
        for match in _JSON_HEADLINE.finditer(raw):
            try:
                value = json.loads(match.group(1))
            except ValueError:
                continue
            value = _normalise(_unescaped(value))
            if value:
                yield value
