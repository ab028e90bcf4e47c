"""Structural block features: tags, distances to landmarks and class/id groups, aggregates."""

from __future__ import annotations

from scrapy_boilerplate.features.structure import (
    FAR,
    KEYWORD_GROUPS,
    keyword_mask,
    structure_feature_names,
    structure_features,
)
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


def test_no_blocks_no_rows() -> None:
    assert structure_features([], []) == []
