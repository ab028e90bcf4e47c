"""The title ranker: which of a page's title candidates is its headline.

A page offers its headline in several places: its ``<h1>`` headings, ``og:title``,
``twitter:title``, a JSON-LD ``headline``, the ``<title>`` and that title's parts (split at its
separators, with and without the site name). Each distinct text (compared case-folded, NFKC,
spaces collapsed: :func:`title_key`) is one :class:`TitleCandidate` holding every source that
offers it; the rule chain's own choice (:func:`~..extractors.title.article_title`'s rules) is a
source too. :func:`candidate_features` turns each candidate into a row of
:data:`TITLE_FEATURE_NAMES` (its sources, where it stands among the ``<h1>`` headings and the
``<title>``'s parts, its words, and how much of it the other sources hold), and a boosted tree
ensemble (:mod:`.gbdt`) scores the rows: the best-scored candidate is the title. Candidates
that name the site are never offered (the caller leaves them out).

The shipped model (:data:`SHIPPED_TITLE_MODEL`) is trained on the gold titles of WCXB-dev
(CC-BY-4.0) and fundus (MIT) with ``scrapy-boilerplate train wcxb-dev fundus --extractor
title``; its cross-validated accuracy (folds grouped by domain) is in ``docs/benchmarks.md``.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from array import array
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Final

from .gbdt import (
    TreeEnsemble,
    model_from_json,
    model_to_json,
    predict_margins,
    read_json_file,
    write_json_file,
)

__all__ = [
    "TITLE_SOURCES",
    "TITLE_FEATURE_NAMES",
    "SHIPPED_TITLE_MODEL",
    "TitleCandidate",
    "TitlePage",
    "add_candidate",
    "candidate_features",
    "best_candidate",
    "title_key",
    "load_title_model",
    "dump_title_model",
]

#: Where a candidate comes from, in the order a text's first source gives its spelling.
TITLE_SOURCES: Final = (
    "rule",  # the rule chain's choice
    "h1",  # an <h1> as a reader sees it
    "h1_stripped",  # an <h1> without end parts naming the site
    "og",  # og:title
    "og_stripped",  # og:title without the site name
    "twitter",  # twitter:title
    "jsonld",  # a JSON-LD "headline"
    "title",  # the whole <title>
    "title_stripped",  # the <title> without the site name (the rules' reading)
    "title_head",  # the <title> before its last separator
    "title_part",  # one part of the <title> split at its separators
)
_SOURCE_INDEX: Final = {name: index for index, name in enumerate(TITLE_SOURCES)}
#: Names of :func:`candidate_features`' values, in order.
TITLE_FEATURE_NAMES: Final = (
    *(f"from_{name}" for name in TITLE_SOURCES),
    "sources",
    "h1_rank",
    "h1_count",
    "part_rank",
    "part_rank_from_end",
    "part_count",
    "words",
    "chars",
    "share_in_title",
    "title_share_in_it",
    "share_in_og",
    "og_share_in_it",
    "share_in_first_h1",
    "first_h1_share_in_it",
    "has_separator",
    "upper_share",
    "ends_with_question",
    "candidates",
    "page_has_h1",
    "page_has_og",
    "page_has_jsonld",
    "title_starts_with_it",
    "title_ends_with_it",
    "typographic_quotes",
    "in_other_candidates",
    "is_a_block",
    "first_h1_ends_with_it",
    "after_a_kicker_element",
)
#: File name of the shipped title model inside ``scrapy_boilerplate/classifiers/models``.
SHIPPED_TITLE_MODEL: Final = "titles-v1.json.gz"
#: The ``format`` name and ``version`` of title model files.
FORMAT: Final = "scrapy-boilerplate-titles"
VERSION: Final = 1
#: Most candidates read per source kind (``<h1>`` headings, JSON-LD headlines, title parts).
MAX_PER_SOURCE: Final = 4
_WORD: Final = re.compile(r"\w+")
_SPACES: Final = re.compile(r"\s+")
_SEPARATOR: Final = re.compile(r"\s[|\-–—·»:•/]{1,2}\s|[|»•]")
_TYPOGRAPHIC_QUOTES: Final = frozenset("‘’“”„«»")


def title_key(text: str) -> str:
    """``text`` as titles are compared: NFKC, case-folded, whitespace runs one space, stripped."""
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", text)).strip().casefold()


@dataclass
class TitleCandidate:
    """One distinct title text of a page and what offers it (``h1_rank``, ``part_rank``: the
    first ``<h1>`` / ``<title>`` part it is, -1 for none)."""

    text: str
    sources: set[str] = field(default_factory=set)
    h1_rank: int = -1
    part_rank: int = -1


@dataclass
class TitlePage:
    """A page's title candidates in the order they were found (keyed by :func:`title_key`),
    with what the features compare them to."""

    title: str = ""
    og_title: str = ""
    first_h1: str = ""
    h1_count: int = 0
    part_count: int = 0
    has_jsonld: bool = False
    #: The candidates' keys (:func:`title_key`) that are the text of a block of the page.
    block_keys: frozenset[str] = frozenset()
    #: Whether the ``og:title`` is an ``<h1>`` after a kicker element of its own.
    og_after_kicker: bool = False
    candidates: dict[str, TitleCandidate] = field(default_factory=dict)


def add_candidate(
    page: TitlePage, text: str, source: str, *, h1_rank: int = -1, part_rank: int = -1
) -> None:
    """Add ``text`` (spaces collapsed; nothing if empty) to ``page`` as offered by ``source``
    (one of :data:`TITLE_SOURCES`); a text already there gains the source."""
    text = _SPACES.sub(" ", text).strip()
    if not text:
        return
    candidate = page.candidates.setdefault(title_key(text), TitleCandidate(text))
    candidate.sources.add(source)
    if h1_rank >= 0 and candidate.h1_rank < 0:
        candidate.h1_rank = h1_rank
    if part_rank >= 0 and candidate.part_rank < 0:
        candidate.part_rank = part_rank


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def _share(words: set[str], other: set[str] | None) -> float:
    """Share of ``words`` in ``other``; -1 when there is no ``other``, 0 without words."""
    if other is None:
        return -1.0
    return len(words & other) / len(words) if words else 0.0


def candidate_features(page: TitlePage) -> list[list[float]]:
    """One row of :data:`TITLE_FEATURE_NAMES` per candidate of ``page``, in its order."""
    title = _words(page.title) if page.title else None
    og = _words(page.og_title) if page.og_title else None
    h1 = _words(page.first_h1) if page.first_h1 else None
    count = len(page.candidates)
    title_key_ = title_key(page.title)
    h1_key = title_key(page.first_h1)
    keys = list(page.candidates)
    rows = []
    for key, candidate in page.candidates.items():
        text = candidate.text
        words = _words(text)
        letters = sum(map(str.isalpha, text))
        flags = [0.0] * len(TITLE_SOURCES)
        for source in candidate.sources:
            flags[_SOURCE_INDEX[source]] = 1.0
        part = candidate.part_rank
        rows.append(
            [
                *flags,
                float(len(candidate.sources)),
                float(candidate.h1_rank),
                float(page.h1_count),
                float(part),
                float(page.part_count - 1 - part) if part >= 0 else -1.0,
                float(page.part_count),
                float(len(_WORD.findall(text))),
                float(len(text)),
                _share(words, title),
                _share(title, words) if title is not None else -1.0,
                _share(words, og),
                _share(og, words) if og is not None else -1.0,
                _share(words, h1),
                _share(h1, words) if h1 is not None else -1.0,
                1.0 if _SEPARATOR.search(text) else 0.0,
                sum(map(str.isupper, filter(str.isalpha, text))) / letters if letters else 0.0,
                1.0 if text.endswith("?") else 0.0,
                float(count),
                1.0 if page.h1_count else 0.0,
                1.0 if page.og_title else 0.0,
                1.0 if page.has_jsonld else 0.0,
                1.0 if title_key_.startswith(key) else 0.0,
                1.0 if title_key_.endswith(key) else 0.0,
                1.0 if _TYPOGRAPHIC_QUOTES.intersection(text) else 0.0,
                float(sum(key in other for other in keys if other != key)),
                1.0 if key in page.block_keys else 0.0,
                1.0 if h1_key != key and h1_key.endswith(key) else 0.0,
                1.0 if page.og_after_kicker and "og" in candidate.sources else 0.0,
            ]
        )
    return rows


def best_candidate(model: TreeEnsemble, page: TitlePage) -> TitleCandidate | None:
    """The candidate ``model`` scores highest (the first of equals), None for a page without
    candidates."""
    if not page.candidates:
        return None
    rows = candidate_features(page)
    values = array("d", [value for row in rows for value in row])
    margins = predict_margins(model, values, len(rows))
    best = max(range(len(margins)), key=margins.__getitem__)
    return list(page.candidates.values())[best]


# -- model files ---------------------------------------------------------------------------


def dump_title_model(model: TreeEnsemble, path: str | Path) -> None:
    """Write ``model`` (its metadata with it) as JSON, gzip-compressed when the name ends with
    ``.gz``."""
    document = {"format": FORMAT, "version": VERSION, "model": model_to_json(model)}
    write_json_file(document, path)


def _from_json(document: Any) -> TreeEnsemble:
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ValueError(f"not a title model file: its format is not {FORMAT!r}")
    if document.get("version") != VERSION:
        raise ValueError(f"title model version {document.get('version')!r}, expected {VERSION}")
    model = model_from_json(document.get("model"))
    if model.feature_names != TITLE_FEATURE_NAMES:
        raise ValueError(
            "title model was trained on other title features than this version computes; "
            "retrain it with `scrapy-boilerplate train --extractor title`"
        )
    return model


@functools.lru_cache(maxsize=4)
def load_title_model(path: str = "") -> TreeEnsemble:
    """The title model at ``path`` (the shipped one for ``""``), loaded once per process;
    ``ValueError`` for a file that is not a valid one."""
    if path:
        data = Path(path).read_bytes()
    else:
        source = resources.files(__package__).joinpath("models").joinpath(SHIPPED_TITLE_MODEL)
        data = source.read_bytes()
    return _from_json(read_json_file(data, "title model file"))
