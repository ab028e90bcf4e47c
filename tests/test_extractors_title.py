"""The headline finder: the article's title, never the site's name."""

from __future__ import annotations

from pathlib import Path

from scrapy_boilerplate import extract

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
