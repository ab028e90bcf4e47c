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

import bisect
import io
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Any

from warcio.archiveiterator import ArchiveIterator
from warcio.bufferedreaders import BufferedReader
from warcio.exceptions import ArchiveLoadFailed
from warcio.limitreader import LimitReader
from warcio.statusandheaders import StatusAndHeadersParserException

from ..errors import BoilerplateError
from ..page.responses import DEFAULT_MAX_BODY_SIZE, html_by_content_type, looks_like_html

__all__ = ["WarcFormatError", "WarcPage", "Skipped", "read_warc", "read_warc_stream"]

_GZIP_MAGIC = b"\x1f\x8b"
_IDENTITY = frozenset({"", "identity"})
_DRAIN_BLOCK = 64 * 1024
_READ_BLOCK = 64 * 1024
_MAX_MESSAGE = 200


class WarcFormatError(BoilerplateError):
    """A file that cannot be read (further) as a WARC file."""


@dataclass(frozen=True)
class WarcPage:
    """An HTML response of a WARC file: ``body`` after transfer and content decoding; ``offset``
    is where the record starts in the file (uncompressed) or where the gzip member holding its
    start does (gzip: the record's own member, as crawlers write them and the Common Crawl
    index points to; 0 for every record of a file compressed as one member)."""

    url: str
    record_id: str | None
    date: str | None
    content_type: str | None
    body: bytes
    offset: int = 0


@dataclass(frozen=True)
class Skipped:
    """A record that is not extracted, and why (one of the module's reasons)."""

    reason: str


class _GzipMembers:
    """The decompressed bytes of a gzip file of one or more members, for warcio to read as an
    uncompressed WARC: corrupt data raises :class:`WarcFormatError`; a file cut inside a member
    reads as ending there, and sets :attr:`cut`. :meth:`file_offset` maps a decompressed offset
    to the file offset of the member holding it."""

    def __init__(self, raw: IO[bytes]) -> None:
        self._raw = raw
        self._decompressor: Any = None  # of the member being read, None between members
        self._input = b""  # compressed bytes read from the file and not yet decompressed
        self._input_at = 0  # the file offset of ``_input``
        self._produced = 0  # decompressed bytes returned so far
        self._starts: list[int] = []  # the decompressed offset of each member
        self._offsets: list[int] = []  # the file offset of each member
        self.cut = False

    def read(self, size: int = -1) -> bytes:
        while not self.cut:
            if self._decompressor is None and not self._begin_member():
                return b""
            try:
                data: bytes = self._decompressor.decompress(self._input, max(size, 0))
            except zlib.error as exc:
                raise self._corrupt(str(exc)) from exc
            self._advance()
            if data:
                self._produced += len(data)
                return data
            if self._decompressor is not None and not self._input and not self._fill():
                self.cut = True
        return b""

    def file_offset(self, offset: int) -> int:
        """The file offset of the member holding decompressed byte ``offset``."""
        return self._offsets[max(bisect.bisect_right(self._starts, offset) - 1, 0)]

    def _begin_member(self) -> bool:
        """Start the next member (zero bytes between members are padding); False at the end of
        the file."""
        while True:
            data = self._input.lstrip(b"\0")
            self._input_at += len(self._input) - len(data)
            self._input = data
            if len(data) >= len(_GZIP_MAGIC) or not self._fill():
                break
        if not self._input:
            return False
        if not self._input.startswith(_GZIP_MAGIC):
            raise self._corrupt("not a gzip member")
        self._starts.append(self._produced)
        self._offsets.append(self._input_at)
        self._decompressor = zlib.decompressobj(16 + zlib.MAX_WBITS)
        return True

    def _advance(self) -> None:
        """Keep the input the decompressor left; a member's end starts the wait for the next."""
        decompressor = self._decompressor
        left = decompressor.unused_data if decompressor.eof else decompressor.unconsumed_tail
        self._input_at += len(self._input) - len(left)
        self._input = left
        if decompressor.eof:
            self._decompressor = None

    def _fill(self) -> bool:
        """Read more of the file into the input; False at its end."""
        data: bytes = self._raw.read(_READ_BLOCK)
        self._input += data
        return bool(data)

    def _corrupt(self, message: str) -> WarcFormatError:
        return WarcFormatError(f"corrupt gzip data before byte {self._raw.tell()}: {message}")


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
        yield from read_warc_stream(
            raw, max_body_size=max_body_size, sniff_text=sniff_text, progress=progress
        )


def read_warc_stream(
    raw: IO[bytes],
    *,
    max_body_size: int = DEFAULT_MAX_BODY_SIZE,
    sniff_text: bool = False,
    progress: Callable[[int], None] | None = None,
) -> Iterator[WarcPage | Skipped]:
    """:func:`read_warc` of a binary stream opened at the start of a WARC file (buffered, so
    that it can be peeked: ``io.BufferedReader`` over another stream)."""
    buffered: Any = raw if hasattr(raw, "peek") else io.BufferedReader(raw)
    head = buffered.peek(len(_GZIP_MAGIC))[: len(_GZIP_MAGIC)]
    if not head:
        raise WarcFormatError("empty file, not a WARC file")
    gzipped = head == _GZIP_MAGIC
    stream: Any = _GzipMembers(buffered) if gzipped else buffered
    locate: Callable[[int], int] = stream.file_offset if gzipped else int
    position = 0
    count = 0
    for item in _records(stream, locate, max_body_size, sniff_text):
        count += 1
        yield item
        if progress is not None:
            progress(buffered.tell() - position)
            position = buffered.tell()
    if progress is not None and buffered.tell() > position:  # what followed the last record
        progress(buffered.tell() - position)
    if gzipped and stream.cut:
        raise WarcFormatError("the file ends inside a gzip member (cut short?)")
    if count == 0:
        raise WarcFormatError("no WARC record in the file")


def _records(
    stream: Any, locate: Callable[[int], int], max_body_size: int, sniff_text: bool
) -> Iterator[WarcPage | Skipped]:
    """The records of an uncompressed WARC stream, as pages or skips, a page with the file
    offset ``locate`` gives for its offset in the stream; any exception while reading them
    (warcio's errors, and its crashes on damaged records such as one without
    ``WARC-Target-URI`` or with a ``Content-Length`` too large for an index) becomes
    :class:`WarcFormatError`."""
    records = ArchiveIterator(stream, no_record_parse=False, verify_http=False)
    try:
        for record in records:
            if record.format != "warc":
                raise WarcFormatError(f"not a WARC file (an {record.format.upper()} file?)")
            item = _page_or_skip(record, max_body_size, sniff_text)
            if isinstance(item, WarcPage):
                item = replace(item, offset=locate(records.offset))  # the record's start
            yield item
    except WarcFormatError:
        raise
    except (ArchiveLoadFailed, StatusAndHeadersParserException) as exc:
        raise WarcFormatError(f"not a WARC file, or a damaged one: {_message(exc)}") from exc
    except Exception as exc:  # warcio's own bugs on damaged records: AttributeError ...
        raise WarcFormatError(f"a damaged record: {type(exc).__name__}: {_message(exc)}") from exc


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
