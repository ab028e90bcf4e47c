"""Storage of the example project: one schema on SQLite and PostgreSQL, versions, retries, spool."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from example_support import postgres_schema_url

# isort: split

from newsroom.items import ArticleItem
from newsroom.pipelines import record_from_item
from newsroom.storage import (
    ADDED_COLUMNS,
    SPOOLED,
    ArticleRecord,
    ArticleStore,
    Outcome,
    ResilientWriter,
    Spool,
    SQLiteStore,
    StoreError,
    open_store,
    replay_spool,
)

T0 = datetime(2024, 5, 30, 12, 0, tzinfo=timezone.utc)


def record(
    text: str = "First paragraph.\n\nSecond paragraph.",
    *,
    hours: int = 0,
    url: str = "http://www.news.test/a/1",
    title: str | None = "Title",
    **metadata: Any,
) -> ArticleRecord:
    return ArticleRecord(
        url=url,
        title=title,
        text=text,
        canonical_url=metadata.pop("canonical_url", url),
        extractor="article",
        extractor_options={"ancestor_depth": 2},
        fetched_at=T0 + timedelta(hours=hours),
        **metadata,
    )


METADATA = {
    "published": "2024-05-30T18:00:00+00:00",
    "modified": "2024-06-01",
    "authors": ("Ada Byron", "Sam Reyes"),
    "language": "en-GB",
    "description": "The council voted.",
    "image": "http://www.news.test/img/1.jpg",
    "page_type": "article",
}


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ArticleStore]:
    if request.param == "sqlite":
        opened = open_store("sqlite:///articles.sqlite3", base_dir=tmp_path)
        yield opened
        opened.close()
        return
    for url in postgres_schema_url():
        opened = open_store(url)
        yield opened
        opened.close()


def rows(store: ArticleStore, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    store.count()  # connect
    return [
        tuple(row) for row in store._conn.execute(sql.replace("?", store.mark), params).fetchall()
    ]


def test_insert_then_same_content_only_moves_last_fetched(store: ArticleStore) -> None:
    assert store.upsert(record()) is Outcome.INSERTED
    assert store.upsert(record(hours=5)) is Outcome.UNCHANGED
    ((version, domain, options, first, last),) = rows(
        store, "SELECT version, domain, extractor_options, first_seen, last_fetched FROM articles"
    )
    assert (version, domain) == (1, "www.news.test")
    assert (json.loads(options) if isinstance(options, str) else options) == {"ancestor_depth": 2}
    assert str(first) != str(last)
    assert store.count() == 1
    assert len(rows(store, "SELECT version FROM article_versions")) == 1


def test_changed_content_makes_a_new_version_with_history(store: ArticleStore) -> None:
    store.upsert(record())
    assert (
        store.upsert(record("First paragraph.\n\nA corrected second paragraph.", hours=1))
        is Outcome.UPDATED
    )
    assert rows(store, "SELECT version, article_text FROM articles") == [
        (2, "First paragraph.\n\nA corrected second paragraph.")
    ]
    history = rows(store, "SELECT version, article_text FROM article_versions ORDER BY version")
    assert [version for version, _ in history] == [1, 2]
    assert history[0][1] == "First paragraph.\n\nSecond paragraph."
    assert store.count() == 1


def test_whitespace_only_change_is_not_a_new_version(store: ArticleStore) -> None:
    store.upsert(record("First paragraph.\n\nSecond paragraph."))
    assert (
        store.upsert(record("First  paragraph.\nSecond paragraph. ", hours=1)) is Outcome.UNCHANGED
    )


def test_older_record_with_other_content_goes_to_history_only(store: ArticleStore) -> None:
    store.upsert(record("Newest text.", hours=10))
    assert store.upsert(record("Older text from a late spool replay.", hours=2)) is Outcome.STALE
    assert rows(store, "SELECT article_text FROM articles") == [("Newest text.",)]
    assert len(rows(store, "SELECT version FROM article_versions")) == 2
    assert store.upsert(record("Older text from a late spool replay.", hours=2)) is Outcome.STALE
    assert len(rows(store, "SELECT version FROM article_versions")) == 2


def test_one_url_one_row(store: ArticleStore) -> None:
    for number in range(3):
        store.upsert(record(url=f"http://www.news.test/a/{number}"))
        store.upsert(record(url=f"http://www.news.test/a/{number}", hours=1))
    assert store.count() == 3


def test_both_databases_have_the_same_columns(tmp_path: Path) -> None:
    sqlite = open_store("sqlite:///a.sqlite3", base_dir=tmp_path)
    names = [row[1] for row in rows(sqlite, "PRAGMA table_info(articles)")]
    assert names[:3] == ["id", "url", "canonical_url"]
    for url in postgres_schema_url():
        postgres = open_store(url)
        pg_names = [
            row[0]
            for row in rows(
                postgres,
                "SELECT column_name FROM information_schema.columns WHERE table_name = 'articles' "
                "AND table_schema = current_schema() ORDER BY ordinal_position",
            )
        ]
        postgres.close()
        assert pg_names == names


def test_metadata_is_stored_and_read_back(store: ArticleStore) -> None:
    store.upsert(record(canonical_url="http://www.news.test/c/1", **METADATA))
    (stored,) = store.articles()
    assert stored.canonical_url == "http://www.news.test/c/1"
    assert {name: getattr(stored, name) for name in METADATA} == METADATA
    assert stored.first_seen == T0 and stored.version == 1


def test_metadata_change_merges_without_a_new_version(store: ArticleStore) -> None:
    store.upsert(record(**METADATA))
    later = {"modified": "2024-06-02", "authors": ("Ada Byron",), "image": None, "language": None}
    assert store.upsert(record(hours=1, **later)) is Outcome.UNCHANGED
    (stored,) = store.articles()
    assert (stored.version, stored.last_changed, stored.last_fetched) == (
        1,
        T0,
        T0 + timedelta(hours=1),
    )
    assert stored.modified == "2024-06-02" and stored.authors == ("Ada Byron",)  # replaced
    assert (stored.image, stored.language) == (METADATA["image"], "en-GB")  # missing: kept
    assert len(rows(store, "SELECT version FROM article_versions")) == 1


def test_changed_text_keeps_metadata_the_record_lacks(store: ArticleStore) -> None:
    store.upsert(record(**METADATA))
    assert store.upsert(record("New text.", hours=1, published=None)) is Outcome.UPDATED
    (stored,) = store.articles()
    assert (stored.version, stored.text, stored.published) == (
        2,
        "New text.",
        METADATA["published"],
    )


def test_stale_record_does_not_touch_metadata(store: ArticleStore) -> None:
    store.upsert(record("Newest text.", hours=10, **METADATA))
    stale = record("Old text.", hours=2, modified="1999-01-01", authors=("Someone Else",))
    assert store.upsert(stale) is Outcome.STALE
    (stored,) = store.articles()
    assert (stored.modified, stored.authors) == (METADATA["modified"], METADATA["authors"])


#: The ``articles`` table as the first schema made it (no metadata columns but canonical_url).
OLD_ARTICLES = """
CREATE TABLE articles (
    id {id}, url TEXT NOT NULL UNIQUE, canonical_url TEXT, domain TEXT NOT NULL, title TEXT,
    article_text TEXT NOT NULL, extractor TEXT, extractor_options {json} NOT NULL DEFAULT '{{}}',
    content_hash TEXT NOT NULL, version INTEGER NOT NULL DEFAULT 1, first_seen {time} NOT NULL,
    last_fetched {time} NOT NULL, last_changed {time} NOT NULL
)"""
OLD_ROW = (
    "INSERT INTO articles (url, canonical_url, domain, title, article_text, content_hash, "
    "first_seen, last_fetched, last_changed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def _old_database(store: ArticleStore, added: tuple[tuple[str, str], ...] = ()) -> None:
    """Make ``store``'s database look like one the first schema created, with one article, and
    then the ``added`` columns (e.g. the metadata columns of a release before the page type)."""
    old = record()
    now = T0.isoformat()
    if isinstance(store, SQLiteStore):
        import sqlite3

        conn: Any = sqlite3.connect(store.path, isolation_level=None)
        types = {"id": "INTEGER PRIMARY KEY AUTOINCREMENT", "json": "TEXT", "time": "TEXT"}
    else:
        import psycopg

        conn = psycopg.connect(store.url, autocommit=True)  # type: ignore[attr-defined]
        types = {"id": "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY", "json": "JSONB"}
        types["time"] = "TIMESTAMPTZ"
    conn.execute(OLD_ARTICLES.format(**types))
    values = (old.url, old.canonical_url, old.domain, old.title, old.text, old.content_hash)
    conn.execute(OLD_ROW.replace("?", store.mark), (*values, now, now, now))
    for name, kind in added:
        conn.execute(f"ALTER TABLE articles ADD COLUMN {name} {kind.format(json=types['json'])}")
    conn.close()


def test_old_database_gets_the_new_columns_and_keeps_its_rows(store: ArticleStore) -> None:
    store.close()
    _old_database(store)
    assert store.count() == 1  # opening migrates
    (kept,) = store.articles()
    assert (kept.text, kept.canonical_url, kept.authors, kept.published) == (
        record().text,
        record().canonical_url,
        (),
        None,
    )
    assert store.upsert(record(hours=1, **METADATA)) is Outcome.UNCHANGED  # same content
    (stored,) = store.articles()
    assert (stored.version, stored.authors) == (1, METADATA["authors"])
    assert store._add_missing_columns(store._conn) == []  # once only


def test_database_of_the_release_before_page_types_gets_the_column(store: ArticleStore) -> None:
    store.close()
    before = tuple(column for column in ADDED_COLUMNS if column[0] != "page_type")
    assert len(before) == len(ADDED_COLUMNS) - 1
    _old_database(store, before)
    (kept,) = store.articles()  # opening adds page_type
    assert (kept.text, kept.page_type) == (record().text, None)
    assert store.upsert(record(hours=1, page_type="listing")) is Outcome.UNCHANGED
    assert store.upsert(record(hours=2)) is Outcome.UNCHANGED  # no page type: the stored one stays
    (stored,) = store.articles()
    assert (stored.version, stored.page_type) == (1, "listing")
    assert store._add_missing_columns(store._conn) == []


def test_migrated_and_new_databases_have_the_same_columns(tmp_path: Path) -> None:
    fresh = open_store("sqlite:///new.sqlite3", base_dir=tmp_path)
    old = open_store("sqlite:///old.sqlite3", base_dir=tmp_path)
    assert isinstance(old, SQLiteStore)
    _old_database(old)
    columns = [rows(db, "PRAGMA table_info(articles)") for db in (fresh, old)]
    assert columns[0] == columns[1]
    assert [row[1] for row in columns[0][-len(ADDED_COLUMNS) :]] == [n for n, _ in ADDED_COLUMNS]


def test_database_url_selects_the_store(tmp_path: Path) -> None:
    assert isinstance(open_store("sqlite:///data/x.sqlite3", base_dir=tmp_path), SQLiteStore)
    assert open_store(f"sqlite:///{tmp_path}/y.sqlite3").path == tmp_path / "y.sqlite3"
    assert type(open_store("postgresql://u:p@db:5432/news")).__name__ == "PostgresStore"
    with pytest.raises(ValueError, match="mysql"):
        open_store("mysql://db/news")


def test_record_from_item_needs_url_and_text() -> None:
    item = ArticleItem(
        url="http://www.news.test/a/1",
        article_text="Text.",
        article_title="T",
        fetched_at=T0.isoformat(),
        extractor="article",
        extractor_options={"x": 1},
    )
    made = record_from_item(item)
    assert made is not None and made.fetched_at == T0 and made.title == "T"
    assert (made.published, made.authors, made.canonical_url, made.page_type) == (
        None,
        (),
        None,
        None,
    )
    assert record_from_item(ArticleItem(url="http://www.news.test/a/1", article_text="  ")) is None
    assert record_from_item(ArticleItem(article_text="Text.")) is None


# --- retries and spool ----------------------------------------------------------------------


class FlakyStore(SQLiteStore):
    """A SQLite store whose next ``failures`` upserts fail like a dropped connection."""

    def __init__(self, path: Path, failures: int = 0) -> None:
        super().__init__(path)
        self.failures = failures
        self.calls = 0

    def upsert(self, record: ArticleRecord) -> Outcome:
        self.calls += 1
        if self.failures:
            self.failures -= 1
            raise StoreError("OperationalError: server closed the connection unexpectedly")
        return super().upsert(record)


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds

    def __call__(self) -> float:
        return self.now


def writer_for(
    store: SQLiteStore, spool_path: Path, clock: FakeClock, events: list[str]
) -> ResilientWriter:
    return ResilientWriter(
        store,
        Spool(spool_path),
        retry_times=3,
        backoff=0.5,
        reopen_after=10.0,
        on_event=events.append,
        sleep=clock.sleep,
        clock=clock,
    )


def test_transient_failure_is_retried_with_backoff(tmp_path: Path) -> None:
    clock, events = FakeClock(), []
    store = FlakyStore(tmp_path / "a.sqlite3", failures=2)
    writer = writer_for(store, tmp_path / "spool.jsonl", clock, events)
    assert writer.write(record()) == "inserted"
    assert clock.sleeps == [0.5, 1.0]
    assert events.count("retries") == 2 and not (tmp_path / "spool.jsonl").exists()


def test_database_down_spools_then_recovers_and_replay_completes(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    clock, events = FakeClock(), []
    store = FlakyStore(tmp_path / "a.sqlite3", failures=4)
    spool_path = tmp_path / "spool.jsonl"
    writer = writer_for(store, spool_path, clock, events)
    with caplog.at_level("ERROR"):
        assert writer.write(record(url="http://n.test/1")) == SPOOLED  # 1 try + 3 retries
    assert "unavailable" in caplog.text and "replay_spool" in caplog.text
    calls = store.calls
    assert writer.write(record(url="http://n.test/2")) == SPOOLED  # down: spooled without trying
    assert store.calls == calls
    clock.now += 11  # reopen_after passed: the store is tried again, and works
    assert writer.write(record(url="http://n.test/3")) == "inserted"
    assert Spool(spool_path).count() == 2
    report = replay_spool(spool_path, SQLiteStore(tmp_path / "a.sqlite3"))
    assert report.outcomes == {"inserted": 2} and report.still_failing == 0
    assert not spool_path.exists()
    assert SQLiteStore(tmp_path / "a.sqlite3").count() == 3


def test_replay_keeps_what_still_fails_and_rejects_garbage(tmp_path: Path) -> None:
    spool_path = tmp_path / "spool.jsonl"
    spool = Spool(spool_path)
    spool.append(record(url="http://n.test/1"), "down")
    spool.append(record(url="http://n.test/2"), "down")
    with spool_path.open("a") as handle:
        handle.write("{not json\n")
    report = replay_spool(spool_path, FlakyStore(tmp_path / "a.sqlite3", failures=1))
    assert (report.replayed, report.still_failing, report.rejected) == (0, 2, 1)
    assert spool.count() == 2 and (tmp_path / "spool.jsonl.rejected").exists()
    report = replay_spool(spool_path, SQLiteStore(tmp_path / "a.sqlite3"))
    assert report.outcomes == {"inserted": 2} and not spool_path.exists()


def test_record_from_item_reads_the_metadata_fields() -> None:
    item = ArticleItem(
        url="http://www.news.test/a/1",
        article_text="Text.",
        article_published="2024-05-30",
        article_modified=20240601,  # not a string: stored as missing
        article_authors=["Ada Byron", "", 7, "Sam Reyes"],
        article_language="en-GB",
        article_canonical_url="http://www.news.test/c/1",
        article_description="  ",
        article_image="http://www.news.test/1.jpg",
        article_page_type="listing",
    )
    made = record_from_item(item)
    assert made is not None
    assert (made.published, made.modified, made.authors) == (
        "2024-05-30",
        None,
        ("Ada Byron", "Sam Reyes"),
    )
    assert (made.language, made.canonical_url, made.description, made.image) == (
        "en-GB",
        "http://www.news.test/c/1",
        None,
        "http://www.news.test/1.jpg",
    )
    assert made.page_type == "listing"


def test_spooled_record_round_trips(tmp_path: Path) -> None:
    spool = Spool(tmp_path / "s.jsonl")
    original = record(**METADATA)
    spool.append(original, "down")
    line = json.loads((tmp_path / "s.jsonl").read_text())
    assert ArticleRecord.from_json(line["record"]) == original


def test_record_spooled_before_the_metadata_still_reads() -> None:
    old_line = {
        "url": "http://n.test/1",
        "title": "T",
        "text": "Text.",
        "canonical_url": None,
        "extractor": "article",
        "extractor_options": {},
        "fetched_at": T0.isoformat(),
    }
    made = ArticleRecord.from_json(old_line)
    assert (made.published, made.authors, made.image, made.page_type) == (None, (), None, None)
    with pytest.raises(TypeError):
        ArticleRecord.from_json({**old_line, "authors": "Ada Byron"})
