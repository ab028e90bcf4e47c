"""Victor's training labels from gold text aligned to blocks (no hand-labelled blocks exist).

Gold comes as segments ``(code, text)`` with ``code`` in ``h p l``: from CleanEval gold
(:func:`~scrapy_boilerplate.evaluation.cleaneval.cleaneval_segments`) or from WCXB's
``main_content_markdown`` (:func:`markdown_segments`: a ``#`` line is ``h``, a ``-``, ``*``,
``+`` or ``1.`` item ``l``, every other non-empty line or run of lines ``p``; table rows are one
``p`` each; links, images and emphasis lose their markup).

Alignment: gold and block texts become tokens (NFKC, case-folded, leading and trailing
punctuation stripped, empty tokens dropped); ``difflib.SequenceMatcher`` (no junk heuristic)
aligns the two sequences. A segment *starts* in the block holding its first matched token.
A block's label:

* no tokens: ``c`` if it is glued to a content block, else ``o``;
* at least :data:`MIN_MATCHED` of its tokens matched: the code of a segment starting in it,
  else ``c`` (``p`` when the previous block is ``o``);
* otherwise ``o``.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Sequence
from typing import Final

__all__ = ["MIN_MATCHED", "alignment_tokens", "markdown_segments", "aligned_labels"]

#: Share of a block's tokens that must be aligned to gold for the block to be content.
MIN_MATCHED: Final = 0.5
_EDGE = re.compile(r"^[\W_]+|[\W_]+$")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+")
_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_EMPHASIS = re.compile(r"(\*{1,3}|_{2,3}|`+)")
_QUOTE = re.compile(r"^\s*>\s?")


def alignment_tokens(text: str) -> list[str]:
    """The tokens alignment compares (module docstring)."""
    tokens = []
    for raw in unicodedata.normalize("NFKC", text).casefold().split():
        token = _EDGE.sub("", raw)
        if token:
            tokens.append(token)
    return tokens


def _plain(line: str) -> str:
    return _EMPHASIS.sub("", _LINK.sub(r"\1", _QUOTE.sub("", line))).strip()


def markdown_segments(markdown: str) -> list[tuple[str, str]]:
    """The ``(code, text)`` segments of WCXB's ``main_content_markdown``."""
    segments: list[tuple[str, str]] = []
    paragraph: list[str] = []

    def close() -> None:
        if paragraph:
            segments.append(("p", " ".join(paragraph)))
            paragraph.clear()

    for line in markdown.splitlines():
        if not line.strip() or _TABLE_RULE.match(line):
            close()
            continue
        if _HEADING.match(line):
            close()
            segments.append(("h", _plain(_HEADING.sub("", line))))
        elif _ITEM.match(line):
            close()
            segments.append(("l", _plain(_ITEM.sub("", line))))
        elif line.lstrip().startswith("|"):
            close()
            segments.append(("p", _plain(line.replace("|", " "))))
        else:
            paragraph.append(_plain(line))
    close()
    return [(code, text) for code, text in segments if text]


def aligned_labels(
    texts: Sequence[str], glued: Sequence[bool], segments: Sequence[tuple[str, str]]
) -> list[str]:
    """One label code per block (``h p l c o``) by the module's alignment rule."""
    gold: list[str] = []
    gold_segment: list[int] = []
    for number, (_, text) in enumerate(segments):
        tokens = alignment_tokens(text)
        gold += tokens
        gold_segment += [number] * len(tokens)
    ours: list[str] = []
    owner: list[int] = []
    sizes = []
    for index, text in enumerate(texts):
        tokens = alignment_tokens(text)
        ours += tokens
        owner += [index] * len(tokens)
        sizes.append(len(tokens))
    matched = [0] * len(texts)
    starts: dict[int, str] = {}
    seen_segments: set[int] = set()
    matcher = difflib.SequenceMatcher(None, ours, gold, autojunk=False)
    for mine, theirs, size in matcher.get_matching_blocks():
        for k in range(size):
            block = owner[mine + k]
            matched[block] += 1
            segment = gold_segment[theirs + k]
            if segment not in seen_segments:
                seen_segments.add(segment)
                starts.setdefault(block, segments[segment][0])
    labels: list[str] = []
    for index in range(len(texts)):
        previous = labels[-1] if labels else "o"
        if not sizes[index]:
            labels.append("c" if glued[index] and previous != "o" else "o")
        elif matched[index] >= MIN_MATCHED * sizes[index]:
            labels.append(starts.get(index, "p" if previous == "o" else "c"))
        else:
            labels.append("o")
    return labels
