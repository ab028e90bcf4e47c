"""The compiled grouping keys (``filters/_tree``) against their pure-Python reference: the same
element objects on hand-made trees, fixture pages and every shared dataset page."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from lxml import etree
from pure_python import assert_runs_in_pure_python, twin_or_skip
from shared_datasets import TWIN_DATASETS, segmented_pages

from scrapy_boilerplate.filters import tree
from scrapy_boilerplate.model.document import Element
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import segment

_tree = twin_or_skip("scrapy_boilerplate.filters._tree")

FIXTURES = Path(__file__).parent / "fixtures"
DEPTHS = (0, 1, 2, 5)


def assert_same_keys(elements: list[Element | None]) -> None:
    for depth in DEPTHS:
        fast = _tree.group_keys(elements, depth)
        reference = tree.group_keys_pure(elements, depth)
        assert len(fast) == len(reference)
        for got, want in zip(fast, reference, strict=True):
            assert got is want, (depth, got, want)


def test_hand_made_trees() -> None:
    root = parse_html(
        "<html><body><div><ul><li><span>a</span></li></ul></div><p>b<b>c</b></p>"
        "<table><tr><td><em>d</em></td></tr></table><h2>e</h2></body></html>"
    )
    assert_same_keys([*root.iter(), None])


def test_namespaced_and_paragraph_free_trees() -> None:
    # a namespaced <div> is not a paragraph (its tag is "{ns}div"); without any paragraph tag
    # the key is the root
    root = etree.fromstring('<r xmlns:x="urn:x"><x:div><s><t/></s></x:div><u><v/></u></r>')
    assert_same_keys(list(root.iter()))
    assert tree.group_keys_pure([root.find(".//v")], 0) == [root]


def test_random_trees() -> None:
    rng = random.Random(3)
    tags = ["div", "p", "span", "li", "ul", "td", "section", "b", "h3", "article"]
    for _ in range(200):
        root = etree.Element("html")
        nodes = [root, etree.SubElement(root, "body")]
        for _ in range(rng.randint(1, 40)):
            nodes.append(etree.SubElement(rng.choice(nodes), rng.choice(tags)))
        assert_same_keys(list(root.iter()))


def test_fixture_pages() -> None:
    pages = sorted(FIXTURES.rglob("*.html"))
    assert pages
    for path in pages:
        doc = segment(parse_html(path.read_bytes()))
        assert_same_keys([block.element for block in doc.blocks])


@pytest.mark.parametrize("dataset", TWIN_DATASETS)
def test_every_shared_dataset_page(dataset: str) -> None:
    for _, doc in segmented_pages(dataset):
        assert_same_keys([block.element for block in doc.blocks])


def test_the_environment_variable_selects_the_pure_python_code() -> None:
    code = "from scrapy_boilerplate.filters import tree\nassert not tree.ACCELERATED\n"
    assert_runs_in_pure_python(code)
