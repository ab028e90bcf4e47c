"""The paper's training labels in the reproduction of Chakrabarti et al. (``docs/reproduction.md``
section 5): SiteLevel(0.10) node labels of the pages of a site."""

from __future__ import annotations

from types import ModuleType

import pytest
from reproduce_support import reproduce_module

from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import segment

STORIES = [
    "The council approved the new bridge over the river on Monday evening after a long debate.",
    "Heavy rain closed three schools in the valley and flooded the lower town on Tuesday.",
    "The orchestra opened its season with a symphony written by a local composer last year.",
    "A rare owl was seen in the city park for the first time in forty years, birders said.",
    "The library will stay open until midnight during the exam weeks of the spring term.",
]


def _page(story: str) -> str:
    return (
        "<body><nav><ul><li><a href=/>Front page of Example Media</a></li>"
        "<li><a href=/world>Latest world news and analysis</a></li></ul></nav>"
        f"<article><p>{story}</p></article>"
        "<footer><p>Copyright 2026 Example Media, all rights reserved.</p></footer></body>"
    )


@pytest.fixture(scope="module")
def isotonic() -> ModuleType:
    return reproduce_module("isotonic")


def _labels(isotonic: ModuleType, stories: list[str]) -> list[dict[str, int]]:
    """Per page: the label of the visible node owning each block, by the block's first word."""
    docs = [segment(parse_html(_page(story))) for story in stories]
    site_nodes = [isotonic._site_nodes(doc) for doc in docs]
    labels = isotonic.sitelevel_labels(["example.com"] * len(docs), site_nodes)
    pages = []
    for doc, page_labels in zip(docs, labels, strict=True):
        owners = isotonic.page_nodes(doc).owners
        pages.append(
            {
                block.text.split()[0]: page_labels[owner]
                for block, owner in zip(doc.blocks, owners, strict=True)
            }
        )
    return pages


def test_repeated_nodes_are_template_and_the_story_is_not(isotonic: ModuleType) -> None:
    for labels, story in zip(_labels(isotonic, STORIES), STORIES, strict=True):
        assert labels["Front"] == labels["Latest"] == labels["Copyright"] == 1
        assert labels[story.split()[0]] == 0


def test_a_site_with_too_few_pages_gives_no_labels(isotonic: ModuleType) -> None:
    assert isotonic.MIN_SITE_PAGES == 5
    for labels in _labels(isotonic, STORIES[:4]):
        assert set(labels.values()) == {-1}
