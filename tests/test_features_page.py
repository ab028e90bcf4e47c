"""Page-level features: one row per page from its blocks, its declarations and its URL."""

from __future__ import annotations

import math

import pytest

from scrapy_boilerplate.features.page import PAGE_FEATURE_NAMES, page_features
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import segment

ARTICLE = """<html><head><title>Storm closes the harbour</title>
<meta property="og:type" content="article">
<meta property="article:published_time" content="2025-03-02T08:00:00Z">
<script type="application/ld+json">{"@context": "https://schema.org",
 "@type": ["NewsArticle"], "headline": "Storm closes the harbour"}</script></head>
<body><nav><a href="/">Home</a> <a href="/news">News</a></nav>
<h1>Storm closes the harbour</h1>
<p>{words}</p><p>{words}</p></body></html>""".replace(
    "{words}", "The storm kept ships in port. " * 12
)

LISTING = """<html><head><title>Sport</title>
<script type="application/ld+json">{"@type": "https://schema.org/CollectionPage"}</script>
</head><body><ul>{items}</ul></body></html>""".replace(
    "{items}",
    "".join(f'<li><a href="/s/{i}">Match report number {i} here</a></li>' for i in range(30)),
)


def _row(html: str, url: str) -> dict[str, float]:
    values = page_features(segment(parse_html(html), url=url))
    assert len(values) == len(PAGE_FEATURE_NAMES)
    return dict(zip(PAGE_FEATURE_NAMES, values, strict=True))


def test_an_article_reads_as_long_unlinked_text_with_article_declarations() -> None:
    row = _row(ARTICLE, "https://news.example/2025/03/02/storm-closes-the-harbour")
    assert row["long_text_share"] > 0.8
    assert row["link_density"] < 0.1
    assert row["json_ld_article"] == 1.0 and row["json_ld_collection"] == 0.0
    assert row["og_article"] == 1.0 and row["published_meta"] == 1.0
    assert row["h1_count"] == 1.0 and row["heading_share"] > 0
    assert row["url_date"] == 1.0 and row["url_slug_words"] == 4.0


def test_a_listing_reads_as_linked_list_items_under_a_listing_url() -> None:
    row = _row(LISTING, "https://news.example/category/sport/")
    assert row["link_density"] == pytest.approx(1.0)
    assert row["linked_block_share"] == 1.0 and row["li_word_share"] == 1.0
    assert row["long_text_share"] == 0.0
    assert row["json_ld_collection"] == 1.0 and row["json_ld_article"] == 0.0
    assert row["url_listing"] == 1.0 and row["url_date"] == 0.0 and row["url_depth"] == 2.0


def test_a_page_without_url_blocks_or_declarations_gives_zeros_not_errors() -> None:
    row = _row("<html><body></body></html>", "")
    assert row["log_words"] == 0.0 and row["url_depth"] == 0.0 and row["og_website"] == 0.0


THREAD = """<html><body><h1>Boiler pressure keeps falling</h1>{posts}
<p><a href="/share">Share</a></p><p><a href="/c">Comments</a></p><p>Follow</p></body></html>
""".replace(
    "{posts}",
    "".join(
        f"<div class=post><p>user{i}</p><p>Reply number {i} on the boiler, with a few words of "
        f"advice about the pressure valve.</p><p><a href=#>Reply</a></p><p><a href=#>Quote</a>"
        f"</p><p>#{i}</p><p>{i} likes</p><p>回复</p><p>{i}楼</p></div>"
        for i in range(1, 5)
    ),
)


def test_a_thread_counts_its_post_controls_and_an_article_none() -> None:
    thread = _row(THREAD, "")
    # per post: Reply, Quote, #i, "i likes", 回复, i楼; Share, Comments and Follow do not count
    assert thread["log_post_controls"] == pytest.approx(math.log1p(4 * 6))
    assert thread["post_control_share"] == pytest.approx(4 * 6 / (4 * 8 + 4))
    article = _row(ARTICLE, "https://news.example/2025/03/02/storm-closes-the-harbour")
    assert article["log_post_controls"] == 0.0 and article["post_control_share"] == 0.0


@pytest.mark.parametrize(
    "url",
    [
        "https://forum.example/t/boiler-pressure/4821",
        "https://discuss.example/d/4821-boiler-pressure",
        "https://social.example/r/plumbing/comments/abc12/boiler_pressure/",
        "https://ask.example/question/4821/answer/99",
        "https://bbs.example/viewthread.php?tid=4821",
        "https://micro.example/someone/status/4821",
    ],
)
def test_thread_paths_of_forum_and_qa_software_name_a_forum(url: str) -> None:
    assert _row("<html><body><p>Hello</p></body></html>", url)["url_forum"] == 1.0


@pytest.mark.parametrize(
    "json_ld",
    [
        '{"@context": "https://schema.org", "@graph": [{"@type": "WebPage"}, '
        '{"@type": "DiscussionForumPosting", "headline": "Boiler pressure"}]}',
        '{"@type": ["QAPage"], "mainEntity": {"@type": "Question"}}',
        '{"@type": "WebPage", "comment": [{"@type": "Comment", "text": "Same here"}]}',
    ],
)
def test_thread_types_are_read_anywhere_in_the_json_ld(json_ld: str) -> None:
    html = f'<html><head><script type="application/ld+json">{json_ld}</script></head></html>'
    assert _row(html, "")["json_ld_forum"] == 1.0
