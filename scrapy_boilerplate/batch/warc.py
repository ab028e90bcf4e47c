"""The HTML responses of a WARC file, read one record at a time (warcio, the ``[warc]`` extra).

A file is a WARC file, uncompressed or gzip-compressed (one member per record, as crawlers write
them, or one member for all). It is streamed: at most one record's payload, capped at
``max_body_size + 1`` bytes, is held at a time. Each record becomes a :class:`WarcPage` (an HTML
response to extract) or a :class:`Skipped` naming the first rule that turned it away:

1. ``<type>_record``: not a ``response`` record (``warcinfo_record``, ``request_record``,
   ``revisit_record``, ``metadata_record``, ``resource_record`` ...);
2. ``no_http``: a response without HTTP headers (``dns:`` and other non-HTTP URIs);
3. ``truncated``: the record has a ``WARC-Truncated`` header (the crawler cut the payload);
4. ``http_<status>``: an HTTP status other than 200 (``http_404``, ``http_301``);
5. ``non_html``: not HTML by :mod:`scrapy_boilerplate.page.responses` (an HTML media type; no
   ``Content-Type`` and a body that looks like HTML; with ``sniff_text``, ``text/*`` that looks
   like HTML);
6. ``unsupported_encoding``: a ``Content-Encoding`` warcio cannot decode (it decodes gzip and
   deflate, and br with the brotli package);
7. ``too_large``: over ``max_body_size`` bytes once chunked transfer encoding and the content
   encoding are decoded (the same limit as ``BOILERPLATE_MAX_BODY_SIZE`` in a crawl);
8. ``truncated``: the file ends before the record's ``Content-Length``.

The page's URL is ``WARC-Target-URI``; its ``content_type`` is the HTTP ``Content-Type``
(whose charset decodes it). A file that is empty, is not a WARC file, holds corrupt gzip data
or a record warcio cannot parse (any exception while reading it) raises :class:`WarcFormatError`
once the records before the fault are yielded; so does a gzip file cut inside a member (its last
record, if begun, is yielded as ``truncated`` first). An uncompressed file cut inside a record's
payload reads as that record being ``truncated``. Payload digests are not checked.
"""

from __future__ import annotations

import gzip
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from warcio.archiveiterator import ArchiveIterator
from warcio.bufferedreaders import BufferedReader
from warcio.exceptions import ArchiveLoadFailed
from warcio.limitreader import LimitReader
from warcio.statusandheaders import StatusAndHeadersParserException

from ..errors import BoilerplateError
from ..page.responses import DEFAULT_MAX_BODY_SIZE, html_by_content_type, looks_like_html

__all__ = ["WarcFormatError", "WarcPage", "Skipped", "read_warc"]

_GZIP_MAGIC = b"\x1f\x8b"
_IDENTITY = frozenset({"", "identity"})
_DRAIN_BLOCK = 64 * 1024
_MAX_MESSAGE = 200


class WarcFormatError(BoilerplateError):
    """A file that cannot be read (further) as a WARC file."""


@dataclass(frozen=True)
class WarcPage:
    """An HTML response of a WARC file: ``body`` after transfer and content decoding."""

    url: str
    record_id: str | None
    date: str | None
    content_type: str | None
    body: bytes


@dataclass(frozen=True)
class Skipped:
    """A record that is not extracted, and why (one of the module's reasons)."""

    reason: str


class _GzipMembers:
    """The decompressed bytes of a gzip file of one or more members, for warcio to read as an
    uncompressed WARC: corrupt data raises :class:`WarcFormatError`; a file cut inside a member
    reads as ending there, and sets :attr:`cut`."""

    def __init__(self, raw: IO[bytes]) -> None:
        self._raw = raw
        self._gzip = gzip.GzipFile(fileobj=raw, mode="rb")
        self.cut = False

    def read(self, size: int = -1) -> bytes:
        if self.cut:
            return b""
        try:  # one read of the file at most: the data before a fault comes out first
            return self._gzip.read1(size)
        except EOFError:
            self.cut = True
            return b""
        except (OSError, zlib.error) as exc:  # gzip.BadGzipFile is an OSError
            raise WarcFormatError(
                f"corrupt gzip data before byte {self._raw.tell()}: {exc}"
            ) from exc


def read_warc(
    path: Path,
    *,
    max_body_size: int = DEFAULT_MAX_BODY_SIZE,
    sniff_text: bool = False,
    progress: Callable[[int], None] | None = None,
) -> Iterator[WarcPage | Skipped]:
    """Each record of the WARC file ``path``, in file order, as a page or a skip (module rules).

    ``progress`` is called after each record with the number of file bytes (compressed) read
    since its last call. Raises :class:`WarcFormatError` as the module docstring says, and
    :class:`OSError` for a file that cannot be opened.
    """
    with path.open("rb") as raw:
        head = raw.peek(len(_GZIP_MAGIC))[: len(_GZIP_MAGIC)]
        if not head:
            raise WarcFormatError("empty file, not a WARC file")
        gzipped = head == _GZIP_MAGIC
        stream: Any = _GzipMembers(raw) if gzipped else raw
        position = 0
        count = 0
        for item in _records(stream, max_body_size, sniff_text):
            count += 1
            yield item
            if progress is not None:
                progress(raw.tell() - position)
                position = raw.tell()
        if progress is not None and raw.tell() > position:  # what followed the last record
            progress(raw.tell() - position)
        if gzipped and stream.cut:
            raise WarcFormatError("the file ends inside a gzip member (cut short?)")
        if count == 0:
            raise WarcFormatError("no WARC record in the file")


def _records(stream: Any, max_body_size: int, sniff_text: bool) -> Iterator[WarcPage | Skipped]:
    """The records of an uncompressed WARC stream, as pages or skips; any exception while reading
    them (warcio's errors, and its crashes on damaged records such as one without
    ``WARC-Target-URI`` or with a ``Content-Length`` too large for an index) becomes
    :class:`WarcFormatError`."""
    records = ArchiveIterator(stream, no_record_parse=False, verify_http=False)
    try:
        for record in records:
            if record.format != "warc":
                raise WarcFormatError(f"not a WARC file (an {record.format.upper()} file?)")
            yield _page_or_skip(record, max_body_size, sniff_text)
    except WarcFormatError:
        raise
    except (ArchiveLoadFailed, StatusAndHeadersParserException) as exc:
        raise WarcFormatError(f"not a WARC file, or a damaged one: {_message(exc)}") from exc
    except Exception as exc:  # warcio's own bugs on damaged records: AttributeError ...
        raise WarcFormatError(
            f"a damaged record: {type(exc).__name__}: {_message(exc)}"
        ) from exc


def _message(exc: BaseException) -> str:
    """The exception's message on one line, at most :data:`_MAX_MESSAGE` characters."""
    return " ".join(str(exc).split())[:_MAX_MESSAGE]


def _page_or_skip(record: Any, max_body_size: int, sniff_text: bool) -> WarcPage | Skipped:
    """The page of a warcio record, or why it is skipped (the module's rules, in order)."""
    if record.rec_type != "response":
        return Skipped(f"{record.rec_type or 'untyped'}_record")
    http = record.http_headers
    if http is None:
        return Skipped("no_http")
    if record.rec_headers.get_header("WARC-Truncated"):
        return Skipped("truncated")
    status = http.get_statuscode()
    if status != "200":
        return Skipped(f"http_{status or 'unknown'}")
    content_type = http.get_header("Content-Type")
    is_html = html_by_content_type(content_type, sniff_text=sniff_text)
    if is_html is False:
        return Skipped("non_html")
    encoding = (http.get_header("Content-Encoding") or "").strip().lower()
    if encoding not in _IDENTITY and encoding not in BufferedReader.get_supported_decompressors():
        return Skipped("unsupported_encoding")
    body = record.content_stream().read(max_body_size + 1)
    if len(body) > max_body_size:
        return Skipped("too_large")
    if _ends_early(record):
        return Skipped("truncated")
    if is_html is None and not looks_like_html(body):
        return Skipped("non_html")
    return WarcPage(
        url=record.rec_headers.get_header("WARC-Target-URI") or "",
        record_id=record.rec_headers.get_header("WARC-Record-ID"),
        date=record.rec_headers.get_header("WARC-Date"),
        content_type=content_type,
        body=body,
    )


def _ends_early(record: Any) -> bool:
    """Whether the file ended before the record's ``Content-Length`` (its raw stream is read to
    the end: what the content decoders left, such as the last chunk's CRLF)."""
    raw = record.raw_stream
    while raw.read(_DRAIN_BLOCK):
        pass
    return isinstance(raw, LimitReader) and raw.limit > 0
