"""The node table: subtree counts, document-order offsets, the area proxy and hidden folding."""

from __future__ import annotations

from scrapy_boilerplate.features.nodes import (
    MIN_AREA,
    NodeTable,
    areas,
    fold_hidden,
    node_table,
)
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import segment

PAGE = """<html><head><title>Storm hits the coast</title></head><body>
<div id="nav"><a href="/home">Home</a> <a href="https://other.org/x">Elsewhere</a>
<a href="https://www.news.com/world">World news</a></div>
<article><h1>Storm hits the coast</h1>
<p>The storm reached the <b>coast</b> on Monday, with winds of 120 km/h.</p>
<img src="a.jpg"><script>var hidden = "never counted";</script> tail words
<form><input name="q"><button>Go</button></form></article>
<p style="display:none">secret text</p>
</body></html>"""


def table_of(
    html: str, url: str | None = "https://news.com/a", title: str | None = None
) -> NodeTable:
    return node_table(parse_html(html), url, title)


def by_tag(table: NodeTable, tag: str) -> int:
    return next(i for i, element in enumerate(table.elements) if element.tag == tag)


def test_nodes_are_in_document_order_with_parents_first() -> None:
    table = table_of(PAGE)
    assert table.elements[0].tag == "body"
    assert table.parent[0] == -1
    assert all(0 <= table.parent[i] < i for i in range(1, len(table)))
    assert [table.depth[i] for i in range(3)] == [0, 1, 2]  # body, div, a
    tags = [element.tag for element in table.elements]
    assert "script" not in tags  # ignorable: not a node
    assert tags.count("p") == 1  # the hidden <p> is not a node


def test_subtree_counts() -> None:
    table = table_of(PAGE, title="Storm hits the coast")
    nav, article, p = by_tag(table, "div"), by_tag(table, "article"), by_tag(table, "p")
    assert table.words[nav] == 4
    assert table.anchor_words[nav] == 4
    assert table.anchor_chars[nav] == table.chars[nav] == len("HomeElsewhereWorldnews")
    assert table.links[nav] == 3
    assert table.internal_links[nav] == 2  # relative, and www.news.com on news.com
    assert table.words[p] == 12  # "coast" inside <b> counts for <p>
    assert table.images[article] == 1
    assert table.inputs[article] == 2
    assert table.words[article] == 4 + 12 + 2 + 1  # h1, p, "tail words" after script, "Go"
    assert table.words[0] == table.words[nav] + table.words[article]
    # title words: storm, hits, coast ("the" is a stop word), in the headline and the paragraph
    assert table.title_vocabulary == 3
    assert table.title_words[by_tag(table, "h1")] == 3
    assert table.title_words[p] == 2


def test_characters_equal_the_segmenters_text() -> None:
    root = parse_html(PAGE)
    doc = segment(root)
    table = node_table(root)
    assert table.chars[0] == sum(len("".join(block.text.split())) for block in doc.blocks)


def test_offsets_are_in_document_order() -> None:
    table = table_of(PAGE)
    nav, article = by_tag(table, "div"), by_tag(table, "article")
    assert table.first_char[0] == 0 and table.last_char[0] == table.chars[0]
    assert table.last_char[nav] == table.first_char[article]
    assert table.first_char[nav] == 0
    for i in range(1, len(table)):
        up = table.parent[i]
        assert table.first_char[up] <= table.first_char[i] <= table.last_char[i]
        assert table.last_char[i] <= table.last_char[up]


def test_html_bytes_grow_up_the_tree_and_count_skipped_elements() -> None:
    table = table_of(PAGE)
    for i in range(1, len(table)):
        assert table.html_bytes[table.parent[i]] > table.html_bytes[i]
    article = by_tag(table, "article")
    script = 'var hidden = "never counted";'
    assert table.html_bytes[article] > len(script) + table.chars[article]


def test_hidden_elements_can_be_kept() -> None:
    table = node_table(parse_html(PAGE), keep_hidden=True)
    assert [element.tag for element in table.elements].count("p") == 2
    assert table.words[0] == table_of(PAGE).words[0] + 2


def test_area_proxy() -> None:
    table = table_of(PAGE)
    area = areas(table)
    article = by_tag(table, "article")
    assert area[article] == table.chars[article] + 100 + 2 * 30


def test_small_nodes_fold_into_their_parent_with_weight() -> None:
    html = (
        "<html><body><div><p>This paragraph is long enough to be seen.</p>"
        "<span>ok</span><i>x</i><em>tiny <b>y</b></em></div><p>hi</p></body></html>"
    )
    table = table_of(html)
    area = areas(table)
    tree = fold_hidden(table, area)
    div = by_tag(table, "div")
    visible_tags = [table.elements[i].tag for i in tree.nodes]
    assert visible_tags == ["body", "div", "p"]
    assert tree.parent == [-1, 0, 1]
    # div: hidden children span, i, em (b is a grandchild); body: the hidden <p>hi</p>
    assert tree.weight == [2.0, 4.0, 1.0]
    assert tree.owner[by_tag(table, "b")] == tree.nodes.index(div)
    for i, owner in enumerate(tree.owner):
        assert area[i] >= MIN_AREA or i == 0 or tree.nodes[owner] != i
        ancestors_or_self = {i}
        node = i
        while node > 0:
            node = table.parent[node]
            ancestors_or_self.add(node)
        assert tree.nodes[owner] in ancestors_or_self


def test_body_is_visible_even_when_small() -> None:
    table = table_of("<html><body><p>a</p></body></html>")
    tree = fold_hidden(table, areas(table))
    assert tree.nodes == [0]
    assert tree.weight == [2.0]
    assert tree.owner == [0, 0]


def test_no_body_no_nodes() -> None:
    assert len(node_table(None)) == 0
    frameset = parse_html("<html><head><title>t</title></head><frameset></frameset></html>")
    assert len(node_table(frameset)) == 0


def test_deep_pages_need_no_recursion() -> None:
    html = "<html><body>" + "<div>" * 2000 + "deep text here" + "</div>" * 2000 + "</body></html>"
    table = table_of(html)
    assert len(table) == 2001
    assert table.words[0] == 3
    assert table.depth[-1] == 2000
