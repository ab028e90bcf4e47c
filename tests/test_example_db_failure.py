"""No data lost: the database is blocked in the middle of a crawl; every article ends up in the
database or in the spool, and replaying the spool completes the database.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path

from example_support import EXAMPLE_PROJECT  # noqa: F401 - puts example_project on sys.path

# isort: split

from demo_site.generator import build_pages
from newsroom.demo import DemoResult, run_demo
from newsroom.storage import SQLiteStore, replay_spool

LOCK_AFTER_ROWS = 10


def _count(db: Path) -> int:
    try:
        conn = sqlite3.connect(db, timeout=0.05)
        try:
            return int(conn.execute("SELECT COUNT(*) FROM articles").fetchone()[0])
        finally:
            conn.close()
    except sqlite3.Error:  # not created yet, or busy
        return 0


def test_database_blocked_mid_crawl_loses_nothing(tmp_path: Path) -> None:
    db, spool = tmp_path / "articles.sqlite3", tmp_path / "spool.jsonl"
    results: list[DemoResult] = []
    settings = [
        "STORAGE_SQLITE_TIMEOUT=0.1",  # a write waits this long on the lock, then fails
        "STORAGE_RETRY_TIMES=2",
        "STORAGE_RETRY_BACKOFF=0.05",
        "STORAGE_REOPEN_AFTER=0.5",
        "CONCURRENT_REQUESTS=2",
        "DOWNLOAD_DELAY=0.03",  # slow enough that the block starts mid-crawl
    ]
    crawl = threading.Thread(
        target=lambda: results.append(run_demo(db, spool_path=spool, settings=settings))
    )
    crawl.start()
    deadline = time.monotonic() + 60
    while _count(db) < LOCK_AFTER_ROWS and crawl.is_alive() and time.monotonic() < deadline:
        time.sleep(0.02)
    blocker = sqlite3.connect(db, timeout=10, isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")  # nobody else writes until this connection lets go
    stored_before = blocker.execute("SELECT COUNT(*) FROM articles").fetchone()[0]
    log_path = tmp_path / "demo-crawl.log"
    while crawl.is_alive() and time.monotonic() < deadline + 60:  # block until the crawl is over
        if log_path.exists() and "Spider closed" in log_path.read_text():
            break
        time.sleep(0.05)
    blocker.execute("ROLLBACK")
    crawl.join(timeout=60)
    blocker.close()

    (result,) = results
    _, articles = build_pages()
    truth = {article.url for article in articles}
    assert result.returncode == 0
    assert LOCK_AFTER_ROWS <= stored_before < len(truth)  # the block really came mid-crawl
    spooled = [json.loads(line)["record"]["url"] for line in spool.read_text().splitlines()]
    stored = {url for (url,) in sqlite3.connect(db).execute("SELECT url FROM articles")}
    assert spooled and len(stored) < len(truth)
    assert stored | set(spooled) == truth  # every article is somewhere
    assert (result.spooled, result.spool_waiting) == (len(spooled), len(spooled))
    assert f"Spooled:         {len(spooled)} item(s) in this run" in result.summary()
    log = result.log_path.read_text() if result.log_path else ""
    assert "unavailable after 2 retries" in log and "'newsroom/storage/spooled'" in log

    report = replay_spool(spool, SQLiteStore(db))
    assert report.still_failing == 0 and report.replayed == len(spooled)
    conn = sqlite3.connect(db)
    assert sorted(url for (url,) in conn.execute("SELECT url FROM articles")) == sorted(truth)
    assert not spool.exists()
