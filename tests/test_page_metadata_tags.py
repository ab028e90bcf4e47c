"""The one walk for the metadata elements and ``itemtype`` values, and its compiled twin."""

from __future__ import annotations

import pytest
from lxml import etree
from shared_datasets import TWIN_DATASETS, segmented_pages

from scrapy_boilerplate.page.metadata import tags as tags_module
from scrapy_boilerplate.page.metadata.tags import (
    MAX_TAGS,
    MAX_TIMES,
    PageTags,
    metadata_elements_pure,
    page_tags,
)
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import compiled_twin

_speedups = compiled_twin("scrapy_boilerplate.page._speedups")

PAGE = b"""<html lang="de"><head>
<meta name="Author" content="Ana Lima"><meta property="og:title" content="T">
<link rel="stylesheet" href="/s.css"><link rel="Canonical" href="/a">
<base href="https://example.com/">
<script>var x;</script><script type="application/ld+json">{}</script>
</head><body itemscope itemtype="https://schema.org/WebPage">
<h1>First</h1><time datetime="2024-03-05" itemprop="datePublished">5 March</time>
<div itemscope itemtype=""><h1>Second</h1><p itemtype="http://schema.org/Person">p</p></div>
</body></html>"""


def assert_twins_agree(root: etree._Element) -> None:
    """The compiled walk finds the very elements and values of the reference."""
    assert _speedups is not None
    elements, types = metadata_elements_pure(root)
    found = _speedups.metadata_elements(root, MAX_TAGS)
    assert found is not None
    assert len(found[0]) == len(elements)
    assert all(a is b for a, b in zip(found[0], elements, strict=True))
    assert found[1] == types


def test_the_reference_finds_the_six_tags_and_the_item_types_in_document_order() -> None:
    root = parse_html(PAGE)
    elements, types = metadata_elements_pure(root)
    assert [e.tag for e in elements] == [
        "meta", "meta", "link", "link", "base", "script", "script", "h1", "time", "h1"
    ]  # fmt: skip
    assert types == ["https://schema.org/WebPage", "", "http://schema.org/Person"]


def test_page_tags_files_what_the_walk_found() -> None:
    tags = page_tags(parse_html(PAGE))
    assert tags.meta["author"] == ["Ana Lima"] and tags.meta["og:title"] == ["T"]
    assert tags.canonical == ["/a"] and tags.base_href == "https://example.com/"
    assert len(tags.jsonld) == 1 and tags.times == ["2024-03-05"]
    assert tags.meta["datepublished"] == ["2024-03-05"]
    assert tags.headline is not None and tags.headline.text == "First"
    assert tags.item_types == ["https://schema.org/WebPage", "", "http://schema.org/Person"]
    assert tags.lang == "de"


def test_compiled_walk_is_the_reference_on_hand_made_trees() -> None:
    if _speedups is None:
        pytest.skip("the compiled page twin is not built")
    assert_twins_agree(parse_html(PAGE))
    assert_twins_agree(parse_html(PAGE).find("body"))  # a subtree: root included, no more
    assert_twins_agree(parse_html("<meta name=a content=b>").find(".//meta"))
    assert_twins_agree(etree.fromstring("<time itemtype='x'><h1/><link/></time>"))


def test_compiled_walk_stops_adding_elements_at_its_limit_but_reads_every_item_type() -> None:
    if _speedups is None:
        pytest.skip("the compiled page twin is not built")
    found = _speedups.metadata_elements(parse_html(PAGE), 3)
    assert found is not None
    assert [e.tag for e in found[0]] == ["meta", "meta", "link"]
    assert found[1] == ["https://schema.org/WebPage", "", "http://schema.org/Person"]


def test_trees_the_compiled_walk_leaves_to_the_reference() -> None:
    if _speedups is None:
        pytest.skip("the compiled page twin is not built")
    namespaced = etree.fromstring('<html xmlns="urn:x"><meta/></html>')
    assert _speedups.metadata_elements(namespaced, MAX_TAGS) is None
    assert page_tags(namespaced).item_types == []
    with_entity = etree.fromstring("<html><body><h1>a</h1></body></html>")
    with_entity.find("body").append(etree.Entity("nbsp"))
    assert _speedups.metadata_elements(with_entity, MAX_TAGS) is None
    assert page_tags(with_entity).headline is not None


FILED = b"""<html><head><meta name=" DC.Date " property="" content="2024-03-05">
<meta name="x" itemprop="Author" http-equiv="a" content=""><meta name="nocontent">
<meta property="og:title" content="T"><meta name="og:title" content="U">
<link rel="Canonical  Alternate" href="/a"><link rel="canonical"><link rel="noncanonical" href="/b">
<link rel="canonical" href=""><base><base href="/x/"><base href="/y/">
<script>1</script><script type=" Application/LD+JSON; charset=utf-8">{}</script>
<script type="text/ld+json">{}</script></head><body itemscope itemtype="https://schema.org/A">
<h1>First</h1><time datetime="2024-03-05" itemprop="datePublished" name="when">x</time>
<time datetime="" itemprop="">y</time><time itemprop="dateModified">z</time><h1>Second</h1>
<p itemtype="B">\xc3\xa9</p><meta name="\xc3\x89t\xc3\xa9" content="\xe6\xbc\xa2"></body></html>"""


def pure_tags(root: etree._Element) -> PageTags:
    """``page_tags(root)`` with the compiled twin switched off."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tags_module, "_speedups", None)
        return page_tags(root)


def assert_same_tags(root: etree._Element) -> None:
    """The compiled filing gives the values, elements and flags of the reference."""
    assert _speedups is not None
    assert _speedups.file_metadata_elements(root, PageTags(), MAX_TAGS, MAX_TIMES) is not None
    found, reference = page_tags(root), pure_tags(root)
    for name in ("meta", "canonical", "base_href", "lang", "times", "item_types"):
        assert getattr(found, name) == getattr(reference, name), name
    assert list(found.meta) == list(reference.meta)  # keys in the order first filed
    assert len(found.jsonld) == len(reference.jsonld)
    assert all(a is b for a, b in zip(found.jsonld, reference.jsonld, strict=True))
    assert found.headline is reference.headline and found.whole_tree is reference.whole_tree
    assert found.forum_poster is reference.forum_poster and found.tree is reference.tree


def test_compiled_filing_is_the_reference_on_hand_made_trees() -> None:
    if _speedups is None:
        pytest.skip("the compiled page twin is not built")
    root = parse_html(FILED)
    tags = page_tags(root)
    assert tags.meta["dc.date"] == ["2024-03-05"] and tags.meta["author"] == [""]
    assert tags.meta["og:title"] == ["T", "U"] and tags.meta["été"] == ["漢"]
    assert tags.meta["when"] == tags.meta["datepublished"] == ["2024-03-05"]
    assert tags.canonical == ["/a", ""] and tags.base_href == "/x/"
    assert len(tags.jsonld) == 1 and tags.times == ["2024-03-05", ""]
    assert tags.headline is not None and tags.headline.text == "First"
    for tree in (root, parse_html(PAGE)):
        body = tree.find("body")
        assert body is not None
        assert_same_tags(tree)
        assert_same_tags(body)  # a subtree: not the whole tree
    assert_same_tags(etree.fromstring("<time datetime='1' itemprop='a'><h1/><link/></time>"))


def test_every_key_of_the_reference_is_compiled() -> None:
    """A ``<meta>`` is filed under each attribute the reference files it under (a key added
    to one must be added to the other)."""
    if _speedups is None:
        pytest.skip("the compiled page twin is not built")
    meta = etree.Element("meta", {key: f"k-{key}" for key in tags_module._KEYS}, content="v")
    tags = PageTags()
    assert _speedups.file_metadata_elements(meta, tags, MAX_TAGS, MAX_TIMES) == 1
    assert tags.meta == {f"k-{key}": ["v"] for key in tags_module._KEYS}


def test_compiled_filing_stops_at_its_limits() -> None:
    if _speedups is None:
        pytest.skip("the compiled page twin is not built")
    root = parse_html(FILED)
    tags = PageTags()
    assert _speedups.file_metadata_elements(root, tags, 3, 1) == 3
    assert list(tags.meta) == ["dc.date", "x", "author", "a"] and tags.times == []
    assert tags.item_types == ["https://schema.org/A", "B"]  # every one, as the walk
    tags = PageTags()
    assert _speedups.file_metadata_elements(root, tags, MAX_TAGS, 1) == 21
    assert tags.times == ["2024-03-05"]


def test_trees_the_compiled_filing_leaves_to_the_reference() -> None:
    if _speedups is None:
        pytest.skip("the compiled page twin is not built")
    namespaced = etree.fromstring('<html xmlns="urn:x"><meta/></html>')
    with_entity = etree.fromstring("<html><body><h1>a</h1></body></html>")
    with_entity[0].append(etree.Entity("nbsp"))
    for tree in (namespaced, with_entity):
        tags = PageTags()
        assert _speedups.file_metadata_elements(tree, tags, MAX_TAGS, MAX_TIMES) is None
        assert tags.item_types is None and tags.meta == {}  # untouched
    assert page_tags(with_entity).headline is not None


@pytest.mark.parametrize("dataset", [*TWIN_DATASETS, "fundus", "magic-html"])
def test_compiled_walk_and_filing_on_every_shared_page(dataset: str) -> None:
    if _speedups is None:
        pytest.skip("the compiled page twin is not built")
    for _, doc in segmented_pages(dataset):
        assert doc.root is not None
        assert_twins_agree(doc.root)
        assert_same_tags(doc.root)


def test_the_tags_know_whether_they_read_the_whole_tree() -> None:
    root = parse_html(PAGE)
    tags = page_tags(root)
    body = root.find("body")
    assert body is not None and tags.read_whole(body) and tags.read_whole(root)
    assert not tags.read_whole(parse_html(PAGE))  # another tree
    assert not page_tags(body).read_whole(body)  # a subtree: the elements above were not read


FORUM_POSTERS = """<html><body><div class="post"><h3 class="x">Off</h3>{poster}
<div class="postleft"><dl><dd>no</dd></dl></div></div><h4>Unplaced</h4></body></html>"""


@pytest.mark.parametrize(
    ("poster", "name"),
    [
        ('<div class="postleft"><dl><dt><strong>ana</strong></dt></dl></div>', "ana"),
        ('<h3 class="PostUser-name hidden">bo</h3>', "bo"),
        ('<div class="box\tposter"><h4><a>cy</a></h4></div>', "cy"),
        ('<div class="posters"><h4>no</h4></div><div class="poster"><h4>dee</h4></div>', "dee"),
        ('<h3 class="PostUser-names">no</h3><div class="left"><dl><dt>no</dt></dl></div>', None),
        ('<div class="poster\u00a0x"><h4>eve</h4></div>', "eve"),  # str.split's white space
    ],
)
def test_the_walk_finds_the_first_forum_posts_author_element(poster: str, name: str | None) -> None:
    """The reference and the compiled walk find the same element, looked for in the whole tree
    of a root (a subtree's walk has none)."""
    root = parse_html(FORUM_POSTERS.format(poster=poster))
    found = page_tags(root).forum_poster
    assert (None if found is None else "".join(found.itertext())) == name
    assert pure_tags(root).forum_poster is found
    body = root.find("body")
    assert body is not None and page_tags(body).tree is None
    if _speedups is not None:  # a class the twin cannot split (U+00A0): the reference's
        assert_same_tags(root)
