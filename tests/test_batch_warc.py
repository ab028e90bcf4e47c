"""``extract-warc``: WARC records to JSON lines (``scrapy_boilerplate.batch``), through the
library and the command line, on WARC files the tests write with warcio."""

from __future__ import annotations

import gzip
import io
import json
import os
from pathlib import Path
from typing import Any

import pytest
from warc_support import WarcBuilder, article_page, chunked, gzip_body
from warcio.archiveiterator import ArchiveIterator

from scrapy_boilerplate.batch.run import WarcRun, extract_warcs
from scrapy_boilerplate.batch.summary import BatchSummary
from scrapy_boilerplate.batch.warc import Skipped, WarcPage, read_warc, read_warc_stream
from scrapy_boilerplate.cli import main

CHARSETS = Path(__file__).parent / "fixtures" / "charsets"
WORDS = "The council met on Tuesday to discuss the budget for the coming year, and members agreed"
PAGE = article_page("Budget approved", WORDS)


def url(n: int) -> str:
    return f"https://example.com/page/{n}"


def run(paths: list[Path], **settings: Any) -> tuple[list[dict[str, Any]], BatchSummary]:
    out = io.StringIO()
    summary = extract_warcs(paths, out, WarcRun(**settings))
    return [json.loads(line) for line in out.getvalue().splitlines()], summary


def assert_adds_up(summary: BatchSummary) -> None:
    assert summary.records == summary.html_responses + sum(summary.skipped.values())
    assert summary.html_responses == summary.extracted + sum(summary.failed.values())


# -- charsets -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "charset"),
    [("ru-cp1251", "windows-1251"), ("ja-shift_jis", "shift_jis"), ("lt-cp1257", "windows-1257")],
)
def test_the_charset_comes_from_the_http_header(tmp_path: Path, name: str, charset: str) -> None:
    body = (CHARSETS / f"{name}-undeclared.html").read_bytes()
    warc = WarcBuilder().response(
        url(1), body, headers=[("Content-Type", f"text/html; charset={charset}")]
    )
    lines, summary = run([warc.save(tmp_path / "a.warc.gz")])
    text = body.decode(charset)
    title = text.split("<title>")[1].split("</title>")[0]
    paragraph = text.split("<p>")[1].split("</p>")[0]
    assert summary.extracted == 1
    assert lines[0]["title"] == title
    assert " ".join(paragraph.split()) in " ".join(lines[0]["text"].split())


def test_the_header_charset_beats_a_contradicting_meta(tmp_path: Path) -> None:
    html = article_page("Бюджет утверждён", "Депутаты городского совета " * 12)
    body = html.replace("<head>", '<head><meta charset="iso-8859-1">').encode("cp1251")
    warc = WarcBuilder().response(
        url(1), body, headers=[("Content-Type", "text/html; charset=windows-1251")]
    )
    lines, _ = run([warc.save(tmp_path / "a.warc.gz")])
    assert lines[0]["title"] == "Бюджет утверждён"
    assert "Депутаты городского совета" in lines[0]["text"]


# -- encodings and sizes ------------------------------------------------------------------------


def test_gzip_and_chunked_bodies_read_as_the_plain_one(tmp_path: Path) -> None:
    plain = PAGE.encode()
    warc = (
        WarcBuilder()
        .response(url(1), plain)
        .response(url(2), gzip_body(PAGE), headers=[("Content-Type", "text/html"), *GZIP])
        .response(url(3), chunked(plain), headers=[("Content-Type", "text/html"), *CHUNKED])
        .response(
            url(4),
            chunked(gzip_body(PAGE)),
            headers=[("Content-Type", "text/html"), *GZIP, *CHUNKED],
        )
    )
    lines, summary = run([warc.save(tmp_path / "a.warc.gz")])
    assert summary.extracted == 4 and not summary.failed
    assert [line["url"] for line in lines] == [url(n) for n in range(1, 5)]
    assert WORDS in lines[0]["text"]
    assert {(line["title"], line["text"]) for line in lines} == {
        (lines[0]["title"], lines[0]["text"])
    }


GZIP = [("Content-Encoding", "gzip")]
CHUNKED = [("Transfer-Encoding", "chunked")]


def test_the_size_limit_applies_to_the_decoded_body(tmp_path: Path) -> None:
    big = article_page("Big", WORDS * 40)
    warc = (
        WarcBuilder()
        .response(url(1), PAGE.encode())
        .response(url(2), gzip_body(big), headers=[("Content-Type", "text/html"), *GZIP])
        .response(url(3), big.encode())
    )
    limit = len(PAGE.encode()) + 10
    assert len(gzip_body(big)) < limit < len(big)
    lines, summary = run([warc.save(tmp_path / "a.warc.gz")], max_body_size=limit)
    assert [line["url"] for line in lines] == [url(1)]
    assert summary.skipped == {"too_large": 2}


# -- what is skipped, and why -------------------------------------------------------------------


def mixed_archive() -> WarcBuilder:
    """One record of each kind, pages 1, 2 and 9 extracted; page 6 fails."""
    pdf = b"%PDF-1.4\n" + bytes(range(256)) * 4
    return (
        WarcBuilder()
        .warcinfo()
        .request(url(1))
        .response(url(1), PAGE.encode())
        .metadata(url(1))
        .response(url(2), gzip_body(PAGE), headers=[("Content-Type", "text/html"), *GZIP])
        .response(url(3), PAGE.encode(), status="404 Not Found")
        .response(url(4), b"", status="301 Moved Permanently", headers=[("Location", url(1))])
        .response(url(5), pdf, headers=[("Content-Type", "application/pdf")])
        .response(url(6), pdf, headers=[("Content-Type", "text/html")])
        .revisit(url(1))
        .response(url(7), PAGE.encode(), warc_headers={"WARC-Truncated": "length"})
        .response(url(8), PAGE.encode(), headers=[("Content-Type", "text/plain")])
        .response(url(9), PAGE.encode(), headers=[])
        .response(url(10), b"x" * 50, headers=[("Content-Encoding", "zstd")])
        .response(url(11), b"not html at all", headers=[])
    )


EXPECTED_SKIPS = {
    "warcinfo_record": 1,
    "request_record": 1,
    "metadata_record": 1,
    "revisit_record": 1,
    "http_404": 1,
    "http_301": 1,
    "non_html": 3,
    "truncated": 1,
    "unsupported_encoding": 1,
}


def test_records_are_extracted_or_counted_by_reason(tmp_path: Path) -> None:
    lines, summary = run([mixed_archive().save(tmp_path / "a.warc.gz")])
    assert [line["url"] for line in lines] == [url(1), url(2), url(9)]
    assert summary.skipped == EXPECTED_SKIPS
    assert summary.failed == {"invalid_input": 1}
    assert (summary.records, summary.html_responses, summary.extracted) == (15, 4, 3)
    assert_adds_up(summary)


def test_sniff_text_takes_text_plain_that_looks_like_html(tmp_path: Path) -> None:
    lines, summary = run([mixed_archive().save(tmp_path / "a.warc.gz")], sniff_text=True)
    assert [line["url"] for line in lines] == [url(1), url(2), url(8), url(9)]
    assert summary.skipped["non_html"] == 2


def test_a_line_carries_the_record_id_date_and_metadata(tmp_path: Path) -> None:
    head = '<meta name="author" content="Anna Weber">'
    warc = WarcBuilder().response(url(1), article_page("Otters", WORDS, head=head).encode())
    path = warc.save(tmp_path / "a.warc.gz")
    (page,) = [item for item in read_warc(path) if isinstance(item, WarcPage)]
    lines, _ = run([path], extractor="article-rules")
    line = lines[0]
    assert set(line) == {
        "url", "title", "text", "metadata", "extractor", "warc_record_id", "warc_date",
    }  # fmt: skip
    assert line["warc_record_id"] == page.record_id and page.record_id.startswith("<urn:uuid:")
    assert line["warc_date"] == page.date and page.date.startswith("20")
    assert line["extractor"] == "article-rules"
    assert line["metadata"]["authors"] == ["Anna Weber"]


# -- damaged and wrong files --------------------------------------------------------------------


def test_an_uncompressed_file_cut_inside_a_record_counts_it_truncated(tmp_path: Path) -> None:
    warc = WarcBuilder(gzip=False).response(url(1), PAGE.encode()).response(url(2), PAGE.encode())
    data = warc.data()
    path = tmp_path / "cut.warc"
    path.write_bytes(data[: len(data) - 200])
    lines, summary = run([path])
    assert [line["url"] for line in lines] == [url(1)]
    assert summary.skipped == {"truncated": 1} and not summary.file_errors


def test_a_gzip_file_cut_inside_a_member_is_an_error(tmp_path: Path) -> None:
    data = WarcBuilder().response(url(1), PAGE.encode()).response(url(2), PAGE.encode()).data()
    path = tmp_path / "cut.warc.gz"
    path.write_bytes(data[: len(data) - 100])
    lines, summary = run([path])
    assert [line["url"] for line in lines] == [url(1)]
    assert summary.skipped == {"truncated": 1}
    assert len(summary.file_errors) == 1 and "inside a gzip member" in summary.file_errors[0]


def corrupt_archive(tmp_path: Path) -> Path:
    """Three records; the second gzip member has a damaged byte in its compressed data."""
    first = WarcBuilder().response(url(1), PAGE.encode()).data()
    data = bytearray(
        WarcBuilder()
        .response(url(1), PAGE.encode())
        .response(url(2), PAGE.encode())
        .response(url(3), PAGE.encode())
        .data()
    )
    data[len(first) + 60] ^= 0xFF
    path = tmp_path / "corrupt.warc.gz"
    path.write_bytes(bytes(data))
    return path


def test_corrupt_gzip_data_stops_the_file_with_an_error(tmp_path: Path) -> None:
    good = WarcBuilder().response(url(4), PAGE.encode()).save(tmp_path / "good.warc.gz")
    lines, summary = run([corrupt_archive(tmp_path), good])
    assert [line["url"] for line in lines] == [url(1), url(4)]  # the next file is still read
    assert len(summary.file_errors) == 1 and "corrupt gzip data" in summary.file_errors[0]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty file"),
        (b"<html><body>Not an archive</body></html>\n", "not a WARC file"),
        (gzip.compress(b"just some text\n" * 10), "not a WARC file"),
    ],
)
def test_files_that_are_not_warc_exit_1_with_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, message: str
) -> None:
    bad = tmp_path / "bad.warc.gz"
    bad.write_bytes(content)
    out = tmp_path / "out.jsonl"
    assert main(["extract-warc", str(bad), "--out", str(out), "--jobs", "1", "--quiet"]) == 1
    err = capsys.readouterr().err
    assert f"{bad}: {message}" in err
    assert "Traceback" not in err
    assert "records: 0 in 1 file (1 not read to the end)" in err
    assert out.read_text() == ""


def test_a_missing_file_exits_1_after_the_others(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = WarcBuilder().response(url(1), PAGE.encode()).save(tmp_path / "good.warc.gz")
    out = tmp_path / "out.jsonl"
    missing = tmp_path / "missing.warc.gz"
    args = ["extract-warc", str(missing), str(good), "--out", str(out), "--jobs", "1", "--quiet"]
    assert main(args) == 1
    assert "No such file" in capsys.readouterr().err
    assert [json.loads(line)["url"] for line in out.read_text().splitlines()] == [url(1)]


# -- streaming, order, workers, the command -----------------------------------------------------


def test_records_are_read_lazily_and_progress_counts_every_file_byte(tmp_path: Path) -> None:
    warc = WarcBuilder()
    for n in range(200):
        noise = os.urandom(5000).hex()  # 10 KB that gzip cannot shrink much
        warc.response(url(n), article_page(f"Story {n}", noise).encode())
    path = warc.save(tmp_path / "a.warc.gz")
    size = path.stat().st_size
    steps: list[int] = []
    records = read_warc(path, progress=steps.append)
    assert [next(records).url, next(records).url] == [url(0), url(1)]
    assert len(steps) == 1 and 0 < steps[0] < size / 4  # the file is not read up front
    rest = list(records)
    assert len(rest) == 198 and not any(isinstance(item, Skipped) for item in rest)
    assert sum(steps) == size


def test_two_workers_write_the_same_lines_in_input_order(tmp_path: Path) -> None:
    warc = WarcBuilder()
    for n in range(40):
        paragraph = f"{WORDS} story {n}" * (1 + n % 5)
        warc.response(url(n), article_page(f"Story {n}", paragraph).encode())
        if n % 7 == 0:
            warc.response(url(100 + n), b"gone", status="404 Not Found")
    path = warc.save(tmp_path / "a.warc.gz")
    one, summary_one = run([path], jobs=1)
    two, summary_two = run([path, path], jobs=2)
    assert [line["url"] for line in one] == [url(n) for n in range(40)]
    assert two == one + one
    assert summary_two.skipped == {"http_404": 12} and summary_one.skipped == {"http_404": 6}
    assert_adds_up(summary_two)


def test_the_command_writes_json_lines_and_a_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = mixed_archive().save(tmp_path / "a.warc.gz")
    out = tmp_path / "out.jsonl"
    args = ["extract-warc", str(path), "--out", str(out), "--jobs", "2", "--quiet"]
    args += ["--extractor", "article-rules", "-o", "ancestor_depth=3", "-o", "metadata=false"]
    assert main(args) == 0
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [line["url"] for line in lines] == [url(1), url(2), url(9)]
    assert {line["extractor"] for line in lines} == {"article-rules"}
    assert {line["metadata"] is None for line in lines} == {True}
    err = capsys.readouterr().err
    assert "records: 15 in 1 file\n" in err
    assert "HTML responses: 4\n" in err
    assert "extracted: 3 (" in err
    assert "skipped: 11 (non_html: 3, http_301: 1, http_404: 1, metadata_record: 1," in err
    assert "failed: 1 (invalid_input: 1)\n" in err
    assert f"{url(6)}: invalid_input: input looks binary" in err
    assert "peak RSS: " in err


def test_the_command_writes_to_stdout_and_rejects_bad_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = WarcBuilder().response(url(1), PAGE.encode()).save(tmp_path / "a.warc.gz")
    assert main(["extract-warc", str(path), "--out", "-", "--jobs", "1", "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out)["url"] == url(1)
    bad_option = ["extract-warc", str(path), "--out", "-", "-o", "ancestor_depth=9"]
    assert main(bad_option) == 2
    assert main(["extract-warc", str(path), "--out", "-", "--jobs", "0"]) == 2
    assert "--jobs" in capsys.readouterr().err


@pytest.mark.parametrize("gzipped", [True, False], ids=["gzip", "plain"])
def test_a_page_carries_the_file_offset_warcio_finds_its_record_at(
    tmp_path: Path, gzipped: bool
) -> None:
    path = mixed_archive_of(gzipped).save(tmp_path / "a.warc")
    with path.open("rb") as raw:
        records = ArchiveIterator(raw)
        expected = {
            record.rec_headers.get_header("WARC-Record-ID"): records.get_record_offset()
            for record in records
        }
    pages = [item for item in read_warc(path) if isinstance(item, WarcPage)]
    assert len(pages) == 4 and len(set(expected.values())) == 15
    assert [page.offset for page in pages] == [expected[page.record_id] for page in pages]
    with path.open("rb") as raw:  # an unbuffered stream, such as a remote file's
        streamed = read_warc_stream(io.FileIO(raw.fileno(), closefd=False))
        assert [item for item in streamed if isinstance(item, WarcPage)] == pages


def mixed_archive_of(gzipped: bool) -> WarcBuilder:
    """:func:`mixed_archive`'s records, gzip-compressed one member a record or not at all."""
    if gzipped:
        return mixed_archive()
    warc = WarcBuilder(gzip=False)
    warc.buffer.write(gzip.decompress(mixed_archive().data()))
    return warc
