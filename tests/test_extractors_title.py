"""The headline finder: the article's title, never the site's name."""

from __future__ import annotations

from pathlib import Path

import pytest

from scrapy_boilerplate import extract
from scrapy_boilerplate.extractors import title as title_module
from scrapy_boilerplate.extractors.title import article_title, find_title
from scrapy_boilerplate.model.document import TextDocument
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import segment

READING = Path(__file__).parent / "fixtures" / "reading"


def title_of(html: str) -> str | None:
    return extract(html).title


def test_a_site_logo_h1_does_not_win_over_the_title() -> None:
    page = (READING / "title-site-logo-h1.html").read_bytes()
    assert extract(page).title == "Why the city is building twenty new parks"
    html = (
        "<title>Mayor opens the new bridge over the river - Daily News</title>"
        "<body><h1>Daily News</h1><p>text</p></body>"
    )
    assert title_of(html) == "Mayor opens the new bridge over the river"


def test_an_h1_with_the_headline_still_wins() -> None:
    html = (
        "<title>Mayor opens bridge | Daily News</title>"
        "<body><h1>Mayor opens the bridge</h1><p>text</p></body>"
    )
    assert title_of(html) == "Mayor opens the bridge"


def test_the_headline_is_computed_once_per_document(monkeypatch: pytest.MonkeyPatch) -> None:
    """Filters and the result ask for it; a document whose title or tree changes gets a new
    answer."""
    calls: list[TextDocument] = []
    compute = title_module._find_title

    def counted(doc: TextDocument) -> str | None:
        calls.append(doc)
        return compute(doc)

    monkeypatch.setattr(title_module, "_find_title", counted)
    html = "<title>Storm hits the coast | News</title><body><h1>Storm hits</h1><p>x</p></body>"
    doc = segment(parse_html(html))
    assert find_title(doc) == find_title(doc) == "Storm hits"
    assert len(calls) == 1
    doc.title = "Another story - News"
    assert find_title(doc) == "Another story"
    doc.root = parse_html("<title>x</title><body><h1>Another story today</h1></body>")
    assert find_title(doc) == "Another story today"
    assert len(calls) == 3
    assert extract(html, extractor="article-learned").title == "Storm hits"


def test_both_readings_of_the_title_read_the_headings_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The headline finder and the result's title share the page's ``<h1>`` texts and
    ``og:title``; a new tree is read again."""
    read: list[object] = []
    string_value = title_module.string_value

    def counted(element: object) -> str:
        read.append(element)
        return string_value(element)

    monkeypatch.setattr(title_module, "string_value", counted)
    html = (
        '<title>Storm hits the coast | News</title><meta property="og:title" content="Storm">'
        "<body><h1>Storm hits the coast</h1><p>x</p></body>"
    )
    doc = segment(parse_html(html))
    assert find_title(doc) == article_title(doc) == "Storm hits the coast"
    assert len(read) == 1
    doc.root = parse_html(html)
    assert article_title(doc) == "Storm hits the coast"
    assert len(read) == 2


def test_the_h1_equal_to_the_headline_part_of_the_title_wins_over_a_longer_site_name() -> None:
    html = (
        "<title>商品の改造が商標法違反に！？ | 特許業務法人あおば国際特許商標事務所</title>"
        "<body><h1>商品の改造が商標法違反に！？</h1><p>本文です。</p></body>"
    )
    assert title_of(html) == "商品の改造が商標法違反に！？"


def test_a_title_part_naming_the_site_never_wins() -> None:
    head = (
        "<title>Daily News | Mayor opens bridge</title>"
        '<meta property="og:site_name" content="Daily News">'
    )
    html = f"<head>{head}</head><body><h1>Daily News</h1><p>text</p></body>"
    assert title_of(html) == "Mayor opens bridge"
    host = "<title>Courier | Ten new parks for the city</title><body><h1>Courier</h1><p>x</p>"
    assert extract(host, "https://www.courier.example/parks").title == "Ten new parks for the city"


def test_an_h1_ending_with_the_site_name_loses_it() -> None:
    html = (
        "<title>Critics’ Choice: Best Art Shows 2025 – Artlyst - Artlyst</title>"
        '<meta property="og:site_name" content="Artlyst">'
        "<body><h1>Critics’ Choice: Best Art Shows 2025 – Artlyst</h1><p>text</p></body>"
    )
    assert title_of(html) == "Critics’ Choice: Best Art Shows 2025"


def test_a_bullet_separates_the_site_name_from_the_headline() -> None:
    html = (
        "<title>A brief intro to git • Cory Dransfeldt</title>"
        "<body><h1>Cory Dransfeldt</h1><p>text</p></body>"
    )
    assert title_of(html) == "A brief intro to git"


def test_the_pilcrow_of_a_section_link_is_no_part_of_the_headline() -> None:
    html = (
        "<title>Models | Django documentation | Django</title>"
        '<body><h1>Models<a class="headerlink" href="#models">¶</a></h1><p>text</p></body>'
    )
    assert title_of(html) == "Models"


def test_a_line_break_inside_the_h1_separates_its_words() -> None:
    html = (
        "<title>Data Analytics Agency | Punto</title>"
        "<body><h1>Data Analytics<span><br>Agency</span></h1><p>text</p></body>"
    )
    assert title_of(html) == "Data Analytics Agency"


KICKER_PAGE = (
    "<title>Ehrengast der Buchmesse: Was lesen die Philippinen? | Zeitung</title>"
    '<meta property="og:title" content="Ehrengast der Buchmesse: Was lesen die Philippinen?">'
    '<body><h1><span class="kicker">{kicker}</span>{between}Ehrengast der Buchmesse: '
    "Was lesen die Philippinen?</h1><p>text</p></body>"
)


@pytest.mark.parametrize(
    ("kicker", "between"),
    [("Kultur", " : "), ("Dec 18 2025", " "), ("Minderheit in Syrien", " - ")],
)
def test_a_kicker_of_its_own_inside_the_h1_is_no_part_of_the_headline(
    kicker: str, between: str
) -> None:
    page = KICKER_PAGE.format(kicker=kicker, between=between)
    assert title_of(page) == "Ehrengast der Buchmesse: Was lesen die Philippinen?"


def test_an_h1_longer_than_the_og_title_in_one_text_keeps_its_words() -> None:
    # no element of its own before the og:title: the visible headline stays whole
    page = KICKER_PAGE.replace('<span class="kicker">{kicker}</span>{between}', "Kultur: ")
    assert title_of(page) == "Kultur: Ehrengast der Buchmesse: Was lesen die Philippinen?"


@pytest.mark.parametrize(
    ("title", "headline"),
    [
        ("Why did the image grow? / Support / Distro Forums", "Why did the image grow?"),
        ("Distro Forums / Support / Why did the image grow?", "Why did the image grow?"),
        ("Black Friday / Cyber Monday deals", "Black Friday / Cyber Monday deals"),
        ("Moving from GNU/Linux to BSD", "Moving from GNU/Linux to BSD"),
    ],
)
def test_a_trail_title_without_an_h1_gives_the_pages_part(title: str, headline: str) -> None:
    """Forum software's ``Subject / Forum / Board``: the page's part, the site's end aside;
    a slash inside a two-part title or a word is no trail."""
    html = (
        f"<head><title>{title}</title><meta property='og:site_name' content='Distro Forums'>"
        "</head><body><h2>Posts</h2><p>text</p></body>"
    )
    assert title_of(html) == headline


def candidates_of(html: str, url: str | None = None) -> dict[str, set[str]]:
    doc = segment(parse_html(html), url=url)
    page = title_module.title_candidates(doc, title_module.rule_title(doc))
    return {candidate.text: candidate.sources for candidate in page.candidates.values()}


def test_the_ranker_reads_every_place_a_page_gives_its_headline() -> None:
    html = (
        "<head><title>Storm hits the coast - Daily News</title>"
        '<meta property="og:title" content="Storm hits the coast tonight">'
        '<meta name="twitter:title" content="Storm hits coast">'
        '<script type="application/ld+json">{"@type": "NewsArticle",'
        ' "headline": "Storm hits the coast, thousands leave"}</script></head>'
        "<body><h1>Storm hits the coast</h1><p>text</p></body>"
    )
    found = candidates_of(html, "https://dailynews.example/storm")
    assert found["Storm hits the coast"] >= {"rule", "h1", "title_stripped", "title_part"}
    assert "og" in found["Storm hits the coast tonight"]
    assert found["Storm hits coast"] == {"twitter"}
    assert found["Storm hits the coast, thousands leave"] == {"jsonld"}
    assert found["Storm hits the coast - Daily News"] == {"title"}
    assert "Daily News" not in found  # the site's name is no candidate


def test_a_title_part_naming_the_host_is_no_candidate() -> None:
    html = "<title>Example | Why parks matter</title><body><p>text</p></body>"
    found = candidates_of(html, "https://www.example.org/parks")
    assert "Example" not in found and "Why parks matter" in found


def test_character_references_escaped_twice_in_meta_titles_are_decoded() -> None:
    html = (
        '<head><meta property="og:title"'
        ' content="Budget Traveler&amp;#8217;s Guide &amp;amp; Tips">'
        "</head><body><p>text</p></body>"
    )
    assert "Budget Traveler’s Guide & Tips" in candidates_of(html)


def test_a_page_of_one_candidate_keeps_the_rules_title() -> None:
    doc = segment(parse_html("<title>Storm hits the coast</title><body><p>t</p></body>"))
    page = title_module.title_candidates(doc, "Storm hits the coast")
    assert len(page.candidates) == 1
    never = title_module.load_title_model()
    assert title_module.choose_title(never, page, "Storm hits the coast") == "Storm hits the coast"
