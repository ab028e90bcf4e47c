"""Extracting the HTML responses of WARC files to JSON lines.

Files are read one after the other, each streamed (:mod:`.warc`); the pages go to ``jobs``
worker processes, at most :data:`IN_FLIGHT_PER_JOB` per worker at a time (:mod:`.ordered`), so
memory stays bounded by about that many bodies, whatever the size of the files.

The output has one JSON object a line per extracted page, in input order (files in the order
given, records in file order), written and flushed as each is ready::

    {"url": WARC-Target-URI, "title": ..., "text": ..., "metadata": {...} or null,
     "extractor": name, "warc_record_id": ..., "warc_date": ...}

plus ``"html"`` when the extractor's ``include_html`` option is on and ``"markdown"`` when its
``include_markdown`` option is. A page the extractor refuses
(not HTML after all: ``invalid_input``) or fails on (``extraction_error``, or
``unexpected_error`` for any other exception) is counted in the summary and left out.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, TextIO

from ..errors import BoilerplateError, ExtractionError, InvalidInputError
from ..extractors import Extractor, get_extractor
from ..model.result import ExtractionResult
from ..page.responses import DEFAULT_MAX_BODY_SIZE
from .ordered import ordered_map
from .summary import BatchSummary
from .warc import Skipped, WarcFormatError, WarcPage, read_warc

__all__ = [
    "IN_FLIGHT_PER_JOB",
    "Failure",
    "WarcRun",
    "counted_pages",
    "extract_result",
    "extract_warcs",
    "load_extractor",
]

#: Pages submitted to the workers and not yet written, per worker.
IN_FLIGHT_PER_JOB = 8
_MAX_MESSAGE = 300

_EXTRACTOR: Extractor | None = None


@dataclass(frozen=True)
class WarcRun:
    """How to run: the extractor and its options (the metadata is read unless ``options`` say
    ``metadata: False``: archives want the dates), worker processes, the body size limit
    (bytes) and whether ``text/*`` bodies that look like HTML count as HTML."""

    extractor: str = "article"
    options: Mapping[str, Any] = field(default_factory=dict)
    jobs: int = 1
    max_body_size: int = DEFAULT_MAX_BODY_SIZE
    sniff_text: bool = False


class Failure(NamedTuple):
    """A page the extractor did not extract: its URL, the reason and the error message."""

    url: str
    reason: str
    message: str


def extract_warcs(
    paths: Sequence[Path],
    out: TextIO,
    run: WarcRun,
    *,
    progress: Callable[[int], None] | None = None,
    on_failure: Callable[[Failure], None] | None = None,
) -> BatchSummary:
    """Extract the pages of the WARC files ``paths`` to ``out`` (module docstring) and count.

    ``progress`` gets the compressed bytes read after each record (:func:`.warc.read_warc`);
    ``on_failure`` each page that failed. A file that cannot be read (further) is listed in the
    summary's ``file_errors`` and the run goes on with the next. Raises
    :class:`~scrapy_boilerplate.errors.BoilerplateError` if a worker process dies.
    """
    summary = BatchSummary(files=len(paths))
    start = time.perf_counter()
    outcomes = ordered_map(
        extract_page,
        _pages(paths, run, summary, progress),
        jobs=run.jobs,
        in_flight=IN_FLIGHT_PER_JOB * run.jobs,
        initializer=load_extractor,
        initargs=(run.extractor, dict(run.options)),
    )
    try:
        for outcome in outcomes:
            _record(outcome, out, summary, on_failure)
    except BrokenProcessPool as exc:
        raise BoilerplateError("a worker process died (killed, or out of memory?)") from exc
    finally:
        outcomes.close()
    summary.seconds = time.perf_counter() - start
    return summary


def _pages(
    paths: Sequence[Path],
    run: WarcRun,
    summary: BatchSummary,
    progress: Callable[[int], None] | None,
) -> Iterator[WarcPage]:
    """The pages of the files in turn; records, skips and unreadable files are counted in
    ``summary`` as they are read."""
    for path in paths:
        records = read_warc(
            path, max_body_size=run.max_body_size, sniff_text=run.sniff_text, progress=progress
        )
        try:
            yield from counted_pages(records, summary)
        except (WarcFormatError, OSError) as exc:
            summary.file_errors.append(f"{path}: {exc}")


def counted_pages(items: Iterable[WarcPage | Skipped], summary: BatchSummary) -> Iterator[WarcPage]:
    """The pages of a file's records; records, skips and HTML responses are counted in
    ``summary`` as they are read."""
    for item in items:
        summary.records += 1
        if isinstance(item, Skipped):
            summary.skipped[item.reason] += 1
            continue
        summary.html_responses += 1
        yield item


def _record(
    outcome: str | Failure,
    out: TextIO,
    summary: BatchSummary,
    on_failure: Callable[[Failure], None] | None,
) -> None:
    """Write an extracted page's line (flushed), or count a failure."""
    if isinstance(outcome, Failure):
        summary.failed[outcome.reason] += 1
        if on_failure is not None:
            on_failure(outcome)
        return
    out.write(outcome)
    out.write("\n")
    out.flush()
    summary.extracted += 1


def load_extractor(name: str, options: dict[str, Any]) -> None:
    """Build the extractor this process's :func:`extract_page` uses (a worker's initializer)."""
    global _EXTRACTOR
    _EXTRACTOR = get_extractor(name, **{"metadata": True, **options})


def extract_page(page: WarcPage) -> str | Failure:
    """The page's output line (JSON, no newline), or why it failed; raises only when
    :func:`load_extractor` has not run in this process."""
    result = extract_result(page)
    if isinstance(result, Failure):
        return result
    line: dict[str, Any] = {
        "url": page.url,
        "title": result.title,
        "text": result.text,
        "metadata": None if result.metadata is None else result.metadata.to_dict(),
        "extractor": result.extractor,
        "warc_record_id": page.record_id,
        "warc_date": page.date,
    }
    if result.html is not None:
        line["html"] = result.html
    if result.markdown is not None:
        line["markdown"] = result.markdown
    return json.dumps(line, ensure_ascii=False)


def extract_result(page: WarcPage) -> ExtractionResult | Failure:
    """What this process's extractor (:func:`load_extractor`) finds on the page, or why it
    failed: ``invalid_input``, ``extraction_error`` or ``unexpected_error``."""
    if _EXTRACTOR is None:
        raise RuntimeError("load_extractor() first")
    try:
        return _EXTRACTOR.extract(page.body, page.url, content_type=page.content_type)
    except InvalidInputError as exc:
        return Failure(page.url, "invalid_input", str(exc)[:_MAX_MESSAGE])
    except ExtractionError as exc:
        return Failure(page.url, "extraction_error", str(exc)[:_MAX_MESSAGE])
    except Exception as exc:  # one bad page must not end a run of millions
        return Failure(page.url, "unexpected_error", repr(exc)[:_MAX_MESSAGE])
