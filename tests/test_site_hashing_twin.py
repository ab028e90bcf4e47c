"""The compiled subtree hashes (``site/_hashing``) against the pure-Python walk: the same
elements, hashes, sizes, character counts, parents, signed flags and fingerprints on hand-made
trees, on text holding every character of the Basic Multilingual Plane, and on every shared
dataset page."""

from __future__ import annotations

import hashlib
import random

import pytest
from lxml import etree
from pure_python import assert_runs_in_pure_python, twin_or_skip
from shared_datasets import SHARED_DATASETS, TWIN_DATASETS

from scrapy_boilerplate.errors import BoilerplateError
from scrapy_boilerplate.evaluation.datasets import load_pages
from scrapy_boilerplate.model.document import Element
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.site import hashing, sitelevel
from scrapy_boilerplate.site.sitelevel import (
    groups_inside_templates,
    groups_inside_templates_pure,
    mark_templates,
    mark_templates_pure,
)

_hashing = twin_or_skip("scrapy_boilerplate.site._hashing")


def assert_same(root: Element) -> None:
    """The twin's tree and fingerprint of ``root`` are the reference's."""
    reference = hashing.hash_tree_pure(root)
    body = hashing.body_of(root)
    if body is None:
        assert len(reference) == 0
        return
    elements, hashes, sizes, chars, parents, signed = _hashing.hash_body(body)
    assert len(elements) == len(reference)
    assert all(got is want for got, want in zip(elements, reference.elements, strict=True))
    assert hashes == reference.hashes
    assert sizes == reference.sizes
    assert chars == reference.chars
    assert parents == reference.parents
    assert signed == reference.signed
    for limit in (hashing.MAX_FINGERPRINT_HASHES, 3):
        expected = hashing.encode_hashes(hashing.fingerprint_hashes(reference)[:limit])
        assert _hashing.fingerprint(body, limit) == expected
        assert _hashing.fingerprint_of(reference.hashes, reference.signed, limit) == expected
    assert_same_marks(root, reference)


def assert_same_marks(root: Element, tree: hashing.TreeHashes) -> None:
    """The twin's template marks and groups inside templates are the reference's, for
    template sets of several sizes; the twin remembers the page's fingerprint on the way."""
    rng = random.Random(len(tree))
    groups = element_groups(root, tree, rng)
    fingerprint = hashing.encode_hashes(hashing.fingerprint_hashes(tree))
    positions = tree.positions()
    for share in (0.0, 0.1, 0.5, 1.0):
        templates = frozenset(digest for digest in tree.hashes if rng.random() < share)
        for cover, text_cover in ((0.85, None), (0.85, 0.85), (0.5, 0.2)):
            got = mark_templates(tree, templates, cover, text_cover)
            want = mark_templates_pure(tree, templates, cover, text_cover)
            assert got == want, (share, cover, text_cover)
            if share not in (0.1, 1.0):
                continue
            inside = groups_inside_templates(root, groups, templates, cover, text_cover)
            assert inside == [
                bool(group) and all(e in positions and want.inside[positions[e]] for e in group)
                for group in groups
            ], (share, cover, text_cover)
            assert hashing.page_fingerprint(root) == fingerprint
    assert inside == groups_inside_templates_pure(root, groups, templates, cover, text_cover)


def element_groups(
    root: Element, tree: hashing.TreeHashes, rng: random.Random
) -> list[list[Element]]:
    """Groups of elements as blocks hold them: runs of the tree's elements, single ones, an
    empty group, and groups with an element outside ``<body>`` or in a skipped subtree."""
    elements = tree.elements
    groups: list[list[Element]] = [[]]
    for _ in range(min(len(elements), 40)):
        start = rng.randrange(len(elements))
        groups.append(elements[start : start + rng.randint(1, 4)])
    in_tree = set(elements)
    outside = [e for e in root.iter() if isinstance(e.tag, str) and e not in in_tree]
    if outside and elements:
        groups += [[outside[0]], [elements[-1], outside[-1]]]
    return groups


def test_blake2b_matches_hashlib() -> None:
    rng = random.Random(34)
    for size in [*range(0, 300), 1000, 4096, 100_000]:
        data = rng.randbytes(size)
        want = int(hashlib.blake2b(data, digest_size=8).hexdigest(), 16)
        assert _hashing.blake2b_64(data) == want, size


HAND_MADE = [
    "<html><body><p>Hello <b>World</b> 2024 tail</p><!-- c -->after<?pi x?>pi tail</body></html>",
    "<html><body><div>\n  <script>var x = 1;</script> after script <style>p{}</style>"
    "<svg><text>no</text></svg>kept<iframe>x</iframe></div><img src='/a.png'></body></html>",
    "<body><a href='https://www.Example.com/News/2024/x-12?utm=1#top'>A</a>"
    "<a href='  //cdn.example.com/p/9 '>B</a><a href='mailto:me@x.org'>C</a><a href=''>D</a>"
    "<a>E</a><a href='rel/ative 12?x'>F</a><a href='#frag'>G</a><a href='?q=1'>H</a>"
    "<a href='1http://x/y'>I</a><a href='ab+c.d-e:/p4'>J</a><a href='\t/x\x1c'>K</a></body>",
    "<body><p>Café ÉCOLE Straße ΣΊΣΥΦΟΣ Ǆ ﬁ ΐ İstanbul Привет МИР 東京 ２０２４</p>"
    "<p>nbsp\xa0here\u2003em\u3000ideographic\u2028line\u0085nel</p>"
    "<p>emoji 😀 and 𐐀 deseret</p><a href='/caf\u00e9/Ü 1'>ü</a></body>",
    "<body>   <div> \n </div><span></span><p>  lead  <i> in </i>  trail  </p>"
    "<ul><li>1</li><li>2</li></ul>&amp; &lt;b&gt; text<br>tail</body>",
    "<html><head><title>t</title></head><div>no body tag <p>x</p></div></html>",
    "<html><body></body></html>",
    "<body><table><tr><td>a</td><td>b<![CDATA[c]]>d</td></tr></table><textarea>t</textarea>"
    "<noscript><p>n</p></noscript>n tail<template><p>t</p></template></body>",
]


@pytest.mark.parametrize("html", HAND_MADE)
def test_hand_made_pages(html: str) -> None:
    assert_same(parse_html(html))


def test_no_body_and_trees_built_with_the_api() -> None:
    assert_same(etree.fromstring("<html><head/></html>"))
    root = etree.Element("html")
    body = etree.SubElement(root, "body")
    body.text = "a"
    first = etree.SubElement(body, "p")
    first.text, first.tail = "x", "y"
    etree.SubElement(body, "{http://example.com/ns}item").text = "namespaced"
    link = etree.SubElement(body, "a", href="/x")
    link.append(etree.Comment("comment"))
    link[0].tail = "after comment"
    link.text = "one"
    assert_same(root)


def test_every_character_of_the_basic_plane() -> None:
    """Text holding each XML character of the plane once (case folding, whitespace, digits),
    in paragraphs split at random places and inside inline elements."""
    rng = random.Random(3)
    points = [p for p in range(0x20, 0x10000) if not 0xD800 <= p <= 0xDFFF and p < 0xFFFE]
    root = etree.Element("html")
    body = etree.SubElement(root, "body")
    for start in range(0, len(points), 200):
        text = "".join(map(chr, points[start : start + 200]))
        cut = rng.randrange(len(text))
        paragraph = etree.SubElement(body, "p")
        paragraph.text = text[:cut]
        inline = etree.SubElement(paragraph, "b")
        inline.text, inline.tail = text[cut:], text[: rng.randrange(20)]
    assert_same(root)


def test_ten_thousand_deep_tree() -> None:
    root = etree.Element("html")
    node = etree.SubElement(root, "body")
    for depth in range(10_000):
        node = etree.SubElement(node, "div")
        node.text, node.tail = f"level {depth}", " "
    assert_same(root)


@pytest.mark.parametrize("dataset", TWIN_DATASETS)
def test_every_shared_dataset_page(dataset: str) -> None:
    if not (SHARED_DATASETS / dataset).is_dir():
        pytest.skip(f"shared dataset {dataset} not present")
    count = 0
    for page in load_pages(SHARED_DATASETS / dataset):
        try:
            root = parse_html(page.html)
        except BoilerplateError:
            continue
        assert_same(root)
        count += 1
    assert count >= 50


def test_the_environment_variable_selects_the_pure_python_walk() -> None:
    assert_runs_in_pure_python(
        "from scrapy_boilerplate.site import hashing; assert not hashing.ACCELERATED"
    )
    assert hashing.ACCELERATED and sitelevel._hashing is _hashing


def test_hash_tree_and_page_fingerprint_use_the_twin_with_the_same_results() -> None:
    root = parse_html(HAND_MADE[3])
    reference = hashing.hash_tree_pure(root)
    tree = hashing.hash_tree(root)
    assert tree.hashes == reference.hashes and tree is hashing.hash_tree(root)
    expected = hashing.encode_hashes(hashing.fingerprint_hashes(reference))
    assert hashing.page_fingerprint(root) == expected  # from the remembered tree
    assert hashing.page_fingerprint(root) == expected  # from the twin alone
