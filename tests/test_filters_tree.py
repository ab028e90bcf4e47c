"""The grandparent-grouping precision filter."""

from __future__ import annotations

from pathlib import Path

from scrapy_boilerplate.filters.basic import MarkEverythingContent
from scrapy_boilerplate.filters.tree import (
    AncestorGroupingFilter,
    climb,
    nth_ancestor,
    paragraph_of,
)
from scrapy_boilerplate.model import labels as L
from scrapy_boilerplate.model.document import TextDocument
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import segment

PAGES = Path(__file__).parent / "fixtures" / "pages"


def _doc(html: str) -> TextDocument:
    return segment(parse_html(html))


def _content(doc: TextDocument) -> list[str]:
    return [block.text for block in doc.blocks if block.is_content]


def test_paragraph_is_the_closest_paragraph_tag() -> None:
    doc = _doc("<div id=d><ul><li><span>item text</span></li></ul></div>")
    element = doc.blocks[0].element
    assert element is not None and element.tag == "li"
    assert paragraph_of(element).tag == "ul"
    assert nth_ancestor(paragraph_of(element), 1).get("id") == "d"


def test_nth_ancestor_stops_at_the_root() -> None:
    doc = _doc("<p>text</p>")
    element = doc.blocks[0].element
    assert element is not None
    assert nth_ancestor(element, 50).tag == "html"


def test_keeps_only_the_group_with_the_most_text() -> None:
    html = (
        "<div><div class=a><p>"
        + "story words " * 30
        + "</p><p>"
        + "more story " * 20
        + "</p></div></div>"
        "<div><div class=b><p>" + "teaser text " * 10 + "</p></div></div>"
    )
    doc = _doc(html)
    MarkEverythingContent()(doc)
    assert AncestorGroupingFilter(depth=1)(doc)
    kept = _content(doc)
    assert len(kept) == 2 and all("story" in text for text in kept)
    dropped = [b for b in doc.blocks if not b.is_content]
    assert dropped and all(L.OUTSIDE_MAIN_GROUP in b.labels for b in dropped)


def test_depth_changes_the_grouping() -> None:
    html = (
        "<div><div class=a><p>"
        + "alpha " * 30
        + "</p></div><div class=b><p>"
        + "beta " * 20
        + "</p></div></div>"
    )
    parent = _doc(html)
    MarkEverythingContent()(parent)
    AncestorGroupingFilter(depth=1)(parent)
    assert _content(parent) == ["alpha " * 29 + "alpha"]
    grandparent = _doc(html)
    MarkEverythingContent()(grandparent)
    assert not AncestorGroupingFilter(depth=2)(grandparent)  # one group: nothing to drop
    assert len(_content(grandparent)) == 2


def test_min_share_widens_to_sibling_sections() -> None:
    html = (PAGES / "sibling_sections.html").read_text()
    plain = _doc(html)
    MarkEverythingContent()(plain)
    AncestorGroupingFilter(depth=2, min_share=0.0)(plain)
    assert len(_content(plain)) == 2  # the paper's rule keeps one section (heading + step)

    widened = _doc(html)
    MarkEverythingContent()(widened)
    AncestorGroupingFilter(depth=2, min_share=0.5)(widened)
    kept = _content(widened)
    assert sum("Step" in text for text in kept) == 3  # all three sections survive
    assert not any("newsletter" in text for text in kept)
    assert not any(text.startswith("Home") for text in kept)


def test_nothing_selected_is_a_no_op() -> None:
    doc = _doc("<p>one</p><div>two</div>")
    assert not AncestorGroupingFilter()(doc)


def test_climb_stops_at_the_first_subtree_holding_the_mass() -> None:
    root = parse_html(
        "<html><body><div id=outer><div id=a><p id=a1>x</p><p id=a2>x</p></div>"
        "<div id=b><p id=b1>x</p></div></div><div id=far><p id=f1>x</p></div></body></html>"
    )
    by_id = {element.get("id"): element for element in root.iter() if element.get("id")}
    start = by_id["a"]
    keyed = [(by_id["a1"], 2.0), (by_id["a2"], 1.0), (by_id["b1"], 3.0), (by_id["f1"], 4.0)]
    path = [start, *start.iterancestors()]  # a, outer, body, html
    reached, position = climb(start, keyed, 3.0)
    assert reached == 0  # a holds 2 + 1
    assert position == {by_id["a1"]: 0, by_id["a2"]: 0, by_id["b1"]: 1, by_id["f1"]: 2}
    reached, _ = climb(start, keyed, 6.0)
    assert path[reached].get("id") == "outer"  # 2 + 1 + 3
    reached, _ = climb(start, keyed, 10.0)
    assert path[reached].tag == "body"
    reached, _ = climb(start, keyed, 11.0)  # more than the page holds: the root
    assert path[reached].tag == "html"
    other = parse_html("<p>elsewhere</p>").find(".//p")
    assert other is not None
    _, position = climb(start, [(other, 1.0)], 0.0)
    assert position[other] == len(path)  # not under the path
