"""The reference-like named extractors end to end (reference §4, §6, §9 vectors 6 and 7).

Citations "reference §N" and "Q<n>" point to ``docs/reference-quirks.md``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scrapy_boilerplate import available_extractors, get_extractor
from scrapy_boilerplate.model.context import NO_CONTEXT
from scrapy_boilerplate.model.document import TextDocument
from scrapy_boilerplate.model.labels import TITLE
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import segment

FIXTURES = Path(__file__).parent / "fixtures" / "boilerpipe"
NEWS = (FIXTURES / "news_article.html").read_text(encoding="utf-8")
HEADLINE = "Storm Hits the Coast"
FIRST_SENTENCE = "A powerful storm brought heavy rain"
COMMENT = "I live near the river"

REFERENCE_EXTRACTORS = [
    "boilerpipe-article",
    "boilerpipe-article-1.2",
    "article-sentences",
    "default",
    "largest-content",
    "numwords",
    "canola",
    "keep-everything",
    "keep-everything-min-words",
    "density",
]


def run(name: str, html: str, **options) -> TextDocument:
    """Segment ``html`` and run the named chain; return the processed document."""
    extractor = get_extractor(name, **options)
    doc = segment(parse_html(html), strict_reference=extractor.options["strict_reference"])
    return extractor.process(doc)


def paragraphs(*texts: str) -> str:
    return "<html><body>" + "".join(f"<p>{text}</p>" for text in texts) + "</body></html>"


def test_reference_extractors_are_registered() -> None:
    assert set(REFERENCE_EXTRACTORS) <= set(available_extractors())


@pytest.mark.parametrize("name", REFERENCE_EXTRACTORS)
def test_every_extractor_handles_a_page_without_text(name: str) -> None:
    assert run(name, "<html><body><div> </div></body></html>").content_text == ""
    assert get_extractor(name).extract("<html><body><p>x</p></body></html>").text in ("", "x")


# --- §9 vector 6: DefaultExtractor -----------------------------------------------------------


def test_vector_6_default_extractor() -> None:
    dense = " ".join(["Dense"] * 40)  # 13 words per full line: td 13
    last = " ".join(["eleven"] * 11)  # one line: td 11
    doc = run("default", paragraphs(dense, "|", dense, last))
    # No equal-density neighbours, so the blocks are not fused before Algorithm 1.
    assert [block.is_content for block in doc.blocks] == [False, True, True, False]
    assert [block.text_density for block in doc.blocks] == [13, 0, 13, 11]


def test_default_extractor_fuses_equal_densities_first() -> None:
    doc = run("default", paragraphs("Home", "News", "Sport", " ".join(["body"] * 30)))
    assert doc.blocks[0].text == "Home\nNews\nSport"


# --- §9 vector 7: the headline enters through proximity fusion (Q1) --------------------------


def test_vector_7_headline_is_merged_into_the_content_run() -> None:
    extractor = get_extractor("boilerpipe-article")
    doc = segment(parse_html(NEWS))
    chain = extractor.spec.build_chain(extractor.options, NO_CONTEXT)
    for step in chain[:5]:
        step(doc)
    headline = next(b for b in doc.blocks if b.text == HEADLINE)
    assert TITLE in headline.labels and not headline.is_content  # NumWordsRules rejected it
    chain[5](doc)  # BlockProximityFusion(1, False, False)
    content = [b for b in doc.blocks if b.is_content]
    assert len(content) == 1
    assert content[0].text.startswith(HEADLINE + "\nBy Jane Doe")


# --- ArticleExtractor 1.3 vs 1.2 -------------------------------------------------------------


def test_boilerpipe_article_keeps_the_story_only() -> None:
    text = run("boilerpipe-article", NEWS).content_text
    lines = text.splitlines()
    assert lines[0] == HEADLINE
    assert lines[1] == "By Jane Doe, weather correspondent"
    assert FIRST_SENTENCE in text
    assert COMMENT not in text  # cut at "Comments (3)" after >= 60 full-text words
    assert "Related stories" not in text  # trailing heading (1.3)
    assert "Home" not in text and "Privacy" not in text
    assert text.endswith("\n")  # §6: every content block ends with a newline


def test_boilerpipe_article_1_2_keeps_the_trailing_heading() -> None:
    text = run("boilerpipe-article-1.2", NEWS).content_text
    assert FIRST_SENTENCE in text and COMMENT not in text
    assert "Related stories" in text


def test_article_extractor_result_text_and_title() -> None:
    result = get_extractor("boilerpipe-article").extract(NEWS)
    assert result.extractor == "boilerpipe-article"
    assert result.text.startswith(HEADLINE + "\n\nBy Jane Doe")
    assert result.title == HEADLINE


def test_list_at_end_is_kept_after_the_main_block() -> None:
    story = " ".join(["Words of the main story go on and on here."] * 20)
    html = (
        f"<html><body><div><p>{story}</p></div>"
        "<div><a href='/1'>one</a> <a href='/2'>two</a> <a href='/3'>three</a></div>"
        "<div><div><div>See also these notes</div><ul><li>first point of the list</li>"
        "<li>second point of the list</li></ul></div></div>"
        "<ul><li><a href='/x'>Other link</a></li></ul></body></html>"
    )
    extractor = get_extractor("boilerpipe-article")
    chain = extractor.spec.build_chain(extractor.options, NO_CONTEXT)
    assert type(chain[-1]).__name__ == "ListAtEndFilter"
    outputs = []
    for steps in (chain[:-1], chain):
        doc = segment(parse_html(html))
        for step in steps:
            step(doc)
        outputs.append(doc.content_text)
    without, with_list = outputs
    assert without.startswith("Words of the main story") and "list" not in without
    # The deeper, link-free list items after the main block (merged into one block by Q1).
    assert with_list == without + "first point of the list\nsecond point of the list\n"


def test_same_level_large_blocks_are_added() -> None:
    long_a = " ".join(["Alpha paragraph text continues here."] * 40)  # 200 words
    long_b = " ".join(["Beta paragraph text continues here."] * 24)  # 120 words
    links = "<div><a href='/1'>one</a> <a href='/2'>two</a> <a href='/3'>three</a></div>"
    html = (
        f"<html><body><div><p>{long_a}</p></div>{links * 3}<div><p>{long_b}</p></div></body></html>"
    )
    text = run("boilerpipe-article", html).content_text
    assert "Alpha" in text and "Beta" in text  # >= 100 words at the main block's tag level
    assert "Beta" not in run("boilerpipe-article-1.2", html).content_text


# --- the other reference extractors ----------------------------------------------------------


def test_article_sentences_keeps_whole_clauses_only() -> None:
    lines = run("article-sentences", NEWS).content_text.splitlines()
    assert HEADLINE not in lines
    assert all(not line.startswith("By Jane Doe") for line in lines)
    assert lines[0].startswith(FIRST_SENTENCE)
    assert len(lines) == 4


def test_largest_content_absorbs_the_block_before_the_run_q1() -> None:
    doc = run("largest-content", NEWS)
    (content,) = [b for b in doc.blocks if b.is_content]
    assert content.text.startswith(HEADLINE)
    assert COMMENT in content.text  # no end-of-text handling in this extractor


@pytest.mark.parametrize(("min_words", "kept"), [(10, 6), (30, 5)])
def test_keep_everything_min_words(min_words: int, kept: int) -> None:
    doc = run("keep-everything-min-words", NEWS, min_words=min_words)
    assert len([b for b in doc.blocks if b.is_content]) == kept
    assert all(b.num_words >= min_words for b in doc.blocks if b.is_content)


def test_keep_everything_min_words_rejects_bad_option() -> None:
    with pytest.raises(ValueError, match="min_words"):
        get_extractor("keep-everything-min-words", min_words=-1)
    with pytest.raises(ValueError, match="min_words"):
        get_extractor("boilerpipe-article", min_words=5)


def test_keep_everything_and_numwords() -> None:
    assert all(b.is_content for b in run("keep-everything", NEWS).blocks)
    numwords = run("numwords", NEWS).content_text
    assert FIRST_SENTENCE in numwords and COMMENT in numwords and "Home" not in numwords


def test_strict_reference_option_is_accepted() -> None:
    text = run("boilerpipe-article", NEWS, strict_reference=True).content_text
    assert FIRST_SENTENCE in text and COMMENT not in text
