"""The built-in named extractors: the reference boilerpipe chains, the paper's single
classifiers and the product default ``article`` (see ``docs/extractors.md``).

Citations "reference §N" and "Q<n>" point to ``docs/reference-quirks.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..classifiers.rules import CANOLA_RULES, DENSITY_RULES, NUM_WORDS_RULES
from ..filters import Filter
from ..filters.basic import FillContentGapsFilter, MarkEverythingContent, MinWordsFilter
from ..filters.fusion import (
    BlockProximityFusion,
    SimpleBlockFusionProcessor,
    SplitParagraphBlocksFilter,
)
from ..filters.heuristics import (
    DocumentTitleMatchClassifier,
    IgnoreBlocksAfterContentFilter,
    ListAtEndFilter,
    TerminatingBlocksFinder,
    TrailingHeadlineToBoilerplateFilter,
)
from ..filters.selection import (
    ARTICLE_EXPAND_MIN_WORDS,
    BoilerplateBlockFilter,
    ExpandTitleToContentFilter,
    KeepLargestBlockFilter,
    LargeBlockSameTagLevelToContentFilter,
    MinClauseWordsFilter,
)
from ..filters.tree import AncestorGroupingFilter
from ..model.context import ExtractionContext
from ..model.options import Option
from .base import ExtractorSpec

__all__ = ["BUILTIN_EXTRACTORS", "ARTICLE_OPTIONS", "ARTICLE_CLASSIFIERS"]


def _keep_everything(options: Mapping[str, Any], context: ExtractionContext) -> Sequence[Filter]:
    return [MarkEverythingContent()]


def _numwords(options: Mapping[str, Any], context: ExtractionContext) -> Sequence[Filter]:
    return [NUM_WORDS_RULES]


def _density(options: Mapping[str, Any], context: ExtractionContext) -> Sequence[Filter]:
    return [DENSITY_RULES]


def _canola(options: Mapping[str, Any], context: ExtractionContext) -> Sequence[Filter]:
    return [CANOLA_RULES]


def _boilerpipe_article(options: Mapping[str, Any], context: ExtractionContext) -> Sequence[Filter]:
    """The reference ArticleExtractor 1.3 chain (reference §4), in order."""
    return [
        TerminatingBlocksFinder(),
        DocumentTitleMatchClassifier(),
        NUM_WORDS_RULES,
        IgnoreBlocksAfterContentFilter(),
        TrailingHeadlineToBoilerplateFilter(),
        BlockProximityFusion(1, content_only=False, same_level=False),
        BoilerplateBlockFilter(keep_title=True),
        BlockProximityFusion(1, content_only=True, same_level=True),
        KeepLargestBlockFilter(expand=True, min_words=ARTICLE_EXPAND_MIN_WORDS),
        ExpandTitleToContentFilter(),
        LargeBlockSameTagLevelToContentFilter(),
        ListAtEndFilter(),
    ]


def _boilerpipe_article_12(
    options: Mapping[str, Any], context: ExtractionContext
) -> Sequence[Filter]:
    """The reference ArticleExtractor 1.2 chain (reference §4)."""
    return [
        TerminatingBlocksFinder(version="1.2"),
        DocumentTitleMatchClassifier(version="1.2"),
        NUM_WORDS_RULES,
        IgnoreBlocksAfterContentFilter(),
        BlockProximityFusion(1, content_only=False, same_level=False),
        BoilerplateBlockFilter(keep_title=False),
        BlockProximityFusion(1, content_only=True, same_level=False),
        KeepLargestBlockFilter(expand=False),
        ExpandTitleToContentFilter(),
    ]


def _article_sentences(options: Mapping[str, Any], context: ExtractionContext) -> Sequence[Filter]:
    return [
        *_boilerpipe_article(options, context),
        SplitParagraphBlocksFilter(),
        MinClauseWordsFilter(5, accept_without_delimiter=False),
    ]


def _default(options: Mapping[str, Any], context: ExtractionContext) -> Sequence[Filter]:
    # The proximity fusion is a no-op here (nothing is content yet); kept as in the reference (Q2).
    return [SimpleBlockFusionProcessor(), BlockProximityFusion(1, False, False), DENSITY_RULES]


def _largest_content(options: Mapping[str, Any], context: ExtractionContext) -> Sequence[Filter]:
    return [
        NUM_WORDS_RULES,
        BlockProximityFusion(1, content_only=False, same_level=False),
        KeepLargestBlockFilter(expand=False, min_words=0),
    ]


def _keep_everything_min_words(
    options: Mapping[str, Any], context: ExtractionContext
) -> Sequence[Filter]:
    min_words = MinWordsFilter(options["min_words"])
    return [SimpleBlockFusionProcessor(), MarkEverythingContent(), min_words]


#: Block classifiers the ``article`` extractor can start from.
ARTICLE_CLASSIFIERS: dict[str, Filter] = {"numwords": NUM_WORDS_RULES, "density": DENSITY_RULES}

ARTICLE_OPTIONS = (
    Option(
        "end_of_text",
        bool,
        True,
        "drop everything after an end-of-text marker (comments, 'add your comment', ...)",
    ),
    Option(
        "classifier",
        str,
        "numwords",
        "block classifier: numwords (Algorithm 2) or density (Algorithm 1)",
        choices=tuple(ARTICLE_CLASSIFIERS),
    ),
    Option(
        "ancestor_depth", int, 2, "grandparent filter depth (1 = parent ... 5); 0 disables it", 0, 5
    ),
    Option(
        "min_share",
        float,
        0.5,
        "widen the winning group until it holds this share (0-1) of the selected text; 0 = paper",
        0.0,
        1.0,
    ),
    Option(
        "fill_gaps", bool, True, "restore link-free blocks between the first and last content block"
    ),
)


def _article(options: Mapping[str, Any], context: ExtractionContext) -> Sequence[Filter]:
    chain: list[Filter] = [ARTICLE_CLASSIFIERS[options["classifier"]]]
    if options["end_of_text"]:
        chain += [TerminatingBlocksFinder(), IgnoreBlocksAfterContentFilter()]
    if options["ancestor_depth"]:
        chain.append(AncestorGroupingFilter(options["ancestor_depth"], options["min_share"]))
    if options["fill_gaps"]:
        chain.append(FillContentGapsFilter())
    return chain


#: Every built-in extractor, as the registry starts with them.
BUILTIN_EXTRACTORS: tuple[ExtractorSpec, ...] = (
    ExtractorSpec("keep-everything", _keep_everything, description="every block is content"),
    ExtractorSpec("numwords", _numwords, description="Algorithm 2 (number-of-words tree) alone"),
    ExtractorSpec("density", _density, description="Algorithm 1 (densitometric tree) alone"),
    ExtractorSpec("canola", _canola, description="the reference's Canola classifier"),
    ExtractorSpec(
        "boilerpipe-article", _boilerpipe_article, description="the reference ArticleExtractor 1.3"
    ),
    ExtractorSpec(
        "boilerpipe-article-1.2",
        _boilerpipe_article_12,
        description="reference ArticleExtractor 1.2",
    ),
    ExtractorSpec(
        "article-sentences",
        _article_sentences,
        description="the reference ArticleSentencesExtractor: 1.3 article, whole clauses only",
    ),
    ExtractorSpec(
        "default",
        _default,
        description="the reference DefaultExtractor: density fusion + Algorithm 1",
    ),
    ExtractorSpec(
        "largest-content",
        _largest_content,
        description="the reference LargestContentExtractor: Algorithm 2, largest fused block",
    ),
    ExtractorSpec(
        "keep-everything-min-words",
        _keep_everything_min_words,
        options=(Option("min_words", int, 10, "minimum words of a kept (density-fused) block", 0),),
        description="the reference KeepEverythingWithMinKWordsExtractor",
    ),
    ExtractorSpec(
        "article",
        _article,
        options=ARTICLE_OPTIONS,
        description="product default: word-count classification, grandparent filter, gap filling",
    ),
)
