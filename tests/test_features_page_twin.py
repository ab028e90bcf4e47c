"""The compiled block and thread columns of the page-type features are bit for bit the
pure-Python ones: on hand-made pages (tables, lists, headings, threads, no blocks), on random
blocks (any counts, labels, elements and short texts, namespaced and non-element ones included)
and, when present, on every page of the shared datasets.

Skipped when the extension is not built, unless ``BOILERPLATE_REQUIRE_SPEEDUPS`` is set.
"""

from __future__ import annotations

import math
import random
from array import array

import pytest
from lxml import etree
from pure_python import twin_or_skip
from shared_datasets import TWIN_DATASETS, segmented_pages

from scrapy_boilerplate.features import page
from scrapy_boilerplate.model import labels as L
from scrapy_boilerplate.model.document import TextBlock
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import segment

_nodes = twin_or_skip("scrapy_boilerplate.features._nodes")


def assert_same_columns(
    blocks: list[TextBlock], function: str = "page_block_features"
) -> list[float]:
    """``function``'s twin, its pure reference and its dispatcher give the same floats."""
    fast: list[float] = getattr(_nodes, function)(blocks)
    pure = getattr(page, f"{function}_pure")(blocks)
    assert array("d", fast).tobytes() == array("d", pure).tobytes()
    assert getattr(page, function)(blocks) == pure
    return fast


def assert_same_thread_columns(blocks: list[TextBlock]) -> list[float]:
    return assert_same_columns(blocks, "page_thread_features")


TABLE = """<html><body><h1>Results</h1><table><tr><th>Team</th><th>Points and more words</th>
</tr><tr><td>{words}</td><td><a href=/x>linked cell text here</a></td></tr></table>
<ul><li>{words}</li><li><a href=/a>one</a> <a href=/b>two</a></li></ul><h2>{words}</h2>
<p>{words}</p></body></html>""".replace("{words}", "A sentence of running text goes here. " * 8)


@pytest.mark.parametrize(
    "html",
    [
        TABLE,
        "<html><body><p>Alone</p></body></html>",
        "<html><body></body></html>",
        "<html><body><td>cell outside a table</td><th>x</th></body></html>",
    ],
)
def test_hand_made_pages(html: str) -> None:
    assert_same_columns(segment(parse_html(html)).blocks)


def test_the_columns_are_the_intended_ones() -> None:
    """Not only equal: cell, list and heading words are counted in their columns."""
    values = assert_same_columns(segment(parse_html(TABLE)).blocks)
    columns = dict(zip(page._BLOCK_FEATURES, values, strict=True))
    assert columns["cell_word_share"] > 0.1
    assert columns["li_word_share"] > 0.1
    assert columns["heading_share"] > 0.1
    assert 0.0 < columns["long_text_share"] < 1.0


def _random_element(rng: random.Random) -> etree._Element | None:
    kind = rng.randrange(6)
    if kind == 0:
        return None
    if kind == 1:
        return etree.Comment("td")
    if kind == 2:
        return etree.Element("{urn:x}td")
    return etree.Element(rng.choice(["td", "th", "p", "tdx", "t", "div"]))


@pytest.mark.parametrize("seed", range(5))
def test_random_blocks(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(300):
        blocks = []
        for _ in range(rng.randrange(12)):
            words = rng.choice([0, 1, 39, 40, 41, 100, rng.randrange(10**9)])
            element = _random_element(rng)
            blocks.append(
                TextBlock(
                    "text",
                    words,
                    num_linked_words=rng.randint(0, words),
                    labels=set(rng.sample([L.LI, L.HEADING, L.H1, L.HIDDEN], rng.randrange(3))),
                    elements=[] if element is None else [element],
                )
            )
        assert_same_columns(blocks)


def test_counts_beyond_a_c_integer_go_to_the_reference() -> None:
    blocks = [TextBlock("text", 2**70, num_linked_words=2**69), TextBlock("more", 50)]
    with pytest.raises(OverflowError):
        _nodes.page_block_features(blocks)
    assert page.page_block_features(blocks) == page.page_block_features_pure(blocks)


@pytest.mark.parametrize("dataset", [*TWIN_DATASETS, "fundus", "magic-html"])
def test_every_shared_dataset_page(dataset: str) -> None:
    for _, doc in segmented_pages(dataset):
        assert_same_columns(doc.blocks)
        assert_same_thread_columns(doc.blocks)


#: One of each form of a post control (word, number, counter, non-ASCII, case, punctuation).
CONTROLS = (
    "<a href=#>Reply</a>", "[ QUOTE ]", "#{i}", "{i},5k views", "Views: ...", "回复", "{i}楼",
    "Répondre", "Multi-Quote:", "Click to expand...", "ſolved",
)  # fmt: skip
THREAD = "<html><body><h1>Boiler pressure</h1>{}<p>Share</p><p>About us</p></body></html>".format(
    "".join(
        f"<div><p>user_{i}</p><p>Advice number {i} on the valve.</p>"
        + "".join(f"<p>{control.format(i=i)}</p>" for control in CONTROLS)
        + "</div>"
        for i in range(1, 4)
    )
)


def test_a_hand_made_thread() -> None:
    """Each form of a post control counted by the twin; the user names, the advice, ``Share``,
    ``About us`` and the heading not."""
    blocks = segment(parse_html(THREAD)).blocks
    fast = assert_same_thread_columns(blocks)
    assert fast == [math.log1p(3 * len(CONTROLS)), 3 * len(CONTROLS) / len(blocks)]


_TEXT_PARTS = [
    "reply", "Quote", "REPORT", "last edited", "multi-quote", "member", "views", "likes",
    "ответить", "回复", "répondre", "ſolved", "K", "k", "12", "1,5", ".", ",", "#", ":", "-",
    "_", " ", "  ", "\t", "\n", "楼", "条回复", "赞同", "about", "share", "x",
]  # fmt: skip


@pytest.mark.parametrize("seed", range(3))
def test_random_short_texts(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(300):
        blocks = [
            TextBlock("".join(rng.choices(_TEXT_PARTS, k=rng.randrange(6))), rng.randrange(7))
            for _ in range(rng.randrange(12))
        ]
        assert_same_thread_columns(blocks)


def test_a_text_that_is_not_a_str_goes_to_the_reference() -> None:
    blocks = [TextBlock("Reply", 1), TextBlock(b"Quote", 1)]  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        _nodes.page_thread_features(blocks)
    with pytest.raises(TypeError):  # the reference's own error: bytes against a str pattern
        page.page_thread_features(blocks)


def test_the_words_of_the_short_cut_begin_and_end_with_a_word_character() -> None:
    """The twin reads an ASCII text as a post control by its stripped, lower-cased words."""
    for word in page.POST_CONTROL_WORDS:
        assert word == word.lower() and word[0].isalnum() and word[-1].isalnum()
