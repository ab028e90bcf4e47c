"""The compiled scans of the article region (the author, byline and date elements, the elements
a byline label may start) give what the pure-Python reference of :mod:`fallbacks` gives: on
hand-made regions and, when present, on regions of every page of the shared datasets.

Skipped when the extension is not built, unless ``BOILERPLATE_REQUIRE_SPEEDUPS`` is set.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from re import _constants as sre
from re import _parser as sre_parse
from typing import Any

import pytest
from lxml import etree
from pure_python import twin_or_skip
from shared_datasets import TWIN_DATASETS, segmented_pages

from scrapy_boilerplate.page.metadata import fallbacks
from scrapy_boilerplate.page.metadata.fallbacks import (
    MAX_TEXT_BYLINE_ELEMENTS,
    article_region,
    byline_names,
    dated_element_text,
    text_byline,
)
from scrapy_boilerplate.page.metadata.tags import page_tags
from scrapy_boilerplate.page.parsing import parse_html

_speedups = twin_or_skip("scrapy_boilerplate.page._speedups")

#: The reference's element lists and the functions that read them.
LISTS: tuple[Callable[[Any], Any], ...] = (
    fallbacks._author_elements,
    fallbacks._classed_bylines,
    fallbacks._dated_elements,
    lambda region: list(fallbacks._labelled(region)),
)
RESULTS: tuple[Callable[[Any], Any], ...] = (byline_names, text_byline, dated_element_text)

REGION = """<div id="top" class="author-date" itemprop="author"><h1>Title</h1>
<p class="byline">By <a rel="author" href="/a">Ana Lima</a> and
<a rel="author nofollow" href="/b">Bo Chen</a>, <span itemprop="author">Cy Diaz</span></p>
<link rel="author" href="/c"><a rel="Author" href="/d">Dee</a>
<div class="post-author Author"><span class="author-name">Eva Marsh</span></div>
<script class="date">var d;</script><span class="dateline">March 5, 2024</span>
<time class="Time" id="x-date">5 March 2024</time><em id="time">no</em>
<span id="published-date" class="meta">2024-03-05</span><i class="posted-on">x</i>
<!-- a comment --><?pi counted?><b>Written by Fay Gold</b><p>  by  <u>Gil</u></p>
<p>\u00a0By Hal Ives</p><p>\u017fay</p><p>Door Jan Kok</p><p>Autorin: Li Mo</p>
<p>Share this</p><p>TEXT: Mo Ng</p><p></p><p>Pub</p><p>Par Noé</p></div>"""


def pure(function: Callable[[Any], Any], region: etree._Element) -> Any:
    """What ``function`` gives for ``region`` with the compiled twin switched off."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(fallbacks, "_speedups", None)
        return function(region)


def assert_same_scans(region: etree._Element) -> None:
    """The compiled scans find the very elements and values of the reference."""
    assert _speedups.author_elements(region) is not None
    assert _speedups.label_candidates(region, MAX_TEXT_BYLINE_ELEMENTS) is not None
    for function in LISTS:
        found, reference = function(region), pure(function, region)
        assert len(found) == len(reference)
        assert all(a is b for a, b in zip(found, reference, strict=True))
    for function in RESULTS:
        assert function(region) == pure(function, region)


def test_hand_made_region_finds_each_kind_in_document_order() -> None:
    region = parse_html(f"<html><body>{REGION}</body></html>").find(".//div")
    assert region is not None
    assert [e.text for e in fallbacks._author_elements(region)] == ["Ana Lima", "Cy Diaz"]
    named = _speedups.byline_class_elements(region)
    assert [e.get("class") for e in named] == ["byline", "post-author Author", "author-name"]
    dated = fallbacks._dated_elements(region)
    assert [e.tag for e in dated] == ["span", "time", "span", "i"]  # not the region, no script
    assert _speedups.date_named_elements(region, 2) == dated[:2]
    labelled = [e.text for e in fallbacks._labelled(region)]
    assert labelled[:2] == ["By ", "Written by Fay Gold"]
    assert "Share this" not in labelled and "Pub" not in labelled
    assert_same_scans(region)


def test_label_candidates_count_every_node_iter_gives() -> None:
    region = parse_html(f"<html><body>{REGION}</body></html>").find(".//div")
    assert region is not None
    nodes = list(region.iter())
    for limit in range(len(nodes) + 2):
        candidates = _speedups.label_candidates(region, limit)
        assert candidates is not None and all(e in nodes[:limit] for e in candidates)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(fallbacks, "MAX_TEXT_BYLINE_ELEMENTS", limit)
            assert list(fallbacks._labelled(region)) == pure(
                lambda r: list(fallbacks._labelled(r)), region
            )


def expansions(items: Any) -> list[str]:
    """The strings a parsed pattern matches (a repeat once, or not at all when it may; ``\\s``
    a space, another set its first character)."""
    results = [""]
    for op, arg in items:
        if op is sre.LITERAL:
            options = [chr(arg)]
        elif op is sre.BRANCH:
            options = [text for branch in arg[1] for text in expansions(branch)]
        elif op is sre.SUBPATTERN:
            options = expansions(arg[-1])
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT):
            options = expansions(arg[2]) + ([] if arg[0] else [""])
        elif op is sre.IN:
            spaces = (sre.CATEGORY, sre.CATEGORY_SPACE) in arg
            options = [" " if spaces else chr(next(a for o, a in arg if o is sre.LITERAL))]
        else:
            assert op is sre.AT, op
            options = [""]
        results = [done + option for done in results for option in options]
    return results


def test_every_byline_label_is_a_compiled_candidate() -> None:
    """Each label the reference's pattern matches, in any case, passes the compiled filter (a
    label added to the pattern must be added to the filter's words)."""
    label = fallbacks._TEXT_LABEL
    texts = sorted(set(expansions(sre_parse.parse(label.pattern, label.flags))))
    region = etree.Element("div")
    for text in texts:
        for cased in (text, text.upper(), text.title()):
            if label.match(f"{cased}Ana Lima"):  # not "by" at the end of the text
                etree.SubElement(region, "p").text = f"{cased}Ana Lima"
    assert len(region) >= 3 * len(texts) // 2
    assert _speedups.label_candidates(region, len(region) + 1) == list(region)


def test_every_class_word_of_the_reference_is_compiled() -> None:
    """Each word of the reference's class patterns is one the compiled scans look for (a word
    added to one must be added to the other)."""
    for pattern, scan in (
        (fallbacks._DATE_CLASS, lambda region: _speedups.date_named_elements(region, 99)),
        (fallbacks._BYLINE_CLASS, _speedups.byline_class_elements),
    ):
        words = pattern.pattern.split("|")
        assert all(word.isalpha() for word in words)  # plain words: substrings, case kept
        region = etree.Element("div")
        for word in words:
            etree.SubElement(region, "span", {"class": f"x-{word}s"})
            etree.SubElement(region, "span", {"class": word.upper()})  # no match
        assert scan(region) == list(region)[::2]


def test_trees_the_compiled_scans_leave_to_the_reference() -> None:
    with_entity = etree.fromstring("<div><p class='date'>5 March 2024</p></div>")
    with_entity.append(etree.Entity("nbsp"))
    namespaced = etree.fromstring('<div xmlns="urn:x"><p class="byline">By Ana Lima</p></div>')
    for tree in (with_entity, namespaced):
        assert _speedups.author_elements(tree) is None
        assert _speedups.byline_class_elements(tree) is None
        assert _speedups.date_named_elements(tree, 5) is None
        assert _speedups.label_candidates(tree, 5) is None
        for function in RESULTS:
            assert function(tree) == pure(function, tree)
    assert dated_element_text(with_entity) == "5 March 2024"


def regions(root: etree._Element) -> Iterator[etree._Element]:
    """The article region around the page's first ``<h1>``, the body, and the regions of the
    first content-like elements (the parents of its first paragraphs)."""
    tags = page_tags(root)
    body = root.find("body")
    for anchor in [*root.iterfind(".//p")][:5]:
        region = article_region(tags, anchor)
        if region is not None:
            yield region
    if body is not None:
        yield body


@pytest.mark.parametrize("dataset", [*TWIN_DATASETS, "fundus", "magic-html"])
def test_every_shared_dataset_page(dataset: str) -> None:
    for _, doc in segmented_pages(dataset):
        assert doc.root is not None
        for region in regions(doc.root):
            assert_same_scans(region)
