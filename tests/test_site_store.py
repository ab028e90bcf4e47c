"""Site state stores: memory, SQLite file, Redis (skipped without a redis-server binary)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from scrapy_boilerplate.site.state import SiteState
from scrapy_boilerplate.site.store import (
    MemoryStore,
    RedisStore,
    SiteStore,
    SQLiteStore,
    open_store,
)


def some_state(pages: int = 6) -> SiteState:
    state = SiteState()
    for page in range(pages):
        state.add_page([1, 2, 100 + page])
    state.refresh()
    return state


def check_round_trip(store: SiteStore) -> None:
    assert store.load("example.com") is None
    store.save({"example.com": some_state(), "other.org": some_state(9)})
    loaded = store.load("example.com")
    assert loaded is not None and loaded.pages == 6 and loaded.templates == {1, 2}
    store.save({"example.com": some_state(7)})
    again = store.load("example.com")
    assert again is not None and again.pages == 7
    other = store.load("other.org")
    assert other is not None and other.pages == 9


def test_memory_store() -> None:
    check_round_trip(MemoryStore())


def test_sqlite_store_persists_across_connections(tmp_path: Path) -> None:
    path = tmp_path / "jobdir" / "sites.sqlite3"
    store = SQLiteStore(path)
    check_round_trip(store)
    store.close()
    reopened = open_store(str(path))
    assert isinstance(reopened, SQLiteStore)
    state = reopened.load("other.org")
    assert state is not None and state.pages == 9
    reopened.close()


def test_sqlite_store_saves_without_waiting_for_the_disk(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "s.sqlite3")
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    store.close()


def test_damaged_rows_start_afresh(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "s.sqlite3")
    store._db.execute("INSERT INTO site_state VALUES ('bad.com', x'0102')")
    assert store.load("bad.com") is None
    store.close()


def test_open_store_picks_by_location() -> None:
    assert isinstance(open_store("memory"), MemoryStore)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed")
    pytest.importorskip("redis")
    port = _free_port()
    process = subprocess.Popen(
        [binary, "--port", str(port), "--save", "", "--appendonly", "no", "--dir", str(tmp_path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(10)


def test_redis_store(redis_url: str) -> None:
    store = open_store(redis_url)
    assert isinstance(store, RedisStore)
    check_round_trip(store)
    store.close()
    reopened = RedisStore(redis_url)
    state = reopened.load("example.com")
    assert state is not None and state.pages == 7
    reopened.close()
