"""``extract-warc`` on damaged WARC files the test derives from a small good one: cut at every
offset, bytes flipped, headers broken. Whatever the damage: no exception (no traceback), an exit
status of 0 or 1, the summary printed, and the lines written are the good file's first lines, in
order. The thousands of mutants run through the library in this process; the command's exit
status and summary are checked on the broken headers, and a few files in a process of its own."""

from __future__ import annotations

import gzip
import io
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from warc_support import WarcBuilder, article_page

from scrapy_boilerplate.batch.run import WarcRun, extract_warcs
from scrapy_boilerplate.cli import main

PAGE = article_page("Budget", "The council met on Tuesday and agreed on the budget").encode()
URLS = [f"https://example.com/{n}" for n in range(2)]


def plain_records() -> list[bytes]:
    """The records of the small file: a warcinfo, a page, a request and a page."""
    warc = WarcBuilder(gzip=False)
    parts = []
    for write in (
        lambda: warc.warcinfo(),
        lambda: warc.response(URLS[0], PAGE),
        lambda: warc.request(URLS[1]),
        lambda: warc.response(URLS[1], PAGE),
    ):
        start = len(warc.data())
        write()
        parts.append(warc.data()[start:])
    return parts


PLAIN = plain_records()
GZIPPED = [gzip.compress(record) for record in PLAIN]  # one member a record, as crawlers write


def records(*, gzipped: bool) -> list[bytes]:
    return list(GZIPPED if gzipped else PLAIN)


def extract(path: Path) -> list[str]:
    """The lines :func:`extract_warcs` writes for ``path`` (one job), once its summary is checked:
    it adds up, and a file error is named when the file was not read to its end."""
    out = io.StringIO()
    summary = extract_warcs([path], out, WarcRun())
    assert summary.records == summary.html_responses + sum(summary.skipped.values())
    assert summary.html_responses == summary.extracted + sum(summary.failed.values())
    assert all(error.startswith(f"{path}: ") for error in summary.file_errors)
    lines = out.getvalue().splitlines()
    assert len(lines) == summary.extracted
    return lines


def run(path: Path, out: Path, capsys: pytest.CaptureFixture[str], jobs: int = 1) -> list[str]:
    """``extract-warc`` in this process: the lines written, after checking the exit status and
    standard error."""
    args = ["extract-warc", str(path), "--out", str(out), "--jobs", str(jobs), "--quiet"]
    status = main(args)
    err = capsys.readouterr().err
    assert_clean_end(status, err)
    return out.read_text(encoding="utf-8").splitlines()


def assert_clean_end(status: int, err: str) -> None:
    assert "Traceback" not in err
    assert status in (0, 1)
    assert "records: " in err and "\nfailed: " in err and "peak RSS: " in err
    assert (status == 1) == ("not read to the end" in err)


def assert_prefix(lines: list[str], good: list[str]) -> None:
    assert lines == good[: len(lines)]


@pytest.fixture
def good_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    path = tmp_path / "good.warc.gz"
    path.write_bytes(b"".join(records(gzipped=True)))
    lines = run(path, tmp_path / "good.jsonl", capsys)
    assert [json.loads(line)["url"] for line in lines] == URLS
    return lines


@pytest.mark.parametrize("gzipped", [True, False], ids=["gzip", "plain"])
def test_a_file_cut_at_any_offset_writes_a_prefix_of_the_lines(
    tmp_path: Path, good_lines: list[str], gzipped: bool
) -> None:
    data = b"".join(records(gzipped=gzipped))
    path = tmp_path / "cut.warc"
    written = set()
    for end in range(len(data)):
        path.write_bytes(data[:end])
        lines = extract(path)
        assert_prefix(lines, good_lines)
        written.add(len(lines))
    assert written >= {0, 1}  # cuts before and after the first page


@pytest.mark.parametrize("gzipped", [True, False], ids=["gzip", "plain"])
def test_a_flipped_byte_anywhere_ends_cleanly_with_the_lines_in_order(
    tmp_path: Path, good_lines: list[str], gzipped: bool
) -> None:
    data = b"".join(records(gzipped=gzipped))
    path = tmp_path / "flipped.warc"
    rng = random.Random(35)
    for _ in range(300):
        flipped = bytearray(data)
        flipped[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        path.write_bytes(bytes(flipped))
        lines = extract(path)
        assert len(lines) <= len(good_lines)
        known = [good_lines.index(line) for line in lines if line in good_lines]
        assert known == sorted(set(known))  # a damaged page may differ, never move


def damaged_headers() -> Iterator[tuple[str, bytes, bytes]]:
    """(name, old, new): a WARC or HTTP header of the second response replaced."""
    yield "no target URI", b"WARC-Target-URI: " + URLS[1].encode(), b"X-Nothing: 1"
    yield "huge length", b"Content-Length: ", b"Content-Length: 18446744073709551617\r\nX-Was: "
    yield "negative length", b"Content-Length: ", b"Content-Length: -5\r\nX-Was: "
    yield "length not a number", b"Content-Length: ", b"Content-Length: many\r\nX-Was: "
    yield "no length", b"Content-Length: ", b"X-Was: "
    yield "bad version", b"WARC/1.", b"WARC/x."
    yield "no record type", b"WARC-Type: response", b"X-Type: response"
    yield "bad status line", b"HTTP/1.1 200 OK", b"HTTP/1.1 two hundred"
    yield "long header", b"WARC-Date: ", b"X-Long: " + b"a" * 100_000 + b"\r\nWARC-Date: "
    yield "binary header", b"WARC-Date: ", b"X-Bin: \x00\xff\xfe\r\nWARC-Date: "


def with_header(record: bytes, gzipped: bool, old: bytes, new: bytes) -> bytes:
    if gzipped:
        return gzip.compress(gzip.decompress(record).replace(old, new, 1))
    return record.replace(old, new, 1)


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("gzipped", [True, False], ids=["gzip", "plain"])
@pytest.mark.parametrize(
    ("name", "old", "new"), list(damaged_headers()), ids=[d[0] for d in damaged_headers()]
)
def test_a_damaged_header_ends_cleanly_after_the_pages_before_it(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    good_lines: list[str],
    gzipped: bool,
    jobs: int,
    name: str,
    old: bytes,
    new: bytes,
) -> None:
    parts = records(gzipped=gzipped)
    assert old in (gzip.decompress(parts[3]) if gzipped else parts[3])
    parts[3] = with_header(parts[3], gzipped, old, new)
    damaged = tmp_path / "damaged.warc"
    damaged.write_bytes(b"".join(parts))
    good = tmp_path / "next.warc"
    good.write_bytes(b"".join(records(gzipped=gzipped)))
    out = tmp_path / "out.jsonl"
    args = ["extract-warc", str(damaged), str(good), "--out", str(out), "--jobs", str(jobs)]
    status = main([*args, "--quiet"])
    assert_clean_end(status, capsys.readouterr().err)
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[:1] == good_lines[:1]  # the page before the damage, whatever the workers
    assert lines[-2:] == good_lines  # the next file read


def test_the_command_ends_cleanly_on_damaged_files_in_a_process(
    tmp_path: Path, good_lines: list[str]
) -> None:
    """A handful of damaged files through the installed command, in one run each."""
    parts = records(gzipped=True)
    whole = b"".join(parts)
    no_uri = with_header(parts[3], True, b"WARC-Target-URI: " + URLS[1].encode(), b"X-No: 1")
    huge = with_header(parts[3], True, b"Content-Length: ", b"Content-Length: 99999999999999999999")
    damaged = {
        "cut.warc.gz": whole[: len(whole) - 40],
        "no-uri.warc.gz": b"".join([*parts[:3], no_uri]),
        "huge.warc.gz": b"".join([*parts[:3], huge, parts[3]]),
    }
    for name, data in damaged.items():
        (tmp_path / name).write_bytes(data)
        out = tmp_path / f"{name}.jsonl"
        command = [sys.executable, "-m", "scrapy_boilerplate.cli", "extract-warc"]
        done = subprocess.run(
            [*command, str(tmp_path / name), "--out", str(out), "--jobs", "2", "--quiet"],
            capture_output=True,
            text=True,
            check=False,
        )
        assert_clean_end(done.returncode, done.stderr)
        assert out.read_text(encoding="utf-8").splitlines() == good_lines[:1], name
