"""The learned block classifier: the shipped model, its scores and ``article-learned``."""

from __future__ import annotations

import dataclasses
import logging
import os
from array import array
from importlib import resources
from itertools import chain
from pathlib import Path

import pytest
from shared_datasets import SHARED_DATASETS
from site_pages import page as site_page

from scrapy_boilerplate import ExtractionContext, extract, get_extractor
from scrapy_boilerplate.classifiers import gbdt, learned
from scrapy_boilerplate.classifiers.features import feature_names, feature_rows
from scrapy_boilerplate.classifiers.learned import (
    SHIPPED_ARTICLE_MODEL,
    SHIPPED_MODEL,
    load_block_model,
)
from scrapy_boilerplate.classifiers.page_type import load_page_type_model
from scrapy_boilerplate.errors import BoilerplateError
from scrapy_boilerplate.evaluation.datasets import load_pages
from scrapy_boilerplate.extractors.builtin import (
    OWN_POINT_FROM,
    PAGE_MODE_FROM,
    auto_operating_point,
)
from scrapy_boilerplate.extractors.title import find_title
from scrapy_boilerplate.features.page import page_features
from scrapy_boilerplate.model import labels as L
from scrapy_boilerplate.model.context import NO_CONTEXT
from scrapy_boilerplate.model.document import TextDocument
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import segment
from scrapy_boilerplate.site.filter import SiteTemplateFilter
from scrapy_boilerplate.site.hashing import hash_tree
from scrapy_boilerplate.site.sitelevel import site_level
from scrapy_boilerplate.site.templates import SITE_TEMPLATES_KEY, SiteTemplates

FIXTURES = Path(__file__).parent / "fixtures"


SHIPPED = resources.files("scrapy_boilerplate.classifiers").joinpath("models")


@pytest.mark.parametrize(
    ("shipped", "page_types"), [(SHIPPED_MODEL, "all"), (SHIPPED_ARTICLE_MODEL, ["article"])]
)
def test_the_shipped_models_are_small_and_trained_on_shippable_data_only(
    shipped: str, page_types: object
) -> None:
    assert len(SHIPPED.joinpath(shipped).read_bytes()) <= 1_000_000
    model = load_block_model("", shipped)
    assert list(model.feature_names) == feature_names()
    # WCXB-dev (CC-BY-4.0), fundus (MIT) and magic-html (Apache-2.0); never L3S-GN1 or CleanEval
    assert set(model.metadata["trained_on"].split("+")) <= {"wcxb-dev", "fundus", "magic-html"}
    assert model.metadata.get("page_types", "all") == page_types
    assert 0.0 < model.metadata["threshold"] < 1.0
    assert 0.0 < model.metadata["page_threshold"] <= model.metadata["threshold"]


@pytest.mark.parametrize(
    ("mode", "shipped"), [("article", SHIPPED_ARTICLE_MODEL), ("page", SHIPPED_MODEL)]
)
def test_each_mode_scores_with_its_shipped_model(mode: str, shipped: str) -> None:
    html = (FIXTURES / "pages" / "sibling_sections.html").read_bytes()
    with resources.as_file(SHIPPED.joinpath(shipped)) as path:
        named = extract(html, extractor="article-learned", mode=mode, model=str(path))
    default = extract(html, extractor="article-learned", mode=mode)
    assert [b.score for b in default.blocks] == [b.score for b in named.blocks]
    assert default.text == named.text
    other = SHIPPED_MODEL if shipped == SHIPPED_ARTICLE_MODEL else SHIPPED_ARTICLE_MODEL
    with resources.as_file(SHIPPED.joinpath(other)) as path:
        swapped = extract(html, extractor="article-learned", mode=mode, model=str(path))
    assert [b.score for b in default.blocks] != [b.score for b in swapped.blocks]


def test_article_scores_every_block_and_keeps_the_story() -> None:
    html = (FIXTURES / "pages" / "article.html").read_bytes()
    result = extract(html, extractor="article-learned")
    assert result.extractor == "article-learned"
    assert all(block.score is not None and 0.0 <= block.score <= 1.0 for block in result.blocks)
    kept = [block for block in result.blocks if block.is_content]
    assert kept and min(block.score or 0.0 for block in kept) >= 0.2
    assert result.title and result.title not in result.text.split("\n\n")


def test_page_mode_keeps_at_least_what_article_mode_keeps() -> None:
    html = (FIXTURES / "pages" / "sibling_sections.html").read_bytes()
    article = extract(html, extractor="article-learned").text
    page = extract(html, extractor="article-learned", mode="page").text
    assert set(article.split("\n\n")) <= set(page.split("\n\n"))


LINKS = "".join(
    f'<li><a href="/p/{i}">Story headline number {i} about the town</a> '
    f"<span>A short teaser of the story {i}, with words.</span></li>"
    for i in range(40)
)
LISTING = (
    '<html><head><script type="application/ld+json">{"@type": "ItemList"}</script></head>'
    f"<body><h1>Local</h1><ul>{LINKS}</ul></body></html>"
)
STORY = "The council voted to rebuild the old bridge before winter. " * 15
ARTICLE = (
    f"<html><body><h1>Bridge to be rebuilt</h1><p>{STORY}</p><p>{STORY}</p>"
    f"<ul>{LINKS[:2000]}</ul></body></html>"
)


@pytest.mark.parametrize(
    ("html", "url", "point"),
    [
        (LISTING, "https://news.example/category/local/", "page"),
        (ARTICLE, "https://news.example/2025/04/11/council-votes-to-rebuild-the-bridge", "article"),
    ],
)
def test_auto_mode_decodes_at_the_point_the_page_type_picks(
    html: str, url: str, point: str
) -> None:
    auto = extract(html, url)  # mode=auto is the default
    chosen = extract(html, url, mode=point)
    other = extract(html, url, mode="article" if point == "page" else "page")
    assert auto.page_type == ("listing" if point == "page" else "article")
    if point == "page":
        assert auto.page_type_confidence is not None and auto.page_type_confidence >= 0.7
    assert auto.text == chosen.text != other.text


def test_a_page_type_below_the_confidence_bar_keeps_the_article_point() -> None:
    html = (FIXTURES / "pages" / "article.html").read_bytes()
    auto = extract(html)
    assert auto.page_type_confidence is not None and auto.page_type_confidence < 0.7
    assert auto.text == extract(html, mode="article").text


def test_the_page_point_keeps_reader_comments_in_the_text() -> None:
    html = (FIXTURES / "site" / "commented.html").read_bytes()
    article = extract(html, mode="article")
    page = extract(html, mode="page")
    assert article.comments and page.comments == article.comments
    assert article.comments.split("\n\n")[0] not in article.text
    assert all(line in page.text for line in page.comments.splitlines() if line)


def test_a_forum_thread_is_decoded_at_the_forum_point() -> None:
    # posts with their controls (Reply, Quote, Report, #1 ...) and no URL to tell: a forum
    html = (FIXTURES / "pages" / "thread.html").read_bytes()
    auto = extract(html)
    assert auto.page_type == "forum" and auto.page_type_confidence is not None
    assert auto.page_type_confidence >= OWN_POINT_FROM["forum"]
    assert auto.text == extract(html, mode="forum").text != extract(html, mode="article").text


def test_the_forum_point_keeps_reader_comments_in_the_text() -> None:
    html = (FIXTURES / "site" / "commented.html").read_bytes()
    forum = extract(html, mode="forum")
    assert forum.comments == extract(html, mode="article").comments
    assert forum.comments and all(line in forum.text for line in forum.comments.splitlines())


@pytest.mark.parametrize(
    ("page_type", "confidence", "point"),
    [
        ("forum", 0.6, "forum"),
        ("forum", 0.5, "article"),
        ("listing", 0.65, "article"),
        ("listing", 0.75, "page"),
        ("article", 0.99, "article"),
        (None, None, "article"),
    ],
)
def test_auto_mode_picks_the_point_by_type_and_confidence(
    page_type: str | None, confidence: float | None, point: str
) -> None:
    assert OWN_POINT_FROM["forum"] < PAGE_MODE_FROM
    assert auto_operating_point(page_type, confidence) == point


COMMENTS = (
    '<div id="comments"><h3>2 Comments</h3>'
    '<div class="comment"><p>Posted by Ann on May 2</p><p>I think the council got this one '
    "right and the bridge is overdue for repair.</p></div>"
    '<div class="comment"><p>Posted by Bob on May 3</p><p>Nonsense, the money should go to '
    "the schools first, as everyone in town knows.</p></div></div>"
)


def test_auto_mode_keeps_comments_in_the_text_of_forums_only() -> None:
    html = LISTING.replace("</body>", f"{COMMENTS}</body>")
    url = "https://news.example/category/local/"
    auto, page = extract(html, url), extract(html, url, mode="page")
    assert auto.page_type == "listing"  # decoded at the page point, not a forum
    assert auto.page_type_confidence is not None and auto.page_type_confidence >= 0.7
    assert "I think the council" in auto.comments
    assert "I think the council" not in auto.text
    assert "I think the council" in page.text  # mode=page keeps them on any page


def test_threshold_option_overrides_the_model() -> None:
    html = (FIXTURES / "pages" / "article.html").read_bytes()
    # no block reaches 1.0: the rule chain's decisions stay (the headline still goes)
    rules = extract(html, extractor="article-rules")
    fallback = extract(html, extractor="article-learned", threshold=1.0)
    kept = [b.text for b in rules.blocks if b.is_content and b.text != rules.title]
    assert fallback.text == "\n\n".join(kept)
    everything = extract(html, extractor="article-learned", threshold=1e-9, main_region=False)
    dropped = [
        block.text
        for block in everything.blocks
        if not block.is_content and L.BOILERPLATE_LINE not in block.labels
    ]
    assert dropped == [everything.title]  # the headline goes to the title only
    lines = [b.text for b in everything.blocks if L.BOILERPLATE_LINE in b.labels]
    assert "Related stories" in lines  # and the news conventions' lines leave the text


def test_main_region_follows_the_model_file_and_the_option(tmp_path: Path) -> None:
    html = (FIXTURES / "pages" / "article.html").read_bytes()
    shipped = load_block_model()
    # keep_score above 1: every content block outside the main region goes
    group = {"depth": 1, "min_share": 0.7, "keep_score": 1.01}
    paths = {}
    for name, value in (("with", group), ("without", None)):
        metadata = {**shipped.metadata, "group": value}
        paths[name] = str(tmp_path / f"{name}.json.gz")
        gbdt.dump_model(dataclasses.replace(shipped, metadata=metadata), paths[name])
    options = {"extractor": "article-learned", "threshold": 1e-9}
    everything = extract(html, model=paths["without"], **options).text.split("\n\n")
    region = extract(html, model=paths["with"], **options).text.split("\n\n")
    turned_off = extract(html, model=paths["with"], main_region=False, **options).text
    assert set(region) < set(everything)
    assert turned_off.split("\n\n") == everything


def margins(html: bytes, url: str | None = None) -> tuple[list[float], list[float]]:
    """Both shipped block models' margins of every block of ``html``, then the shipped
    page-type model's margin of each type for the page: pure Python, compiled."""
    doc = segment(parse_html(html), url=url)
    page_row = array("d", page_features(doc))
    rows = feature_rows(doc, find_title(doc))
    flat = array("d", chain.from_iterable(rows))
    pure: list[float] = []
    compiled: list[float] = []
    for shipped in (SHIPPED_MODEL, SHIPPED_ARTICLE_MODEL):
        model = load_block_model("", shipped)
        pure += gbdt.predict_margins_pure(model, flat, len(rows))
        compiled += gbdt.predict_margins(model, flat, len(rows))
    for ensemble in load_page_type_model().ensembles.values():
        pure += gbdt.predict_margins_pure(ensemble, page_row, 1)
        compiled += gbdt.predict_margins(ensemble, page_row, 1)
    return pure, compiled


@pytest.mark.skipif(not gbdt.ACCELERATED, reason="the compiled inference is not built")
def test_compiled_and_pure_scores_are_identical_on_the_fixtures() -> None:
    for path in sorted((FIXTURES / "pages").glob("*.html")):
        pure, compiled = margins(path.read_bytes())
        assert pure == compiled


@pytest.mark.skipif(not gbdt.ACCELERATED, reason="the compiled inference is not built")
@pytest.mark.parametrize(
    "dataset",
    ["wcxb-dev", "fundus", "magic-html", "l3s-gn1", "cleaneval/dev", "cleaneval/final"],
)
def test_compiled_and_pure_scores_are_identical_on_every_shared_page(dataset: str) -> None:
    if not (SHARED_DATASETS / dataset).is_dir():
        pytest.skip(f"{dataset} not under {SHARED_DATASETS}")
    limit = int(os.environ.get("BOILERPLATE_EQUIVALENCE_LIMIT", "0")) or None
    checked = 0
    for page in load_pages(SHARED_DATASETS / dataset, limit=limit):
        try:
            pure, compiled = margins(page.html, page.url)
        except BoilerplateError:
            continue
        assert pure == compiled, page.id
        checked += 1
    assert checked


def test_a_page_of_too_many_blocks_keeps_the_rule_chain_decisions(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Above MAX_SCORED_BLOCKS the model does not score (memory): the rules decide, logged."""
    paragraphs = "".join(
        f"<p>Paragraph {i} of the long story tells what happened in the town that day.</p>"
        for i in range(12)
    )
    html = f"<html><head><title>Story</title></head><body><h1>Story</h1>{paragraphs}</body></html>"
    monkeypatch.setattr(learned, "MAX_SCORED_BLOCKS", 5)
    with caplog.at_level(logging.WARNING, logger="scrapy_boilerplate.classifiers.learned"):
        result = extract(html, extractor="article-learned")
    rules = extract(html, extractor="article-rules")
    assert "more than the 5 the block model scores" in caplog.text
    assert all(block.score is None for block in result.blocks)
    kept = [block.text for block in result.blocks if block.is_content]
    assert len(kept) >= 10
    assert kept == [b.text for b in rules.blocks if b.is_content and b.text != "Story"]


def test_the_chain_is_reused_unless_the_context_carries_site_templates() -> None:
    extractor = get_extractor("article-learned", site_templates=True)
    build = extractor.spec.build_chain
    plain = build(extractor.options, NO_CONTEXT)
    assert build(dict(extractor.options), NO_CONTEXT) is plain  # same options: built once
    assert build(extractor.with_options(keep_captions=True).options, NO_CONTEXT) is not plain
    hashes = site_level(hash_tree(parse_html(site_page(n))) for n in range(10))
    templates = SiteTemplates.of(hashes, version=1, pages=10)
    context = ExtractionContext(site="example.com", site_data={SITE_TEMPLATES_KEY: templates})
    templated = build(extractor.options, context)
    assert templated is not plain and build(extractor.options, context) is not templated
    article = TextDocument([], page_type="article", page_type_confidence=1.0)
    assert any(isinstance(step, SiteTemplateFilter) for step in templated[-1].choose(article))
    assert not any(isinstance(step, SiteTemplateFilter) for step in plain[-1].choose(article))
