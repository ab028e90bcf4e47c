"""Article text: paragraphs of the content blocks, tidied for display."""

from __future__ import annotations

import pytest

from scrapy_boilerplate.model.document import TextBlock
from scrapy_boilerplate.output.text import article_text, tidy_text


@pytest.mark.parametrize(
    ("raw", "tidy"),
    [
        ("see here .", "see here."),  # the space an anchor forces before punctuation goes
        ("a ( b ) c", "a ( b) c"),  # ... before a closing bracket too, not after an opening one
        ("end .\nnext", "end.\nnext"),  # punctuation followed by a line break
        ("v 2 .5", "v 2 .5"),  # not when a word follows the punctuation directly
        ("a  \u00a0 b", "a b"),  # kept spaces become spaces, runs collapse
        ("a" + " " * 9 + "b  c .", "a b c."),  # a run of any length, then the punctuation
        ("a\u2007\u202f\x85b", "a b"),
        ("plain text", "plain text"),
        (" lead and trail ", " lead and trail "),  # lines are not stripped
    ],
)
def test_tidy_text(raw: str, tidy: str) -> None:
    assert tidy_text(raw) == tidy


def test_article_text_is_one_paragraph_per_content_line() -> None:
    blocks = [
        TextBlock("Headline menu", 2),
        TextBlock("First  paragraph .", 2, is_content=True),
        TextBlock("merged line one\nline two", 4, is_content=True),
        TextBlock("   ", 0, is_content=True),
    ]
    assert article_text(blocks) == "First paragraph.\n\nmerged line one\n\nline two"
