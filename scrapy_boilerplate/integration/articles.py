"""The article of each response: extracted when first asked for, at most once per response.

The downloader middleware marks each HTML response it may extract (:func:`expect`); nothing
runs until something needs the article: an item to fill, a page object,
:func:`article_for` or :func:`article_of`. With ``BOILERPLATE_EXTRACT = "always"``, and for the
callbacks that usually ask with ``"auto"`` (:mod:`~scrapy_boilerplate.integration.demand`), the
middleware starts it at once (:func:`extract_early`); the spider middleware reports when a
response's callback is done (:func:`callback_done`), which is how ``"auto"`` learns.

Entries live in a weak mapping keyed by the response object, never in
``request.meta`` (meta is copied to follow-up requests and must stay plain, picklable data), so
they last as long as the response does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from weakref import WeakKeyDictionary

from scrapy.http import Response, TextResponse
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.defer import Deferred

from ..extractors import Extractor
from ..model.context import ExtractionContext
from ..model.result import ExtractionResult
from .runtime import Runtime
from .sitetemplates import SiteTemplateLearning

__all__ = [
    "article_for",
    "article_of",
    "callback_done",
    "expect",
    "extract_early",
    "is_expected",
    "origin_of",
    "Origin",
    "NO_ORIGIN",
    "response_content_type",
    "skipped",
    "why_no_article",
]


#: Where a response's extractor came from: the ``BOILERPLATE_DOMAIN_OVERRIDES`` key that matched
#: its URL (None: the default), and whether request meta keys changed it.
Origin = tuple[str | None, bool]
NO_ORIGIN: Origin = (None, False)


@dataclass(eq=False)
class _Entry:
    """A response's pending, running or finished extraction."""

    runtime: Runtime
    extractor: Extractor
    #: The callback key ``"auto"`` learns under (None: not learning).
    demand_key: str | None = None
    #: Whether the crawl asked for the article (not counting an early extraction).
    asked: bool = False
    early: bool = False
    result: ExtractionResult | None = None
    done: bool = False
    running: bool = False
    waiters: list[Deferred[ExtractionResult | None]] = field(default_factory=list)
    origin: Origin = NO_ORIGIN


_ENTRIES: WeakKeyDictionary[Response, _Entry] = WeakKeyDictionary()
#: Why the downloader middleware did not mark a response (a phrase, e.g. "HTTP status 404").
_SKIPPED: WeakKeyDictionary[Response, str] = WeakKeyDictionary()


def expect(
    response: Response,
    runtime: Runtime,
    extractor: Extractor,
    demand_key: str | None = None,
    origin: Origin = NO_ORIGIN,
) -> None:
    """Mark ``response`` as extractable with ``extractor`` (nothing runs yet); with a
    ``demand_key``, whether its callback asks for the article is recorded under that key;
    ``origin``: the override key that chose the extractor, and whether meta keys changed it."""
    _ENTRIES[response] = _Entry(runtime, extractor, demand_key, origin=origin)


def origin_of(response: Response) -> Origin:
    """The :data:`Origin` of the extractor ``response`` is (or was) extracted with."""
    entry = _ENTRIES.get(response)
    return NO_ORIGIN if entry is None else entry.origin


def skipped(response: Response, why: str) -> None:
    """Record why ``response`` is not extracted (a phrase, e.g. ``not HTML (application/pdf)``),
    for :func:`why_no_article`."""
    _SKIPPED[response] = why


def why_no_article(response: Response) -> str:
    """Why ``response`` has no article: the reason it was skipped, or the extraction's error
    (the extraction is run again here to name it; for ``scrapy check``, not for crawls)."""
    if response in _SKIPPED:
        return _SKIPPED[response]
    entry = _ENTRIES.get(response)
    if entry is None:
        return "the downloader middleware did not see it (is the add-on enabled?)"
    if entry.result is not None:
        return "it has one"
    try:
        entry.extractor.extract(
            response.body, response.url, content_type=response_content_type(response)
        )
    except Exception as exc:
        return f"the extraction failed: {type(exc).__name__}: {exc}"
    return "the extraction failed (see the log)"


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
    if entry is not None:
        entry.asked = True
    return await _extract(response, entry)


async def extract_early(response: Response) -> None:
    """Extract the article of a marked ``response`` now, before anything asks for it."""
    entry = _ENTRIES.get(response)
    if entry is not None:
        entry.early = True
        await _extract(response, entry)


async def _extract(response: Response, entry: _Entry | None) -> ExtractionResult | None:
    if entry is None or entry.done:
        return entry.result if entry is not None else None
    if entry.running:
        waiter: Deferred[ExtractionResult | None] = Deferred()
        entry.waiters.append(waiter)
        return await maybe_deferred_to_future(waiter)
    entry.running = True
    try:
        learning, extractor, context = _site_templates(entry, response)
        content_type = response_content_type(response)
    except Exception:  # no waiter may wait for an extraction that never starts
        _finish(entry, None)
        raise
    result = await entry.runtime.extract(
        extractor, response.body, response.url, content_type, "responses", context
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
    if entry is None:
        return None
    entry.asked = True
    if entry.done:
        return entry.result
    learning, extractor, context = _site_templates(entry, response)
    content_type = response_content_type(response)
    result = entry.runtime.extract_here(
        extractor, response.body, response.url, content_type, "responses", context
    )
    if learning is not None:
        learning.learned(response.url, result)
    _finish(entry, result)
    return entry.result


def _site_templates(
    entry: _Entry, response: Response
) -> tuple[SiteTemplateLearning | None, Extractor, ExtractionContext | None]:
    """The crawl's site-template learning (None when off), and the extractor and context to
    extract ``response`` with (what the learning knows of its site)."""
    learning = SiteTemplateLearning.of(entry.runtime.crawler)
    if learning is None:
        return None, entry.extractor, None
    return learning, *learning.prepare(entry.extractor, response.url)


def response_content_type(response: Response) -> str | None:
    """The ``Content-Type`` the body is decoded by: for a text response, one whose charset is the
    encoding Scrapy decided (``response.encoding``: the response's own, BOM, header, ``<meta>``,
    then Scrapy's detection), so the article reads the characters ``response.text`` does; else
    the response's header.

    The body stays bytes: cheaper to send to a worker process, and valid UTF-8 is parsed as it
    is. The extractor still overrules a UTF-8 charset on bytes that are mostly not UTF-8, and a
    UTF-16 or UTF-32 one on bytes without NULs (:mod:`~scrapy_boilerplate.page.parsing`).
    """
    if isinstance(response, TextResponse):
        return f"text/html; charset={response.encoding}"
    header = response.headers.get(b"Content-Type")
    return header.decode("latin-1") if header else None


def callback_done(response: Response) -> None:
    """The callback of ``response`` produced all its output: record whether it asked for the
    article (once per response), and count an early extraction nobody asked for
    (``responses/extracted_early/unused``)."""
    entry = _ENTRIES.get(response)
    if entry is None or entry.demand_key is None:
        return
    entry.runtime.demand.record(entry.demand_key, entry.asked)
    entry.demand_key = None
    if entry.early and not entry.asked:
        entry.runtime.inc("responses/extracted_early/unused")


def _finish(entry: _Entry, result: ExtractionResult | None) -> None:
    if entry.done:
        return
    entry.result, entry.done = result, True
    waiters, entry.waiters = entry.waiters, []
    for waiter in waiters:
        waiter.callback(result)
