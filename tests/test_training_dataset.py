"""Training rows: the element skeleton that lets the decoding apply tree rules without the DOM."""

from __future__ import annotations

import pickle

from scrapy_boilerplate.filters.regions import CommentRegionFilter
from scrapy_boilerplate.filters.tree import PARAGRAPH_TAGS, nth_ancestor, paragraph_of
from scrapy_boilerplate.model import labels as L
from scrapy_boilerplate.model.document import Element
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import segment
from scrapy_boilerplate.training.dataset import skeleton_elements, skeleton_of

HTML = (
    "<body><header><nav><ul><li><a href=/>Home</a></li><li><a href=/a>About</a></li></ul></nav>"
    "</header><main><article><h1>Title</h1><div class=body><p>First paragraph of the story.</p>"
    "<p>Second paragraph.</p></div></article><aside><div><p>Related teaser</p></div></aside>"
    "</main><footer><p>Copyright</p></footer></body>"
)


def _path(element: Element) -> list[str]:
    return [element.tag, *(str(node.tag) for node in element.iterancestors())]


def test_skeleton_keeps_every_container_and_its_ancestors() -> None:
    doc = segment(parse_html(HTML))
    skeleton, containers = skeleton_of(doc.blocks)
    assert len(containers) == len(doc.blocks)
    elements = skeleton_elements(pickle.loads(pickle.dumps(skeleton)))
    for block, container in zip(doc.blocks, containers, strict=True):
        assert block.element is not None
        assert _path(elements[container]) == _path(block.element)
    # each element once: as many as the distinct containers and ancestors
    distinct = {
        node
        for block in doc.blocks
        if block.element is not None
        for node in (block.element, *block.element.iterancestors())
    }
    assert len(skeleton) == len(distinct)


def test_skeleton_groups_blocks_as_the_page_does() -> None:
    doc = segment(parse_html(HTML))
    skeleton, containers = skeleton_of(doc.blocks)
    elements = skeleton_elements(skeleton)
    real = {}
    copy = {}
    for index, (block, container) in enumerate(zip(doc.blocks, containers, strict=True)):
        assert block.element is not None
        real.setdefault(nth_ancestor(paragraph_of(block.element), 1), []).append(index)
        copy.setdefault(nth_ancestor(paragraph_of(elements[container]), 1), []).append(index)
    assert sorted(real.values()) == sorted(copy.values())
    assert len(real) > 2 and "p" in PARAGRAPH_TAGS


def test_blocks_without_element_have_no_container() -> None:
    doc = segment(parse_html(HTML))
    doc.blocks[0].elements = []
    _, containers = skeleton_of(doc.blocks)
    assert containers[0] == -1 and all(c >= 0 for c in containers[1:])


def test_skeleton_keeps_the_names_the_comment_rule_reads() -> None:
    html = (
        b"<html><body class='comments-open'><div class='story'><p>Text of the story.</p></div>"
        b"<ul id='comments'><li class='comment'><p>A reader's view.</p></li></ul></body></html>"
    )
    doc = segment(parse_html(html))
    skeleton, containers = skeleton_of(doc.blocks)
    copy = segment(parse_html(html))
    copy.root = None  # as in the decoding of training rows: the skeleton is the only tree
    elements = skeleton_elements(skeleton)
    for block, container in zip(copy.blocks, containers, strict=True):
        block.elements = [elements[container]]
    CommentRegionFilter()(doc)
    CommentRegionFilter()(copy)
    assert [b.labels for b in copy.blocks] == [b.labels for b in doc.blocks]
    assert any(L.COMMENT in b.labels for b in doc.blocks)
