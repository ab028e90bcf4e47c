"""Article metadata from the parsed page: JSON-LD, microdata, OpenGraph, HTML fallbacks, and
their precedence. Structured-data tests run with extruct (skipped when it is not installed)
and with the built-in JSON-LD reader."""

from __future__ import annotations

import pytest
from gc_support import cyclic_garbage
from lxml import etree
from shared_datasets import TWIN_DATASETS, segmented_pages

import scrapy_boilerplate.page.metadata as metadata_module
from scrapy_boilerplate.model.metadata import ArticleMetadata
from scrapy_boilerplate.page.metadata import extruct_available, fallbacks, read_metadata
from scrapy_boilerplate.page.metadata.fallbacks import leading_texts_pure, nearest_time
from scrapy_boilerplate.page.metadata.microdata import MAX_DEPTH, MAX_ITEMS, readable
from scrapy_boilerplate.page.metadata.tags import page_tags
from scrapy_boilerplate.page.metadata.values import (
    MAX_TEXT_CHARS,
    clean_date,
    clean_language,
    clean_url,
    iso_date,
)
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import compiled_twin

URL = "https://news.example/2025/03/otters.html"


@pytest.fixture(params=[False, True], ids=["builtin", "extruct"])
def use_extruct(request: pytest.FixtureRequest) -> bool:
    if request.param and not extruct_available():
        pytest.skip("extruct (the metadata extra) is not installed")
    return bool(request.param)


def page(head: str = "", body: str = "", html_attrs: str = "") -> str:
    return f"<html{html_attrs}><head>{head}</head><body>{body}<p>Text.</p></body></html>"


def jsonld(data: str) -> str:
    return f'<script type="application/ld+json">{data}</script>'


def read(html: str, use_extruct: bool = False, url: str | None = URL) -> ArticleMetadata:
    return read_metadata(parse_html(html), url, use_extruct=use_extruct)


# -- JSON-LD -------------------------------------------------------------------------------------

GRAPH = jsonld(
    """{"@context": "https://schema.org", "@graph": [
      {"@type": "WebPage", "@id": "https://news.example/p#page", "inLanguage": "de-AT",
       "datePublished": "2020-01-01"},
      {"@type": "NewsArticle", "@id": "https://news.example/p#article",
       "datePublished": "2025-03-03T08:15:00+01:00", "dateModified": "2025-03-04T09:00:00Z",
       "author": [{"@id": "https://news.example/#/person/anna"}, "Ben Ode"],
       "publisher": {"@type": "Organization", "name": "Valley Courier"},
       "image": {"@id": "https://news.example/p#image"},
       "mainEntityOfPage": {"@id": "https://news.example/p"}},
      {"@type": "Person", "@id": "https://news.example/#/person/anna", "name": "Anna Weber"},
      {"@type": "ImageObject", "@id": "https://news.example/p#image", "url": "/img/otter.jpg"}
    ]}"""
)


def test_jsonld_graph_article_with_references(use_extruct: bool) -> None:
    found = read(page(GRAPH), use_extruct)
    assert found.published == "2025-03-03T08:15:00+01:00"  # the article's, not the page's
    assert found.modified == "2025-03-04T09:00:00+00:00"
    assert found.authors == ("Anna Weber", "Ben Ode")  # the publisher is no author
    assert found.language == "de-AT"  # the web page object fills what the article lacks
    assert found.image == "https://news.example/img/otter.jpg"
    assert found.canonical_url == "https://news.example/p"


def test_jsonld_author_forms(use_extruct: bool) -> None:
    single = read(page(jsonld('{"@type": "Article", "author": "  Anna\n Weber "}')), use_extruct)
    assert single.authors == ("Anna Weber",)
    many = jsonld(
        """{"@type": "BlogPosting", "author": [
          {"@type": "Person", "name": "Anna Weber"}, {"@type": "Person", "name": "Anna Weber"},
          {"@type": "Person", "givenName": "Ben", "familyName": "Ode"},
          "https://social.example/anna", {"@type": "Organization", "name": "Courier Desk"}]}"""
    )
    # The organisation goes: the page names people.
    assert read(page(many), use_extruct).authors == ("Anna Weber", "Ben Ode")
    desk = jsonld(
        '{"@type": "Article", "author": {"@type": "Organization", "name": "Courier Desk"}}'
    )
    assert read(page(desk), use_extruct).authors == ("Courier Desk",)


def test_jsonld_list_of_documents_and_typed_urls(use_extruct: bool) -> None:
    data = jsonld(
        """[{"@type": "BreadcrumbList", "description": "crumbs"},
            {"@type": ["http://schema.org/ReportageNewsArticle"],
             "description": "Otters &amp; cubs",
             "inLanguage": {"@type": "Language", "name": "English", "alternateName": "en"}}]"""
    )
    found = read(page(data), use_extruct)
    assert found.description == "Otters & cubs"
    assert found.language == "en"


def test_a_listing_articles_are_not_the_page_article(use_extruct: bool) -> None:
    data = jsonld(
        """{"@type": "ItemList", "itemListElement": [
            {"@type": "NewsArticle", "datePublished": "2025-01-01", "author": "Someone Else"}]}"""
    )
    assert read(page(data), use_extruct) == ArticleMetadata()


def test_broken_jsonld_is_skipped_and_the_next_script_read(use_extruct: bool) -> None:
    broken = jsonld('{"@type": "NewsArticle", "datePublished": ')
    deep = jsonld("[" * 100_000 + "]" * 100_000)
    good = jsonld('{"@type": "NewsArticle", "datePublished": "2025-03-03"}')
    assert read(page(broken + deep + good), use_extruct).published == "2025-03-03"


def test_wrapped_jsonld_is_read(use_extruct: bool) -> None:
    wrapped = jsonld('<!--\n{"@type": "Article", "datePublished": "2025-03-03"}\n-->')
    assert read(page(wrapped), use_extruct).published == "2025-03-03"


def test_jsonld_with_javascript_comments_needs_extruct() -> None:
    if not extruct_available():
        pytest.skip("extruct (the metadata extra) is not installed")
    commented = jsonld('// generated\n{"@type": "Article", "datePublished": "2025-03-03"}')
    assert read(page(commented), use_extruct=True).published == "2025-03-03"
    assert read(page(commented), use_extruct=False).published is None


def test_hostile_values_are_dropped_not_truncated(use_extruct: bool) -> None:
    huge = "word " * MAX_TEXT_CHARS
    data = jsonld(f'{{"@type": "Article", "description": "{huge}", "author": "{"x" * 10_000}"}}')
    og = '<meta property="og:description" content="Short and sane">'
    found = read(page(data + og), use_extruct)
    assert found.description == "Short and sane"
    assert found.authors == ()


# -- microdata -----------------------------------------------------------------------------------

MICRODATA = """<div itemscope itemtype="https://schema.org/NewsArticle">
  <span itemprop="author" itemscope itemtype="https://schema.org/Person">
    <span itemprop="name">Anna Weber</span></span>
  <p itemprop="description">Otters are back.</p>
  <img itemprop="image" src="/img/otter.jpg">
  <span itemprop="datePublished">2025-03-03</span>
</div>"""


def test_microdata_only_with_extruct() -> None:
    if not extruct_available():
        pytest.skip("extruct (the metadata extra) is not installed")
    found = read(page(body=MICRODATA), use_extruct=True)
    assert found.authors == ("Anna Weber",)
    assert found.description == "Otters are back."
    assert found.image == "https://news.example/img/otter.jpg"
    assert found.published == "2025-03-03"


def test_microdata_is_not_read_without_extruct() -> None:
    assert read(page(body=MICRODATA), use_extruct=False) == ArticleMetadata()


def test_jsonld_wins_over_microdata() -> None:
    if not extruct_available():
        pytest.skip("extruct (the metadata extra) is not installed")
    data = jsonld('{"@type": "NewsArticle", "datePublished": "2025-01-01"}')
    found = read(page(data, MICRODATA), use_extruct=True)
    assert found.published == "2025-01-01"
    assert found.authors == ("Anna Weber",)  # what JSON-LD lacks comes from microdata


def teaser(url: str, day: str, name: str) -> str:
    return (
        f'<div itemscope itemtype="https://schema.org/Article"><a itemprop="url" href="{url}">'
        f'<h3 itemprop="headline">Story</h3></a><span itemprop="author" itemscope '
        f'itemtype="https://schema.org/Person"><span itemprop="name">{name}</span></span>'
        f'<span itemprop="datePublished" content="{day}">{day}</span></div>'
    )


TEASERS = teaser("/other-1.html", "2026-01-10", "Bo Chen") + teaser(
    "/other-2.html", "2026-01-09", "Cy Diaz"
)
PAGE_DATE = '<meta name="date" content="March 27, 2025"><meta name="author" content="Ana Lima">'


def test_microdata_teasers_of_other_stories_are_not_the_pages_article() -> None:
    """Several article items with different dates, none at the page's URL: a box of other
    stories; the page's own ``<meta>`` values count."""
    if not extruct_available():
        pytest.skip("extruct (the metadata extra) is not installed")
    found = read(page(PAGE_DATE, TEASERS), use_extruct=True)
    assert (found.published, found.authors) == ("2025-03-27", ("Ana Lima",))
    own = teaser(URL, "2025-03-26", "Dee Ng")
    found = read(page(PAGE_DATE, own + TEASERS), use_extruct=True)
    assert (found.published, found.authors) == ("2025-03-26", ("Dee Ng",))
    found = read(page(PAGE_DATE, teaser("/other-1.html", "2025-03-26", "Dee Ng")), use_extruct=True)
    assert (found.published, found.authors) == ("2025-03-26", ("Dee Ng",))  # one item: read


def nested_items(depth: int) -> str:
    item = '<div itemscope itemtype="https://schema.org/Thing"><span itemprop="part">'
    return item * depth + "x" + "</span></div>" * depth


def test_deep_or_crowded_microdata_is_not_read() -> None:
    assert readable(parse_html(page(body=nested_items(MAX_DEPTH))))
    assert not readable(parse_html(page(body=nested_items(MAX_DEPTH + 1))))
    flat = '<span itemscope itemtype="https://schema.org/Thing"></span>'
    assert readable(parse_html(page(body=flat * MAX_ITEMS)))
    assert not readable(parse_html(page(body=flat * (MAX_ITEMS + 1))))


def test_deep_microdata_does_not_hide_the_other_sources() -> None:
    if not extruct_available():
        pytest.skip("extruct (the metadata extra) is not installed")
    found = read(page(OPENGRAPH, nested_items(1000)), use_extruct=True)
    assert found.published == "2025-03-03T08:15:00+01:00"


# -- OpenGraph and plain HTML --------------------------------------------------------------------

OPENGRAPH = """
<meta property="article:published_time" content="2025-03-03T08:15:00+0100">
<meta property="article:modified_time" content="2025-03-04">
<meta property="article:author" content="https://social.example/anna">
<meta property="article:author" content="Anna Weber">
<meta property="og:locale" content="en_GB">
<meta property="og:url" content="https://news.example/otters">
<meta property="og:description" content="Otters are back.">
<meta property="og:image" content="//cdn.news.example/otter.jpg">
"""


def test_opengraph_only() -> None:
    found = read(page(OPENGRAPH))
    assert found == ArticleMetadata(
        published="2025-03-03T08:15:00+01:00",
        modified="2025-03-04",
        authors=("Anna Weber",),  # a profile URL is no name
        language="en-GB",
        canonical_url="https://news.example/otters",
        description="Otters are back.",
        image="https://cdn.news.example/otter.jpg",
        published_raw="2025-03-03T08:15:00+0100",
        modified_raw="2025-03-04",
    )


FALLBACKS = """
<meta name="Author" content="Anna Weber">
<meta name="description" content="Otters are back.">
<meta name="DC.date.issued" content="2025-03-03">
<meta name="last-modified" content="Tue, 04 Mar 2025 10:00:00 GMT">
<meta name="twitter:image" content="https://cdn.news.example/otter.jpg">
<link rel="Canonical" href="../otters.html">
"""


def test_fallbacks_only() -> None:
    found = read(page(FALLBACKS, html_attrs=' lang="en"'))
    assert found == ArticleMetadata(
        published="2025-03-03",
        modified="2025-03-04T10:00:00+00:00",
        authors=("Anna Weber",),
        language="en",
        canonical_url="https://news.example/2025/otters.html",
        description="Otters are back.",
        image="https://cdn.news.example/otter.jpg",
        published_raw="2025-03-03",
        modified_raw="Tue, 04 Mar 2025 10:00:00 GMT",
    )


def test_content_language_meta_when_html_has_no_lang() -> None:
    head = '<meta http-equiv="Content-Language" content="fr_CA, en">'
    assert read(page(head)).language == "fr-CA"


def test_canonical_resolves_against_base_href() -> None:
    head = '<base href="https://mirror.example/news/"><link rel="canonical" href="otters">'
    assert read(page(head)).canonical_url == "https://mirror.example/news/otters"


def test_relative_urls_need_a_page_url() -> None:
    found = read(page('<link rel="canonical" href="/otters">'), url=None)
    assert found.canonical_url is None
    absolute = read(page('<link rel="canonical" href="https://news.example/o">'), url=None)
    assert absolute.canonical_url == "https://news.example/o"


def test_itemprop_time_without_extruct() -> None:
    body = '<time itemprop="dateModified" datetime="2025-03-04T10:00">4 March</time>'
    assert read(page(body=body)).modified == "2025-03-04T10:00:00"


NEAREST = """<aside><time datetime="2024-12-24">Christmas special</time></aside>
<div id="story"><header><time datetime="2025-03-03">3 March</time></header>
<div><p id="first">First paragraph of the article.</p></div></div>"""


def test_the_time_nearest_the_article() -> None:
    root = parse_html(page(body=NEAREST))
    [anchor] = root.xpath("//p[@id='first']")
    assert nearest_time(anchor) == "2025-03-03"
    assert read_metadata(root, URL, anchor=anchor).published == "2025-03-03"
    assert read_metadata(root, URL).published is None  # no article, no guess


def test_a_time_too_far_from_the_article_is_not_taken() -> None:
    deep = "<div>" * 6 + "<p id='first'>Text.</p>" + "</div>" * 6
    root = parse_html(page(body='<time datetime="2025-03-03">x</time>' + deep))
    [anchor] = root.xpath("//p[@id='first']")
    assert nearest_time(anchor) is None


# -- precedence ----------------------------------------------------------------------------------


def test_precedence_between_sources(use_extruct: bool) -> None:
    data = jsonld(
        """{"@type": "NewsArticle", "datePublished": "2025-03-01", "url": "https://news.example/ld",
            "author": "Ld Author"}"""
    )
    head = data + OPENGRAPH + FALLBACKS
    found = read(page(head, html_attrs=' lang="de"'), use_extruct)
    assert found.published == "2025-03-01"  # JSON-LD over OpenGraph and <meta>
    assert found.authors == ("Ld Author",)  # one source's authors, never a mix
    # OpenGraph over <meta> (JSON-LD has none); OpenGraph gives the day only, so the time
    # <meta> gives for that same day makes it precise.
    assert found.modified == "2025-03-04T10:00:00+00:00"
    assert found.modified_raw == "Tue, 04 Mar 2025 10:00:00 GMT"
    assert found.language == "en-GB"  # og:locale over <html lang>
    assert found.description == "Otters are back."
    # the canonical link is the exception: it beats JSON-LD's url and og:url
    assert found.canonical_url == "https://news.example/2025/otters.html"


def test_a_failing_source_costs_only_its_own_values(monkeypatch: pytest.MonkeyPatch) -> None:
    def explode(*args: object) -> list[object]:
        raise RuntimeError("a bug in a source")

    monkeypatch.setattr(metadata_module, "jsonld_documents", explode)
    data = jsonld('{"@type": "NewsArticle", "datePublished": "2025-01-01"}')
    found = read(page(data + OPENGRAPH))
    assert found.published == "2025-03-03T08:15:00+01:00"  # OpenGraph's


def test_without_extruct_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(metadata_module, "extruct_extractors", lambda: None)
    data = jsonld('{"@type": "NewsArticle", "datePublished": "2025-01-01"}')
    found = read(page(data + OPENGRAPH, MICRODATA), use_extruct=True)
    assert found.published == "2025-01-01"
    assert found.authors == ("Anna Weber",)  # OpenGraph's: microdata is not read


# -- value cleaning ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "iso"),
    [
        ("2025-03-03", "2025-03-03"),
        ("2025-03-03T08:15:00Z", "2025-03-03T08:15:00+00:00"),
        ("2025-03-03T08:15:00.123-0500", "2025-03-03T08:15:00-05:00"),
        ("2025-03-03 08:15", "2025-03-03T08:15:00"),
        ("2025-03-03T08:15+01", "2025-03-03T08:15:00+01:00"),
        ("Mon, 03 Mar 2025 08:15:00 +0100", "2025-03-03T08:15:00+01:00"),
        ("2025-13-45", None),
        ("2025-03-03T08:15:00+25:00", None),
        ("3 March 2025", None),
    ],
)
def test_iso_date(text: str, iso: str | None) -> None:
    assert iso_date(text) == iso


def test_written_dates_are_normalised_and_what_is_no_date_is_dropped() -> None:
    assert clean_date(" 3 March\n2025 ") == "2025-03-03"
    assert clean_date("March 2025") is None
    assert clean_date("yesterday") is None
    assert clean_date(["2025-03-03"]) is None


def test_language_tags() -> None:
    assert clean_language("en_US") == "en-US"
    assert clean_language("pt-BR, en") == "pt-BR"
    assert clean_language("English") is None
    assert clean_language("x" * 1000) is None


def test_urls() -> None:
    assert clean_url(" /a b ", "https://news.example/x/") == "https://news.example/a b"
    assert clean_url("javascript:alert(1)", "https://news.example/") is None
    assert clean_url("data:image/png;base64,AAAA", "https://news.example/") is None
    assert clean_url("http://[::1", "https://news.example/") is None
    assert clean_url("https://news.example/" + "a" * 5000, None) is None


def test_reading_leaves_no_reference_cycle_holding_the_tree(use_extruct: bool) -> None:
    # A cycle would keep the page's tree alive until the next garbage collection.
    html = page(GRAPH + '<meta property="og:title" content="Otters">', "<time>2025-03-03</time>")
    root = parse_html(html)
    read_metadata(root, URL, use_extruct=use_extruct)  # imports and caches first
    assert (
        cyclic_garbage(lambda: read_metadata(parse_html(html), URL, use_extruct=use_extruct)) == []
    )


HTML_DESCRIPTION = jsonld(
    """{"@type": "NewsArticle", "description":
    "Otters are <b>back</b> &amp; thriving in the river &hellip; [<a class=\\"read-more\\"
    href=\\"/otters\\">more</a>]"}"""
)


def test_a_description_holding_html_is_text_only(use_extruct: bool) -> None:
    found = read(page(HTML_DESCRIPTION), use_extruct)
    assert found.description == "Otters are back & thriving in the river …"
    escaped = '<meta name="description" content="A &lt;i&gt;short&lt;/i&gt; story: 3 &lt; 4">'
    assert read(page(escaped)).description == "A short story: 3 < 4"


def test_a_page_without_a_time_element_has_no_nearest_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tags saw every element and no ``<time datetime>``: no XPath is run for one."""
    looked: list[object] = []
    monkeypatch.setattr(fallbacks, "nearest_time", lambda element: looked.append(element))
    root = parse_html(b"<html><body><h1>Title</h1><p>Text of the article.</p></body></html>")
    anchor = root.find(".//p")
    assert fallbacks._time_near(page_tags(root), anchor) is None and looked == []
    with_time = parse_html(
        b"<html><body><p>a</p><time datetime='2024-01-02'>x</time></body></html>"
    )
    fallbacks._time_near(page_tags(with_time), with_time.find(".//p"))
    assert len(looked) == 1


_speedups = compiled_twin("scrapy_boilerplate.page._speedups")
TEXTS = (
    "<div>a<!--c1-->b<?pi x?>c<span>d<!--c2-->e</span>f<i></i><b>g<u>h</u></b>T</div>",
    "<div><a><b><c/></b>T</a>Z</div>",
    "<div>é漢字 <p>x</p><p></p>\U0001f600</div>",
    "<div>\n  <p> \t ab\tc \n</p>\u00a0abcd\u00a0<b>\u3000 abcdef\n</b></div>",
)


def assert_same_texts(element: etree._Element, limit: int) -> None:
    assert _speedups is not None
    for bounds in ((0, -1), (1, -1), (3, -1), (6, 80), (0, 4), (4, 4)):
        found = _speedups.leading_texts(element, limit, *bounds)
        assert found == leading_texts_pure(element, limit, *bounds)


def test_leading_texts_are_itertext_up_to_the_limit() -> None:
    root = etree.fromstring(TEXTS[0])
    assert leading_texts_pure(root, 100) == list(root.itertext())
    assert leading_texts_pure(root, 3) == ["a", "b", "c"]
    assert leading_texts_pure(root, 0) == []
    spaced = etree.fromstring(TEXTS[3])  # texts of 0, 4, 4 and 6 characters once stripped
    assert leading_texts_pure(spaced, 100, 6) == ["\u3000 abcdef\n"]
    assert leading_texts_pure(spaced, 100, 4, 4) == [" \t ab\tc \n", "\u00a0abcd\u00a0"]
    assert leading_texts_pure(spaced, 17, 4) == [" \t ab\tc \n"]  # the spaces count


def test_compiled_leading_texts_are_the_references_on_hand_made_trees() -> None:
    if _speedups is None:
        pytest.skip("the compiled page twin is not built")
    for text in TEXTS:
        root = etree.fromstring(text)
        for element in root.iter("*"):
            for limit in range(12):
                assert_same_texts(element, limit)
    with_entity = etree.fromstring("<div>a<p>b</p></div>")
    with_entity.append(etree.Entity("nbsp"))
    assert _speedups.leading_texts(with_entity, 100) is None


@pytest.mark.parametrize("dataset", TWIN_DATASETS)
def test_compiled_leading_texts_on_every_shared_page(dataset: str) -> None:
    if _speedups is None:
        pytest.skip("the compiled page twin is not built")
    for _, doc in segmented_pages(dataset):
        assert doc.root is not None
        for element in [doc.root, *(b.element for b in doc.blocks[:30] if b.element is not None)]:
            assert_same_texts(element, 1500)
