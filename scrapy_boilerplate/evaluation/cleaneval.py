"""CLEANEVAL 2007 formats and Stefan Evert's CleanEval measure.

**Gold / output format**: a first line ``URL: ...``, then segments, each starting with
``<p>`` (paragraph), ``<h>`` (heading) or ``<l>`` (list item) at the start of a line; text
without a marker continues the segment before it (:func:`cleaneval_segments`).
:func:`~scrapy_boilerplate.output.cleaneval.cleaneval_document` writes an extraction in it.

**Evert's measure** (``cleaneval.py`` v1.0, 2008, as our spec describes it; the official
``cleaneval.prl`` is not available): both texts lose the ``URL:`` line, control characters
become spaces, a line break goes before each ``<p>``, ``<h>``, ``<l>`` tag, and the text is
split at whitespace, so tags are tokens. ``difflib.SequenceMatcher`` (no junk heuristic)
aligns gold and prediction; a ``replace`` counts as a deletion plus an insertion. Word
precision / recall = tokens in ``equal`` regions / predicted / gold tokens (tags included);
tag precision / recall = tag tokens in ``equal`` regions / predicted / gold tag tokens.
*Text-only* scores remove the tags from both sides first. Scores are averaged over files
(:class:`EvertTotals`); a file with an empty side has precision (or recall) 1 when both sides
are empty and 0 otherwise.
"""

from __future__ import annotations

import difflib
import re
import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

from ..output.cleaneval import SEGMENT_TAGS, cleaneval_document

__all__ = [
    "SEGMENT_TAGS",
    "cleaneval_segments",
    "cleaneval_document",
    "evert_tokens",
    "EvertCounts",
    "evert_counts",
    "EvertTotals",
]

_MARKER = re.compile(r"^\s*<([phl])>\s*", re.IGNORECASE)
_ANY_TAG = re.compile(r"<([phl])>", re.IGNORECASE)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_TAG_TOKENS: Final = frozenset(SEGMENT_TAGS.values())


def cleaneval_segments(raw: str) -> list[tuple[str, str]]:
    """The ``(code, text)`` segments of a CleanEval gold or output file (``code`` in ``p h
    l``; text whitespace-collapsed; a file without any marker is one ``p``)."""
    lines = raw.splitlines()
    if lines and lines[0].startswith("URL:"):
        lines = lines[1:]
    segments: list[tuple[str, list[str]]] = []
    for line in lines:
        marker = _MARKER.match(line)
        if marker is not None:
            segments.append((marker.group(1).lower(), []))
            line = line[marker.end() :]
        elif not segments:
            segments.append(("p", []))
        if line.strip():
            segments[-1][1].append(" ".join(line.split()))
    return [(code, " ".join(parts)) for code, parts in segments if parts]


def evert_tokens(text: str, tags: bool = True) -> list[str]:
    """The tokens Evert's measure compares (module docstring); ``tags=False`` drops the
    segment tags (text-only)."""
    lines = text.splitlines()
    if lines and lines[0].startswith("URL:"):
        lines = lines[1:]
    body = _CONTROL.sub(" ", "\n".join(lines))
    body = _ANY_TAG.sub(lambda m: f"\n<{m.group(1).lower()}> ", body)
    tokens = body.split()
    return tokens if tags else [token for token in tokens if token not in _TAG_TOKENS]


@dataclass(frozen=True)
class EvertCounts:
    """One file's counts: tokens (tags included) and tag tokens, matched and on each side."""

    matched: int
    predicted: int
    gold: int
    matched_tags: int = 0
    predicted_tags: int = 0
    gold_tags: int = 0

    @staticmethod
    def _ratio(part: int, whole: int, empty: bool) -> float:
        return part / whole if whole else float(empty)

    @property
    def precision(self) -> float:
        return self._ratio(self.matched, self.predicted, self.gold == 0)

    @property
    def recall(self) -> float:
        return self._ratio(self.matched, self.gold, self.predicted == 0)

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def tag_precision(self) -> float:
        return self._ratio(self.matched_tags, self.predicted_tags, self.gold_tags == 0)

    @property
    def tag_recall(self) -> float:
        return self._ratio(self.matched_tags, self.gold_tags, self.predicted_tags == 0)

    @property
    def tag_f1(self) -> float:
        p, r = self.tag_precision, self.tag_recall
        return 2 * p * r / (p + r) if p + r else 0.0


def evert_counts(gold: str, predicted: str, tags: bool = True) -> EvertCounts:
    """Evert's counts of one file (``tags=False``: text-only)."""
    gold_tokens = evert_tokens(gold, tags)
    predicted_tokens = evert_tokens(predicted, tags)
    matcher = difflib.SequenceMatcher(None, gold_tokens, predicted_tokens, autojunk=False)
    matched = matched_tags = 0
    for start, _, size in matcher.get_matching_blocks():
        matched += size
        matched_tags += sum(
            1 for token in gold_tokens[start : start + size] if token in _TAG_TOKENS
        )
    return EvertCounts(
        matched,
        len(predicted_tokens),
        len(gold_tokens),
        matched_tags,
        sum(1 for token in predicted_tokens if token in _TAG_TOKENS),
        sum(1 for token in gold_tokens if token in _TAG_TOKENS),
    )


@dataclass
class EvertTotals:
    """Scores averaged over files."""

    files: list[EvertCounts] = field(default_factory=list)

    def add(self, counts: EvertCounts) -> None:
        self.files.append(counts)

    def extend(self, counts: Iterable[EvertCounts]) -> None:
        self.files.extend(counts)

    def mean(self, name: str) -> float:
        """The mean over files of the :class:`EvertCounts` property ``name`` (0 for none)."""
        return statistics.fmean(getattr(c, name) for c in self.files) if self.files else 0.0
