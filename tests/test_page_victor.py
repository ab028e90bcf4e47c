"""Victor's pre-cleaning and block split (Marek 2007, §3.2-3.3)."""

from __future__ import annotations

import pytest
from lxml import etree

from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.victor import VictorBlock, victor_blocks


def split(html: str) -> list[VictorBlock]:
    return victor_blocks(parse_html(html))


def texts(html: str) -> list[str]:
    return [block.text for block in split(html)]


def test_thesis_example_gives_three_blocks_the_last_glued() -> None:
    hello, world, bang = split("<p>Hello <b><i>world</i></b>!</p>")
    assert [hello.text, world.text, bang.text] == ["Hello", "world", "!"]
    assert [hello.glued, world.glued, bang.glued] == [False, False, True]
    assert world.containers == ("p", "b", "i")
    assert world.distance == ("b", "i")
    assert bang.distance == ("/i", "/b")


def test_glued_needs_no_whitespace_and_only_inline_tags() -> None:
    blocks = split("<p>one<b>two</b> three</p><p>four</p>five<span>six</span>")
    assert [b.glued for b in blocks] == [False, True, False, False, False, True]


def test_div_groups_of_the_thesis_example() -> None:
    blocks = split("<div> a <div> b <br> c </div> d <div> e f </div> g </div>")
    groups: dict[int, list[str]] = {}
    for block in blocks:
        groups.setdefault(block.div_group, []).append(block.text)
    assert sorted(groups.values()) == [["a", "d", "g"], ["b", "c"], ["e f"]]


def test_td_groups_and_no_group_outside() -> None:
    blocks = split("<p>out</p><table><tr><td>x<div>y</div></td><td>z</td></tr></table>")
    out, x, y, z = blocks
    assert out.td_group == 0
    assert x.td_group == y.td_group != z.td_group
    assert y.div_group != x.div_group == 0


def test_deleted_elements_give_no_text() -> None:
    html = (
        "<p>kept</p><script>var x = '</p>';</script><style>p {}</style><object>obj</object>"
        "<select><option>opt</option></select><button>Go</button><iframe>frame</iframe>"
        "<form><input value='typed'><textarea>area</textarea></form><p>end</p>"
    )
    assert texts(html) == ["kept", "end"]


def test_img_alt_is_a_block_inside_the_img() -> None:
    (alt,) = split('<p><img src="x.png" alt="  A  red\nbus "></p>')
    assert alt.text == "A red bus"
    assert alt.containers == ("p", "img")
    assert texts('<img src="x.png" alt="">') == []


def test_pre_gives_one_block_per_line() -> None:
    blocks = split("<pre>first  line\n\n  second\nthird <b>bold</b> end</pre>")
    assert [b.text for b in blocks] == ["first line", "second", "third", "bold", "end"]
    assert blocks[1].distance == ("br", "br")
    assert blocks[2].distance == ("br",)


def test_void_elements_count_once_in_distance() -> None:
    _, after = split("<p>a<br>b</p>")
    assert after.distance == ("br",)
    _, after_two = split("<p>a<br><br>b</p>")
    assert after_two.distance == ("br", "br")


def test_distance_records_open_and_close_tags() -> None:
    first, second = split("<div><p>one</p></div><div><p>two</p></div>")
    assert first.distance == ("div", "p")
    assert second.distance == ("/p", "/div", "div", "p")


def test_hidden_elements_are_dropped_unless_they_hold_the_content() -> None:
    assert texts("<p>shown text</p><div hidden><p>menu</p></div>") == ["shown text"]
    html = "<p>x</p><div style='display:none'><p>the whole hidden article</p></div>"
    assert texts(html) == ["x", "the whole hidden article"]


def test_no_body_no_blocks() -> None:
    assert victor_blocks(parse_html("<html><head><title>t</title></head></html>")) == []


def test_ten_thousand_levels_need_no_recursion() -> None:
    # libxml2 stops parsing at 2,048 levels; a tree built in memory can be deeper.
    root = etree.Element("html")
    element = etree.SubElement(root, "body")
    for _ in range(10_000):
        element = etree.SubElement(element, "div")
    element.text = "deep"
    element.tail = "tail"
    (deep,) = [b for b in victor_blocks(root) if b.text == "deep"]
    assert len(deep.containers) == 10_000
    assert [b.text for b in victor_blocks(root)] == ["deep", "tail"]


def test_no_text_lost_against_html_text() -> None:
    html_text = pytest.importorskip("html_text")
    html = (
        "<html><body><h1>Head</h1><p>Some <a href='#'>linked</a> text, <i>and</i> more.</p>"
        "<ul><li>one</li><li>two <b>bold</b></li></ul><table><tr><td>cell</td><td>9</td></tr>"
        "</table><div>last<br>line</div></body></html>"
    )
    ours = " ".join(texts(html)).split()
    theirs = html_text.extract_text(html).split()
    assert sorted(word.strip(",.") for word in ours) == sorted(w.strip(",.") for w in theirs)


def test_text_directly_in_body_forms_blocks() -> None:
    assert texts("<body>lead<p>x</p>tail</body>") == ["lead", "x", "tail"]
