"""Write records with retries; when the database stays down, spool them.

The writer is synchronous (the pipeline runs it in a worker thread). After ``retry_times``
failed retries (waits of ``backoff``, ``2*backoff``, ... seconds) it declares the database
down, spools the record and, for ``reopen_after`` seconds, spools further records at once
instead of waiting on a dead server; then it tries the database again.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from .backends import ArticleStore, Outcome, StoreError
from .records import ArticleRecord
from .spool import Spool

__all__ = ["ResilientWriter", "SPOOLED"]

logger = logging.getLogger(__name__)

#: The outcome name of a record that went to the spool.
SPOOLED = "spooled"


class ResilientWriter:
    """Upsert records into ``store``; spool what cannot be written. Not thread-safe: one thread."""

    def __init__(
        self,
        store: ArticleStore,
        spool: Spool,
        *,
        retry_times: int = 3,
        backoff: float = 0.5,
        reopen_after: float = 10.0,
        on_event: Callable[[str], None] = lambda name: None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.spool = spool
        self.retry_times = retry_times
        self.backoff = backoff
        self.reopen_after = reopen_after
        self.on_event = on_event
        self._sleep = sleep
        self._clock = clock
        self._down_since: float | None = None
        self._last_error = ""

    @property
    def database_down(self) -> bool:
        return self._down_since is not None

    def write(self, record: ArticleRecord) -> str:
        """Store ``record``; return the :class:`Outcome` value, or :data:`SPOOLED`."""
        if self._down_since is not None and self._clock() - self._down_since < self.reopen_after:
            return self._spool(record, self._last_error)
        attempts = 1 if self._down_since is not None else self.retry_times + 1
        for attempt in range(attempts):
            try:
                outcome: Outcome = self.store.upsert(record)
            except StoreError as exc:
                self._last_error = str(exc)
                self.on_event("write_errors")
                if attempt + 1 < attempts:
                    delay = self.backoff * 2**attempt
                    logger.warning(
                        "Write to %s failed (%s); retry %d/%d in %.1fs: %s",
                        self.store.description,
                        exc,
                        attempt + 1,
                        self.retry_times,
                        delay,
                        record.url,
                    )
                    self.on_event("retries")
                    self._sleep(delay)
                continue
            if self._down_since is not None:
                logger.warning(
                    "Database %s is back; new items are stored again. Replay the spool %s "
                    "with `scrapy replay_spool`.",
                    self.store.description,
                    self.spool.path,
                )
                self._down_since = None
            return outcome.value
        if self._down_since is None:
            logger.error(
                "Database %s unavailable after %d retries (%s): spooling items to %s; replay them "
                "with `scrapy replay_spool` once it is back.",
                self.store.description,
                self.retry_times,
                self._last_error,
                self.spool.path,
            )
        self._down_since = self._clock()
        return self._spool(record, self._last_error)

    def _spool(self, record: ArticleRecord, error: str) -> str:
        self.spool.append(record, error)
        return SPOOLED
