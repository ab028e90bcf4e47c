"""The article of each response: extracted when first asked for, at most once per response.

The downloader middleware marks each HTML response it may extract (:func:`expect`); nothing
runs until something needs the article: an item to fill, a page object,
:func:`article_for` or :func:`article_of`. With ``BOILERPLATE_EXTRACT = "always"`` the
middleware asks at once. Entries live in a weak mapping keyed by the response object, never in
``request.meta`` (meta is copied to follow-up requests and must stay plain, picklable data), so
they last as long as the response does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from weakref import WeakKeyDictionary

from scrapy.http import Response
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.defer import Deferred

from ..extractors import Extractor
from ..model.result import ExtractionResult
from .runtime import Runtime
from .sitetemplates import SiteTemplateLearning

__all__ = ["article_for", "article_of", "expect", "is_expected"]


@dataclass(eq=False)
class _Entry:
    """A response's pending, running or finished extraction."""

    runtime: Runtime
    extractor: Extractor
    content_type: str | None
    result: ExtractionResult | None = None
    done: bool = False
    running: bool = False
    waiters: list[Deferred[ExtractionResult | None]] = field(default_factory=list)


_ENTRIES: WeakKeyDictionary[Response, _Entry] = WeakKeyDictionary()


def expect(
    response: Response, runtime: Runtime, extractor: Extractor, content_type: str | None
) -> None:
    """Mark ``response`` as extractable with ``extractor`` (nothing runs yet)."""
    _ENTRIES[response] = _Entry(runtime, extractor, content_type)


def is_expected(response: Response) -> bool:
    """True if ``response`` was already marked (the same object came through twice)."""
    return response in _ENTRIES


async def article_for(response: Response) -> ExtractionResult | None:
    """The article of ``response``, extracted in the crawl's workers on first call.

    None if the response was not marked for extraction (not HTML, skipped by a setting or meta
    key, not seen by the downloader middleware) or the extraction failed. Concurrent callers
    share one extraction. Use it in ``async def`` callbacks.
    """
    entry = _ENTRIES.get(response)
    if entry is None or entry.done:
        return entry.result if entry is not None else None
    if entry.running:
        waiter: Deferred[ExtractionResult | None] = Deferred()
        entry.waiters.append(waiter)
        return await maybe_deferred_to_future(waiter)
    entry.running = True
    learning = SiteTemplateLearning.of(entry.runtime.crawler)
    extractor, context = (
        learning.prepare(entry.extractor, response.url) if learning else (entry.extractor, None)
    )
    result = await entry.runtime.extract(
        extractor, response.body, response.url, entry.content_type, "responses", context
    )
    if learning is not None:
        learning.learned(response.url, result)
    _finish(entry, result)
    return entry.result


def article_of(response: Response) -> ExtractionResult | None:
    """The article of ``response``; if nothing asked for it yet, extracted now on this thread.

    Synchronous, so it cannot wait for the crawl's worker processes: in ``async def`` callbacks
    prefer ``await article_for(response)``, which runs the extraction in the workers. While an
    extraction started by :func:`article_for` runs, this one runs another on this thread and the
    first result to finish is kept.
    """
    entry = _ENTRIES.get(response)
    if entry is None or entry.done:
        return entry.result if entry is not None else None
    learning = SiteTemplateLearning.of(entry.runtime.crawler)
    extractor, context = (
        learning.prepare(entry.extractor, response.url) if learning else (entry.extractor, None)
    )
    result = entry.runtime.extract_here(
        extractor, response.body, response.url, entry.content_type, "responses", context
    )
    if learning is not None:
        learning.learned(response.url, result)
    _finish(entry, result)
    return entry.result


def _finish(entry: _Entry, result: ExtractionResult | None) -> None:
    if entry.done:
        return
    entry.result, entry.done = result, True
    waiters, entry.waiters = entry.waiters, []
    for waiter in waiters:
        waiter.callback(result)
