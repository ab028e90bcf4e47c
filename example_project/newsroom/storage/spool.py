"""The local spool: a JSON-lines file of records the database did not take, and its replay.

Each line is ``{"record": {...}, "error": "...", "spooled_at": "..."}``. Appends are flushed
and fsynced, so a crash loses nothing already spooled. :func:`replay_spool` moves the file
aside, upserts every record, and writes back the ones that still fail; lines that cannot be
parsed go to ``<spool>.rejected`` rather than being dropped.
"""

from __future__ import annotations

import json
import os
import threading
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from .backends import ArticleStore, StoreError
from .records import ArticleRecord

__all__ = ["Spool", "ReplayReport", "replay_spool"]


class Spool:
    """Append-only JSON-lines spool at ``path`` (thread-safe appends)."""

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
        with self._lock:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as handle:
                handle.write(line + "\n")
                handle.flush()
                os.fsync(handle.fileno())

    def count(self) -> int:
        """Number of spooled lines (0 if there is no spool)."""
        if not self.path.exists():
            return 0
        with self.path.open(encoding="utf-8") as handle:
            return sum(1 for line in handle if line.strip())


@dataclass
class ReplayReport:
    """What a replay did: outcomes by kind, lines still failing and lines rejected as malformed."""

    outcomes: Counter[str] = field(default_factory=Counter)
    still_failing: int = 0
    rejected: int = 0
    last_error: str | None = None

    @property
    def replayed(self) -> int:
        return sum(self.outcomes.values())


def replay_spool(path: str | Path, store: ArticleStore) -> ReplayReport:
    """Upsert every spooled record into ``store``; keep the failures in the spool.

    Safe to run again after a crash: a leftover ``<spool>.replaying`` is replayed first, and
    upserts are idempotent.
    """
    spool = Path(path)
    work = spool.with_name(spool.name + ".replaying")
    report = ReplayReport()
    if not work.exists():
        if not spool.exists():
            return report
        spool.rename(work)
    failed: list[str] = []
    rejected: list[str] = []
    with work.open(encoding="utf-8") as handle:
        for line in handle:
            if not line.strip():
                continue
            try:
                record = ArticleRecord.from_json(json.loads(line)["record"])
            except (ValueError, KeyError, TypeError):
                rejected.append(line)
                continue
            if failed:  # the database went away again: do not hammer it, keep the rest
                failed.append(line)
                continue
            try:
                report.outcomes[store.upsert(record).value] += 1
            except StoreError as exc:
                report.last_error = str(exc)
                failed.append(line)
    if failed:
        with spool.open("a", encoding="utf-8") as out:
            out.writelines(failed)
    if rejected:
        with spool.with_name(spool.name + ".rejected").open("a", encoding="utf-8") as out:
            out.writelines(rejected)
    work.unlink()
    report.still_failing = len(failed)
    report.rejected = len(rejected)
    return report
