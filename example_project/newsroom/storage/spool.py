"""The local spool: a JSON-lines file of records the database did not take, and its replay.

Each line is ``{"record": {...}, "error": "...", "spooled_at": "..."}``. Appends are flushed
and fsynced, so a crash loses nothing already spooled. :func:`replay_spool` moves the file
aside (``<spool>.replaying``), upserts every record, and writes back the ones that still fail;
lines that cannot be parsed go to ``<spool>.rejected`` rather than being dropped.

Concurrency rules (POSIX ``flock``; without ``fcntl``, e.g. on Windows, nothing is locked and
only one process may use a spool at a time):

* **Replay against replay**: a replay holds an exclusive lock on ``<spool>.lock`` from start to
  end; a second replay waits for it, then finds what is left. The lock file is never deleted
  (deleting it would let a third replay lock a new file while the second holds the old one).
* **Append against replay**: an append locks the spool file it opened, then checks that this
  file is still the one at ``<spool>``; if a replay renamed it away meanwhile, it opens the
  path again. A replay renames the spool, then takes the same lock on the renamed file before
  reading it, which waits for an append already writing into it. So an append lands either in
  the file the replay reads (before the replay reads it) or in the new spool, never in a file
  already read.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import IO

from .backends import ArticleStore, StoreError
from .records import ArticleRecord

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no locking (see the module docstring)
    fcntl = None  # type: ignore[assignment]

__all__ = ["Spool", "ReplayReport", "replay_spool", "replay_lock"]


def _lock(handle: IO[str], *, blocking: bool = True) -> bool:
    """Take the exclusive ``flock`` of ``handle``'s file; False if busy and not ``blocking``."""
    if fcntl is None:
        return True
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
    except BlockingIOError:
        return False
    return True


class Spool:
    """Append-only JSON-lines spool at ``path`` (appends are safe across threads and processes,
    and against a replay running at the same time)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()

    def append(self, record: ArticleRecord, error: str) -> None:
        line = json.dumps(
            {
                "record": record.to_json(),
                "error": error,
                "spooled_at": datetime.now(timezone.utc).isoformat(),
            },
            ensure_ascii=False,
        )
        self.append_lines([line + "\n"])

    def append_lines(self, lines: list[str]) -> None:
        """Append spool lines (each ending in a newline), flushed and fsynced, in one write."""
        with self._lock, self._open_current() as handle:
            handle.write("".join(lines))
            handle.flush()
            os.fsync(handle.fileno())

    @contextlib.contextmanager
    def _open_current(self) -> Iterator[IO[str]]:
        """The file at :attr:`path`, opened for appending and locked (see the module rules)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        while True:
            handle = self.path.open("a", encoding="utf-8")
            try:
                _lock(handle)
                if _is_current(handle, self.path):
                    yield handle
                    return
            finally:
                handle.close()  # closing releases the lock

    def count(self, since: datetime | None = None) -> int:
        """Number of spooled lines (0 if there is no spool); with ``since``, only the lines
        spooled at or after it (lines without a readable ``spooled_at`` are not counted)."""
        if not self.path.exists():
            return 0
        with self.path.open(encoding="utf-8") as handle:
            lines = [line for line in handle if line.strip()]
        if since is None:
            return len(lines)
        return sum(1 for line in lines if _spooled_at(line) >= since)


def _is_current(handle: IO[str], path: Path) -> bool:
    """Whether the open ``handle`` is still the file at ``path`` (not renamed or deleted)."""
    try:
        named = os.stat(path)
    except FileNotFoundError:
        return False
    opened = os.fstat(handle.fileno())
    return (opened.st_dev, opened.st_ino) == (named.st_dev, named.st_ino)


def _spooled_at(line: str) -> datetime:
    """When a spool line was written; the earliest datetime if unreadable."""
    try:
        stamp = datetime.fromisoformat(json.loads(line)["spooled_at"])
    except (ValueError, KeyError, TypeError):
        return datetime.min.replace(tzinfo=timezone.utc)
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=timezone.utc)


@dataclass
class ReplayReport:
    """What a replay did: outcomes by kind, lines still failing and lines rejected as malformed.

    ``waited``: another replay of the same spool held the lock when this one started.
    """

    outcomes: Counter[str] = field(default_factory=Counter)
    still_failing: int = 0
    rejected: int = 0
    last_error: str | None = None
    waited: bool = False

    @property
    def replayed(self) -> int:
        return sum(self.outcomes.values())


@contextlib.contextmanager
def replay_lock(spool: Path) -> Iterator[bool]:
    """Hold the exclusive replay lock of ``spool`` (``<spool>.lock``); yields whether it had to
    wait for another holder."""
    lock_path = spool.with_name(spool.name + ".lock")
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with lock_path.open("a", encoding="utf-8") as handle:
        waited = not _lock(handle, blocking=False)
        if waited:
            _lock(handle)
        yield waited


def replay_spool(path: str | Path, store: ArticleStore) -> ReplayReport:
    """Upsert every spooled record into ``store``; keep the failures in the spool.

    Under the replay lock (a concurrent replay waits), in one run: first a ``<spool>.replaying``
    left by an interrupted replay, then the spool as it is once that is done. Appends made
    while the replay runs stay in the spool for the next run. Once the database fails, the
    remaining lines are not tried (and a spool not yet started stays where it is); the failed
    lines go back to the spool. Safe to run again after a crash: upserts are idempotent.
    """
    spool = Path(path)
    work = spool.with_name(spool.name + ".replaying")
    report = ReplayReport()
    with replay_lock(spool) as waited:
        report.waited = waited
        if work.exists():
            _replay_file(work, spool, store, report)
        if report.still_failing == 0 and spool.exists():
            spool.rename(work)
            with work.open("a", encoding="utf-8") as handle:
                _lock(handle)  # wait for an append still writing into the renamed file
            _replay_file(work, spool, store, report)
    return report


def _replay_file(work: Path, spool: Path, store: ArticleStore, report: ReplayReport) -> None:
    """Replay the lines of ``work``, append the failures to ``spool``, then delete ``work``."""
    failed: list[str] = []
    rejected: list[str] = []
    with work.open(encoding="utf-8") as handle:
        for line in handle:
            if not line.strip():
                continue
            try:
                record = ArticleRecord.from_json(json.loads(line)["record"])
            except (ValueError, KeyError, TypeError):
                rejected.append(line if line.endswith("\n") else line + "\n")
                continue
            if failed or report.still_failing:  # the database is down: do not hammer it
                failed.append(line)
                continue
            try:
                report.outcomes[store.upsert(record).value] += 1
            except StoreError as exc:
                report.last_error = str(exc)
                failed.append(line)
    if failed:
        Spool(spool).append_lines([line if line.endswith("\n") else line + "\n" for line in failed])
    if rejected:
        with spool.with_name(spool.name + ".rejected").open("a", encoding="utf-8") as out:
            out.writelines(rejected)
    work.unlink()
    report.still_failing += len(failed)
    report.rejected += len(rejected)
