"""The one walk for a page's headings, meta tags and JSON-LD scripts."""

from __future__ import annotations

import pytest
from lxml import etree
from shared_datasets import TWIN_DATASETS, segmented_pages

from scrapy_boilerplate.model.document import TextDocument
from scrapy_boilerplate.page.declarations import (
    declarations,
    declared_elements_pure,
    document_declarations,
)
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import DECLARED_ELEMENTS, compiled_twin, segment

_speedups = compiled_twin("scrapy_boilerplate.page._speedups")

PAGE = b"""<html><head>
<meta name="description" content="In the head">
<meta property="og:title" content="">
<meta name="twitter:title">
<script type="application/ld+json">{"articleBody": "a"}</script>
<script type="text/javascript">var x;</script>
</head><body><h1>First</h1>
<div><meta name="description" content="In the body"><h1>Second</h1></div>
<script type="application/ld+json">{"name": "b"}</script>
<script type="APPLICATION/LD+JSON">{"name": "c"}</script>
</body></html>"""


def test_elements_are_found_in_document_order() -> None:
    found = declarations(parse_html(PAGE))
    assert [h.text for h in found.headings] == ["First", "Second"]
    assert [m.get("content") for m in found.meta] == ["In the head", "", None, "In the body"]
    # the type is compared exactly, as the XPath @type='application/ld+json' did
    assert [s.text for s in found.json_ld] == ['{"articleBody": "a"}', '{"name": "b"}']


def test_meta_contents_match_by_property_or_name_and_skip_tags_without_content() -> None:
    root = parse_html(PAGE)
    found = declarations(root)
    assert found.meta_contents(names={"description"}) == ["In the head", "In the body"]
    assert found.meta_contents({"og:title"}, {"twitter:title"}) == [""]
    assert found.meta_contents(names={"description"}, within=root.find("head")) == ["In the head"]
    assert found.meta_contents(names={"description"}, within=root.find("body")) == ["In the body"]


def test_same_answers_as_the_xpath_queries_they_replace() -> None:
    root = parse_html(PAGE)
    found = declarations(root)
    xpath = "//meta[@property='og:title' or @name='description']/@content"
    assert found.meta_contents({"og:title"}, {"description"}) == [str(v) for v in root.xpath(xpath)]
    assert list(found.json_ld) == root.xpath("//script[@type='application/ld+json']")
    assert list(found.headings) == root.xpath("//h1")


def test_document_declarations_are_computed_once_per_root() -> None:
    doc = TextDocument([], root=parse_html(PAGE))
    first = document_declarations(doc)
    assert first is not None and document_declarations(doc) is first
    doc.root = etree.fromstring("<html><body><h1>Other</h1></body></html>")
    other = document_declarations(doc)
    assert other is not first and other is not None
    assert [h.text for h in other.headings] == ["Other"]
    assert document_declarations(TextDocument([])) is None


def assert_same_elements(root: etree._Element) -> None:
    """The compiled walk of its own and the segmentation walk (in both modes) find the very
    elements of the reference."""
    assert _speedups is not None
    want = declared_elements_pure(root)
    found = [_speedups.declared_elements(root)]
    found += [_speedups.walk(root, strict)[2] for strict in (False, True)]
    for fast in found:
        assert fast is not None
        for got, expected in zip(fast, want, strict=True):
            assert len(got) == len(expected)
            assert all(a is b for a, b in zip(got, expected, strict=True))


def test_compiled_elements_are_the_references_on_hand_made_trees() -> None:
    if _speedups is None:
        pytest.skip("the compiled page twin is not built")
    assert_same_elements(parse_html(PAGE))
    assert_same_elements(parse_html(PAGE).find("body"))  # a subtree: root included, no more
    assert_same_elements(parse_html("<h1>only</h1>").find(".//h1"))
    assert_same_elements(etree.fromstring("<meta><h1><script/></h1><meta/></meta>"))
    # inside what the segmentation walk skips (head, ignorable elements) or labels hidden
    assert_same_elements(
        parse_html(
            "<html><head><meta name=a content=1><script>x</script><title>t</title></head>"
            "<body><svg><h1>drawn</h1><meta name=b content=2></svg><select><option>o"
            "<script>y</script></option></select><div hidden><h1>hidden</h1></div>"
            "<iframe><h1>framed</h1></iframe><h1>last</h1><script>z</script></body></html>"
        )
    )


def test_elements_that_may_name_a_comment_are_found_by_both_twins() -> None:
    root = parse_html(
        "<html><body class='comments-open'><div class='Story'><p id='DISQUS_thread'>a</p>"
        "<ol class='commentlist'><li class='reply'>b</li></ol><p class='x' id='kommentare'>c</p>"
        "<p class='moment'>d</p><p class='comentário'>e</p></div></body></html>"
    )
    named = declared_elements_pure(root)[3]
    assert [e.get("class") or e.get("id") for e in named] == [
        "comments-open",
        "DISQUS_thread",
        "commentlist",
        "reply",
        "x",
    ]
    if _speedups is not None:
        assert_same_elements(root)


def test_the_segmentation_walk_hands_its_elements_to_the_document() -> None:
    if _speedups is None:
        pytest.skip("the compiled page twin is not built")
    root = parse_html(PAGE)
    doc = segment(root)
    assert doc.memo[DECLARED_ELEMENTS][0] is root
    found = document_declarations(doc)
    assert found == declarations(root)
    namespaced = etree.fromstring('<html xmlns="urn:x"><body><h1>a</h1></body></html>')
    assert _speedups.walk(namespaced, False)[2] is None
    assert DECLARED_ELEMENTS not in segment(namespaced).memo


def test_namespaced_trees_and_entity_references_go_to_the_reference() -> None:
    if _speedups is None:
        pytest.skip("the compiled page twin is not built")
    namespaced = etree.fromstring('<html xmlns="urn:x"><h1>a</h1></html>')
    assert _speedups.declared_elements(namespaced) is None
    assert declarations(namespaced).headings == ()  # lxml's iter("h1") matches no-namespace tags
    with_entity = etree.fromstring("<html><body><h1>a</h1></body></html>")
    with_entity.find("body").append(etree.Entity("nbsp"))
    assert _speedups.declared_elements(with_entity) is None
    assert len(declarations(with_entity).headings) == 1


@pytest.mark.parametrize("dataset", TWIN_DATASETS)
def test_compiled_elements_on_every_shared_page(dataset: str) -> None:
    if _speedups is None:
        pytest.skip("the compiled page twin is not built")
    for _, doc in segmented_pages(dataset):
        assert doc.root is not None
        assert_same_elements(doc.root)


def test_modal_dialogs_are_found_by_both_twins() -> None:
    root = parse_html(
        "<html><body><div role='dialog'><p>cookies</p></div><nav role='navigation'>n</nav>"
        "<div aria-modal='TRUE'><p>sign in</p></div><div role=' AlertDialog '>a</div>"
        "<div aria-modal='false' role='region'>r</div></body></html>"
    )
    assert len(declared_elements_pure(root)[4]) == 5  # every role or aria-modal: candidates
    found = declarations(root).dialogs
    assert ["".join(e.itertext()) for e in found] == ["cookies", "sign in", "a"]
    if _speedups is not None:
        assert_same_elements(root)
