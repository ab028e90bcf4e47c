"""Features from what the page says about itself: its JSON-LD ``articleBody``, its
``og:description`` / ``description`` meta and its headline.

Rules: words are lower-cased ``\\w+`` runs. A block's overlap with a reference text is the share
of its words found in that text's word set, or -1 when the page has no such text (so a model
can tell "absent" from "no overlap").
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from typing import Any, Final

from ..model.document import TextBlock
from ..page.declarations import Declarations

__all__ = [
    "METADATA_FEATURES",
    "PageTexts",
    "page_texts",
    "word_set",
    "overlap",
    "metadata_features",
    "covers_headline",
]

#: Names of :func:`metadata_features`' values, in order.
METADATA_FEATURES: Final = (
    "jsonld_body_overlap",
    "description_overlap",
    "title_overlap",
    "title_block_offset",
    "after_title",
)
_WORD: Final = re.compile(r"\w+")
# <meta> tags that hold a description: by property, by name.
_DESCRIPTION_PROPERTIES: Final = frozenset({"og:description"})
_DESCRIPTION_NAMES: Final = frozenset({"description", "og:description"})
#: Longest JSON-LD script read (characters); bigger ones are skipped.
MAX_JSON_LD_CHARS: Final = 2_000_000
#: The offset feature when the page has no title block (and the cap of offsets).
NO_TITLE_OFFSET: Final = 1000.0
#: A block is the title block when this share of its words is in the headline and vice versa.
MIN_TITLE_MATCH: Final = 0.8


def word_set(text: str) -> frozenset[str]:
    """The lower-cased words of ``text``."""
    return frozenset(_WORD.findall(text.lower()))


def overlap(words: Sequence[str], reference: frozenset[str] | None) -> float:
    """Share of ``words`` in ``reference``; -1 when there is no reference, 0 without words."""
    if reference is None:
        return -1.0
    if not words:
        return 0.0
    return sum(map(reference.__contains__, words)) / len(words)


class PageTexts:
    """The word sets a page declares: JSON-LD ``articleBody``, description, headline."""

    __slots__ = ("article_body", "description", "headline")

    def __init__(
        self,
        article_body: frozenset[str] | None,
        description: frozenset[str] | None,
        headline: frozenset[str] | None,
    ) -> None:
        self.article_body = article_body
        self.description = description
        self.headline = headline


def _json_values(data: Any, key: str) -> Iterator[str]:
    """Every string value of ``key`` anywhere in a JSON document (iterative)."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            value = item.get(key)
            if isinstance(value, str):
                yield value
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _article_body(declared: Declarations) -> str:
    bodies: list[str] = []
    for script in declared.json_ld:
        raw = script.text or ""
        if "articleBody" not in raw or len(raw) > MAX_JSON_LD_CHARS:
            continue
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            continue
        bodies.extend(_json_values(data, "articleBody"))
    return " ".join(bodies)


def page_texts(declared: Declarations | None, headline: str | None) -> PageTexts:
    """Read the page's declared texts (None for each one the page lacks; ``declared`` is None
    for a document without a tree)."""
    if declared is None:
        return PageTexts(None, None, word_set(headline) if headline else None)
    body = _article_body(declared)
    description = " ".join(declared.meta_contents(_DESCRIPTION_PROPERTIES, _DESCRIPTION_NAMES))
    return PageTexts(
        word_set(body) or None,
        word_set(description) or None,
        word_set(headline) or None if headline else None,
    )


def _title_block(words: Sequence[list[str]], headline: frozenset[str] | None) -> int | None:
    """Index of the first block that holds the headline (:data:`MIN_TITLE_MATCH` both ways)."""
    if not headline:
        return None
    for index, block_words in enumerate(words):
        if not block_words or len(block_words) > 3 * len(headline) + 5:
            continue
        if overlap(block_words, headline) >= MIN_TITLE_MATCH and covers_headline(
            block_words, headline
        ):
            return index
    return None


def covers_headline(words: Sequence[str], headline: frozenset[str]) -> bool:
    """True when ``words`` hold at least :data:`MIN_TITLE_MATCH` of the (non-empty) headline's
    distinct words."""
    present = set(words)
    found = sum(1 for word in headline if word in present)
    return found / len(headline) >= MIN_TITLE_MATCH


def metadata_features(blocks: Sequence[TextBlock], texts: PageTexts) -> list[list[float]]:
    """One row per block (see :data:`METADATA_FEATURES`).

    ``title_block_offset`` is the block's index minus the title block's, clipped to
    ±:data:`NO_TITLE_OFFSET` (:data:`NO_TITLE_OFFSET` without a title block); ``after_title`` is
    1 for blocks after the title block.
    """
    words = [_WORD.findall(block.text.lower()) for block in blocks]
    title_index = _title_block(words, texts.headline)
    rows = []
    for index, block_words in enumerate(words):
        if title_index is None:
            offset, after = NO_TITLE_OFFSET, 0.0
        else:
            offset = max(-NO_TITLE_OFFSET, min(NO_TITLE_OFFSET, float(index - title_index)))
            after = 1.0 if index > title_index else 0.0
        rows.append(
            [
                overlap(block_words, texts.article_body),
                overlap(block_words, texts.description),
                overlap(block_words, texts.headline),
                offset,
                after,
            ]
        )
    return rows
