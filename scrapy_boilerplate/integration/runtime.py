"""What the Scrapy components of one crawler share: the checked config, stats and the workers.

Extraction runs in ``BOILERPLATE_PROCESSES`` supervised worker processes (forked when the
spider opens; results come back without DOM references: ``block.elements`` is empty), else in
``BOILERPLATE_THREADS`` daemon threads, else on the reactor thread; see
:mod:`~scrapy_boilerplate.integration.workers`. A page over ``BOILERPLATE_TIMEOUT`` seconds
fails alone; a worker process that dies costs only the page it ran (run once more on a fresh
worker). Worker processes that cannot start, or that keep dying, are replaced by the threads
for the rest of the crawl, with one warning. Pools stop when the engine stops. Each failure is
counted; timeouts and worker deaths are logged at WARNING with the URL, every other distinct
failure once at WARNING and then at DEBUG.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import sys
import time
from collections.abc import Callable
from typing import Any
from weakref import WeakKeyDictionary

from scrapy import Spider, signals
from scrapy.crawler import Crawler
from scrapy.utils.defer import maybe_deferred_to_future

from ..errors import InvalidInputError
from ..extractors import Extractor, get_extractor
from ..model.context import ExtractionContext
from ..model.result import ExtractionResult
from ..page.metadata import extruct_available
from .demand import DemandTracker
from .settings import DEFAULTS, BoilerplateConfig, SettingError, unknown_settings
from .sitetemplates import SITE_DEFAULTS, SiteTemplateLearning
from .workers import (
    ExtractionTimeoutError,
    PoolBrokenError,
    ProcessWorkers,
    ThreadWorkers,
    WorkerDiedError,
    Workers,
)

__all__ = ["Runtime", "STATS_PREFIX", "KNOWN_SETTINGS", "metadata_sources"]

logger = logging.getLogger("scrapy_boilerplate")

STATS_PREFIX = "boilerplate"

_RUNTIMES: WeakKeyDictionary[Crawler, Runtime] = WeakKeyDictionary()

#: Every setting the add-on reads; another ``BOILERPLATE_*`` name gets a warning (a typo).
KNOWN_SETTINGS = frozenset({*DEFAULTS, *SITE_DEFAULTS})

#: A small page each new worker process runs the default extractor on first (see ``_warm_up``).
_WARM_UP_PAGE = (
    b'<html lang="en"><head><title>Warm-up</title><meta property="og:title" content="Warm-up">'
    b'<script type="application/ld+json">{"@type": "NewsArticle", "headline": "Warm-up"}'
    b"</script></head><body><article><h1>Warm-up</h1><p>"
    + b"A paragraph of text long enough to count as the content of an article page. " * 4
    + b'</p><p itemscope itemtype="https://schema.org/Person"><span itemprop="name">A. Writer'
    + b"</span></p></article></body></html>"
)

#: How the INFO line at start-up describes each ``BOILERPLATE_EXTRACT`` mode.
_EXTRACT_MODE_DESCRIPTIONS = {
    "auto": "extraction on demand, at download time for callbacks that usually ask",
    "on-demand": "extraction on demand",
    "always": "every HTML response extracted",
}

#: Worker events (see :class:`~.workers.ProcessWorkers`) and the stat each one counts.
_EVENT_STATS = {
    "died": "workers/died",
    "restarted": "workers/restarted",
    "retried": "responses/retried",
    "timed_out": "responses/timed_out",
}


class Runtime:
    """The config, stats, extraction workers and learnt demand (which callbacks ask for the
    article) of one crawler; get it with :meth:`of`."""

    def __init__(self, crawler: Crawler, config: BoilerplateConfig) -> None:
        self.crawler = crawler
        self.config = config
        self.demand = DemandTracker()
        self._warned: set[tuple[str, ...]] = set()
        self._threads: ThreadWorkers | None = None
        self._processes: ProcessWorkers | None = None
        self._use_processes = config.enabled and config.processes > 0
        crawler.signals.connect(self._spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self._stop_workers, signal=signals.engine_stopped)

    @classmethod
    def of(cls, crawler: Crawler) -> Runtime:
        """The crawler's runtime, built (and its settings checked) on first use."""
        runtime = _RUNTIMES.get(crawler)
        if runtime is None:
            try:
                config = BoilerplateConfig.from_settings(crawler.settings)
            except SettingError as exc:
                _report_setting_error(exc)
                raise
            runtime = _RUNTIMES[crawler] = cls(crawler, config)
            for message in unknown_settings(crawler.settings, KNOWN_SETTINGS):
                logger.warning(message, extra={"crawler": crawler})
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
        """Run ``extractor`` on one page in the workers; None if it was skipped or failed.

        ``context`` (per-site data) goes with the page to the worker; an empty one is not sent.

        Never raises: an invalid page counts ``<stats_key>/skipped/invalid_input``, any other
        exception ``<stats_key>/errors`` (and ``.../errors/<ExceptionType>``); success counts
        ``<stats_key>/processed`` and adds the extraction's duration (in the worker, queueing
        excluded) to ``extraction_time_ms``.
        """
        if context is not None and context.is_empty:
            context = None  # nothing to send
        try:
            try:
                result, elapsed_ms = await self._run(extractor, body, url, content_type, context)
            except PoolBrokenError:  # never started: the workers kept dying; run it in threads
                self._fall_back_to_threads("extraction worker processes keep dying", None)
                result, elapsed_ms = await self._run(extractor, body, url, content_type, context)
        except Exception as exc:
            self._failed(exc, extractor, url, stats_key)
            return None
        finally:
            if self._processes is not None and self._processes.broken:
                self._fall_back_to_threads("extraction worker processes keep dying", None)
        return self._succeeded(result, elapsed_ms, stats_key)

    async def _run(
        self,
        extractor: Extractor,
        body: bytes | str,
        url: str | None,
        content_type: str | None,
        context: ExtractionContext | None,
    ) -> tuple[ExtractionResult, float]:
        workers = self._workers()
        if isinstance(workers, ProcessWorkers):  # the extractor travels by name
            by_name = (*_by_name(extractor), body, url, content_type, context)
            deferred = workers.submit(_extract_in_process, by_name, url)
        elif workers is not None:
            deferred = workers.submit(
                _timed_extract, (extractor, body, url, content_type, context), url
            )
        else:
            return _timed_extract(extractor, body, url, content_type, context)
        outcome: tuple[ExtractionResult, float] = await maybe_deferred_to_future(deferred)
        return outcome

    def extract_here(
        self,
        extractor: Extractor,
        body: bytes | str,
        url: str | None,
        content_type: str | None,
        stats_key: str,
        context: ExtractionContext | None = None,
    ) -> ExtractionResult | None:
        """:meth:`extract` on the calling thread, without a time limit (for synchronous code)."""
        try:
            result, elapsed_ms = _timed_extract(extractor, body, url, content_type, context)
        except Exception as exc:
            self._failed(exc, extractor, url, stats_key)
            return None
        return self._succeeded(result, elapsed_ms, stats_key)

    def _succeeded(
        self, result: ExtractionResult, elapsed_ms: float, stats_key: str
    ) -> ExtractionResult:
        self.inc(f"{stats_key}/processed")
        self.inc("extraction_time_ms", elapsed_ms)
        self.max("extraction_time_max_ms", elapsed_ms)
        return result

    def _failed(
        self, exc: Exception, extractor: Extractor, url: str | None, stats_key: str
    ) -> None:
        if isinstance(exc, InvalidInputError):
            self.inc(f"{stats_key}/skipped/invalid_input")
            logger.debug("Not extracting from %s: %s", url, exc, extra={"crawler": self.crawler})
            return
        self.inc(f"{stats_key}/errors")
        self.inc(f"{stats_key}/errors/{type(exc).__name__}")
        if not isinstance(exc, (ExtractionTimeoutError, WorkerDiedError)):  # logged as events
            self.warn_once(
                ("extract", extractor.name, type(exc).__name__),
                "Extractor %r failed on %s: %r",
                extractor.name,
                url,
                exc,
            )
        return None

    # -- workers -----------------------------------------------------------------------------
    def _workers(self) -> Workers | None:
        """The pool to run the next page in (None: the reactor thread)."""
        if self._use_processes and self._start_processes():
            return self._processes
        if self.config.threads:
            if self._threads is None:
                self._threads = ThreadWorkers(
                    self.config.threads, self.config.timeout, _reactor(), self._worker_event
                )
            return self._threads
        return None

    def _spider_opened(self, spider: Spider) -> None:
        self._start_processes()
        if not self.config.enabled:
            return
        logger.info(
            "scrapy-boilerplate: extractor %r, %s, %s, %s, items filled: %s, %s",
            self.config.default.name,
            self._where(),
            f"time limit {self.config.timeout:g} s per page"
            if self.config.timeout
            else "no time limit",
            _EXTRACT_MODE_DESCRIPTIONS[self.config.extract_mode],
            self.config.item_policy,
            metadata_sources(self.config.default.extractor),
            extra={"crawler": self.crawler},
        )
        SiteTemplateLearning.of(self.crawler)  # opens the store, says where it is

    def _where(self) -> str:
        if self._processes is not None:
            return f"{self.config.processes} worker process(es)"
        if self.config.threads:
            return f"{self.config.threads} thread(s)"
        return "on the reactor thread"

    def _start_processes(self) -> bool:
        """Start the worker processes if wanted and not running; False if there are none.

        Called when the spider opens, so that the workers are forked before the crawl starts
        threads (a fork copies only the calling thread, and locks held by the others).
        """
        if not self._use_processes:
            return False
        if self._processes is None:
            warm_up = _warm_up_call(self.config)
            try:
                pool = ProcessWorkers(
                    self.config.processes,
                    self.config.timeout,
                    _reactor(),
                    self._worker_event,
                    warm_up=warm_up,
                )
                pool.start()
            except (OSError, ImportError, NotImplementedError, RuntimeError) as exc:
                self._fall_back_to_threads("cannot start extraction worker processes", exc)
                return False
            self._processes = pool
            self.inc("workers/processes", self.config.processes)
        return True

    def _worker_event(self, kind: str, url: str | None, detail: str) -> None:
        self.inc(_EVENT_STATS[kind])
        if kind == "died":
            logger.warning(
                "An extraction worker process died (%s) while extracting %s",
                detail,
                url or "nothing",
                extra={"crawler": self.crawler},
            )
        elif kind == "retried":
            logger.info("Extracting %s again in a fresh worker process", url)
        elif kind == "timed_out":
            logger.warning(
                "Extraction of %s took longer than BOILERPLATE_TIMEOUT (%s): "
                "its items go on without the article fields",
                url,
                detail,
                extra={"crawler": self.crawler},
            )

    def _fall_back_to_threads(self, problem: str, exc: BaseException | None) -> None:
        self._use_processes = False
        if self._processes is not None:
            self._processes.close()
            self._processes = None
        self.warn_once(
            ("processes", problem),
            "%s%s: extracting in %s for the rest of the crawl",
            problem,
            f" ({exc!r})" if exc is not None else "",
            f"{self.config.threads} thread(s)" if self.config.threads else "the reactor thread",
        )

    def _stop_workers(self) -> None:
        if self._threads is not None:
            self._threads.close()
            self._threads = None
        if self._processes is not None:
            self._processes.close()
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


def _by_name(extractor: Extractor) -> tuple[str, tuple[tuple[str, Any], ...]]:
    """How ``extractor`` travels to a worker process: its name and all its options (sorted), the
    key of the worker's extractor cache (:func:`_worker_extractor`)."""
    return extractor.name, tuple(sorted(extractor.options.items()))


def _warm_up_call(config: BoilerplateConfig) -> Callable[[], None] | None:
    """What a new worker process runs first: :func:`_warm_up` of the crawl's default extractor
    (None when extraction is off by default)."""
    default = config.default.extractor
    return None if default is None else functools.partial(_warm_up, *_by_name(default))


def _warm_up(name: str, options: tuple[tuple[str, Any], ...]) -> None:
    """Build extractor ``name`` as a worker will and run it once on a small page, so that a
    worker's first page does not pay for the chain's construction and lazy imports. Runs in
    each new worker process, before it takes calls."""
    _worker_extractor(name, options).extract(
        _WARM_UP_PAGE, "http://localhost/", content_type="text/html"
    )


@functools.lru_cache(maxsize=32)
def _worker_extractor(name: str, options: tuple[tuple[str, Any], ...]) -> Extractor:
    return get_extractor(name, **dict(options))


def _extract_in_process(
    name: str,
    options: tuple[tuple[str, Any], ...],
    body: bytes | str,
    url: str | None,
    content_type: str | None,
    context: ExtractionContext | None = None,
) -> tuple[ExtractionResult, float]:
    """Runs in a worker process (the result's DOM references are dropped by pickling)."""
    extractor = _worker_extractor(name, options)
    return _timed_extract(extractor, body, url, content_type, context)


def _reactor() -> Any:
    from twisted.internet import reactor

    return reactor


def _report_setting_error(error: SettingError) -> None:
    """Print a bad setting as one ``scrapy-boilerplate: error:`` line on stderr, also when
    logging is off; the crawl still fails (``scrapy crawl`` exits 1), but the crawl task's
    exception is marked as seen, so asyncio does not log it again under a traceback."""
    print(f"scrapy-boilerplate: error: {error}", file=sys.stderr)
    try:
        task = asyncio.current_task()
    except RuntimeError:  # no running event loop: a Deferred-based crawl
        return
    if task is not None:
        task.add_done_callback(_mark_exception_seen)


def _mark_exception_seen(task: asyncio.Task[Any]) -> None:
    if not task.cancelled():
        task.exception()


def metadata_sources(extractor: Extractor | None) -> str:
    """The metadata sources ``extractor`` reads, in words: installing extruct (the ``metadata``
    extra) adds microdata, which changes results (authors appear), so the start-up line says."""
    if extractor is None or not extractor.options.get("metadata"):
        return "metadata not read"
    if extruct_available():
        return "metadata from JSON-LD, microdata, OpenGraph and HTML tags (extruct installed)"
    return "metadata from JSON-LD, OpenGraph and HTML tags (no microdata: extruct not installed)"
