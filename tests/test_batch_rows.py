"""One WARC file as the Spark job's rows (``scrapy_boilerplate.batch.rows``), without Spark."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from warc_support import WarcBuilder, article_page

from scrapy_boilerplate.batch.rows import (
    FILE_COLUMNS,
    PAGE_COLUMNS,
    SIGNATURE_COLUMNS,
    content_hash,
    file_rows,
)
from scrapy_boilerplate.batch.run import WarcRun, load_extractor

NAMES = [name for name, _ in PAGE_COLUMNS]
HEAD = '<meta name="author" content="Anna Weber"><link rel="canonical" href="https://e.com/c">'
PAGE = article_page(
    "Otters", "Otters were seen in the river again this week, officials said", head=HEAD
)


def rows(
    data: bytes, name: str = "a.warc.gz", *, sign: bool = False
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The page rows of a WARC file as dicts, and its file row."""
    load_extractor("article", {})
    names = [*NAMES, *(name for name, _ in SIGNATURE_COLUMNS)] if sign else NAMES
    pages = file_rows(name, lambda: io.BytesIO(data), WarcRun(), sign=sign)
    found = []
    while True:
        try:
            found.append(dict(zip(names, next(pages), strict=True)))
        except StopIteration as end:
            return found, dict(zip([name for name, _ in FILE_COLUMNS], end.value, strict=True))


def test_the_page_rows_and_the_file_row_counting_the_file() -> None:
    warc = (
        WarcBuilder()
        .response(
            "https://e.com/a", PAGE.encode(), warc_headers={"WARC-Date": "2024-03-02T10:00:00Z"}
        )
        .response("https://e.com/b", b"gone", status="404 Not Found")
    )
    (page,), counts = rows(warc.data())
    assert page["url"] == "https://e.com/a" and page["host"] == "e.com"
    assert page["canonical_url"] == "https://e.com/c" and page["authors"] == ["Anna Weber"]
    assert page["title"] == "Otters" and "Otters were seen" in page["text"]
    assert page["words"] == len(page["text"].split())
    assert page["content_hash"] == content_hash(page["text"])
    assert (page["warc_file"], page["warc_offset"]) == ("a.warc.gz", 0)
    assert (page["warc_date"], page["crawl_date"]) == ("2024-03-02T10:00:00Z", "2024-03-02")
    assert counts["warc_file"] == "a.warc.gz"
    assert (counts["records"], counts["html_responses"], counts["extracted"]) == (2, 1, 1)
    assert counts["skipped"] == {"http_404": 1} and counts["file_error"] is None


def test_a_file_that_cannot_be_read_is_named_in_its_file_row(tmp_path: Path) -> None:
    data = (
        WarcBuilder()
        .response("https://e.com/a", PAGE.encode())
        .response("https://e.com/b", PAGE.encode())
        .data()
    )
    (page,), counts = rows(data[:-30])
    assert page["url"] == "https://e.com/a"
    assert counts["records"] == 2 and "ends inside a gzip member" in counts["file_error"]
    missing = tmp_path / "missing.warc.gz"
    load_extractor("article", {})
    found = file_rows(str(missing), lambda: missing.open("rb"), WarcRun())
    with pytest.raises(StopIteration) as end:
        next(found)
    assert end.value.value[0] == str(missing) and "No such file" in end.value.value[-1]


def test_signature_columns_follow_the_page_columns_when_asked() -> None:
    warc = WarcBuilder().response("https://e.com/a", PAGE.encode()).data()
    (plain,), _ = rows(warc)
    (signed,), _ = rows(warc, sign=True)
    assert {name: signed[name] for name in NAMES} == plain
    assert len(signed["signature"]) == 128 and len(signed["band_keys"]) == 16


def test_the_content_hash_ignores_white_space_runs() -> None:
    assert content_hash(" A  b\n\nc ") == content_hash("A b c") != content_hash("A b C")


def test_the_version_column_is_the_packages() -> None:
    import scrapy_boilerplate

    (page,), _ = rows(WarcBuilder().response("https://e.com/a", PAGE.encode()).data())
    assert page["extractor_version"] == scrapy_boilerplate.__version__
