"""The victor filter: labelled blocks joined into segments that replace the page's blocks."""

from __future__ import annotations

import pytest

from scrapy_boilerplate.classifiers.victor import assemble_segments, join_blocks, segment_spans
from scrapy_boilerplate.model import labels as L
from scrapy_boilerplate.output.text import article_text
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.victor import victor_blocks


def test_segment_spans() -> None:
    codes = ["c", "h", "c", "o", "c", "p", "c", "c", "l", "l", "o"]
    assert segment_spans(codes) == [
        ("c", [0]),
        ("h", [1, 2]),
        ("o", [3]),
        ("c", [4]),
        ("p", [5, 6, 7]),
        ("l", [8]),
        ("l", [9]),
        ("o", [10]),
    ]


def test_join_blocks_leaves_no_space_before_glued_blocks() -> None:
    assert join_blocks(["Hello", "world", "!"], [False, False, True]) == "Hello world!"


PAGE = (
    "<body><div>Menu</div><h1>The <i>title</i></h1><p>Hello <b><i>world</i></b>!</p>"
    "<ul><li>one</li><li>two <a href='#'>linked</a></li></ul><p>Footer</p></body>"
)


def test_segments_become_content_blocks_with_their_labels() -> None:
    blocks = victor_blocks(parse_html(PAGE))
    assert [b.text for b in blocks] == [
        "Menu", "The", "title", "Hello", "world", "!", "one", "two", "linked", "Footer",
    ]  # fmt: skip
    codes = ["o", "h", "c", "p", "c", "c", "l", "l", "c", "c"]
    menu, title, para, one, two = assemble_segments(blocks, codes)
    assert [b.text for b in (menu, title, para, one, two)] == [
        "Menu", "The title", "Hello world!", "one", "two linked Footer",
    ]  # fmt: skip
    assert [b.is_content for b in (menu, title, para, one, two)] == [False, *[True] * 4]
    assert menu.labels == {L.VICTOR_OTHER}
    assert title.labels == {L.VICTOR_HEADER, L.HEADING, L.H1}
    assert para.labels == {L.VICTOR_PARAGRAPH}
    assert one.labels == two.labels == {L.VICTOR_LIST, L.LI}
    assert (two.num_words, two.num_linked_words) == (3, 1)
    assert [b.offset_start for b in (menu, title, para, one, two)] == [0, 1, 2, 3, 4]
    assert [e.tag for e in title.elements] == ["h1"]
    assert article_text([menu, title, para, one, two]) == (
        "The title\n\nHello world!\n\none\n\ntwo linked Footer"
    )


def test_a_continuation_after_noise_opens_its_own_segment() -> None:
    blocks = victor_blocks(parse_html("<p>ad</p><p>text goes</p><p>on</p>"))
    ad, text = assemble_segments(blocks, ["o", "c", "c"])
    assert not ad.is_content
    assert text.is_content and text.text == "text goes on"
    assert text.labels == {L.VICTOR_CONTINUATION}


def test_the_victor_extractor_keeps_the_segment_labels(tmp_path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("pycrfsuite")
    from victor_support import synthetic_model, synthetic_page

    from scrapy_boilerplate import extract

    path = tmp_path / "victor.crf.gz"
    path.write_bytes(synthetic_model())
    html, gold = synthetic_page(42)
    result = extract(html, extractor="victor", model=str(path))
    content = [b for b in result.blocks if b.is_content]
    assert [b.text for b in content] == [text for _, text in gold]
    assert [sorted(b.labels & {L.VICTOR_HEADER, L.VICTOR_PARAGRAPH, L.VICTOR_LIST})
            for b in content] == [
        [L.VICTOR_HEADER], [L.VICTOR_PARAGRAPH], [L.VICTOR_PARAGRAPH], [L.VICTOR_LIST],
        [L.VICTOR_LIST],
    ]  # fmt: skip
    assert all(L.VICTOR_OTHER in b.labels for b in result.blocks if not b.is_content)
    assert result.text == "\n\n".join(text for _, text in gold)
