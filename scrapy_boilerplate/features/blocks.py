"""Shallow text features of text blocks (paper §3): the inputs of the block classifiers.

Every block gets the same fixed list of numbers (see :data:`BLOCK_FEATURES`): word statistics
(§3.3), link and text density (§3.3-3.4), its position in the page, and the structural tags
that enclose it (§3.2). A feature row puts side by side the features of the previous block
(``prev_``), the block itself (``curr_``) and the next block (``next_``), the paper's P/C/N
feature sets; missing neighbours at the page edges are all zeros. The "text flow" features
relate the current block to the previous one (Figure 1: quotients and delta).

Units and rules (a *word* is a token holding a letter or digit, :mod:`.tokens`):

* ``avg_word_length``: characters per word; ``avg_sentence_length``: words per sentence, a
  sentence ending at a token that ends with ``.``, ``?``, ``!`` or ``;`` (plus the rest);
* ``start_uppercase_ratio``: share of words whose first letter is uppercase;
  ``all_uppercase_ratio``: share of words with at least one letter and no lowercase letter;
* ``full_stop_ratio``: tokens ending with ``.`` per word;
* ``num_date_tokens``: tokens that are a time (``12:30``, ``9am``, ``a.m.``), a date
  (``2008-01-05``, ``05/01/08``, ``5th``), a year 1900-2099, a capitalised month or weekday
  name (``May``, ``Sat``) or an uppercase time zone (``GMT``);
* ``num_vertical_bars``: ``|`` characters;
* ``absolute_position``: block index from 0; ``relative_position``: index / number of blocks;
* ``in_h1`` … ``in_div``: 1 if the block's innermost block-level element or one of its
  ancestors has that tag; ``in_a``: 1 if the block holds linked words (or sits in an ``<a>``).

Only the standard library is used: rows are lists of floats (``numpy.asarray`` them).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Final

from ..model.document import EMPTY_BLOCK, TextBlock, TextDocument
from ..page.metadata.dates import WEEKDAY_NAMES
from ..page.tokens import is_word, tokenize

__all__ = [
    "FeatureSet",
    "BLOCK_FEATURES",
    "POSITION_FEATURES",
    "FLOW_FEATURES",
    "TAG_FEATURES",
    "TextStats",
    "text_stats",
    "enclosing_tags",
    "block_values",
    "feature_names",
    "block_features",
    "document_features",
]


class FeatureSet(str, Enum):
    """The paper's feature groups: previous (P), current (C) and next (N) block, text flow."""

    PREVIOUS = "prev"
    CURRENT = "curr"
    NEXT = "next"
    #: Relations of the current block to the previous one (quotients, delta).
    FLOW = "flow"


#: Structural tags whose presence around a block is a feature (§3.2).
TAG_FEATURES: Final = ("h1", "h2", "h3", "h4", "h5", "h6", "p", "div", "a")
#: Position features, only given for the current block (a neighbour's position is redundant).
POSITION_FEATURES: Final = ("absolute_position", "relative_position")
#: Features of one block, in row order.
BLOCK_FEATURES: Final = (
    "num_words",
    "avg_word_length",
    "avg_sentence_length",
    "num_start_uppercase",
    "start_uppercase_ratio",
    "num_all_uppercase",
    "all_uppercase_ratio",
    "full_stop_ratio",
    "num_date_tokens",
    "num_vertical_bars",
    "link_density",
    "text_density",
    *POSITION_FEATURES,
    *(f"in_{tag}" for tag in TAG_FEATURES),
)
#: Text flow features: current block relative to the previous one (0 when undefined).
FLOW_FEATURES: Final = ("text_density_quotient", "text_density_delta", "num_words_quotient")

DEFAULT_SETS: Final = (FeatureSet.PREVIOUS, FeatureSet.CURRENT, FeatureSet.NEXT)

_SENTENCE_END: Final = (".", "?", "!", ";")
_MONTHS: Final = frozenset(
    [
        "jan",
        "feb",
        "mar",
        "apr",
        "may",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "january",
        "february",
        "march",
        "april",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ]
)
_WEEKDAYS: Final = WEEKDAY_NAMES
_TIME_ZONES: Final = frozenset(
    [
        "GMT",
        "UTC",
        "BST",
        "EST",
        "EDT",
        "CST",
        "CDT",
        "PST",
        "PDT",
        "CET",
        "CEST",
        "IST",
        "AEST",
        "AEDT",
    ]
)
_MERIDIEMS: Final = frozenset({"a.m", "p.m"})
_DATE_PATTERN: Final = re.compile(
    r"""^(?:
        \d{1,2}:\d{2}(?::\d{2})?(?:am|pm)?        # 12:30, 12:30:05, 9:15pm
      | \d{1,2}(?:am|pm)                          # 9am
      | (?:19|20)\d{2}                            # a year
      | \d{4}-\d{1,2}-\d{1,2}                     # 2008-01-05
      | \d{1,2}[./-]\d{1,2}[./-]\d{2,4}           # 05/01/2008, 5.1.08
      | \d{1,2}(?:st|nd|rd|th)                    # 5th
    )$""",
    re.VERBOSE,
)
_EDGE_PUNCTUATION: Final = "\"'.,!@-:;$?()/[]{}<>\u00ab\u00bb\u201c\u201d\u2018\u2019"


@dataclass(frozen=True, slots=True)
class TextStats:
    """Token counts of one block text (see the module rules)."""

    words: int
    sentences: int
    start_uppercase: int
    all_uppercase: int
    full_stops: int
    date_tokens: int
    vertical_bars: int


def _is_date_token(token: str) -> bool:
    core = token.strip(_EDGE_PUNCTUATION)
    if not core:
        return False
    lower = core.lower()
    if core[0].isupper() and (lower in _MONTHS or lower in _WEEKDAYS):
        return True  # capitalised only: "may", "sat", "sun" are common words
    if core in _TIME_ZONES or lower in _MERIDIEMS:
        return True
    return _DATE_PATTERN.match(lower) is not None


def _first_alnum(token: str) -> str:
    for char in token:
        if char.isalnum():
            return char
    return ""


def text_stats(text: str) -> TextStats:
    """Count words, sentences, capitalised words, full stops, date tokens and ``|`` in ``text``."""
    words = sentences = start_upper = all_upper = full_stops = dates = 0
    open_sentence = False
    for token in tokenize(text):
        if is_word(token):
            words += 1
            open_sentence = True
            if _first_alnum(token).isupper():
                start_upper += 1
            if any(char.isalpha() for char in token) and not any(char.islower() for char in token):
                all_upper += 1
            if _is_date_token(token):
                dates += 1
        if token.endswith(".") and is_word(token):
            full_stops += 1
        if token.endswith(_SENTENCE_END) and open_sentence:
            sentences += 1
            open_sentence = False
    if open_sentence:
        sentences += 1
    return TextStats(
        words=words,
        sentences=sentences,
        start_uppercase=start_upper,
        all_uppercase=all_upper,
        full_stops=full_stops,
        date_tokens=dates,
        vertical_bars=text.count("|"),
    )


def enclosing_tags(block: TextBlock) -> frozenset[str]:
    """The :data:`TAG_FEATURES` tags enclosing ``block`` (its element and that element's ancestors).

    ``a`` is included when the block holds linked words, since ``<a>`` does not split blocks.
    """
    found: set[str] = set()
    element = block.element
    if element is not None:
        for node in (element, *element.iterancestors()):
            tag = node.tag
            if isinstance(tag, str) and tag in TAG_FEATURES:
                found.add(tag)
    if block.num_linked_words > 0:
        found.add("a")
    return frozenset(found)


def _ratio(count: int, total: int) -> float:
    return count / total if total else 0.0


def block_values(block: TextBlock, index: int = 0, count: int = 1) -> list[float]:
    """The :data:`BLOCK_FEATURES` values of ``block``, the ``index``-th of ``count`` blocks."""
    if block is EMPTY_BLOCK or not block.text:
        return [0.0] * len(BLOCK_FEATURES)
    stats = text_stats(block.text)
    words = block.num_words
    tags = enclosing_tags(block)
    return [
        float(words),
        _ratio(block.num_word_chars, words),
        _ratio(stats.words, stats.sentences),
        float(stats.start_uppercase),
        _ratio(stats.start_uppercase, stats.words),
        float(stats.all_uppercase),
        _ratio(stats.all_uppercase, stats.words),
        _ratio(stats.full_stops, stats.words),
        float(stats.date_tokens),
        float(stats.vertical_bars),
        block.link_density,
        block.text_density,
        float(index),
        _ratio(index, count),
        *(1.0 if tag in tags else 0.0 for tag in TAG_FEATURES),
    ]


def _flow_values(prev: Sequence[float], curr: Sequence[float]) -> list[float]:
    td = BLOCK_FEATURES.index("text_density")
    nw = BLOCK_FEATURES.index("num_words")
    return [
        prev[td] / curr[td] if curr[td] else 0.0,
        curr[td] - prev[td],
        prev[nw] / curr[nw] if curr[nw] else 0.0,
    ]


def _base_names(
    sets: Iterable[FeatureSet], features: Sequence[str] | None
) -> list[tuple[FeatureSet, str]]:
    if features is not None:
        unknown = set(features) - set(BLOCK_FEATURES) - set(FLOW_FEATURES)
        if unknown:
            raise ValueError(f"unknown features: {sorted(unknown)}")
    pairs: list[tuple[FeatureSet, str]] = []
    for feature_set in sets:
        feature_set = FeatureSet(feature_set)
        if feature_set is FeatureSet.FLOW:
            base: Sequence[str] = FLOW_FEATURES
        elif feature_set is FeatureSet.CURRENT:
            base = BLOCK_FEATURES
        else:
            base = [name for name in BLOCK_FEATURES if name not in POSITION_FEATURES]
        pairs.extend((feature_set, name) for name in base if features is None or name in features)
    return pairs


def feature_names(
    sets: Iterable[FeatureSet] = DEFAULT_SETS, features: Sequence[str] | None = None
) -> list[str]:
    """Column names of :func:`block_features` rows, e.g. ``curr_num_words``, ``prev_in_p``.

    ``features`` keeps only these base names (of :data:`BLOCK_FEATURES` / :data:`FLOW_FEATURES`).
    """
    return [f"{feature_set.value}_{name}" for feature_set, name in _base_names(sets, features)]


def document_features(doc: TextDocument) -> list[list[float]]:
    """The :data:`BLOCK_FEATURES` values of every block of ``doc``, in block order."""
    count = len(doc.blocks)
    return [block_values(block, index, count) for index, block in enumerate(doc.blocks)]


def block_features(
    doc: TextDocument,
    sets: Iterable[FeatureSet] = DEFAULT_SETS,
    features: Sequence[str] | None = None,
) -> list[list[float]]:
    """One feature row per block of ``doc`` (columns named by :func:`feature_names`).

    ``sets`` picks the P/C/N (and flow) groups, ``features`` the base features; the neighbours
    of the first and last block are empty blocks (all features 0).
    """
    pairs = _base_names(list(sets), features)
    columns = {name: position for position, name in enumerate(BLOCK_FEATURES)}
    flow_columns = {name: position for position, name in enumerate(FLOW_FEATURES)}
    values = document_features(doc)
    empty = [0.0] * len(BLOCK_FEATURES)
    rows: list[list[float]] = []
    for index, curr in enumerate(values):
        prev = values[index - 1] if index > 0 else empty
        nxt = values[index + 1] if index + 1 < len(values) else empty
        flow = _flow_values(prev, curr)
        by_set = {FeatureSet.PREVIOUS: prev, FeatureSet.CURRENT: curr, FeatureSet.NEXT: nxt}
        rows.append(
            [
                flow[flow_columns[name]]
                if feature_set is FeatureSet.FLOW
                else by_set[feature_set][columns[name]]
                for feature_set, name in pairs
            ]
        )
    return rows
