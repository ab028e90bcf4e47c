"""Page-level features: what kind of page a segmented document is (article, listing, forum ...).

One row of floats per page (:data:`PAGE_FEATURE_NAMES`, in that order), from three sources:

* **the blocks**: how much text, in how many blocks, how linked, how concentrated in long
  link-free blocks (an article's body), how much of it sits in list items, table cells and
  headings; and how many short blocks are a post's controls or counters (:data:`POST_CONTROL`:
  ``Reply``, ``Quote``, ``Report``, ``12 replies``, ``#3``, ``回复``, ``2楼`` ...), which every
  post of a forum or Q&A thread repeats;
* **what the page declares**: the ``@type`` values of its JSON-LD (matched by a regular
  expression, not parsed), its ``og:type``, whether it declares a publication time, its number
  of ``<h1>``;
* **its URL**: a date in the path, the path's depth, the number of words in its last segment
  (articles have slugs), and words of the path that name a page kind (``forum``, ``product``,
  ``docs``, ``category`` ...; for threads also the paths forum and Q&A software give them:
  ``/t/`` and ``/d/`` topics, ``viewthread``, ``/comments/``, ``/question/``, ``/status/``).

Everything is read from the document and its memo (the declarations found on the segmentation
walk's way): no walk of the tree is made here.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Final
from urllib.parse import urlsplit

from ..model.document import TextBlock, TextDocument
from ..model.labels import HEADING, LI
from ..page.declarations import Declarations, document_declarations
from ..page.segmentation import compiled_twin

__all__ = [
    "PAGE_FEATURE_NAMES",
    "DECLARED_FEATURES",
    "page_features",
    "page_block_features",
    "page_block_features_pure",
    "page_thread_features",
    "page_thread_features_pure",
    "JSON_LD_KINDS",
    "URL_KINDS",
    "POST_CONTROL",
    "POST_CONTROL_WORDS",
]

#: Words of a JSON-LD ``@type`` (lowercased) that name a page kind.
JSON_LD_KINDS: Final[dict[str, frozenset[str]]] = {
    "article": frozenset(
        {"article", "newsarticle", "blogposting", "reportagenewsarticle", "analysisnewsarticle",
         "opinionnewsarticle", "reviewnewsarticle", "liveblogposting", "techarticle",
         "scholarlyarticle", "report"}
    ),
    "product": frozenset({"product", "offer", "aggregateoffer", "productgroup", "aggregaterating"}),
    "forum": frozenset({"discussionforumposting", "qapage", "question", "answer", "comment"}),
    "collection": frozenset(
        {"itemlist", "collectionpage", "searchresultspage", "offercatalog", "listitem"}
    ),
    "service": frozenset(
        {"organization", "localbusiness", "service", "faqpage", "contactpage", "aboutpage",
         "event", "howto", "recipe", "softwareapplication", "course", "jobposting"}
    ),
}  # fmt: skip
#: Words of a URL path (split on non-letters, lowercased) that name a page kind.
URL_KINDS: Final[dict[str, frozenset[str]]] = {
    "article": frozenset(
        {"news", "article", "articles", "story", "stories", "blog", "post", "posts", "opinion",
         "politics", "sport", "sports", "world", "business", "culture", "html", "htm"}
    ),
    "forum": frozenset(
        {"forum", "forums", "thread", "threads", "topic", "viewtopic", "showthread", "questions",
         "discussion", "discussions", "community", "t", "bbs", "board", "answers", "question",
         "comments", "viewthread", "showtopic", "replies", "discuss", "status", "d"}
    ),
    "product": frozenset({"product", "products", "p", "dp", "shop", "store", "item", "buy", "sku"}),
    "documentation": frozenset(
        {"docs", "doc", "documentation", "api", "reference", "manual", "guide", "guides",
         "tutorial", "wiki", "help", "learn", "en", "latest", "stable"}
    ),
    "listing": frozenset(
        {"category", "categories", "tag", "tags", "section", "search", "archive", "archives",
         "page", "list", "index", "collections", "collection", "topics", "author"}
    ),
}  # fmt: skip
#: The words a whole short block that is a post's control in a forum or Q&A thread is (forum
#: software's and Q&A sites' words, in the languages of the training sets and their neighbours;
#: ``Share``, ``Like``, ``Follow`` and ``Comments`` are left out: article pages show them as
#: often). Lower-cased; each begins and ends with a word character.
POST_CONTROL_WORDS: Final = (
    "reply", "replies", "quote", "report", "permalink", "upvote", "downvote", "edited",
    "last edited", "reply with quote", "multi-quote", "multiquote", "quick reply", "post reply",
    "click to expand", "start date", "asked", "answered", "best answer", "accepted answer",
    "solved", "joined", "member", "members", "reactions",
    "antworten", "zitieren", "melden", "répondre", "citer", "signaler", "responder", "citar",
    "reportar", "rispondi", "cita", "ответить", "цитировать", "返信", "답글", "回复", "回覆",
    "引用", "举报", "舉報", "楼主", "樓主", "沙发", "板凳", "地板", "只看该作者",
    "发表于", "發表於",
)  # fmt: skip
#: The other forms of a post control: post numbers and counters. On ASCII text each needs a
#: digit, ``.`` or ``,`` (the compiled twin relies on it: keep it so).
_POST_COUNTERS: Final = (
    r"\d+\s*[楼樓#]", r"#\d+", r"\d+\s*个?回答", r"\d+\s*条回复", r"赞同\s*\d*",
    r"(?:joined|posts|messages|replies|answers|votes|views|likes|reactions)\s*:?\s*[\d.,]+k?",
    r"[\d.,]+k?\s*(?:replies|answers|posts|messages|votes|views|likes|reactions|points|upvotes)",
)  # fmt: skip
#: A whole short block that is a post's control or counter: one of :data:`POST_CONTROL_WORDS`
#: or :data:`_POST_COUNTERS`. Case ignored; leading and trailing punctuation allowed.
POST_CONTROL: Final = re.compile(
    r"^\W*(?:" + "|".join([*map(re.escape, POST_CONTROL_WORDS), *_POST_COUNTERS]) + r")\W*$",
    re.IGNORECASE,
)
#: Longest block read as a post control, in words and in characters.
CONTROL_BLOCK_WORDS: Final = 4
CONTROL_BLOCK_CHARS: Final = 24
#: Block size (in words) from which a link-free block reads as running text.
LONG_BLOCK_WORDS: Final = 40
#: Link density below which a block of :data:`LONG_BLOCK_WORDS` words reads as running text.
LONG_BLOCK_LINKS: Final = 0.2
#: Link density from which a block reads as navigation.
LINKED_BLOCK: Final = 0.5
#: Publication-time ``<meta>`` properties and names.
PUBLISHED_META: Final = frozenset(
    {"article:published_time", "og:published_time", "date", "pubdate", "publish-date",
     "publication_date", "sailthru.date", "parsely-pub-date", "dc.date.issued"}
)  # fmt: skip

_BLOCK_FEATURES: Final = (
    "log_words", "log_blocks", "link_density", "long_text_share", "largest_block_share",
    "linked_block_share", "mean_block_words", "log_long_blocks", "li_word_share",
    "cell_word_share", "heading_share", "text_start_position",
)  # fmt: skip
_THREAD_FEATURES: Final = ("log_post_controls", "post_control_share")
#: The columns read from what a page declares about itself (JSON-LD, ``og:type``, the
#: publication time), which pages of older or plainer sites lack.
DECLARED_FEATURES: Final = (
    *(f"json_ld_{kind}" for kind in JSON_LD_KINDS),
    "og_article", "og_product", "og_website", "published_meta",
)  # fmt: skip
_DECLARED_FEATURES: Final = (*DECLARED_FEATURES, "h1_count")
_URL_FEATURES: Final = (
    "url_date", "url_depth", "url_slug_words", "url_numeric_id",
    *(f"url_{kind}" for kind in URL_KINDS),
)  # fmt: skip
#: Names of the columns of :func:`page_features`, in order.
PAGE_FEATURE_NAMES: Final = _BLOCK_FEATURES + _THREAD_FEATURES + _DECLARED_FEATURES + _URL_FEATURES

_JSON_LD_TYPE: Final = re.compile(r'"@type"\s*:\s*\[?\s*"(?:https?://schema\.org/)?(\w+)"')
_URL_DATE: Final = re.compile(r"/(?:19|20)\d\d[/-]?(?:0?[1-9]|1[0-2])(?:[/-]|$)|\d{8}")
_URL_WORD: Final = re.compile(r"[a-z]+")
_NUMERIC_ID: Final = re.compile(r"\d{4,}")
_nodes = compiled_twin(f"{__package__}._nodes")
#: The compiled thread columns (None: not built, or a build older than them).
_thread_twin = getattr(_nodes, "page_thread_features", None)


def page_features(doc: TextDocument) -> list[float]:
    """The feature row of ``doc`` (:data:`PAGE_FEATURE_NAMES`); labels the segmentation set
    (``LI``, ``HEADING``) are read, so call it before filters clear them."""
    return (
        page_block_features(doc.blocks)
        + page_thread_features(doc.blocks)
        + _declared_features(document_declarations(doc))
        + _url_features(doc.url)
    )


def page_block_features(blocks: Sequence[TextBlock]) -> list[float]:
    """The block columns of :func:`page_features` (:func:`page_block_features_pure`, by the
    compiled twin in ``_nodes`` when it is built)."""
    if _nodes is not None:
        try:
            row: list[float] = _nodes.page_block_features(list(blocks))
            return row
        except (OverflowError, TypeError):  # counts a C integer does not hold: the reference
            pass
    return page_block_features_pure(blocks)


def page_block_features_pure(blocks: Sequence[TextBlock]) -> list[float]:
    """:func:`page_block_features` in pure Python (the reference of the compiled twin)."""
    total = sum(block.num_words for block in blocks)
    words = total or 1
    long_words = li_words = cell_words = heading_words = linked_blocks = long_blocks = 0
    first_long = len(blocks)
    for index, block in enumerate(blocks):
        if block.num_words >= LONG_BLOCK_WORDS and block.link_density < LONG_BLOCK_LINKS:
            long_words += block.num_words
            long_blocks += 1
            first_long = min(first_long, index)
        if block.link_density >= LINKED_BLOCK:
            linked_blocks += 1
        if LI in block.labels:
            li_words += block.num_words
        if HEADING in block.labels:
            heading_words += block.num_words
        element = block.element
        if element is not None and element.tag in ("td", "th"):
            cell_words += block.num_words
    count = len(blocks) or 1
    return [
        math.log1p(total),
        math.log1p(len(blocks)),
        sum(block.num_linked_words for block in blocks) / words,
        long_words / words,
        max((block.num_words for block in blocks), default=0) / words,
        linked_blocks / count,
        words / count,
        math.log1p(long_blocks),
        li_words / words,
        cell_words / words,
        heading_words / words,
        first_long / count,
    ]


def page_thread_features(blocks: Sequence[TextBlock]) -> list[float]:
    """The thread columns of :func:`page_features` (:func:`page_thread_features_pure`, by the
    compiled twin in ``_nodes`` when it is built)."""
    if _thread_twin is not None:
        try:
            row: list[float] = _thread_twin(list(blocks))
            return row
        except TypeError:  # a block whose text is not a str: the reference
            pass
    return page_thread_features_pure(blocks)


def page_thread_features_pure(blocks: Sequence[TextBlock]) -> list[float]:
    """The thread columns of :func:`page_features`: ``log1p`` of the number of post controls
    (blocks of at most :data:`CONTROL_BLOCK_WORDS` words and :data:`CONTROL_BLOCK_CHARS`
    characters that :data:`POST_CONTROL` matches whole) and their share of the blocks."""
    controls = 0
    for block in blocks:
        if block.num_words <= CONTROL_BLOCK_WORDS:
            text = block.text.strip()
            if len(text) <= CONTROL_BLOCK_CHARS and POST_CONTROL.match(text):
                controls += 1
    return [math.log1p(controls), controls / (len(blocks) or 1)]


def _declared_features(found: Declarations | None) -> list[float]:
    if found is None:
        return [0.0] * len(_DECLARED_FEATURES)
    types = {
        name.lower()
        for script in found.json_ld
        for name in _JSON_LD_TYPE.findall(script.text or "")
    }
    og_types = {
        (content or "").strip().lower()
        for prop, _name, content in found.meta_attributes
        if prop == "og:type"
    }
    published = any(
        (prop or name or "").lower() in PUBLISHED_META for prop, name, _ in found.meta_attributes
    )
    return [
        *(float(bool(types & words)) for words in JSON_LD_KINDS.values()),
        float(any(value in ("article", "news", "blog") for value in og_types)),
        float(any(value.startswith("product") for value in og_types)),
        float("website" in og_types),
        float(published),
        float(min(len(found.headings), 5)),
    ]


def _url_features(url: str | None) -> list[float]:
    path = urlsplit(url or "").path.lower()
    segments = [segment for segment in path.split("/") if segment]
    last = segments[-1] if segments else ""
    words = set(_URL_WORD.findall(path))
    return [
        float(bool(_URL_DATE.search(path))),
        float(min(len(segments), 8)),
        float(min(len(_URL_WORD.findall(last)), 20)),
        float(bool(_NUMERIC_ID.search(path))),
        *(float(bool(words & kind_words)) for kind_words in URL_KINDS.values()),
    ]
