"""Structural block features: tags, distances to landmarks and class/id groups, aggregates."""

from __future__ import annotations

import os
import random
from array import array

import pytest
from pure_python import assert_runs_in_pure_python
from shared_datasets import TWIN_DATASETS, segmented_pages

from scrapy_boilerplate.features import structure
from scrapy_boilerplate.features.structure import (
    FAR,
    KEYWORD_GROUPS,
    keyword_mask,
    structure_feature_names,
    structure_features,
)
from scrapy_boilerplate.model.document import TextBlock
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import segment

PAGE = b"""<html><body>
<nav class="site-menu"><ul><li><a href="/">Home</a></li></ul></nav>
<article class="post-content"><div><p>First paragraph of the story with words.</p>
<p>Second paragraph <a href="/x">with a link</a> here.</p></div>
<figure><figcaption class="photo-credit">A caption</figcaption></figure></article>
<div id="comments"><div class="comment-body"><p>A reader comment.</p></div></div>
<footer><p>Copyright notice</p></footer>
</body></html>"""


def rows_by_text() -> dict[str, dict[str, float]]:
    doc = segment(parse_html(PAGE))
    selected = [block.text.startswith(("First", "Second")) for block in doc.blocks]
    names = structure_feature_names()
    rows = structure_features(doc.blocks, selected)
    assert all(len(row) == len(names) for row in rows)
    return {
        block.text: dict(zip(names, row, strict=True))
        for block, row in zip(doc.blocks, rows, strict=True)
    }


def test_keyword_groups_match_class_names() -> None:
    index = {name: bit for bit, (name, _) in enumerate(KEYWORD_GROUPS)}
    mask = keyword_mask("comment-body")
    assert mask >> index["comment"] & 1
    assert mask >> index["content"] & 1  # "body"
    assert not mask >> index["footer"] & 1
    assert keyword_mask("") == 0


def test_container_and_parent_tags_are_one_hot() -> None:
    first = rows_by_text()["First paragraph of the story with words."]
    assert first["container_p"] == 1.0 and first["container_div"] == 0.0
    assert first["parent_div"] == 1.0
    assert sum(v for k, v in first.items() if k.startswith("container_")) == 1.0


def test_distances_count_levels_up_to_the_nearest_match() -> None:
    rows = rows_by_text()
    first = rows["First paragraph of the story with words."]
    assert first["dist_article"] == 2.0  # p -> div -> article
    assert first["dist_class_content"] == 2.0  # class="post-content"
    assert first["dist_footer"] == FAR
    comment = rows["A reader comment."]
    assert comment["dist_class_comment"] == 1.0  # its parent div.comment-body
    assert comment["dist_article"] == FAR
    caption = rows["A caption"]
    assert caption["dist_class_caption"] == 0.0 and caption["dist_figure"] == 1.0
    assert rows["Copyright notice"]["dist_footer"] == 1.0
    assert rows["Home"]["dist_nav"] == 2.0 and rows["Home"]["dist_li"] == 0.0


def test_subtree_aggregates_share_text_links_and_selection() -> None:
    rows = rows_by_text()
    second = rows["Second paragraph with a link here."]
    assert second["anc0_link_density"] == 3 / 6
    assert second["anc1_selected_share"] == 1.0  # its div holds only the selected paragraphs
    article = second["anc2_selected_share"]  # the article also holds the caption
    assert 0.0 < article < 1.0
    assert second["anc0_text_share"] < second["anc1_text_share"] < 1.0
    assert rows["Copyright notice"]["anc1_selected_share"] == 0.0


@pytest.mark.parametrize("compiled", [True, False])
def test_structure_into_writes_the_rows_at_a_stride(
    compiled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rows land at ``start + b * stride``; the values around them stay (both paths)."""
    if not compiled:
        monkeypatch.setattr(structure, "_nodes", None)
    elif structure._nodes is None:
        pytest.skip("the compiled _nodes is not built")
    doc = segment(parse_html(PAGE))
    selected = [block.num_words > 3 for block in doc.blocks]
    rows = structure.structure_features_pure(doc.blocks, selected)
    width = len(structure_feature_names())
    start, stride = 3, width + 5
    out = array("d", [-7.0]) * (start + len(rows) * stride)
    structure.structure_into(doc.blocks, selected, out, start, stride)
    expected = array("d", [-7.0]) * len(out)
    for index, row in enumerate(rows):
        at = start + index * stride
        expected[at : at + width] = array("d", row)
    assert out.tobytes() == expected.tobytes()


def test_no_blocks_no_rows() -> None:
    assert structure_features([], []) == []


# -- the compiled twin ---------------------------------------------------------------------------

needs_twin = pytest.mark.skipif(
    structure._nodes is None and not os.environ.get("BOILERPLATE_REQUIRE_SPEEDUPS"),
    reason="the compiled _nodes is not built",
)


def assert_same_rows(blocks: list[TextBlock], selected: list[bool]) -> None:
    fast = structure.structure_features(blocks, selected)
    assert repr(fast) == repr(structure.structure_features_pure(blocks, selected))


ODD_PAGES = [
    PAGE,
    b"<html><body><p>Alone</p></body></html>",
    b"<html><body><div><!-- c --><p>One <b>two</b></p><?pi x?><p>three</p></div></body></html>",
    b'<html><body><svg:g xmlns:svg="http://www.w3.org/2000/svg">x</svg:g><p>after</p></body></html>',
    b'<html><body><main role="main" itemprop="articleBody"><p class="Byline AUTHOR">'
    b"By A</p><p id=x>Text</p></main><aside class=related><p>More</p></aside></body></html>",
]


@needs_twin
@pytest.mark.parametrize("html", ODD_PAGES)
def test_twin_equals_pure_on_hand_made_pages(html: bytes) -> None:
    doc = segment(parse_html(html))
    for pattern in ([True], [False], [True, False, False]):
        selected = [pattern[k % len(pattern)] for k in range(len(doc.blocks))]
        assert_same_rows(doc.blocks, selected)


@needs_twin
def test_twin_takes_blocks_without_elements_and_deep_pages() -> None:
    doc = segment(parse_html(PAGE))
    blocks = [*doc.blocks, TextBlock("orphan", num_words=1)]
    assert_same_rows(blocks, [True] * len(blocks))
    deep = b"<html><body>" + b"<div class=c>" * 300 + b"<p>deep text</p>" + b"</div>" * 300
    deep_doc = segment(parse_html(deep + b"</body></html>"))
    assert_same_rows(deep_doc.blocks, [True] * len(deep_doc.blocks))


@needs_twin
@pytest.mark.parametrize("seed", range(3))
def test_twin_equals_pure_on_random_pages(seed: int) -> None:
    rng = random.Random(seed)
    tags = ["div", "p", "section", "article", "li", "ul", "nav", "footer", "td", "span", "aside"]
    classes = ["", " class=comment", " class='post-content'", " id=footer", " role=navigation"]
    for _ in range(30):
        parts, depth = [], 0
        for _ in range(rng.randint(1, 60)):
            if depth and rng.random() < 0.3:
                parts.append("</div>")
                depth -= 1
            elif rng.random() < 0.4:
                parts.append(f"<div{rng.choice(classes)}>")
                depth += 1
            else:
                tag = rng.choice(tags)
                words = " ".join(
                    rng.choice(["word", "news", "x1"]) for _ in range(rng.randint(1, 30))
                )
                parts.append(f"<{tag}{rng.choice(classes)}>{words}</{tag}>")
        doc = segment(parse_html("<html><body>" + "".join(parts) + "</body></html>"))
        assert_same_rows(doc.blocks, [rng.random() < 0.5 for _ in doc.blocks])


@needs_twin
@pytest.mark.parametrize("dataset", TWIN_DATASETS)
def test_twin_equals_pure_on_every_shared_dataset_page(dataset: str) -> None:
    rng = random.Random(dataset)
    for _, doc in segmented_pages(dataset):
        assert_same_rows(doc.blocks, [rng.random() < 0.5 for _ in doc.blocks])


def test_the_twin_is_off_in_pure_python_mode() -> None:
    code = "from scrapy_boilerplate.features import structure\nassert structure._nodes is None\n"
    assert_runs_in_pure_python(code)
