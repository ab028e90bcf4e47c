"""One WARC file as table rows, without Spark: the rows :mod:`.spark` writes, one task a file.

A file gives a row per extracted page (:data:`PAGE_COLUMNS`, Spark SQL types, then
:data:`SIGNATURE_COLUMNS` when asked: the text's MinHash signature, computed in the task beside
the extraction) and, once read, one row counting it (:data:`FILE_COLUMNS`: records, HTML
responses, extracted pages, skips and failures by reason, and the error that ended it early, if
any).

A page row holds the page's URL, the canonical URL and language, dates and authors from its
metadata, its host, title, text, Markdown (when the extractor renders it), page type (when the
result carries one: null otherwise), word count, the extractor's name and the package version,
``content_hash`` (SHA-1 of the text with white space runs as single spaces) and where the record
is: ``warc_file`` as listed in the input, ``warc_offset`` (:class:`.warc.WarcPage`),
``warc_record_id``, ``warc_date`` and ``crawl_date`` (the date part of ``warc_date``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Generator
from importlib.metadata import PackageNotFoundError, version
from typing import IO, Any
from urllib.parse import urlsplit

from ..model.result import ExtractionResult
from .minhash import band_keys, signature
from .run import Failure, WarcRun, counted_pages, extract_result
from .summary import BatchSummary
from .warc import WarcFormatError, WarcPage, read_warc_stream

__all__ = [
    "FILE_COLUMNS",
    "PAGE_COLUMNS",
    "SIGNATURE_COLUMNS",
    "content_hash",
    "file_rows",
]

#: The columns of a page row, with their Spark SQL types.
PAGE_COLUMNS: tuple[tuple[str, str], ...] = (
    ("url", "string"),
    ("canonical_url", "string"),
    ("host", "string"),
    ("title", "string"),
    ("text", "string"),
    ("markdown", "string"),
    ("page_type", "string"),
    ("language", "string"),
    ("published", "string"),
    ("modified", "string"),
    ("authors", "array<string>"),
    ("words", "int"),
    ("extractor", "string"),
    ("extractor_version", "string"),
    ("content_hash", "string"),
    ("warc_file", "string"),
    ("warc_offset", "bigint"),
    ("warc_record_id", "string"),
    ("warc_date", "string"),
    ("crawl_date", "string"),
)

#: The columns of a file row.
FILE_COLUMNS: tuple[tuple[str, str], ...] = (
    ("warc_file", "string"),
    ("records", "bigint"),
    ("html_responses", "bigint"),
    ("extracted", "bigint"),
    ("skipped", "map<string,bigint>"),
    ("failed", "map<string,bigint>"),
    ("file_error", "string"),
)

#: The columns that follow a page row's when asked, for the near-duplicate search: the text's
#: MinHash signature and its band keys (:mod:`.minhash`; null for a text too short).
SIGNATURE_COLUMNS: tuple[tuple[str, str], ...] = (
    ("signature", "array<bigint>"),
    ("band_keys", "array<bigint>"),
)

_PAGE_NAMES = tuple(name for name, _ in PAGE_COLUMNS)


def _package_version() -> str:
    """The installed package's version (the package root is a stage above this one)."""
    try:
        return version("scrapy-boilerplate")
    except PackageNotFoundError:
        return "unknown"


_VERSION = _package_version()


def file_rows(
    name: str, open_file: Callable[[], IO[bytes]], run: WarcRun, *, sign: bool = False
) -> Generator[tuple[Any, ...], None, tuple[Any, ...]]:
    """The page rows of the WARC file ``name`` (read from what ``open_file`` returns), in file
    order, with the signature columns when ``sign``; returns its file row. The extractor is this
    process's (:func:`.run.load_extractor`); a file that cannot be opened or read to its end
    (after the rows before the fault) is named in ``file_error``."""
    counts = BatchSummary(files=1)
    try:
        with open_file() as raw:
            items = read_warc_stream(
                raw, max_body_size=run.max_body_size, sniff_text=run.sniff_text
            )
            for page in counted_pages(items, counts):
                result = extract_result(page)
                if isinstance(result, Failure):
                    counts.failed[result.reason] += 1
                    continue
                counts.extracted += 1
                row = _page_row(name, page, result)
                yield (*row, *_signature_values(result.text)) if sign else row
    except (WarcFormatError, OSError) as exc:
        counts.file_errors.append(str(exc))
    return (name, *_count_values(counts))


def content_hash(text: str) -> str:
    """SHA-1 (hex) of ``text`` with each run of white space as one space, ends stripped."""
    return hashlib.sha1(" ".join(text.split()).encode("utf-8")).hexdigest()


def _signature_values(text: str) -> tuple[list[int] | None, list[int] | None]:
    values = signature(text)
    return values, None if values is None else band_keys(values)


def _page_row(name: str, page: WarcPage, result: ExtractionResult) -> tuple[Any, ...]:
    metadata = result.metadata
    values = {
        "url": page.url,
        "canonical_url": metadata.canonical_url if metadata else None,
        "host": urlsplit(page.url).hostname,
        "title": result.title,
        "text": result.text,
        "markdown": result.markdown,
        "page_type": getattr(result, "page_type", None),
        "language": metadata.language if metadata else None,
        "published": metadata.published if metadata else None,
        "modified": metadata.modified if metadata else None,
        "authors": list(metadata.authors) if metadata else None,
        "words": len(result.text.split()),
        "extractor": result.extractor,
        "extractor_version": _VERSION,
        "content_hash": content_hash(result.text),
        "warc_file": name,
        "warc_offset": page.offset,
        "warc_record_id": page.record_id,
        "warc_date": page.date,
        "crawl_date": page.date[:10] if page.date else None,
    }
    return tuple(values[name] for name in _PAGE_NAMES)


def _count_values(counts: BatchSummary) -> tuple[Any, ...]:
    """The file row's columns after ``warc_file``."""
    return (
        counts.records,
        counts.html_responses,
        counts.extracted,
        dict(counts.skipped),
        dict(counts.failed),
        counts.file_errors[0] if counts.file_errors else None,
    )
