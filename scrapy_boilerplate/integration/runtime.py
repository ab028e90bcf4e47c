"""What the Scrapy components of one crawler share: the checked config, stats and the worker pool.

Extraction runs in ``BOILERPLATE_PROCESSES`` worker processes (forked when the spider opens,
before the crawl starts threads; results come back without DOM references: ``block.elements``
is empty), else in a bounded pool of ``BOILERPLATE_THREADS`` threads, else on the reactor
thread. Worker processes that cannot start, or that die, are replaced by the thread pool for
the rest of the crawl, with one warning. Pools stop when the engine stops. Each failure is
counted; the first of each distinct kind is logged at WARNING, later ones at DEBUG, always
with the URL.
"""

from __future__ import annotations

import functools
import logging
import multiprocessing
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any
from weakref import WeakKeyDictionary

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet import threads
from twisted.internet.defer import Deferred
from twisted.python.failure import Failure
from twisted.python.threadpool import ThreadPool

from ..errors import InvalidInputError
from ..extractors import Extractor, get_extractor
from ..model.context import ExtractionContext
from ..model.result import ExtractionResult
from .settings import BoilerplateConfig

__all__ = ["Runtime", "STATS_PREFIX"]

logger = logging.getLogger("scrapy_boilerplate")

STATS_PREFIX = "boilerplate"

_RUNTIMES: WeakKeyDictionary[Crawler, Runtime] = WeakKeyDictionary()


class Runtime:
    """The config, stats and extraction pool of one crawler; get it with :meth:`of`."""

    def __init__(self, crawler: Crawler, config: BoilerplateConfig) -> None:
        self.crawler = crawler
        self.config = config
        self._warned: set[tuple[str, ...]] = set()
        self._pool: ThreadPool | None = None
        self._processes: ProcessPoolExecutor | None = None
        self._use_processes = config.enabled and config.processes > 0
        crawler.signals.connect(self._start_processes, signal=signals.spider_opened)
        crawler.signals.connect(self._stop_pool, signal=signals.engine_stopped)

    @classmethod
    def of(cls, crawler: Crawler) -> Runtime:
        """The crawler's runtime, built (and its settings checked) on first use."""
        runtime = _RUNTIMES.get(crawler)
        if runtime is None:
            runtime = _RUNTIMES[crawler] = cls(
                crawler, BoilerplateConfig.from_settings(crawler.settings)
            )
        return runtime

    # -- stats and logging -------------------------------------------------------------------
    def inc(self, key: str, count: float = 1) -> None:
        """Add ``count`` to the stat ``boilerplate/<key>``."""
        if self.crawler.stats is not None:
            self.crawler.stats.inc_value(f"{STATS_PREFIX}/{key}", count)  # type: ignore[arg-type]

    def max(self, key: str, value: float) -> None:
        if self.crawler.stats is not None:
            self.crawler.stats.max_value(f"{STATS_PREFIX}/{key}", value)

    def warn_once(self, problem: tuple[str, ...], message: str, *args: Any) -> None:
        """Log ``message`` at WARNING the first time ``problem`` happens, at DEBUG afterwards."""
        first = problem not in self._warned
        self._warned.add(problem)
        if first:
            message += " (further occurrences are logged at DEBUG level and counted in stats)"
        logger.log(
            logging.WARNING if first else logging.DEBUG,
            message,
            *args,
            extra={"crawler": self.crawler},
        )

    # -- extraction --------------------------------------------------------------------------
    async def extract(
        self,
        extractor: Extractor,
        body: bytes | str,
        url: str | None,
        content_type: str | None,
        stats_key: str,
        context: ExtractionContext | None = None,
    ) -> ExtractionResult | None:
        """Run ``extractor`` on one page; None if the page is not HTML or the extractor failed.

        ``context`` (per-site data) goes with the page to the worker; an empty one is not sent.

        Never raises: an invalid page counts ``<stats_key>/skipped/invalid_input``, any other
        exception ``<stats_key>/errors`` (and ``.../errors/<ExceptionType>``); success counts
        ``<stats_key>/processed`` and adds the extraction's duration (in the worker, queueing
        excluded) to ``extraction_time_ms``.
        """
        try:
            if self._use_processes and self._start_processes():
                result, elapsed_ms = await maybe_deferred_to_future(
                    self._in_process(extractor, body, url, content_type, context)
                )
            elif self.config.threads:
                result, elapsed_ms = await maybe_deferred_to_future(
                    threads.deferToThreadPool(
                        _reactor(),
                        self._get_pool(),
                        _timed_extract,
                        extractor,
                        body,
                        url,
                        content_type,
                        context,
                    )
                )
            else:
                result, elapsed_ms = _timed_extract(extractor, body, url, content_type, context)
        except BrokenProcessPool as exc:
            self.inc(f"{stats_key}/errors")
            self.inc(f"{stats_key}/errors/{type(exc).__name__}")
            self._fall_back_to_threads("an extraction worker process died", exc)
            return None
        except InvalidInputError as exc:
            self.inc(f"{stats_key}/skipped/invalid_input")
            logger.debug("Not extracting from %s: %s", url, exc, extra={"crawler": self.crawler})
            return None
        except Exception as exc:
            self.inc(f"{stats_key}/errors")
            self.inc(f"{stats_key}/errors/{type(exc).__name__}")
            self.warn_once(
                ("extract", extractor.name, type(exc).__name__),
                "Extractor %r failed on %s: %r",
                extractor.name,
                url,
                exc,
            )
            return None
        self.inc(f"{stats_key}/processed")
        self.inc("extraction_time_ms", elapsed_ms)
        self.max("extraction_time_max_ms", elapsed_ms)
        return result

    def _get_pool(self) -> ThreadPool:
        if self._pool is None:
            self._pool = ThreadPool(
                minthreads=0, maxthreads=self.config.threads, name="boilerplate"
            )
            self._pool.start()
        return self._pool

    def _start_processes(self) -> bool:
        """Start the worker processes if wanted and not running; False if there are none.

        Called when the spider opens, so that the workers are forked before the crawl starts
        threads (a fork copies only the calling thread, and locks held by the others).
        """
        if not self._use_processes:
            return False
        if self._processes is None:
            methods = multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context("fork" if "fork" in methods else None)
            try:
                pool = ProcessPoolExecutor(self.config.processes, mp_context=context)
                pool.submit(int)  # forks the workers now
            except (OSError, ImportError, NotImplementedError, RuntimeError) as exc:
                self._fall_back_to_threads("cannot start extraction worker processes", exc)
                return False
            self._processes = pool
            self.inc("workers/processes", self.config.processes)
        return True

    def _fall_back_to_threads(self, problem: str, exc: BaseException) -> None:
        self._use_processes = False
        if self._processes is not None:
            self._processes.shutdown(wait=False, cancel_futures=True)
            self._processes = None
        self.warn_once(
            ("processes", type(exc).__name__),
            "%s (%r): extracting in %s for the rest of the crawl",
            problem,
            exc,
            f"{self.config.threads} thread(s)" if self.config.threads else "the reactor thread",
        )

    def _in_process(
        self,
        extractor: Extractor,
        body: bytes | str,
        url: str | None,
        content_type: str | None,
        context: ExtractionContext | None,
    ) -> Deferred[tuple[ExtractionResult, float]]:
        assert self._processes is not None
        if context is not None and context.is_empty:
            context = None  # nothing to pickle
        future = self._processes.submit(
            _extract_in_process, extractor.name, extractor.options, body, url, content_type, context
        )
        deferred: Deferred[tuple[ExtractionResult, float]] = Deferred()
        future.add_done_callback(lambda done: _reactor().callFromThread(_fire, deferred, done))
        return deferred

    def _stop_pool(self) -> None:
        if self._pool is not None:
            self._pool.stop()
            self._pool = None
        if self._processes is not None:
            self._processes.shutdown(wait=False, cancel_futures=True)
            self._processes = None


def _timed_extract(
    extractor: Extractor,
    body: bytes | str,
    url: str | None,
    content_type: str | None,
    context: ExtractionContext | None = None,
) -> tuple[ExtractionResult, float]:
    """The result and the extraction's own duration in ms (queueing time excluded)."""
    started = time.perf_counter()
    result = extractor.extract(body, url, content_type=content_type, context=context)
    return result, (time.perf_counter() - started) * 1000


@functools.lru_cache(maxsize=32)
def _worker_extractor(name: str, options: tuple[tuple[str, Any], ...]) -> Extractor:
    return get_extractor(name, **dict(options))


def _extract_in_process(
    name: str,
    options: dict[str, Any],
    body: bytes | str,
    url: str | None,
    content_type: str | None,
    context: ExtractionContext | None = None,
) -> tuple[ExtractionResult, float]:
    """Runs in a worker process (the result's DOM references are dropped by pickling)."""
    extractor = _worker_extractor(name, tuple(sorted(options.items())))
    return _timed_extract(extractor, body, url, content_type, context)


def _fire(deferred: Deferred[Any], future: Future[Any]) -> None:
    exception = future.exception()
    if exception is None:
        deferred.callback(future.result())
    else:
        deferred.errback(Failure(exception))


def _reactor() -> Any:
    from twisted.internet import reactor

    return reactor
