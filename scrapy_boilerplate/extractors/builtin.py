"""The built-in named extractors: the reference boilerpipe chains, the paper's single
classifiers, the product default ``article`` (a learned block classifier, also named
``article-learned``) and the rule chain ``article-rules`` (the previous default, see
``docs/extractors.md``).

Citations "reference §N" and "Q<n>" point to ``docs/reference-quirks.md``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, NamedTuple

from ..classifiers.crf import load_victor_model
from ..classifiers.learned import (
    SHIPPED_ARTICLE_MODEL,
    SHIPPED_MODEL,
    LearnedBlockClassifier,
    load_block_model,
)
from ..classifiers.page_type import PageTypeClassifier, load_page_type_model
from ..classifiers.rules import CANOLA_RULES, DENSITY_RULES, NUM_WORDS_RULES
from ..classifiers.template import WEIGHTINGS, PageTemplateFilter, load_template_model
from ..classifiers.victor import VictorClassifier
from ..filters import Filter
from ..filters.basic import (
    ChosenChain,
    FillContentGapsFilter,
    MarkEverythingContent,
    MinWordsFilter,
)
from ..filters.comment_sections import CommentSectionFilter
from ..filters.conventions import NewsConventionsFilter
from ..filters.dialogs import DialogFilter
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
from ..filters.regions import (
    CommentRegionFilter,
    DropHeadlineFilter,
    KeepCaptionsFilter,
    KeepCommentsFilter,
    LeadFilter,
    lead_candidates,
)
from ..filters.scores import ScoreGapFilter, ScoreGroupFilter
from ..filters.selection import (
    ARTICLE_EXPAND_MIN_WORDS,
    BoilerplateBlockFilter,
    ExpandTitleToContentFilter,
    KeepLargestBlockFilter,
    LargeBlockSameTagLevelToContentFilter,
    MinClauseWordsFilter,
)
from ..filters.tree import AncestorGroupingFilter
from ..model.context import NO_CONTEXT, ExtractionContext
from ..model.document import TextBlock, TextDocument
from ..model.options import Option
from ..site.filter import SiteTemplateElements, SiteTemplateFilter
from ..site.templates import templates_of
from .base import ExtractorSpec
from .title import find_title

__all__ = [
    "BUILTIN_EXTRACTORS",
    "ARTICLE_RULES_OPTIONS",
    "ARTICLE_LEARNED_OPTIONS",
    "ARTICLE_CLASSIFIERS",
    "OPERATING_POINTS",
    "OperatingPoint",
    "PAGE_MODE_FROM",
    "OWN_POINT_FROM",
    "auto_operating_point",
    "VICTOR_OPTIONS",
    "PAGE_TEMPLATE_OPTIONS",
]


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


#: The ``site_templates`` option of the article extractors.
SITE_TEMPLATES_OPTION = Option(
    "site_templates",
    bool,
    False,
    "drop blocks inside nodes the site repeats on its pages (templates the extraction context "
    "carries, e.g. learnt during a crawl)",
)


def _site_templates(
    options: Mapping[str, Any],
    context: ExtractionContext,
    penalty: float = 1.0,
    threshold: float = 0.5,
    exempt: Callable[[TextDocument], Iterable[TextBlock]] | None = None,
) -> list[Filter]:
    """The site-template filter when the option is on and the context carries templates."""
    templates = templates_of(context) if options["site_templates"] else None
    if templates is None:
        return []
    return [
        SiteTemplateFilter(templates.hashes, penalty=penalty, threshold=threshold, exempt=exempt)
    ]


def _lead_of(doc: TextDocument) -> list[TextBlock]:
    """The blocks that may be ``doc``'s lead under its headline (:func:`lead_candidates`)."""
    return lead_candidates(doc, find_title(doc))


#: Block classifiers the ``article`` extractor can start from.
ARTICLE_CLASSIFIERS: dict[str, Filter] = {"numwords": NUM_WORDS_RULES, "density": DENSITY_RULES}

ARTICLE_RULES_OPTIONS = (
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
    SITE_TEMPLATES_OPTION,
)


def _article_rules(options: Mapping[str, Any], context: ExtractionContext) -> Sequence[Filter]:
    chain: list[Filter] = [ARTICLE_CLASSIFIERS[options["classifier"]]]
    chain += _site_templates(options, context)
    if options["end_of_text"]:
        chain += [TerminatingBlocksFinder(), IgnoreBlocksAfterContentFilter()]
    if options["ancestor_depth"]:
        chain.append(AncestorGroupingFilter(options["ancestor_depth"], options["min_share"]))
    if options["fill_gaps"]:
        chain.append(FillContentGapsFilter())
    return chain


class OperatingPoint(NamedTuple):
    """One ``mode`` of ``article-learned``: its shipped model file, the model-metadata keys of
    its threshold and gap score with their fallbacks, and the key of its main-region rule
    (absent or None: no such rule, as in models trained before it existed)."""

    shipped: str
    threshold_key: str
    threshold: float
    gap_key: str
    gap_score: float
    group_key: str


#: Operating points of ``article-learned``: ``article`` keeps the body of articles (with the
#: shipped model of article pages); ``page`` keeps more of non-article pages (listings,
#: documentation, products; with the shipped model of every page type); ``forum`` keeps a
#: thread's posts and replies (the same model, a stricter threshold, no main-region rule: the
#: posts are spread over the page).
OPERATING_POINTS: dict[str, OperatingPoint] = {
    "article": OperatingPoint(SHIPPED_ARTICLE_MODEL, "threshold", 0.5, "gap_score", 0.2, "group"),
    "page": OperatingPoint(
        SHIPPED_MODEL, "page_threshold", 0.35, "page_gap_score", 0.15, "page_group"
    ),
    "forum": OperatingPoint(
        SHIPPED_MODEL, "forum_threshold", 0.5, "forum_gap_score", 0.1, "forum_group"
    ),
}

#: The operating point of pages that are not articles, reader comments kept only with
#: ``mode=page`` (a listing's or service page's comments are not its content).
PAGE_MODE = "page"
#: The operating point of forum threads: there reader comments (the replies) are the page's
#: content, so they stay in the text (and in the result's comments).
FORUM_MODE = "forum"
#: ``mode`` value that picks the operating point from the page type.
AUTO_MODE = "auto"
#: In ``auto`` mode, the page-type confidence (0-1) from which a page that is not an article
#: is decoded at the ``page`` operating point (when the page-type model does not say).
PAGE_MODE_FROM = 0.7
#: In ``auto`` mode, the page types decoded at an operating point of their own (of the same
#: name), with the page-type confidence (0-1) from which they are; below it, at the
#: ``article`` point. A forum thread taken for an article loses its replies, a costlier error
#: than an article's at the forum point, and a news page is seldom taken for a forum (chosen
#: on out-of-fold page types).
OWN_POINT_FROM: Mapping[str, float] = MappingProxyType({"forum": 0.55})


def auto_operating_point(
    page_type: str | None, confidence: float | None, page_from: float = PAGE_MODE_FROM
) -> str:
    """The operating point ``auto`` mode decodes a page of this type and confidence at: the
    type's own point from its bar in :data:`OWN_POINT_FROM`; ``page`` for another type that is
    not an article, from ``page_from``; else ``article``."""
    confidence = confidence or 0.0
    if page_type is None or page_type == "article":
        return "article"
    if page_type in OWN_POINT_FROM:
        return page_type if confidence >= OWN_POINT_FROM[page_type] else "article"
    return PAGE_MODE if confidence >= page_from else "article"


#: Score taken off a learned block inside a site template (``template_penalty``).
TEMPLATE_PENALTY = 0.55

ARTICLE_LEARNED_OPTIONS = (
    Option(
        "mode",
        str,
        AUTO_MODE,
        "operating point: article (the body of an article), page (listings, products, docs), "
        "forum (a thread's posts and replies) or auto (chosen by the page type)",
        choices=(*OPERATING_POINTS, AUTO_MODE),
    ),
    Option(
        "model", str, "", "path of a block model from `scrapy-boilerplate train` (''=the mode's)"
    ),
    Option(
        "threshold",
        float,
        0.0,
        "score (0-1) a block needs to be content; 0 = the model's tuned value for the mode",
        0.0,
        1.0,
    ),
    Option("fill_gaps", bool, True, "blocks with a moderate score between content blocks join"),
    Option(
        "main_region",
        bool,
        True,
        "drop content outside the page region holding most of the score (when the model has it)",
    ),
    Option("keep_captions", bool, False, "keep image captions inside the article"),
    Option(
        "keep_comments",
        bool,
        False,
        "keep reader comments in the text too (they are always in the result's comments)",
    ),
    SITE_TEMPLATES_OPTION,
    Option(
        "template_penalty",
        float,
        TEMPLATE_PENALTY,
        "with site templates: score (0-1) taken off a block inside a template before the "
        "threshold; 1 = drop every such block",
        0.0,
        1.0,
    ),
)
#: Longest run of blocks (in blocks) that gap filling bridges.
MAX_SCORE_GAP = 3


def _article_learned(options: Mapping[str, Any], context: ExtractionContext) -> Sequence[Filter]:
    """The chain of ``article``: the page type, then the operating point's filters. Without
    site templates it depends on the options only, and is built once per distinct options (its
    filters keep no state between pages)."""
    if options["site_templates"] and templates_of(context) is not None:
        return _article_learned_chain(options, context)
    key = tuple(sorted(options.items()))
    try:
        return _article_learned_of(key)
    except TypeError:  # an option value that is not hashable: built for this page
        return _article_learned_chain(options, context)


@functools.lru_cache(maxsize=32)
def _article_learned_of(options: tuple[tuple[str, Any], ...]) -> tuple[Filter, ...]:
    return tuple(_article_learned_chain(dict(options), NO_CONTEXT))


def _article_learned_chain(
    options: Mapping[str, Any], context: ExtractionContext
) -> Sequence[Filter]:
    page_types = load_page_type_model()
    classify = PageTypeClassifier(page_types)
    if options["mode"] != AUTO_MODE:
        return [classify, *_operating_point_chain(options["mode"], options, context)]
    # every point's chain is built here: a missing or unreadable model file fails when the
    # extractor is built, not on the first page of another point
    chains = {
        mode: _operating_point_chain(mode, options, context, in_auto=True)
        for mode in OPERATING_POINTS
    }
    page_from = float(page_types.metadata.get("page_mode_from", PAGE_MODE_FROM))

    def choose(doc: TextDocument) -> Sequence[Filter]:
        return chains[auto_operating_point(doc.page_type, doc.page_type_confidence, page_from)]

    return [classify, ChosenChain(choose)]


def _operating_point_chain(
    mode: str,
    options: Mapping[str, Any],
    context: ExtractionContext,
    *,
    in_auto: bool = False,
) -> list[Filter]:
    """The filters of ``article`` at the operating point ``mode`` (after the page type); the
    ``forum`` point keeps reader comments in the text, the ``page`` point too unless chosen by
    ``auto`` mode (``keep_comments`` keeps them everywhere)."""
    point = OPERATING_POINTS[mode]
    model = load_block_model(options["model"], point.shipped)
    threshold = options["threshold"] or float(
        model.metadata.get(point.threshold_key, point.threshold)
    )
    chain: list[Filter] = [LearnedBlockClassifier(model, find_title, threshold)]
    chain += _site_templates(options, context, options["template_penalty"], threshold, _lead_of)
    if options["fill_gaps"]:
        gap_score = float(model.metadata.get(point.gap_key, point.gap_score))
        chain.append(ScoreGapFilter(min(gap_score, threshold), MAX_SCORE_GAP))
    chain += [DialogFilter(), CommentRegionFilter(), CommentSectionFilter()]
    chain.append(NewsConventionsFilter(keep_captions=options["keep_captions"]))
    group = model.metadata.get(point.group_key)
    if options["main_region"] and group:
        chain.append(
            ScoreGroupFilter(
                int(group["depth"]), float(group["min_share"]), float(group["keep_score"])
            )
        )
        chain.append(LeadFilter(find_title))
    chain.append(DropHeadlineFilter(find_title))
    if options["keep_captions"]:
        chain.append(KeepCaptionsFilter())
    keeps_comments = mode == FORUM_MODE or (mode == PAGE_MODE and not in_auto)
    if options["keep_comments"] or keeps_comments:
        chain.append(KeepCommentsFilter())
    return chain


VICTOR_OPTIONS = (
    Option("model", str, "", "path of a victor model from `scrapy-boilerplate train` (''=shipped)"),
)


def _victor(options: Mapping[str, Any], context: ExtractionContext) -> Sequence[Filter]:
    """Victor (Marek 2007): its own block split, CRF labels, segments (needs python-crfsuite)."""
    return [VictorClassifier(load_victor_model(options["model"]))]


PAGE_TEMPLATE_OPTIONS = (
    Option(
        "model", str, "", "path of a template model (`train --extractor page-template`; ''=shipped)"
    ),
    Option(
        "smooth",
        bool,
        True,
        "smooth the node scores over the tree (false: the paper's PageLevel Basic)",
    ),
    Option(
        "c",
        float,
        0.0,
        "penalty multiplier: a segment rooted at node i costs c * page area / area_i; 0 = model's",
        0.0,
        100.0,
    ),
    Option(
        "tau",
        float,
        0.0,
        "templateness (0-1) from which a node is template; 0 = the model's tuned value",
        0.0,
        1.0,
    ),
    Option("levels", int, 64, "score levels of the smoothing (0 = exact: every distinct score)", 0),
    Option(
        "weighting",
        str,
        "words",
        "node weights: words (1 + hidden children + sqrt(words)) or paper (1 + hidden children)",
        choices=WEIGHTINGS,
    ),
    Option(
        "site_templates",
        bool,
        False,
        "raise to 0.95 the templateness of nodes the site repeats on its pages (templates the "
        "extraction context carries, e.g. learnt during a crawl) before smoothing",
    ),
)


def _page_template(options: Mapping[str, Any], context: ExtractionContext) -> Sequence[Filter]:
    model = load_template_model(options["model"])
    smooth = options["smooth"]
    default_tau = model.metadata.get("threshold" if smooth else "basic_threshold", 0.5)
    templates = templates_of(context) if options["site_templates"] else None
    return [
        PageTemplateFilter(
            model,
            c=options["c"] or float(model.metadata.get("c", 0.01)),
            threshold=options["tau"] or float(default_tau),
            levels=options["levels"],
            smooth=smooth,
            weighting=options["weighting"],
            evidence=None if templates is None else SiteTemplateElements(templates.hashes),
        )
    ]


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
        _article_learned,
        options=ARTICLE_LEARNED_OPTIONS,
        description="product default: learned block scores (text, rule decisions, DOM "
        "structure), gap filling, main-region rule",
    ),
    ExtractorSpec(
        "article-learned",
        _article_learned,
        options=ARTICLE_LEARNED_OPTIONS,
        description="the learned chain of `article`, by a name that stays if the default changes",
    ),
    ExtractorSpec(
        "article-rules",
        _article_rules,
        options=ARTICLE_RULES_OPTIONS,
        description="word-count classification, grandparent filter, gap filling (the "
        "previous default `article`)",
    ),
    ExtractorSpec(
        "victor",
        _victor,
        options=VICTOR_OPTIONS,
        own_blocks=True,
        description="Victor: blocks at every tag labelled header/paragraph/list/continuation/"
        "other by a CRF (the [victor] extra)",
    ),
    ExtractorSpec(
        "page-template",
        _page_template,
        options=PAGE_TEMPLATE_OPTIONS,
        description="node templateness (logistic regressions) smoothed over the DOM tree",
    ),
)
