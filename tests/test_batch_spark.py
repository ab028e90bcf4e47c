"""The Spark job (``scrapy_boilerplate.batch.spark``) on a local Spark (``local[2,3]``: two
threads, a task tried up to 3 times) over WARC files the tests write: the same records as
``extract-warc``, exactly once after a failed task attempt, duplicates and filtered pages out,
damaged files counted. One Spark session for the module; skips without Java or pyspark."""

from __future__ import annotations

import io
import json
import os
import random
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from warc_support import WarcBuilder, article_page
from warcio.archiveiterator import ArchiveIterator

from scrapy_boilerplate.batch.rows import PAGE_COLUMNS
from scrapy_boilerplate.batch.run import WarcRun, extract_warcs
from scrapy_boilerplate.classifiers.page_type import PAGE_TYPES

pyspark = pytest.importorskip("pyspark", reason="pyspark is not installed (the [spark] extra)")
if not (os.environ.get("JAVA_HOME") or shutil.which("java")):
    pytest.skip("no Java for Spark (JAVA_HOME unset, no java on PATH)", allow_module_level=True)

from pyspark.sql import SparkSession  # noqa: E402

from scrapy_boilerplate.batch.spark import Filters, SparkJob, main, run_job  # noqa: E402

VOCABULARY = [
    *("council", "budget", "river", "school", "market", "station", "harbour", "museum"),
    *("festival", "library", "bridge", "election", "mayor", "teacher", "doctor", "farmer"),
    *("weather", "storm", "summer", "winter", "village", "city", "road", "train", "report"),
    *("agreed", "announced", "opened", "closed", "visited", "planned", "said", "expected"),
]


def story(seed: int, words: int = 120) -> str:
    """``words`` words drawn from the vocabulary, the same for the same seed."""
    rng = random.Random(seed)
    return " ".join(rng.choice(VOCABULARY) for _ in range(words)).capitalize() + "."


def page(seed: int, *, lang: str = "en", published: str = "2024-03-01", text: str = "") -> bytes:
    head = f'<meta property="article:published_time" content="{published}T08:00:00Z">'
    html = article_page(f"Story {seed}", text or story(seed), head=head)
    return html.replace("<html>", f'<html lang="{lang}">').encode()


def url(n: int) -> str:
    return f"https://news{n % 2}.example.com/story/{n}"


def at(day: int) -> dict[str, str]:
    return {"WARC-Date": f"2024-03-{day:02d}T12:00:00Z"}


@pytest.fixture(scope="module")
def spark() -> Iterator[SparkSession]:
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    session = (
        SparkSession.builder.master("local[2,3]")
        .appName("scrapy-boilerplate tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("OFF")  # the injected failures' stack traces
    yield session
    session.stop()


@pytest.fixture(scope="module")
def warcs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Three WARC files: pages 1-4 and a 404 in ``a``; in ``b`` page 1 again (same text,
    another URL, captured a day earlier), page 2 with two words changed, pages 5-6 in German
    and out of the March window; ``c`` cut inside its second gzip member."""
    folder = tmp_path_factory.mktemp("warcs")
    near = story(2).split()
    near[10], near[70] = "quietly", "suddenly"
    a = WarcBuilder().warcinfo()
    for n in range(1, 5):
        a.response(url(n), page(n), warc_headers=at(10 + n))
    a.response(url(99), b"gone", status="404 Not Found")
    b = WarcBuilder()
    b.response(url(11), page(1), warc_headers=at(5))
    b.response(url(12), page(12, text=" ".join(near)), warc_headers=at(20))
    b.response(url(5), page(5, lang="de-DE"), warc_headers=at(21))
    b.response(url(6), page(6, published="2024-05-02"), warc_headers=at(22))
    b.response(url(7), page(7, text=story(7, words=12)), warc_headers=at(23))
    c = WarcBuilder().response(url(8), page(8)).response(url(9), page(9)).data()
    paths = {"a": a.save(folder / "a.warc.gz"), "b": b.save(folder / "b.warc.gz")}
    paths["c"] = folder / "c.warc.gz"
    paths["c"].write_bytes(c[: len(c) - 30])
    return paths


def warc_list(tmp_path: Path, paths: list[Path]) -> str:
    listing = tmp_path / "warcs.txt"
    listing.write_text("# the test files\n" + "".join(f"{path}\n" for path in paths) + "\n")
    return str(listing)


def pages(spark: SparkSession, out: Path) -> list[dict[str, Any]]:
    return [row.asDict(recursive=True) for row in spark.read.parquet(str(out / "pages")).collect()]


def job(tmp_path: Path, paths: list[Path], **settings: Any) -> SparkJob:
    settings = {"exact_duplicates": False, "near_duplicates": None, **settings}
    return SparkJob(warc_list(tmp_path, paths), str(tmp_path / "out"), **settings)


def test_the_rows_are_extract_warcs_lines_record_for_record(
    spark: SparkSession, tmp_path: Path, warcs: dict[str, Path]
) -> None:
    paths = [warcs["a"], warcs["b"], warcs["c"]]
    summary = run_job(spark, job(tmp_path, paths))
    out = io.StringIO()
    expected = extract_warcs(paths, out, WarcRun())
    lines = {line["warc_record_id"]: line for line in map(json.loads, out.getvalue().splitlines())}
    rows = {row["warc_record_id"]: row for row in pages(spark, tmp_path / "out")}
    assert len(rows) == len(lines) == expected.extracted == summary.written == 10
    for record_id, line in lines.items():
        row = rows[record_id]
        assert (row["url"], row["title"], row["text"]) == (line["url"], line["title"], line["text"])
        assert (row["extractor"], row["warc_date"]) == (line["extractor"], line["warc_date"])
        metadata = line["metadata"]  # a missing field is left out of the line
        for name in ("published", "modified", "language", "canonical_url"):
            assert row[name] == metadata.get(name), name
        assert row["authors"] == metadata.get("authors", [])
    assert (summary.records, summary.html_responses) == (expected.records, expected.html_responses)
    assert summary.skipped == expected.skipped
    assert summary.skipped == {"warcinfo_record": 1, "http_404": 1, "truncated": 1}
    assert set(next(iter(rows.values()))) == {name for name, _ in PAGE_COLUMNS}
    for row in rows.values():
        assert_found_again(row)


def assert_found_again(row: dict[str, Any]) -> None:
    """The row's WARC file and offset lead to its record; the other columns are its own."""
    with open(row["warc_file"], "rb") as raw:
        raw.seek(row["warc_offset"])
        record = next(iter(ArchiveIterator(raw)))
        assert record.rec_headers.get_header("WARC-Record-ID") == row["warc_record_id"]
    assert row["host"] == row["url"].split("/")[2]
    assert str(row["crawl_date"]) == row["warc_date"][:10]
    assert row["extractor_version"] and len(row["content_hash"]) == 40
    assert row["page_type"] in PAGE_TYPES and row["markdown"] is None


def failed_task_attempts(spark: SparkSession, group: str) -> int:
    tracker = spark.sparkContext.statusTracker()
    stages = [
        stage
        for job_id in tracker.getJobIdsForGroup(group)
        for stage in (tracker.getJobInfo(job_id).stageIds if tracker.getJobInfo(job_id) else [])
    ]
    return sum(info.numFailedTasks for info in map(tracker.getStageInfo, stages) if info)


def test_a_failed_task_attempt_loses_and_repeats_no_row(
    spark: SparkSession, tmp_path: Path, warcs: dict[str, Path]
) -> None:
    spark.sparkContext.setJobGroup("injected-failures", "first attempts fail")
    try:
        summary = run_job(spark, job(tmp_path, [warcs["a"], warcs["b"]], fail_first_attempts=True))
    finally:
        spark.sparkContext.setLocalProperty("spark.jobGroup.id", None)
    assert failed_task_attempts(spark, "injected-failures") == 2  # one a file
    record_ids = [row["warc_record_id"] for row in pages(spark, tmp_path / "out")]
    assert len(record_ids) == len(set(record_ids)) == summary.written == 9
    assert (summary.records, summary.extracted) == (11, 9)  # counted once too


def test_duplicates_go_and_the_earliest_capture_stays(
    spark: SparkSession, tmp_path: Path, warcs: dict[str, Path]
) -> None:
    summary = run_job(
        spark,
        job(tmp_path, [warcs["a"], warcs["b"]], exact_duplicates=True, near_duplicates=0.8),
    )
    urls = sorted(row["url"] for row in pages(spark, tmp_path / "out"))
    # page 1 was captured earlier as page 11; page 12 is page 2 with two words changed
    assert urls == sorted(url(n) for n in (2, 3, 4, 5, 6, 7, 11))
    assert (summary.exact_duplicates, summary.near_duplicates, summary.written) == (1, 1, 7)
    assert "duplicates: 2 (exact: 1, near: 1)" in summary.lines()


def test_filters_drop_pages_and_count_them_by_filter(
    spark: SparkSession, tmp_path: Path, warcs: dict[str, Path]
) -> None:
    filters = Filters(
        min_words=50,
        languages=("en",),
        published_after="2024-03-01",
        published_before="2024-03-31",
        page_type="article",
    )
    summary = run_job(spark, job(tmp_path, [warcs["b"]], filters=filters))
    urls = sorted(row["url"] for row in pages(spark, tmp_path / "out"))
    assert urls == sorted([url(11), url(12)])
    assert summary.filtered == {"min_words": 1, "language": 1, "published": 1}


def test_the_command_counts_damaged_and_missing_files(
    spark: SparkSession,
    tmp_path: Path,
    warcs: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
) -> None:
    missing = tmp_path / "missing.warc.gz"
    listing = warc_list(tmp_path, [warcs["c"], missing, warcs["a"]])
    out = tmp_path / "out"
    assert main([listing, str(out), "--min-words", "5", "--language", "en"]) == 1
    err = capsys.readouterr().err
    assert f"{warcs['c']}: the file ends inside a gzip member" in err
    assert f"{missing}: [Errno 2] No such file" in err
    assert "records: 8 in 3 files (2 not read to the end)" in err
    assert "written: 5\n" in err and "Traceback" not in err
    files = {row["warc_file"]: row for row in spark.read.parquet(str(out / "files")).collect()}
    assert files[str(warcs["c"])]["extracted"] == 1 and files[str(missing)]["records"] == 0
    assert spark.sparkContext._jsc is not None  # the test's session is left running
    assert not (out / "staging").exists()
    assert main([listing, str(out), "--partition-by", "day"]) == 2
