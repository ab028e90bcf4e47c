"""Small WARC files for the tests, written with warcio's ``WARCWriter``."""

from __future__ import annotations

import gzip
import io
from collections.abc import Sequence
from pathlib import Path

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

__all__ = ["WarcBuilder", "article_page", "chunked", "gzip_body"]


def article_page(title: str, paragraph: str, *, head: str = "") -> str:
    """An article page: a menu, a heading and three copies of ``paragraph``."""
    menu = "".join(f'<li><a href="/{k}">Section {k}</a></li>' for k in range(8))
    body = "".join(f"<p>{paragraph} ({k})</p>" for k in range(3))
    return (
        f"<!DOCTYPE html><html><head>{head}<title>{title}</title></head><body>"
        f"<ul>{menu}</ul><article><h1>{title}</h1>{body}</article></body></html>"
    )


def chunked(data: bytes, size: int = 100) -> bytes:
    """``data`` in HTTP chunked transfer encoding, ``size`` bytes a chunk."""
    parts = [
        b"%x\r\n" % len(data[i : i + size]) + data[i : i + size] + b"\r\n"
        for i in range(0, len(data), size)
    ]
    return b"".join(parts) + b"0\r\n\r\n"


class WarcBuilder:
    """Records appended in order to an in-memory WARC (gzip per record unless ``gzip=False``)."""

    def __init__(self, *, gzip: bool = True) -> None:
        self.buffer = io.BytesIO()
        self.writer = WARCWriter(self.buffer, gzip=gzip)

    def response(
        self,
        url: str,
        body: bytes,
        *,
        status: str = "200 OK",
        headers: Sequence[tuple[str, str]] = (("Content-Type", "text/html"),),
        warc_headers: dict[str, str] | None = None,
    ) -> WarcBuilder:
        http = StatusAndHeaders(status, list(headers), protocol="HTTP/1.1")
        record = self.writer.create_warc_record(
            url,
            "response",
            payload=io.BytesIO(body),
            http_headers=http,
            warc_headers_dict=warc_headers or {},
        )
        self.writer.write_record(record)
        return self

    def request(self, url: str) -> WarcBuilder:
        http = StatusAndHeaders("GET / HTTP/1.1", [("Host", "example.com")], is_http_request=True)
        record = self.writer.create_warc_record(
            url, "request", payload=io.BytesIO(b""), http_headers=http
        )
        self.writer.write_record(record)
        return self

    def revisit(self, url: str) -> WarcBuilder:
        http = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
        record = self.writer.create_revisit_record(
            url, "sha1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", url, "2024-01-01T00:00:00Z", http
        )
        self.writer.write_record(record)
        return self

    def metadata(self, url: str) -> WarcBuilder:
        record = self.writer.create_warc_record(
            url,
            "metadata",
            payload=io.BytesIO(b"outlink: https://example.com/x\r\n"),
            warc_content_type="application/warc-fields",
        )
        self.writer.write_record(record)
        return self

    def warcinfo(self) -> WarcBuilder:
        record = self.writer.create_warcinfo_record("test.warc.gz", {"software": "tests"})
        self.writer.write_record(record)
        return self

    def data(self) -> bytes:
        return self.buffer.getvalue()

    def save(self, path: Path) -> Path:
        path.write_bytes(self.data())
        return path


def gzip_body(html: str) -> bytes:
    return gzip.compress(html.encode("utf-8"))
