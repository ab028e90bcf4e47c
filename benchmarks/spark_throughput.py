"""The Spark job next to ``extract-warc``: records/s on the same WARC files, and the projected
cost of one CC-NEWS day.

In a temporary folder, writes ``--files`` WARC files of ``--records`` response records in all
(gzip per record; the pages of ``warc_throughput.py``: WCXB dev repeated, else generated). Then
runs, once each per worker count N of ``--jobs``, in fresh processes with the repository's code:

- ``scrapy-boilerplate extract-warc FILES --jobs N`` (wall-clock seconds, start-up included);
- ``python -m scrapy_boilerplate.batch.spark LIST OUT --master local[N]`` without de-duplication
  (the same work: extract and write), and with it (the defaults: exact and near duplicates).
  Its seconds are the job's own (from its summary line: Spark's start-up, about 10-30 s, left
  out; the wall-clock time is shown beside them).

and prints a markdown table: records, seconds, records/s, records/s per worker, and the ratio of
each Spark run's records/s per worker to ``extract-warc``'s with as many workers (acceptance:
at least 0.85). Then the cost of a CC-NEWS day: ``--records-per-day`` records (default 500,000,
the order of what CC-NEWS adds a day) divided by the best measured records/s per core of the
Spark job with de-duplication, in core-hours. ``--write`` puts the tables in the ``spark``
section of docs/warc.md.

    nice -n 5 python benchmarks/spark_throughput.py --records 2000 --files 4 --jobs 1,2 --write
"""

from __future__ import annotations

import argparse
import gzip
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from crawl_throughput import generated_page
from warc_throughput import source_pages, warc_record

REPO = Path(__file__).resolve().parents[1]
MIN_RATIO = 0.85
SECTION_HEAD = """## Throughput on Spark

`python -m scrapy_boilerplate.batch.spark` (local mode, N worker threads) next to `extract-warc`
with `--jobs N` on the same WARC files (gzip per record). Spark's seconds are the job's own,
its start-up left out; `extract-warc`'s include its start-up (about a second).

```
nice -n 5 python benchmarks/spark_throughput.py \\
    --records {records} --files {files} --jobs {jobs} --write
```

"""


@dataclass
class Run:
    """One measured run: what, with how many workers, records read, seconds (and wall-clock)."""

    name: str
    workers: int
    records: int
    seconds: float
    wall: float

    @property
    def rate(self) -> float:
        return self.records / self.seconds


def write_warcs(records: int, files: int, workdir: Path) -> tuple[list[Path], str]:
    """``files`` WARC files holding ``records`` pages in all, and the pages' source."""
    pages, source = source_pages()
    cache: dict[int, bytes] = {}
    paths = [workdir / f"part-{n}.warc.gz" for n in range(files)]
    sinks = [path.open("wb") for path in paths]
    for i in range(records):
        if pages:
            key = i % len(pages)
            body = cache.setdefault(key, gzip.decompress(pages[key].read_bytes()))
        else:
            body = generated_page(i)
        record = warc_record(f"https://example.com/page/{i}", body)
        sinks[i % files].write(gzip.compress(record, compresslevel=6))
    for sink in sinks:
        sink.close()
    return paths, source


def environment() -> dict[str, str]:
    path = os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "PYTHONPATH": path, "PYSPARK_PYTHON": sys.executable}


def run(args: list[str]) -> tuple[str, float]:
    """Run a command; its standard error and wall-clock seconds."""
    start = time.perf_counter()
    done = subprocess.run(args, env=environment(), capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return done.stderr, wall


def extract_warc(paths: list[Path], workers: int, workdir: Path) -> Run:
    args = [sys.executable, "-m", "scrapy_boilerplate.cli", "extract-warc", *map(str, paths)]
    err, wall = run([*args, "--out", str(workdir / "out.jsonl"), "--jobs", str(workers), "--quiet"])
    records = int(_found(r"^records: (\d+)", err))
    return Run("extract-warc", workers, records, wall, wall)


def spark_job(listing: Path, workers: int, workdir: Path, dedup: bool) -> Run:
    args = [sys.executable, "-m", "scrapy_boilerplate.batch.spark", str(listing)]
    args += [str(workdir / "spark-out"), "--master", f"local[{workers}]"]
    if not dedup:
        args += ["--no-exact-duplicates", "--near-duplicates", "0"]
    err, wall = run(args)
    found = re.search(r"^records: (\d+) in .* over ([\d.]+) s\)", err, re.MULTILINE)
    if found is None:
        raise SystemExit(f"no summary in:\n{err[-3000:]}")
    name = "spark, de-duplicated" if dedup else "spark"
    return Run(name, workers, int(found.group(1)), float(found.group(2)), wall)


def _found(pattern: str, text: str) -> str:
    found = re.search(pattern, text, re.MULTILINE)
    if found is None:
        raise SystemExit(f"{pattern!r} not in:\n{text[-3000:]}")
    return found.group(1)


def report(runs: list[Run], records: int, files: int, source: str, per_day: int) -> str:
    lines = [
        f"Pages: {source}, {records} records in {files} WARC files (gzip per record); extractor "
        f"`article`; {os.cpu_count()} CPUs (shared), Python {platform.python_version()}; "
        "one run each.",
        "",
        "| run | workers | records | seconds | wall-clock s | records/s | records/s per worker "
        "| per worker / extract-warc's |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in runs:
        base = next(b for b in runs if b.name == "extract-warc" and b.workers == r.workers)
        ratio = (r.rate / r.workers) / (base.rate / base.workers)
        lines.append(
            f"| {r.name} | {r.workers} | {r.records} | {r.seconds:.1f} | {r.wall:.1f} "
            f"| {r.rate:.1f} | {r.rate / r.workers:.1f} | {ratio:.2f} |"
        )
    best = max(r.rate / r.workers for r in runs if r.name == "spark, de-duplicated")
    hours = per_day / best / 3600
    lines += [
        "",
        f"One CC-NEWS day of {per_day:,} records at {best:.1f} records/s per core "
        f"(the best de-duplicated run): {hours:.1f} core-hours, "
        f"{hours / 16:.2f} hours on 16 cores (reading from local disk; fetching from S3 and "
        "Spark's start-up on a cluster come on top).",
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--records", type=int, default=2000)
    parser.add_argument("--files", type=int, default=4)
    parser.add_argument("--jobs", default="1,2", help="comma-separated worker counts")
    parser.add_argument("--records-per-day", type=int, default=500_000)
    parser.add_argument("--write", action="store_true", help="update docs/warc.md")
    args = parser.parse_args()
    runs: list[Run] = []
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        paths, source = write_warcs(args.records, args.files, workdir)
        listing = workdir / "warcs.txt"
        listing.write_text("".join(f"{path}\n" for path in paths))
        for workers in (int(value) for value in args.jobs.split(",")):
            runs.append(extract_warc(paths, workers, workdir))
            runs.append(spark_job(listing, workers, workdir, dedup=False))
            runs.append(spark_job(listing, workers, workdir, dedup=True))
            for r in runs[-3:]:
                print(f"{r.name}, {workers} workers: {r.rate:.1f} records/s", file=sys.stderr)
    text = report(runs, args.records, args.files, source, args.records_per_day)
    print(text)
    if args.write:
        from run_benchmarks import replace_section

        doc_path = REPO / "docs" / "warc.md"
        section = SECTION_HEAD.format(records=args.records, files=args.files, jobs=args.jobs) + text
        doc_path.write_text(replace_section(doc_path.read_text(), "spark", section))


if __name__ == "__main__":
    main()
