"""Replaying the spool: an interrupted replay and the new spool in one run, concurrent replays,
and appends made while a replay runs."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import threading
import time
from collections import Counter
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import IO

import pytest
from example_support import EXAMPLE_PROJECT

# isort: split

from newsroom.storage import (
    ArticleRecord,
    Outcome,
    ReplayReport,
    Spool,
    SQLiteStore,
    StoreError,
    replay_spool,
)
from newsroom.storage import spool as spool_module
from newsroom.storage.spool import replay_lock

T0 = datetime(2024, 5, 30, 12, 0, tzinfo=timezone.utc)


def record(number: int) -> ArticleRecord:
    return ArticleRecord(
        url=f"http://n.test/a/{number}",
        title=f"Title {number}",
        text=f"Text of article {number}.",
        fetched_at=T0 + timedelta(seconds=number),
        authors=("Ada Byron",),
    )


def spool_of(path: Path, numbers: range) -> Spool:
    spool = Spool(path)
    for number in numbers:
        spool.append(record(number), "down")
    return spool


def stored_urls(db: Path) -> list[str]:
    return [article.url for article in SQLiteStore(db).articles()]


class SlowStore(SQLiteStore):
    """A SQLite store that takes ``delay`` seconds per upsert (so replays overlap)."""

    def __init__(self, path: Path, delay: float = 0.0005, fail: bool = False) -> None:
        super().__init__(path, timeout=30)
        self.delay = delay
        self.fail = fail

    def upsert(self, record: ArticleRecord) -> Outcome:
        time.sleep(self.delay)
        if self.fail:
            raise StoreError("OperationalError: connection refused")
        return super().upsert(record)


def test_interrupted_replay_and_new_spool_in_one_run(tmp_path: Path) -> None:
    path = tmp_path / "spool.jsonl"
    spool_of(path, range(0, 5))
    path.rename(tmp_path / "spool.jsonl.replaying")  # a replay was killed after moving it aside
    spool_of(path, range(5, 8))  # the crawl spooled more since
    report = replay_spool(path, SQLiteStore(tmp_path / "a.sqlite3"))
    assert report.outcomes == {"inserted": 8} and report.still_failing == 0
    assert len(stored_urls(tmp_path / "a.sqlite3")) == 8
    assert not path.exists() and not (tmp_path / "spool.jsonl.replaying").exists()


def test_database_down_during_interrupted_replay_leaves_the_spool_for_later(
    tmp_path: Path,
) -> None:
    path = tmp_path / "spool.jsonl"
    spool_of(path, range(0, 3))
    path.rename(tmp_path / "spool.jsonl.replaying")
    spool_of(path, range(3, 5))
    report = replay_spool(path, SlowStore(tmp_path / "a.sqlite3", fail=True))
    assert (report.replayed, report.still_failing) == (0, 3)
    assert Spool(path).count() == 5 and not (tmp_path / "spool.jsonl.replaying").exists()
    report = replay_spool(path, SQLiteStore(tmp_path / "a.sqlite3"))
    assert report.outcomes == {"inserted": 5} and not path.exists()


def test_concurrent_replays_write_each_record_once(tmp_path: Path) -> None:
    path, db = tmp_path / "spool.jsonl", tmp_path / "a.sqlite3"
    spool_of(path, range(300))
    reports: list[ReplayReport] = []
    errors: list[BaseException] = []
    start = threading.Barrier(3)

    def replay() -> None:
        start.wait()
        try:
            reports.append(replay_spool(path, SlowStore(db)))
        except BaseException as exc:  # the test reports it below
            errors.append(exc)

    threads = [threading.Thread(target=replay) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    total: Counter[str] = Counter()
    for report in reports:
        total += report.outcomes
    assert total == {"inserted": 300}  # a record replayed twice would count as "unchanged"
    assert sum(report.waited for report in reports) == 2
    assert sorted(stored_urls(db)) == sorted(record(n).url for n in range(300))
    assert not path.exists()


def test_append_in_flight_when_the_replay_renames_is_replayed(tmp_path: Path) -> None:
    path, db = tmp_path / "spool.jsonl", tmp_path / "a.sqlite3"
    spool = spool_of(path, range(3))
    late = Spool(tmp_path / "other.jsonl")
    late.append(record(99), "down")
    late_line = (tmp_path / "other.jsonl").read_text()
    appender = path.open("a", encoding="utf-8")  # an append that opened and locked the spool...
    fcntl.flock(appender.fileno(), fcntl.LOCK_EX)
    reports: list[ReplayReport] = []
    replay = threading.Thread(target=lambda: reports.append(replay_spool(path, SQLiteStore(db))))
    replay.start()
    deadline = time.monotonic() + 10
    while path.exists() and time.monotonic() < deadline:  # ...when the replay renamed it
        time.sleep(0.01)
    assert not path.exists()
    time.sleep(0.1)  # the replay would read the file now, were it not waiting for the append
    appender.write(late_line)
    appender.flush()
    appender.close()  # releases the lock
    replay.join(timeout=10)
    assert reports[0].outcomes == {"inserted": 4}
    assert record(99).url in stored_urls(db) and spool.count() == 0


def test_append_that_opened_the_spool_before_a_rename_writes_to_the_new_spool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "spool.jsonl"
    spool = spool_of(path, range(2))
    work = tmp_path / "spool.jsonl.replaying"
    real_lock = spool_module._lock

    def rename_then_lock(handle: IO[str], *, blocking: bool = True) -> bool:
        if path.exists() and not work.exists():  # a replay moves the file between open and lock
            path.rename(work)
        return real_lock(handle, blocking=blocking)

    monkeypatch.setattr(spool_module, "_lock", rename_then_lock)
    spool.append(record(2), "down")
    assert Spool(work).count() == 2  # the file the replay reads got nothing
    assert spool.count() == 1 and '"http://n.test/a/2"' in path.read_text()


def test_appends_during_replays_are_never_lost(tmp_path: Path) -> None:
    path, db = tmp_path / "spool.jsonl", tmp_path / "a.sqlite3"
    spool_of(path, range(100))
    done = threading.Event()
    errors: list[BaseException] = []

    def crawl() -> None:  # the crawl's storage thread spooling while replays run
        try:
            spool = Spool(path)
            for number in range(100, 400):
                spool.append(record(number), "down")
        except BaseException as exc:  # the test reports it below
            errors.append(exc)
        finally:
            done.set()

    def replays() -> None:
        try:
            while not done.is_set():
                replay_spool(path, SlowStore(db, delay=0.0002))
        except BaseException as exc:  # the test reports it below
            errors.append(exc)

    threads = [threading.Thread(target=crawl), threading.Thread(target=replays)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == []
    replay_spool(path, SQLiteStore(db))  # whatever the last replay did not see
    assert sorted(stored_urls(db)) == sorted(record(n).url for n in range(400))
    assert not path.exists()


def test_count_since(tmp_path: Path) -> None:
    spool = spool_of(tmp_path / "spool.jsonl", range(2))
    middle = datetime.now(timezone.utc)
    spool_of(tmp_path / "spool.jsonl", range(2, 5))
    with (tmp_path / "spool.jsonl").open("a") as handle:
        handle.write("{not json\n")
    assert (spool.count(), spool.count(since=middle)) == (6, 3)


def test_replay_command_waits_for_a_running_replay(tmp_path: Path) -> None:
    path, db = tmp_path / "spool.jsonl", tmp_path / "a.sqlite3"
    spool_of(path, range(0, 2))
    path.rename(tmp_path / "spool.jsonl.replaying")
    spool_of(path, range(2, 3))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(EXAMPLE_PROJECT), *sys.path])}
    command = [sys.executable, "-m", "scrapy", "replay_spool", "--spool", str(path)]
    command += ["--database-url", f"sqlite:///{db}"]
    with replay_lock(path):  # another replay is running
        process = subprocess.Popen(
            command, cwd=EXAMPLE_PROJECT, env=env, stdout=subprocess.PIPE, text=True
        )
        _wait_until_open(process.pid, path.with_name("spool.jsonl.lock"))
        time.sleep(0.2)
        assert process.poll() is None  # waiting
    out, _ = process.communicate(timeout=60)
    assert process.returncode == 0, out
    assert "Waited for another replay" in out and "Replayed 3 spooled article(s)" in out
    assert "3 inserted" in out and len(stored_urls(db)) == 3


def _wait_until_open(pid: int, target: Path, timeout: float = 30.0) -> None:
    """Wait until process ``pid`` has ``target`` open (Linux ``/proc``; else wait 3 s)."""
    fds = Path(f"/proc/{pid}/fd")
    if not fds.exists():
        time.sleep(3.0)
        return
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for fd in list(fds.iterdir()):
            try:
                if Path(os.readlink(fd)) == target:
                    return
            except OSError:  # closed meanwhile
                continue
        time.sleep(0.02)
    raise AssertionError(f"process {pid} never opened {target}")
