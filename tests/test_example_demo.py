"""The demo's scoring and summary: the database the crawl wrote, its metadata, the spool."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from example_support import EXAMPLE_PROJECT  # noqa: F401 - puts example_project on sys.path

# isort: split

from newsroom.demo import _read_result, demo_database_url, score_store
from newsroom.storage import ArticleRecord, open_store

T0 = datetime(2024, 5, 30, 12, 0, tzinfo=timezone.utc)
TRUTH = {
    f"http://n.test/a/{n}": {"text": f"Words of article {n} here.", "title": f"T{n}"}
    for n in range(3)
}


def test_database_precedence(tmp_path: Path) -> None:
    db = tmp_path / "a.sqlite3"
    pg = "postgresql://u:p@db:5432/news"
    assert demo_database_url(db) == f"sqlite:///{db}"
    assert demo_database_url(db, settings=["DATABASE_URL=sqlite:///x", f"DATABASE_URL={pg}"]) == pg
    assert demo_database_url(db, "sqlite:///y", ["DATABASE_URL=" + pg]) == "sqlite:///y"


def test_score_store_reads_the_store_with_its_metadata(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path}/a.sqlite3")
    for n in range(2):  # article 0 seen before the run, article 1 new; article 2 missing
        store.upsert(
            ArticleRecord(
                url=f"http://n.test/a/{n}",
                title=f"T{n}",
                text=TRUTH[f"http://n.test/a/{n}"]["text"],
                fetched_at=T0 + timedelta(hours=2 * n),
                published="2024-05-30" if n else None,
                authors=("Ada Byron",),
                page_type="article" if n else None,
            )
        )
    store.upsert(
        ArticleRecord(
            url="http://n.test/listing", title=None, text="x", fetched_at=T0, page_type="listing"
        )
    )
    result = score_store(store, TRUTH, since=T0 + timedelta(hours=1))
    assert result.database == f"SQLite {tmp_path}/a.sqlite3"
    assert (result.stored_articles, result.inserted, result.updated) == (2, 1, 0)
    assert result.missing == ["http://n.test/a/2"]
    assert result.stored_not_articles == ["http://n.test/listing"]
    assert result.mean_f1 == 1.0
    assert (result.metadata_counts["published"], result.metadata_counts["authors"]) == (1, 2)
    summary = result.summary()
    assert f"Database:        SQLite {tmp_path}/a.sqlite3" in summary
    assert "published 1, modified 0, authors 2" in summary and "(of 2)" in summary
    assert result.page_type_counts == {"article": 1}  # the listing is no article of the truth
    assert "Page types:      article 1 (of 2)" in summary
    assert "Page types:      none" in score_store(store, {}).summary()


def test_summary_reports_the_spool(tmp_path: Path) -> None:
    result = score_store(open_store(f"sqlite:///{tmp_path}/a.sqlite3"), TRUTH)
    assert "Spooled:         0 item(s) in this run; 0 waiting" in result.summary()
    result.spool_path, result.spooled, result.spool_waiting = tmp_path / "s.jsonl", 4, 6
    line = result.spool_line()
    assert line.startswith("Spooled:         4 item(s) in this run (the database was unavailable)")
    assert f"6 waiting in {tmp_path}/s.jsonl" in line and "replay_spool" in line


def test_unreachable_database_is_reported_not_raised() -> None:
    pytest.importorskip("psycopg", reason='psycopg is not installed: pip install -e ".[postgres]"')
    result = _read_result(
        "postgresql://u:p@127.0.0.1:1/news?connect_timeout=2", TRUTH, datetime.now(timezone.utc)
    )
    assert result.database == "PostgreSQL 127.0.0.1:1/news"
    assert result.database_error and result.stored_articles == 0
    assert "Database not readable after the crawl" in result.summary()
