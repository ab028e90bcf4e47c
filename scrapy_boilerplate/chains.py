"""The built-in named extractors (registered on first use of the registry)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .classifiers import CANOLA_RULES, DENSITY_RULES, NUM_WORDS_RULES
from .extractors import register_extractor
from .filters import Filter
from .filters.basic import MarkEverythingContent, MinWordsFilter
from .filters.fusion import (
    BlockProximityFusion,
    SimpleBlockFusionProcessor,
    SplitParagraphBlocksFilter,
)
from .filters.heuristics import (
    DocumentTitleMatchClassifier,
    IgnoreBlocksAfterContentFilter,
    ListAtEndFilter,
    TerminatingBlocksFinder,
    TrailingHeadlineToBoilerplateFilter,
)
from .filters.selection import (
    ARTICLE_EXPAND_MIN_WORDS,
    BoilerplateBlockFilter,
    ExpandTitleToContentFilter,
    KeepLargestBlockFilter,
    LargeBlockSameTagLevelToContentFilter,
    MinClauseWordsFilter,
)
from .options import Option

__all__: list[str] = []


def _keep_everything(options: Mapping[str, Any]) -> Sequence[Filter]:
    return [MarkEverythingContent()]


def _numwords(options: Mapping[str, Any]) -> Sequence[Filter]:
    return [NUM_WORDS_RULES]


def _density(options: Mapping[str, Any]) -> Sequence[Filter]:
    return [DENSITY_RULES]


def _canola(options: Mapping[str, Any]) -> Sequence[Filter]:
    return [CANOLA_RULES]


register_extractor("keep-everything", _keep_everything, description="every block is content")
register_extractor("numwords", _numwords, description="Algorithm 2 (number-of-words tree) alone")
register_extractor("density", _density, description="Algorithm 1 (densitometric tree) alone")
register_extractor("canola", _canola, description="the reference's Canola classifier")


def _boilerpipe_article(options: Mapping[str, Any]) -> Sequence[Filter]:
    """The reference ArticleExtractor 1.3 chain (spec §4), in order."""
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


def _boilerpipe_article_12(options: Mapping[str, Any]) -> Sequence[Filter]:
    """The reference ArticleExtractor 1.2 chain (spec §4)."""
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


def _article_sentences(options: Mapping[str, Any]) -> Sequence[Filter]:
    return [
        *_boilerpipe_article(options),
        SplitParagraphBlocksFilter(),
        MinClauseWordsFilter(5, accept_without_delimiter=False),
    ]


def _default(options: Mapping[str, Any]) -> Sequence[Filter]:
    # The proximity fusion is a no-op here (nothing is content yet); kept as in the reference (Q2).
    return [SimpleBlockFusionProcessor(), BlockProximityFusion(1, False, False), DENSITY_RULES]


def _largest_content(options: Mapping[str, Any]) -> Sequence[Filter]:
    return [
        NUM_WORDS_RULES,
        BlockProximityFusion(1, content_only=False, same_level=False),
        KeepLargestBlockFilter(expand=False, min_words=0),
    ]


def _keep_everything_min_words(options: Mapping[str, Any]) -> Sequence[Filter]:
    min_words = MinWordsFilter(options["min_words"])
    return [SimpleBlockFusionProcessor(), MarkEverythingContent(), min_words]


register_extractor(
    "boilerpipe-article", _boilerpipe_article, description="the reference ArticleExtractor 1.3"
)
register_extractor(
    "boilerpipe-article-1.2", _boilerpipe_article_12, description="reference ArticleExtractor 1.2"
)
register_extractor(
    "article-sentences",
    _article_sentences,
    description="the reference ArticleSentencesExtractor: 1.3 article, whole clauses only",
)
register_extractor(
    "default", _default, description="the reference DefaultExtractor: density fusion + Algorithm 1"
)
register_extractor(
    "largest-content",
    _largest_content,
    description="the reference LargestContentExtractor: Algorithm 2, largest fused block",
)
register_extractor(
    "keep-everything-min-words",
    _keep_everything_min_words,
    options=(Option("min_words", int, 10, "minimum words of a kept (density-fused) block", 0),),
    description="the reference KeepEverythingWithMinKWordsExtractor",
)
