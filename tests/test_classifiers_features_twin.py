"""The compiled feature matrix of the learned classifier is bit for bit the pure-Python one:
on hand-made pages (headlines, JSON-LD bodies, descriptions, non-ASCII words and digits), on
random pages, on the fixture pages and, when present, on every page of the shared datasets.

Skipped when the extension is not built, unless ``BOILERPLATE_REQUIRE_SPEEDUPS`` is set (CI
sets it, so a broken build fails there instead of silently testing nothing).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from pure_python import assert_runs_in_pure_python, twin_or_skip
from shared_datasets import SHARED_DATASETS

from scrapy_boilerplate.classifiers import features
from scrapy_boilerplate.errors import BoilerplateError
from scrapy_boilerplate.evaluation.datasets import load_pages
from scrapy_boilerplate.extractors.title import find_title
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import segment

twin_or_skip("scrapy_boilerplate.classifiers._features")

FIXTURES = Path(__file__).parent / "fixtures"
URL = "https://www.news.com/story/1"


def assert_same_matrix(html: str | bytes, headline: str | None = "", url: str = URL) -> int:
    """Both builders give the same doubles (bit for bit) for ``html``; returns the rows.

    ``headline`` "" means the page's own (``find_title``)."""
    fast_doc = segment(parse_html(html), url=url)
    pure_doc = segment(parse_html(html), url=url)
    if headline == "":
        headline = find_title(pure_doc)
    fast, fast_rows = features.feature_matrix(fast_doc, headline)
    pure, pure_rows = features.feature_matrix_pure(pure_doc, headline)
    assert fast_rows == pure_rows
    assert fast.tobytes() == pure.tobytes()
    assert len(fast) == fast_rows * len(features.feature_names())
    return fast_rows


ARTICLE = """<html><head><title>Storm hits the coast | News</title>
<meta property="og:description" content="A storm hit the coast on Monday, 3 dead.">
<script type="application/ld+json">{"@type": "NewsArticle", "articleBody":
"The storm hit the coast on Monday. Three people died; the roads are closed."}</script>
</head><body><nav><a href="/">Home</a> | <a href="/world">World</a></nav>
<h1>Storm hits the coast</h1><p class=byline>By A. Writer, 12.03.2025</p>
<p>The storm hit the coast on Monday. Three people died; the roads are closed.</p>
<p>Émile Zola wrote, «Ça ira». Ünïcödé wörds_with_underscores and ١٢٣ digits: ٤٥.</p>
<ul><li>One, two.</li><li>three?</li><li>ΣΊΣΥΦΟΣ (capital sigma)</li></ul>
<footer>© 2025 News | <a href="/privacy">Privacy</a></footer></body></html>"""

HAND_MADE = [
    ARTICLE,
    "<html><body><p>Alone</p></body></html>",
    "<html><body><p>İstanbul’daki</p><p>ǅemal x²³ ½ …</p><p>'quoted'</p></body></html>",
    "<html><body><h1>Title</h1><p>.</p><p>,,,|||</p><p>  </p><p>٣</p></body></html>",
]


@pytest.mark.parametrize("html", HAND_MADE)
@pytest.mark.parametrize("headline", ["", None, "Storm hits the coast", "x"])
def test_hand_made_pages(html: str, headline: str | None) -> None:
    assert assert_same_matrix(html, headline) >= 1


def test_the_title_block_and_overlaps_are_found() -> None:
    """Not only equal: the compiled values are the intended ones on a page with all texts."""
    doc = segment(parse_html(ARTICLE), url=URL)
    matrix, _ = features.feature_matrix(doc, "Storm hits the coast")
    names = features.feature_names()
    width = len(names)
    texts = [block.text for block in doc.blocks]
    title = texts.index("Storm hits the coast")
    body = next(i for i, text in enumerate(texts) if text.startswith("The storm hit"))

    def value(row: int, name: str) -> float:
        return matrix[row * width + names.index(name)]

    assert value(title, "title_block_offset") == 0.0
    assert value(body, "title_block_offset") == body - title
    assert value(body, "after_title") == 1.0
    assert value(body, "jsonld_body_overlap") == 1.0
    assert 0.0 < value(body, "description_overlap") < 1.0
    assert value(body, "ends_with_punctuation") == 1.0
    assert value(0, "w-1_num_words") == 0.0


def test_an_empty_document_has_no_rows() -> None:
    doc = segment(parse_html("<html><body></body></html>"))
    matrix, rows = features.feature_matrix(doc, None)
    assert (len(matrix), rows) == (0, 0)


WORDS = ["storm", "Coast", "x1", "ÉTÉ", "٣٤", "straße", "the", "|", "a,b", "end.", "¿qué?", "_"]


@pytest.mark.parametrize("seed", range(6))
def test_random_pages(seed: int) -> None:
    rng = random.Random(seed)
    tags = ["p", "div", "li", "h1", "h2", "td", "span", "a", "section", "footer"]
    for _ in range(20):
        parts = []
        for _ in range(rng.randint(1, 40)):
            tag = rng.choice(tags)
            text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 25)))
            href = ' href="/x"' if tag == "a" else ""
            parts.append(f"<{tag}{href}>{text}</{tag}>")
        headline = " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 6))) or None
        html = "<html><body>" + "".join(parts) + "</body></html>"
        assert_same_matrix(html, headline)


@pytest.mark.parametrize(
    "path", sorted(FIXTURES.rglob("*.html")), ids=lambda path: str(path.relative_to(FIXTURES))
)
def test_fixture_pages(path: Path) -> None:
    try:
        assert_same_matrix(path.read_bytes(), url="https://example.com/page")
    except BoilerplateError:
        pytest.skip("not a page the extractors take")


@pytest.mark.parametrize("dataset", ["wcxb-dev", "l3s-gn1", "cleaneval/dev", "cleaneval/final"])
def test_every_shared_dataset_page(dataset: str) -> None:
    if not (SHARED_DATASETS / dataset).is_dir():
        pytest.skip(f"shared dataset {dataset} not present")
    count = 0
    for page in load_pages(SHARED_DATASETS / dataset):
        try:
            assert_same_matrix(page.html, url=page.url or URL)
        except BoilerplateError:
            continue
        count += 1
    assert count >= 50


def test_the_environment_variable_selects_the_pure_python_code() -> None:
    code = "from scrapy_boilerplate.classifiers import features\nassert not features.ACCELERATED\n"
    assert_runs_in_pure_python(code)
