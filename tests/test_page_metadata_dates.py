"""Publication dates: written dates normalised to ISO 8601, the page's zone kept and none
invented, implausible days dropped, and the date sources of a page ranked."""

from __future__ import annotations

from datetime import date

import pytest

from scrapy_boilerplate.model.metadata import ArticleMetadata
from scrapy_boilerplate.page.metadata import read_metadata
from scrapy_boilerplate.page.metadata.dates import normalise_date, url_date, written_date
from scrapy_boilerplate.page.parsing import parse_html

TODAY = date(2026, 1, 15)
URL = "https://news.example/story.html"


def read(html: str, url: str = URL, anchor_id: str | None = None) -> ArticleMetadata:
    root = parse_html(html)
    anchor = root.xpath(f"//*[@id='{anchor_id}']")[0] if anchor_id else None
    return read_metadata(root, url, anchor=anchor, use_extruct=False)


@pytest.mark.parametrize(
    ("text", "iso"),
    [
        ("November 19, 2019", "2019-11-19"),
        ("2019-11-18 17:19:53 GMT", "2019-11-18T17:19:53+00:00"),
        ("01:38:07 PM IST Nov 20, 2019", "2019-11-20T13:38:07"),  # IST: India? Israel? no zone
        ("Tue, 19 Nov 2019 17:19:53 EST", "2019-11-19T17:19:53-05:00"),
        ("19. November 2019, 17:19 Uhr", "2019-11-19T17:19:00"),
        ("19 de noviembre de 2019", "2019-11-19"),
        ("19.11.2019", "2019-11-19"),
        ("11/19/2019", "2019-11-19"),  # only month first is a valid reading
        ("2019-11-19T08:15:00.250", "2019-11-19T08:15:00"),  # no zone given, none invented
        ("2019-11-19T08:15:00+0530", "2019-11-19T08:15:00+05:30"),
        ("2019-11-19T08:15:00+25:00", None),
        ("2019-02-30", None),
        ("November 2019", None),  # no day
        ("yesterday", None),
    ],
)
def test_dates_are_normalised_to_iso_8601(text: str, iso: str | None) -> None:
    assert normalise_date(text, today=TODAY) == iso


@pytest.mark.parametrize(
    ("text", "american", "iso"),
    [
        ("3/4/2025", True, "2025-03-04"),
        ("3/4/2025", False, "2025-04-03"),
        ("03-09-2025", True, "2025-03-09"),
        ("10/12/2023 7:38:01 PM", True, "2023-10-12T19:38:01"),
        ("19/11/2019", True, "2019-11-19"),  # only day first is valid
        ("03.04.2025", True, "2025-04-03"),  # dots: day first everywhere
    ],
)
def test_ambiguous_digit_dates_are_month_first_in_american_english(
    text: str, american: bool, iso: str
) -> None:
    assert normalise_date(text, TODAY, month_first=american) == iso


def test_the_pages_language_decides_how_digit_dates_read() -> None:
    html = '<html lang="{}"><head><meta name="date" content="3/4/2025"></head><body></body></html>'
    assert read(html.format("en-US")).published == "2025-03-04"
    assert read(html.format("en")).published == "2025-04-03"  # no country named
    assert read(html.format("en-GB")).published == "2025-04-03"
    assert read(html.format("de")).published == "2025-04-03"


def test_a_day_in_the_future_or_before_1990_is_no_publication_date() -> None:
    assert normalise_date("2026-01-16", today=TODAY) == "2026-01-16"  # tomorrow: a zone ahead
    assert normalise_date("2026-01-17", today=TODAY) is None
    assert normalise_date("1989-12-31T10:00:00Z", today=TODAY) is None
    assert normalise_date("1990-01-01", today=TODAY) == "1990-01-01"


def test_url_dates() -> None:
    assert url_date("https://n.example/2019/11/19/otters/", today=TODAY) == "2019-11-19"
    assert url_date("https://n.example/news/2019-11-19-otters.html", today=TODAY) == "2019-11-19"
    assert url_date("https://n.example/2019/11/otters", today=TODAY) is None
    assert url_date("https://n.example/articles/2019-11-19+Otters+return", today=TODAY) == (
        "2019-11-19"
    )
    assert url_date("https://n.example/2019/11/19abc", today=TODAY) is None
    assert url_date("https://n.example/a?d=2019/11/19", today=TODAY) is None
    assert url_date(None) is None


# The page shapes that showed each defect.

LONG_FORM_JSONLD = """<html><head>
<script type="application/ld+json">{"@type": "NewsArticle", "datePublished": "November 19, 2019"}
</script>
<meta property="article:published_time" content="2019-11-19T10:02:00-05:00">
</head><body><p>Text.</p></body></html>"""


def test_a_long_form_jsonld_date_is_normalised_and_made_precise_by_the_meta_time() -> None:
    found = read(LONG_FORM_JSONLD)
    assert found.published == "2019-11-19T10:02:00-05:00"
    assert found.published_raw == "2019-11-19T10:02:00-05:00"


def test_a_long_form_date_alone_is_normalised_and_kept_raw() -> None:
    found = read(LONG_FORM_JSONLD.replace("article:published_time", "other"))
    assert found.published == "2019-11-19"
    assert found.published_raw == "November 19, 2019"


TIME_WITH_ZONE_NAME = """<html><body><article>
<time itemprop="datePublished" datetime="2019-11-18 17:19:53 GMT">Nov 18</time>
<p>Text.</p></article></body></html>"""


def test_a_time_datetime_with_a_zone_name() -> None:
    found = read(TIME_WITH_ZONE_NAME)
    assert found.published == "2019-11-18T17:19:53+00:00"
    assert found.published_raw == "2019-11-18 17:19:53 GMT"


AMBIGUOUS_ZONE = """<html><head>
<meta name="publish-date" content="01:38:07 PM IST Nov 20, 2019">
</head><body><p>Text.</p></body></html>"""


def test_an_ambiguous_zone_name_is_dropped_not_guessed() -> None:
    found = read(AMBIGUOUS_ZONE)
    assert found.published == "2019-11-20T13:38:07"
    assert found.published_raw == "01:38:07 PM IST Nov 20, 2019"


INVALID_THEN_VALID = """<html><head>
<script type="application/ld+json">{"@type": "Article", "datePublished": "2099-01-01"}</script>
<meta property="article:published_time" content="2019-11-19">
</head><body><p>Text.</p></body></html>"""


def test_an_invalid_date_gives_way_to_the_next_source() -> None:
    assert read(INVALID_THEN_VALID).published == "2019-11-19"


URL_ONLY = "<html><body><div><p id='first'>Text of the story.</p></div></body></html>"


def test_the_url_date_when_the_page_declares_none() -> None:
    found = read(URL_ONLY, url="https://news.example/2019/11/19/otters", anchor_id="first")
    assert found.published == "2019-11-19"


DATELINE = """<html><body><div class="story">
<h1>Otters return</h1><div class="byline">Posted on 19. November 2019, 17:19 Uhr</div>
<p id="first">The otters are back in the river after twenty years.</p></div></body></html>"""


def test_a_written_dateline_near_the_article() -> None:
    found = read(DATELINE, anchor_id="first")
    assert found.published == "2019-11-19T17:19:00"
    assert found.published_raw == "Posted on 19. November 2019, 17:19 Uhr"
    assert read(DATELINE).published is None  # no article, no guess


DATELINE_BY_THE_HEADLINE = """<html><body><header><h1>Otters return</h1>
<p class="meta">Feb 2, 2023 · 4 min read</p></header><main><div><div><div><div><div>
<p id="first">The otters are back in the river after twenty years.</p></div></div></div></div></div>
</main></body></html>"""


def test_a_dateline_by_the_headline_when_the_article_is_far_from_it() -> None:
    assert read(DATELINE_BY_THE_HEADLINE, anchor_id="first").published == "2023-02-02"


ELEMENT_NAMED_FOR_A_DATE = """<html><body><div class="sidebar"><p>Menu</p></div><main>
<div class="collection-dateline"><p class="small">Published</p><p class="date">Feb 2, 2023</p>
</div><div><div><h1>Otters return</h1>
<p id="first">The otters are back.</p></div></div></main></body></html>"""


def test_a_written_date_in_an_element_named_for_a_date() -> None:
    assert read(ELEMENT_NAMED_FOR_A_DATE, anchor_id="first").published == "2023-02-02"


POSTED_UNDER_THE_POST = """<html><body><article><div class="header"><h1>Journal indexes</h1>
</div><div class="post-content"><p id="first">Researchers rely on indexes to find journals.</p>
<p>LONG</p></div>
<div class="meta date-section-header"><span>Posted on April 13, 2023</span><ul class="tags">
<li><a href="/t/indexing">Indexing</a></li><li><a href="/t/metadata">Metadata and identifiers for
scholarly journals and the books they review</a></li></ul></div></article></body></html>""".replace(
    "LONG", "Indexes differ in what they cover and in how a journal gets into them. " * 25
)  # the date comes after the first 1,500 characters of the article


def test_the_first_dateline_of_a_long_element_named_for_a_date() -> None:
    assert read(POSTED_UNDER_THE_POST, anchor_id="first").published == "2023-04-13"
    timeline = POSTED_UNDER_THE_POST.replace("meta date-section-header", "timeline")
    assert read(timeline, anchor_id="first").published is None


def test_meta_names_of_journals_and_written_meta_values() -> None:
    head = '<meta name="citation_publication_date" content="2023 Jan 7">'
    assert read(f"<html><head>{head}</head><body><p>x</p></body></html>").published == (
        "2023-01-07"
    )
    head = '<meta name="published" content="July 17, 2025">'
    assert read(f"<html><head>{head}</head><body><p>x</p></body></html>").published == (
        "2025-07-17"
    )


def test_the_revision_date_of_a_documentation_page() -> None:
    head = '<meta name="ms.date" content="2025-03-06T00:00:00Z">'
    assert read(f"<html><head>{head}</head><body><p>x</p></body></html>").published == (
        "2025-03-06T00:00:00+00:00"
    )


QUESTION_PAGE = """<html><body itemscope itemtype="https://schema.org/QAPage">
<div id="content"><div class="question-header"><h1>How should I prepare?</h1>
<div class="meta">Asked <time itemprop="dateCreated" datetime="2011-02-11 23:49:17Z">14 years
ago</time></div></div>
<div class="main"><div class="question"><div class="post"><div class="cell"><div class="body">
<p id="first">I am catering for sixty guests for the first time. What should I plan?</p></div>
<div class="signature">edited Feb 12, 2011 at 21:50</div></div></div></div></div></div>
</body></html>"""


def test_a_questions_date_created_is_the_pages_date_not_an_edit_dateline() -> None:
    found = read(QUESTION_PAGE, anchor_id="first")
    assert found.published == "2011-02-11T23:49:17+00:00"
    assert found.published_raw == "2011-02-11 23:49:17Z"


SAVE_STAMP = """<html><head><script type="application/ld+json">
{"@type": "BlogPosting", "datePublished": "2025-11-05", "dateModified": "2025-11-05"}
</script></head><body><div class="post"><h1>Choosing a bread machine</h1>
<div class="meta">January 31, 2024</div>
<p id="first">A bread machine kneads, proves and bakes in one pan while you sleep.</p>
</div></body></html>"""


def test_a_published_date_stamped_with_the_modified_one_yields_to_an_earlier_shown_date() -> None:
    found = read(SAVE_STAMP, anchor_id="first")
    assert found.published == "2024-01-31"
    assert found.published_raw == "January 31, 2024"
    assert found.modified == "2025-11-05"


def test_a_published_date_after_the_modified_one_yields_to_an_earlier_shown_date() -> None:
    resaved = SAVE_STAMP.replace('"dateModified": "2025-11-05"', '"dateModified": "2025-11-03"')
    assert read(resaved, anchor_id="first").published == "2024-01-31"


def test_a_published_date_apart_from_the_modified_one_stays() -> None:
    updated = SAVE_STAMP.replace('"dateModified": "2025-11-05"', '"dateModified": "2025-11-20"')
    assert read(updated, anchor_id="first").published == "2025-11-05"
    later = SAVE_STAMP.replace("January 31, 2024", "November 6, 2025")  # shown later: stays
    assert read(later, anchor_id="first").published == "2025-11-05"


UTC_STAMP = """<html><head>
<meta property="article:published_time" content="2025-12-19T03:05:00+00:00"></head>
<body><div class="post"><h1>Otters at dusk</h1>
<div class="post-date"><time datetime="2025-12-18T19:05:00-08:00">December 18, 2025</time></div>
<p id="first">The otters came out at dusk, as they do in winter.</p></div></body></html>"""


def test_a_utc_instant_yields_to_the_same_instant_in_the_publishers_zone() -> None:
    found = read(UTC_STAMP, anchor_id="first")
    assert found.published == "2025-12-18T19:05:00-08:00"


def test_a_utc_instant_stays_without_the_same_instant_in_another_zone() -> None:
    shown = UTC_STAMP.replace(' datetime="2025-12-18T19:05:00-08:00"', "")
    assert read(shown, anchor_id="first").published == "2025-12-19T03:05:00+00:00"
    other_instant = UTC_STAMP.replace("19:05:00-08:00", "11:05:00-08:00")
    assert read(other_instant, anchor_id="first").published == "2025-12-19T03:05:00+00:00"


def test_an_iso_date_time_written_in_the_text_is_a_written_date() -> None:
    assert written_date("2022-11-23T08:10+02:00")
    assert not written_date("build-2022-11-23T08")


DATE_UNDER_HEADLINE = """<html><body><div class="page">
<section class="hero"><div><div><div><div><h1>Why cities plant trees</h1>
</div></div></div></div></section>
<section class="meta"><div><div><p class="Author_author">Nick van Mead</p>
<p><span class="Author_publicationTime__F2lab">2022-11-23T08:10+02:00</span></p></div></div>
</section>
<section class="body"><div><div><div><div><p id="first">Shade cools streets by several
degrees in a heatwave.</p></div></div></div></div></section></div></body></html>"""


def test_a_date_in_a_block_of_its_own_after_the_headline_is_the_publication() -> None:
    assert read(DATE_UNDER_HEADLINE, anchor_id="first").published == "2022-11-23T08:10:00+02:00"


def test_an_updated_date_after_the_headline_is_no_publication() -> None:
    html = DATE_UNDER_HEADLINE.replace("2022-11-23T08:10+02:00", "Updated Feb. 27, 2025")
    assert read(html, anchor_id="first").published is None


def test_a_publication_date_meta_with_a_prefix() -> None:
    html = (
        '<html><head><meta name="w-published-date" content="2025-05-27T06:03:43.274Z">'
        "</head><body><p>Text.</p></body></html>"
    )
    assert read(html).published == "2025-05-27T06:03:43+00:00"


TIME_SHOWN_AS_DIGITS = """<html lang="en-GB"><body><div class="post"><h1>Moving offices</h1>
<p><small>Posted <time datetime="2023-10-12T19:38:01.0870000Z">10/12/2023 7:38:01 PM</time>
</small></p><p id="first">Relocating a team takes a plan for every week of the move.</p>
</div></body></html>"""


def test_a_dateline_shown_by_a_time_element_is_read_from_its_datetime() -> None:
    """The ``datetime`` says which of day and month ``10/12/2023`` writes first."""
    assert read(TIME_SHOWN_AS_DIGITS, anchor_id="first").published == "2023-10-12T19:38:01+00:00"


def test_a_dateline_that_is_no_time_elements_text_is_read_as_written() -> None:
    html = (
        '<html lang="en-GB"><body><main><div><div><div><div class="post"><h1>Moving offices</h1>'
        "<p><small>Posted 10/12/2023 7:38:01 PM</small></p><p id='first'>Relocating a team takes"
        " a plan for every week of the move.</p></div></div></div></div></main><footer>"
        '<time datetime="2023-10-14">Saturday</time></footer></body></html>'
    )
    assert read(html, anchor_id="first").published == "2023-12-10T19:38:01"
