"""The one-call API on a realistic page, and option validation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gc_support import cyclic_garbage

from scrapy_boilerplate import available_extractors, extract, get_extractor, register_extractor
from scrapy_boilerplate.classifiers.page_type import PAGE_TYPES
from scrapy_boilerplate.filters.basic import MarkEverythingContent

PAGES = Path(__file__).parent / "fixtures" / "pages"
ARTICLE = (PAGES / "article.html").read_bytes()


def test_article_keeps_the_story_and_drops_navigation_and_teasers() -> None:
    result = extract(ARTICLE, "https://example.com/bridge")
    assert result.title == "Harbour bridge reopens after repairs"
    assert result.text.startswith("The harbour bridge reopened to traffic on Monday morning")
    assert "Commuters relieved" in result.text.split("\n\n")  # heading on its own paragraph
    assert "regular inspections of the cables" in result.text
    for boilerplate in ("Weather", "Related stories", "ferry timetable", "Copyright"):
        assert boilerplate not in result.text


def test_the_default_article_is_the_learned_chain() -> None:
    result = extract(ARTICLE)
    assert result.extractor == "article" and result.options["mode"] == "auto"
    assert result.page_type in PAGE_TYPES
    assert all(block.score is not None for block in result.blocks)
    assert result.text == extract(ARTICLE, extractor="article-learned").text


COMMENTED = (Path(__file__).parent / "fixtures" / "site" / "commented.html").read_bytes()


def test_reader_comments_leave_the_text_and_come_as_comments() -> None:
    result = extract(COMMENTED)
    # the thread holds more words than the article: it must not win the page's main region
    assert result.text.startswith("The city council voted on Tuesday evening")
    assert "cut traffic on the ring road." in result.text
    comments = result.comments.split("\n\n")
    assert len(comments) == 4 and comments[0].startswith("Finally! I have waited")
    assert comments[0].endswith("\nWell done to everyone who kept pushing for it.")
    for comment in comments:
        assert comment not in result.text
    assert "Reply" not in result.comments and "4 comments" not in result.comments
    assert result.to_dict(include_blocks=False)["comments"] == result.comments


def test_keep_comments_puts_them_in_the_text_too() -> None:
    result = extract(COMMENTED, keep_comments=True)
    assert "Four years is optimistic." in result.text
    assert result.comments == extract(COMMENTED).comments


def test_paragraphs_are_separated_by_blank_lines() -> None:
    paragraphs = extract(ARTICLE).text.split("\n\n")
    assert len(paragraphs) == 5
    assert all("\n" not in paragraph for paragraph in paragraphs)


def test_result_is_json_serialisable_with_block_labels() -> None:
    result = extract(ARTICLE, extractor="article-rules", include_html=True)
    data = json.loads(json.dumps(result.to_dict()))
    assert data["extractor"] == "article-rules"
    assert data["options"]["ancestor_depth"] == 2
    assert any(block["is_content"] for block in data["blocks"])
    assert "<p>The harbour bridge reopened" in data["html"]


def test_every_documented_extractor_is_registered() -> None:
    expected = {
        "article",
        "article-rules",
        "article-learned",
        "page-template",
        "boilerpipe-article",
        "default",
        "largest-content",
        "article-sentences",
        "canola",
        "numwords",
        "density",
        "keep-everything",
    }
    assert expected <= set(available_extractors())


@pytest.mark.parametrize(
    "name",
    [
        "article",
        "article-rules",
        "article-learned",
        "page-template",
        "numwords",
        "density",
        "canola",
        "keep-everything",
    ],
)
def test_each_extractor_runs_on_the_article(name: str) -> None:
    assert "harbour bridge reopened" in extract(ARTICLE, extractor=name).text


def test_unknown_extractor_is_a_value_error_listing_names() -> None:
    with pytest.raises(ValueError, match="unknown extractor 'nope'.*article"):
        extract(ARTICLE, extractor="nope")


def test_a_mistyped_extractor_is_told_the_name_it_looks_like() -> None:
    with pytest.raises(ValueError, match="unknown extractor 'artcle' \\(did you mean 'article'\\?"):
        extract(ARTICLE, extractor="artcle")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"ancestor_depth": 9}, "ancestor_depth.*<= 5"),
        ({"ancestor_depth": "two"}, "ancestor_depth.*int"),
        ({"min_share": 1.5}, "min_share"),
        ({"classifier": "magic"}, "classifier.*numwords, density"),
        ({"bogus": 1}, "no option 'bogus'"),
        ({"fill_gaps": "maybe"}, "fill_gaps.*boolean"),
    ],
)
def test_bad_options_raise_value_error_naming_the_option(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        get_extractor("article-rules", **options)


def test_ancestor_depth_zero_disables_the_tree_filter() -> None:
    with_filter = extract(ARTICLE, extractor="article-rules").blocks
    without = extract(ARTICLE, extractor="article-rules", ancestor_depth=0).blocks
    assert any("OUTSIDE_MAIN_GROUP" in b.labels for b in with_filter)
    assert not any("OUTSIDE_MAIN_GROUP" in b.labels for b in without)


def test_users_can_register_their_own_chain() -> None:
    register_extractor(
        "test-everything", lambda options, context: [MarkEverythingContent()], replace=True
    )
    assert "Copyright" in extract(ARTICLE, extractor="test-everything").text
    with pytest.raises(ValueError, match="already registered"):
        register_extractor("test-everything", lambda options, context: [])


@pytest.mark.parametrize("name", ["article", "article-learned", "victor", "page-template"])
def test_an_extraction_leaves_no_reference_cycle(name: str) -> None:
    # Without cycles a page's tree and blocks are freed as soon as the result is dropped, not
    # at the next garbage collection (which then costs more, in the crawl's worker processes).
    html = (Path(__file__).parent / "fixtures" / "pages" / "article.html").read_bytes()
    extractor = get_extractor(name, metadata=True, include_markdown=True, include_html=True)
    extractor.extract(html, "https://news.example/a.html")  # imports and caches first
    assert cyclic_garbage(lambda: extractor.extract(html, "https://news.example/a.html")) == []
