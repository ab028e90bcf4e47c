"""The compiled grouping keys and climb (``filters/_tree``) against their pure-Python references:
the same element objects, steps and positions on hand-made trees, fixture pages and every shared
dataset page."""

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


def assert_same_climbs(elements: list[Element], rng: random.Random) -> None:
    """Climbs from several starts, with int and float masses, over keys from the same tree and
    from another one."""
    if not elements:
        return
    stranger = etree.fromstring("<r><s/></r>")[0]
    for _ in range(4):
        keys = [rng.choice(elements) for _ in range(rng.randint(1, 30))]
        keyed: list[tuple[Element, float]] = [
            (key, rng.choice([rng.randint(0, 50), rng.random() * 40.0])) for key in keys
        ]
        if rng.random() < 0.3:
            keyed.append((stranger, 1.5))
        total = sum(mass for _, mass in keyed)
        for needed in (0.0, 0.5 * total, 0.7 * total, total, total + 1.0):
            start = rng.choice(elements)
            fast = _tree.climb(start, keyed, needed)
            assert fast == tree.climb_pure(start, keyed, needed)
            assert fast == tree.climb(start, keyed, needed)


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
        assert_same_climbs(list(root.iter()), rng)


def test_fixture_pages() -> None:
    pages = sorted(FIXTURES.rglob("*.html"))
    assert pages
    for path in pages:
        doc = segment(parse_html(path.read_bytes()))
        assert_same_keys([block.element for block in doc.blocks])


@pytest.mark.parametrize("dataset", TWIN_DATASETS)
def test_every_shared_dataset_page(dataset: str) -> None:
    rng = random.Random(dataset)
    for _, doc in segmented_pages(dataset):
        elements = [block.element for block in doc.blocks]
        assert_same_keys(elements)
        assert_same_climbs([e for e in elements if e is not None], rng)


def test_the_environment_variable_selects_the_pure_python_code() -> None:
    code = "from scrapy_boilerplate.filters import tree\nassert not tree.ACCELERATED\n"
    assert_runs_in_pure_python(code)
