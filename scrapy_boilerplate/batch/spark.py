"""Clean articles from WARC collections on Apache Spark (the ``[spark]`` extra)::

    python -m scrapy_boilerplate.batch.spark WARC_LIST OUT [--master URL] [options]
    spark-submit path/to/scrapy_boilerplate/batch/spark.py WARC_LIST OUT [options]

``WARC_LIST`` is a text file Spark can read, one WARC file a line (blank lines and lines
starting with ``#`` left out): a local path, a ``file://`` URL or any URL fsspec opens
(``https://``; ``s3://`` with s3fs). The job, in steps:

1. **Extract**: one task a WARC file, streamed record by record by :mod:`.warc` and extracted
   in the task (:mod:`.rows`). The page rows are written through Spark's output committer: a
   task attempt writes into a directory of its own and only the attempt that commits is moved
   into place, so a task that is retried (a bad file, a lost executor) adds its rows once.
   Without filters and de-duplication they are the output, ``OUT/pages`` (step 6, in one
   pass); else they go to ``OUT/staging`` for the steps below.
2. **Count**: one row a WARC file (records, HTML responses, extracted, skips and failures by
   reason, the error that ended it early), sent back in an accumulator that Spark adds once a
   task whatever its retries (it is updated in the writing action), to ``OUT/files``; their
   sums open the summary.
3. **Filter** (options): fewer words than ``min_words``; a language other than those given
   (the primary subtag of the page's declared language; a page without one is filtered out);
   a ``published`` date (its day) outside the window (a page without one is filtered out);
   a page type other than the one given (pages whose result carries no page type are kept).
   A page is counted under the first filter it fails.
4. **Exact duplicates**: pages of the same ``content_hash`` but the earliest capture (by
   ``warc_date``, then WARC file and offset) are dropped.
5. **Near duplicates**: a page is dropped when an earlier capture's text has a Jaccard
   similarity of at least the threshold over word 5-shingles, estimated from MinHash
   signatures (computed in the extraction task) and found by locality-sensitive hashing
   (:mod:`.minhash`: the signatures' bands are joined, the candidate pairs' signatures
   compared). Pages of fewer than 5 words are not compared. Steps 4 and 5 read only the
   columns they compare and name the captures to drop; the pages themselves are read once,
   in step 6.
6. **Write** the pages to ``OUT/pages`` as Parquet, partitioned by ``crawl_date`` (and/or
   ``host``), remove the staging rows, print the summary.

Imports are absolute so that ``spark-submit`` can run this file as a script. Every executor
needs the package with the ``[warc]`` extra (and fsspec for URLs) installed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import IO, Any, cast
from urllib.parse import unquote, urlsplit

from pyspark import Accumulator, AccumulatorParam, TaskContext
from pyspark.sql import Column, DataFrame, SparkSession, Window
from pyspark.sql import functions as F

from scrapy_boilerplate.batch import run as batch_run
from scrapy_boilerplate.batch.minhash import PERMUTATIONS
from scrapy_boilerplate.batch.rows import FILE_COLUMNS, PAGE_COLUMNS, SIGNATURE_COLUMNS, file_rows
from scrapy_boilerplate.batch.run import WarcRun
from scrapy_boilerplate.batch.summary import with_reasons
from scrapy_boilerplate.errors import BoilerplateError
from scrapy_boilerplate.extractors import get_extractor

__all__ = ["Filters", "JobSummary", "SparkJob", "main", "open_warc", "run_job"]

_PAGE_NAMES = [name for name, _ in PAGE_COLUMNS]
_Row = tuple[Any, ...]
_PARTITION_COLUMNS = ("crawl_date", "host")


@dataclass(frozen=True)
class Filters:
    """Which pages to keep (module docstring, step 3); dates are ``YYYY-MM-DD``, inclusive."""

    min_words: int = 0
    languages: tuple[str, ...] = ()
    published_after: str | None = None
    published_before: str | None = None
    page_type: str | None = None


@dataclass(frozen=True)
class SparkJob:
    """A job: the WARC list, the output folder, how to extract, the filters, whether to drop
    exact duplicates, the similarity from which a page is a near duplicate (None: none
    dropped) and the partition columns of the pages.
    ``fail_first_attempts`` makes the first attempt of every task fail after its first row (to
    test retries)."""

    warc_list: str
    out: str
    run: WarcRun = field(default_factory=WarcRun)
    filters: Filters = field(default_factory=Filters)
    exact_duplicates: bool = True
    near_duplicates: float | None = 0.8
    partition_by: tuple[str, ...] = ("crawl_date",)
    fail_first_attempts: bool = False


@dataclass
class JobSummary:
    """What a job did: the sums of its files' counts, pages filtered out by filter, duplicates
    dropped, pages written, and its wall-clock seconds (Spark's start-up left out)."""

    files: int = 0
    file_errors: list[str] = field(default_factory=list)
    records: int = 0
    html_responses: int = 0
    extracted: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    failed: Counter[str] = field(default_factory=Counter)
    filtered: Counter[str] = field(default_factory=Counter)
    exact_duplicates: int = 0
    near_duplicates: int = 0
    written: int = 0
    seconds: float = 0.0

    def lines(self) -> list[str]:
        """The summary printed at the end: one ``name: value`` a line."""
        unreadable = f" ({len(self.file_errors)} not read to the end)" if self.file_errors else ""
        rate = self.records / self.seconds if self.seconds > 0 else 0.0
        return [
            f"records: {self.records} in {self.files} files{unreadable}"
            f" ({rate:.1f} records/s over {self.seconds:.1f} s)",
            f"HTML responses: {self.html_responses}",
            f"extracted: {self.extracted}",
            f"skipped: {with_reasons(self.skipped)}",
            f"failed: {with_reasons(self.failed)}",
            f"filtered out: {with_reasons(self.filtered)}",
            f"duplicates: {self.exact_duplicates + self.near_duplicates}"
            f" (exact: {self.exact_duplicates}, near: {self.near_duplicates})",
            f"written: {self.written}",
        ]


def run_job(spark: SparkSession, job: SparkJob) -> JobSummary:
    """Run ``job`` on ``spark`` (module docstring) and return what it did."""
    start = time.perf_counter()
    _set_shuffle_partitions(spark)
    if _needs_staging(job):
        summary = _staged_job(spark, job)
    else:
        files = _extract(spark, job, f"{job.out}/pages", job.partition_by)
        summary = _file_counts(spark, files, f"{job.out}/files")
        summary.written = summary.extracted  # every page row is in the output
    summary.seconds = time.perf_counter() - start
    return summary


def _needs_staging(job: SparkJob) -> bool:
    """Whether pages are filtered or de-duplicated (steps 3-5) before they are written."""
    return job.filters != Filters() or job.exact_duplicates or job.near_duplicates is not None


def _staged_job(spark: SparkSession, job: SparkJob) -> JobSummary:
    """Steps 1-6 with the page rows staged for filters and de-duplication."""
    staging = f"{job.out}/staging"
    files = _extract(spark, job, staging)
    summary = _file_counts(spark, files, f"{job.out}/files")
    pages = spark.read.parquet(staging)
    kept = _filtered(pages, job.filters, summary).withColumn("capture", _capture_key())
    try:
        dropped = _duplicates(kept, job, summary)
        if dropped is not None:
            kept = kept.join(dropped, "capture", "left_anti")
        out = kept.select(*_PAGE_NAMES).write.mode("overwrite").partitionBy(*job.partition_by)
        out.parquet(f"{job.out}/pages")
    finally:
        spark.catalog.clearCache()
    summary.written = spark.read.parquet(f"{job.out}/pages").count()
    _delete(spark, staging)
    return summary


def open_warc(name: str) -> IO[bytes]:
    """The WARC file ``name`` opened for reading: a local path or ``file://`` URL, else through
    fsspec (raises :class:`OSError` when fsspec is missing)."""
    parts = urlsplit(name)
    if parts.scheme in ("", "file") or len(parts.scheme) == 1:  # C:\\ is a path
        return open(unquote(parts.path) if parts.scheme == "file" else name, "rb")
    try:
        import fsspec
    except ModuleNotFoundError as exc:
        raise OSError(f"reading {parts.scheme}:// needs fsspec: pip install fsspec") from exc
    return cast(IO[bytes], fsspec.open(name, "rb").open())


# -- the extraction task ------------------------------------------------------------------------


class _ListParam(AccumulatorParam[list[_Row]]):
    """An accumulator of rows: the file rows of the tasks."""

    def zero(self, value: list[_Row]) -> list[_Row]:
        return []

    def addInPlace(self, value1: list[_Row], value2: list[_Row]) -> list[_Row]:  # noqa: N802
        value1.extend(value2)
        return value1


def _extract_task(
    run: WarcRun,
    sign: bool,
    fail_first_attempt: bool,
    files: Accumulator[list[_Row]],
    names: Iterator[str],
) -> Iterator[_Row]:
    """The page rows of a task's WARC files (one, as the job makes them); their file rows go
    to ``files``."""
    _load_extractor(run)
    for name in names:
        rows = file_rows(name, partial(open_warc, name), run, sign=sign)
        failing = fail_first_attempt and _first_attempt()
        counts = yield from (_failing_after_first_row(rows, name) if failing else rows)
        files.add([counts])


def _failing_after_first_row(
    rows: Generator[_Row, None, _Row], name: str
) -> Generator[_Row, None, _Row]:
    """``rows``, failing after the first (the failure injected into a first attempt)."""
    try:
        yield next(rows)
        next(rows)
    except StopIteration as end:
        return cast(_Row, end.value)
    raise RuntimeError(f"{name}: the failure injected into a first attempt")


_LOADED: dict[str, tuple[str, str]] = {}


def _load_extractor(run: WarcRun) -> None:
    """Build the extractor in this Python worker, unless it has this one already (Spark reuses
    its Python workers from task to task)."""
    key = (run.extractor, json.dumps(dict(run.options), sort_keys=True))
    if _LOADED.get("extractor") != key:
        batch_run.load_extractor(run.extractor, dict(run.options))
        _LOADED["extractor"] = key


def _first_attempt() -> bool:
    context = TaskContext.get()
    return context is not None and context.attemptNumber() == 0


# -- the steps on the driver --------------------------------------------------------------------


def _warc_names(spark: SparkSession, warc_list: str) -> list[str]:
    lines = [row[0].strip() for row in spark.read.text(warc_list).collect()]
    return [line for line in lines if line and not line.startswith("#")]


def _ddl(columns: Sequence[tuple[str, str]]) -> str:
    return ", ".join(f"{name} {kind}" for name, kind in columns)


def _set_shuffle_partitions(spark: SparkSession) -> None:
    """Unless set in the Spark configuration, shuffle into twice as many partitions as there
    are cores (Spark's 200 make hundreds of near-empty tasks a step on a small cluster)."""
    if not spark.sparkContext.getConf().contains("spark.sql.shuffle.partitions"):
        partitions = 2 * spark.sparkContext.defaultParallelism
        spark.conf.set("spark.sql.shuffle.partitions", str(partitions))


def _extract(
    spark: SparkSession, job: SparkJob, out: str, partition_by: Sequence[str] = ()
) -> list[_Row]:
    """Step 1: the page rows of every WARC file, one task a file, written to ``out``; returns
    the file rows."""
    names = _warc_names(spark, job.warc_list)
    sign = job.near_duplicates is not None
    files = spark.sparkContext.accumulator([], _ListParam())
    task = partial(_extract_task, job.run, sign, job.fail_first_attempts, files)
    rows = spark.sparkContext.parallelize(names, max(len(names), 1)).mapPartitions(task)
    columns = (*PAGE_COLUMNS, *SIGNATURE_COLUMNS) if sign else PAGE_COLUMNS
    table = spark.createDataFrame(rows, schema=_ddl(columns), verifySchema=False)  # ours
    table.write.mode("overwrite").partitionBy(*partition_by).parquet(out)
    return sorted(files.value, key=lambda row: str(row[0]))  # a file listed twice: two rows


def _file_counts(spark: SparkSession, files: list[_Row], out: str) -> JobSummary:
    """Step 2: write the file rows to ``out`` and sum them."""
    table = spark.createDataFrame(files, schema=_ddl(FILE_COLUMNS), verifySchema=False)
    table.coalesce(1).write.mode("overwrite").parquet(out)
    summary = JobSummary()
    for name, records, html_responses, extracted, skipped, failed, error in files:
        summary.files += 1
        summary.records += records
        summary.html_responses += html_responses
        summary.extracted += extracted
        summary.skipped.update(skipped)
        summary.failed.update(failed)
        if error:
            summary.file_errors.append(f"{name}: {error}")
    summary.file_errors.sort()
    return summary


def _filtered(pages: DataFrame, filters: Filters, summary: JobSummary) -> DataFrame:
    """Step 3: the pages that pass the filters; the others counted by filter in ``summary``."""
    if filters == Filters():
        return pages
    marked = pages.withColumn("filtered_by", _first_failed_filter(filters))
    counts = marked.groupBy("filtered_by").count().collect()
    summary.filtered.update({row[0]: row[1] for row in counts if row[0]})
    return marked.where(F.col("filtered_by").isNull()).drop("filtered_by")


def _first_failed_filter(filters: Filters) -> Column:
    """The name of the first filter a page fails, or null."""
    checks: list[tuple[str, Column]] = []
    if filters.min_words > 0:
        checks.append(("min_words", F.col("words") < filters.min_words))
    if filters.languages:
        primary = F.lower(F.split(F.col("language"), "[-_]").getItem(0))
        wanted = [language.lower() for language in filters.languages]
        checks.append(("language", F.coalesce(~primary.isin(wanted), F.lit(True))))
    if filters.published_after or filters.published_before:
        day = F.substring(F.col("published"), 1, 10)
        outside = day.isNull()
        if filters.published_after:
            outside = outside | (day < filters.published_after)
        if filters.published_before:
            outside = outside | (day > filters.published_before)
        checks.append(("published", outside))
    if filters.page_type:
        page_type = F.col("page_type")
        checks.append(("page_type", page_type.isNotNull() & (page_type != filters.page_type)))
    name = F.lit(None).cast("string")
    for check, fails in reversed(checks):
        name = F.when(fails, F.lit(check)).otherwise(name)
    return name


def _capture_key() -> Column:
    """A string that sorts captures oldest first: WARC date, WARC file, offset, record ID."""
    return F.concat_ws(
        "|",
        F.coalesce(F.col("warc_date"), F.lit("~")),
        F.col("warc_file"),
        F.lpad(F.col("warc_offset").cast("string"), 15, "0"),
        F.coalesce(F.col("warc_record_id"), F.lit("")),
    )


def _duplicates(pages: DataFrame, job: SparkJob, summary: JobSummary) -> DataFrame | None:
    """Steps 4 and 5: the ``capture`` of each page ``job`` asks to drop as a duplicate (None
    when it asks for none), counted in ``summary``."""
    dropped: DataFrame | None = None
    if job.exact_duplicates:
        dropped = _exact_duplicates(pages).persist()
        summary.exact_duplicates = dropped.count()
    if job.near_duplicates is not None:
        left = pages if dropped is None else pages.join(dropped, "capture", "left_anti")
        later = _near_duplicates(left, job.near_duplicates).persist()
        summary.near_duplicates = later.count()
        dropped = later if dropped is None else dropped.unionByName(later)
    return dropped


def _exact_duplicates(pages: DataFrame) -> DataFrame:
    """The ``capture`` of each page with an earlier capture of the same ``content_hash``."""
    earliest = Window.partitionBy("content_hash").orderBy("capture")
    ranked = pages.select("capture", F.row_number().over(earliest).alias("_rank"))
    return ranked.where(F.col("_rank") > 1).select("capture")


def _near_duplicates(pages: DataFrame, similarity: float) -> DataFrame:
    """The ``capture`` of each page that has an earlier capture at least ``similarity``
    similar (module docstring, step 5; :mod:`.minhash`)."""
    signed = pages.where(F.col("signature").isNotNull()).select("capture", "signature", "band_keys")
    bands = signed.select("capture", F.explode("band_keys").alias("key"))
    earlier = bands.select(F.col("capture").alias("earlier"), "key")
    later = bands.select(F.col("capture").alias("later"), "key")
    pairs = earlier.join(later, "key").where(F.col("earlier") < F.col("later"))
    pairs = pairs.select("earlier", "later").distinct()
    for side in ("earlier", "later"):
        pairs = pairs.join(
            signed.select(F.col("capture").alias(side), F.col("signature").alias(f"{side}_sig")),
            side,
        )
    agree = "size(filter(zip_with(earlier_sig, later_sig, (x, y) -> x = y), same -> same))"
    close = F.expr(f"{agree} / {PERMUTATIONS}") >= similarity
    return pairs.where(close).select(F.col("later").alias("capture")).distinct()


def _delete(spark: SparkSession, folder: str) -> None:
    """Remove ``folder`` through Hadoop's file system of its URL (local, HDFS, S3 ...)."""
    context: Any = spark.sparkContext
    path = context._jvm.org.apache.hadoop.fs.Path(folder)
    path.getFileSystem(context._jsc.hadoopConfiguration()).delete(path, True)


# -- the command --------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m scrapy_boilerplate.batch.spark",
        description="Extract the HTML responses of WARC files on Spark to Parquet.",
    )
    parser.add_argument("warc_list", metavar="WARC_LIST", help="text file: a WARC path/URL a line")
    parser.add_argument("out", metavar="OUT", help="output folder (pages/, files/)")
    parser.add_argument("--master", help="Spark master URL (default: spark-submit's, local[*])")
    parser.add_argument("--extractor", default="article", help="extractor name (default article)")
    parser.add_argument(
        "--options", type=json.loads, default={}, metavar="JSON", help="extractor options"
    )
    parser.add_argument("--markdown", action="store_true", help="fill the markdown column")
    parser.add_argument("--max-body-size", type=int, default=WarcRun.max_body_size)
    parser.add_argument("--sniff-text", action="store_true", help="text/* that looks like HTML")
    parser.add_argument("--min-words", type=int, default=0, metavar="N")
    parser.add_argument("--language", default="", metavar="CODES", help="e.g. en,de")
    parser.add_argument("--published-after", metavar="YYYY-MM-DD")
    parser.add_argument("--published-before", metavar="YYYY-MM-DD")
    parser.add_argument("--page-type", metavar="TYPE", help="e.g. article")
    parser.add_argument(
        "--no-exact-duplicates", action="store_true", help="keep pages of the same text"
    )
    parser.add_argument(
        "--near-duplicates",
        type=float,
        default=0.8,
        metavar="SIMILARITY",
        help="estimated Jaccard similarity from which a later page is dropped (default 0.8;"
        " 0: off)",
    )
    parser.add_argument(
        "--partition-by", default="crawl_date", help="crawl_date, host or crawl_date,host"
    )
    parser.add_argument("--fail-first-attempts", action="store_true", help=argparse.SUPPRESS)
    return parser


def job_from_arguments(args: argparse.Namespace) -> SparkJob:
    """The job the command line asks for; raises :class:`ValueError` on a bad option."""
    options = {**args.options, **({"include_markdown": True} if args.markdown else {})}
    get_extractor(args.extractor, **options)  # fail fast on a bad name or option
    partition_by = tuple(name.strip() for name in args.partition_by.split(",") if name.strip())
    if not set(partition_by) <= set(_PARTITION_COLUMNS) or args.max_body_size < 1:
        raise ValueError("--partition-by takes crawl_date and/or host; --max-body-size > 0")
    return SparkJob(
        warc_list=args.warc_list,
        out=args.out.rstrip("/"),
        run=WarcRun(args.extractor, options, 1, args.max_body_size, args.sniff_text),
        filters=Filters(
            min_words=args.min_words,
            languages=tuple(code.strip() for code in args.language.split(",") if code.strip()),
            published_after=args.published_after,
            published_before=args.published_before,
            page_type=args.page_type,
        ),
        exact_duplicates=not args.no_exact_duplicates,
        near_duplicates=args.near_duplicates or None,
        partition_by=partition_by,
        fail_first_attempts=args.fail_first_attempts,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """The command: 0 when every file was read to its end, 1 otherwise or when the job failed,
    2 for bad options. A Spark session already running is used (and left running)."""
    args = build_parser().parse_args(argv)
    try:
        job = job_from_arguments(args)
    except (ValueError, BoilerplateError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    running = SparkSession.getActiveSession()
    spark = running or _new_session(args.master)
    try:
        summary = run_job(spark, job)
    except Exception as exc:  # a failed Spark job: its own log has the details
        print(f"error: the job failed: {' '.join(str(exc).split())[:500]}", file=sys.stderr)
        return 1
    finally:
        if running is None:
            spark.stop()
    for line in [*summary.file_errors, *summary.lines()]:
        print(line, file=sys.stderr)
    return 1 if summary.file_errors else 0


#: The settings of a local session the command starts (``--master local...``): its one JVM
#: compiles with C1 only (about 17 of its 38 CPU seconds on this job went to compiling with
#: C2, more than the whole extraction of 1,000 pages costs it) and runs no web UI.
_LOCAL_SETTINGS: dict[str, str] = {
    "spark.driver.extraJavaOptions": "-XX:TieredStopAtLevel=1",
    "spark.ui.enabled": "false",
}


def _new_session(master: str | None) -> SparkSession:
    """A session named for the job; in local mode its Python workers run this interpreter and
    :data:`_LOCAL_SETTINGS` apply."""
    builder: Callable[..., Any] = SparkSession.builder.appName
    session = builder("scrapy-boilerplate extract-warc")
    if master:
        session = session.master(master)
        if master.startswith("local"):
            os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
            for key, value in _LOCAL_SETTINGS.items():
                session = session.config(key, value)
    return cast(SparkSession, session.getOrCreate())


if __name__ == "__main__":
    sys.exit(main())
