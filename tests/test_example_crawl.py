"""The demo crawl end to end: demo sites -> news_crawl -> SQLite, scored against the truth.

Each crawl runs ``scrapy crawl`` in a subprocess (about 5 s each).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from example_support import EXAMPLE_PROJECT, postgres_schema_url

# isort: split

from demo_site.generator import build_pages
from newsroom.demo import DemoResult, run_demo
from newsroom.storage import open_store


@pytest.fixture(scope="module")
def crawled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, DemoResult, DemoResult]:
    """One database crawled twice (edition 1 both times)."""
    directory = tmp_path_factory.mktemp("demo")
    db = directory / "articles.sqlite3"
    first = run_demo(db, feed_path=directory / "items.jsonl")
    second = run_demo(db)
    return directory, first, second


def test_every_article_page_is_stored_once_and_nothing_else(
    crawled: tuple[Path, DemoResult, DemoResult],
) -> None:
    directory, first, _ = crawled
    assert first.returncode == 0, first.log_path.read_text() if first.log_path else ""
    _, articles = build_pages()
    conn = sqlite3.connect(directory / "articles.sqlite3")
    urls = [url for (url,) in conn.execute("SELECT url FROM articles")]
    assert len(articles) >= 60
    assert sorted(urls) == sorted(article.url for article in articles)  # once each, no listings
    assert first.stored_not_articles == [] and first.missing == []
    assert first.pages_served["listing"] > 0  # listing pages were crawled, just not stored


def test_stored_text_matches_the_truth(crawled: tuple[Path, DemoResult, DemoResult]) -> None:
    _, first, _ = crawled
    assert first.mean_f1 >= 0.95, first.mean_f1_by_site()


def test_the_page_metadata_is_stored(crawled: tuple[Path, DemoResult, DemoResult]) -> None:
    directory, first, _ = crawled
    articles = open_store(f"sqlite:///{directory}/articles.sqlite3").articles()
    by_host = {url.split("/")[2]: article for url, article in ((a.url, a) for a in articles)}
    ledger, courier = by_host["www.harbourledger.test"], by_host["northsidecourier.test"]
    assert ledger.published and ledger.published.startswith("2024-05-")  # <time datetime>
    assert (ledger.language, courier.language) == ("en-GB", "en")  # <html lang>
    assert courier.description and all(a.canonical_url for a in articles)
    assert first.metadata_counts["canonical_url"] == first.stored_articles
    assert sum(first.page_type_counts.values()) == first.stored_articles  # every page typed
    assert f"Database:        SQLite {directory}" in first.summary()
    assert "Spooled:         0 item(s) in this run; 0 waiting" in first.summary()


def test_rss_date_fills_pages_without_one(tmp_path: Path) -> None:
    result = run_demo(tmp_path / "articles.sqlite3", spider="news_rss")
    assert result.returncode == 0 and result.stored_articles > 0
    articles = open_store(f"sqlite:///{tmp_path}/articles.sqlite3").articles()
    # no date in the Tribune's markup: its visible "Posted: 05/28/2024 03:00 PM" line is read
    # now (without a zone, none invented); the feed's <pubDate> fills only pages without a date
    tribune = [a for a in articles if "valleytribune" in a.url]
    assert tribune and all(a.published for a in tribune)
    assert result.metadata_counts["published"] == result.stored_articles


def test_demo_into_postgresql_reports_and_scores_it(tmp_path: Path) -> None:
    for url in postgres_schema_url():
        result = run_demo(tmp_path / "unused.sqlite3", database_url=url)
        assert result.returncode == 0
        assert result.database.startswith("PostgreSQL ") and result.database_error is None
        assert result.missing == [] and result.inserted == result.stored_articles >= 60
        assert result.mean_f1 >= 0.95
        assert open_store(url).count() == result.stored_articles
        assert not (tmp_path / "unused.sqlite3").exists()


def test_keep_page_types_drops_the_other_pages_and_counts_them(
    crawled: tuple[Path, DemoResult, DemoResult], tmp_path: Path
) -> None:
    _, first, _ = crawled
    result = run_demo(tmp_path / "listings.sqlite3", settings=["NEWSROOM_KEEP_PAGE_TYPES=listing"])
    assert result.returncode == 0
    listings = first.page_type_counts.get("listing", 0)
    assert result.stored_articles == listings < first.stored_articles
    assert result.log_path is not None
    log = result.log_path.read_text()
    assert f"'newsroom/page_type/dropped': {first.stored_articles - listings}," in log
    assert "is not in NEWSROOM_KEEP_PAGE_TYPES (listing)" in log


def test_second_crawl_creates_no_duplicates(crawled: tuple[Path, DemoResult, DemoResult]) -> None:
    directory, first, second = crawled
    assert second.returncode == 0
    assert second.inserted == 0
    conn = sqlite3.connect(directory / "articles.sqlite3")
    count, newest = conn.execute("SELECT COUNT(*), MAX(version) FROM articles").fetchone()
    assert count == first.stored_articles and newest <= 2
    assert conn.execute("SELECT COUNT(*) FROM article_versions").fetchone() == (
        first.stored_articles + second.updated,
    )
    assert conn.execute(
        "SELECT COUNT(*) FROM articles WHERE last_fetched > first_seen"
    ).fetchone() == (first.stored_articles,)
    # the only updates: pages the first crawl extracted before their site's templates were
    # known lose the repeated blocks the second crawl (starting warm) leaves out
    assert second.updated == len(only_lines_removed(conn))


def only_lines_removed(conn: sqlite3.Connection, skip: frozenset[str] = frozenset()) -> list[str]:
    """URLs of the articles at version 2 (but ``skip``) whose second text is their first minus
    some lines (asserted for every such article)."""
    urls = []
    for url, article_id in conn.execute("SELECT url, id FROM articles WHERE version = 2"):
        if url in skip:
            continue
        old, new = (
            text
            for (text,) in conn.execute(
                "SELECT article_text FROM article_versions WHERE article_id = ? ORDER BY version",
                (article_id,),
            )
        )
        old_lines = [line for line in old.splitlines() if line.strip()]
        kept = [line for line in new.splitlines() if line.strip()]
        assert len(kept) < len(old_lines) and all(line in old_lines for line in kept), url
        urls.append(url)
    return urls


def test_feed_export_holds_the_same_items(crawled: tuple[Path, DemoResult, DemoResult]) -> None:
    directory, first, _ = crawled
    items = [json.loads(line) for line in (directory / "items.jsonl").read_text().splitlines()]
    assert len(items) == first.stored_articles
    assert all(item["article_text"] and item["extractor"] for item in items)
    assert all(item["article_page_type"] for item in items)


def test_changed_articles_get_a_new_version(tmp_path: Path) -> None:
    db = tmp_path / "articles.sqlite3"
    run_demo(db, spider="news_sitemap")
    result = run_demo(db, spider="news_sitemap", edition=2)
    _, revised = build_pages(edition=2)
    changed = sorted(article.url for article in revised if article.updated is not None)
    assert result.returncode == 0 and changed
    conn = sqlite3.connect(db)
    bumped = sorted(url for (url,) in conn.execute("SELECT url FROM articles WHERE version = 2"))
    # besides the revised articles, pages extracted before their site's templates were known
    # in the first crawl may lose repeated blocks (site templates, learnt and kept)
    assert set(changed) <= set(bumped) and result.inserted == 0
    cleaned = set(bumped) - set(changed)
    assert cleaned == set(only_lines_removed(conn, frozenset(changed)))
    assert result.updated == len(bumped)
    history = conn.execute(
        "SELECT COUNT(*) FROM article_versions v JOIN articles a ON a.id = v.article_id "
        "WHERE a.version = 2"
    ).fetchone()
    assert history == (2 * len(bumped),)


def test_project_lists_its_spiders() -> None:
    assert (EXAMPLE_PROJECT / "scrapy.cfg").exists()
    names = {path.stem for path in (EXAMPLE_PROJECT / "newsroom" / "spiders").glob("news_*.py")}
    assert names == {"news_crawl", "news_feeds"}
