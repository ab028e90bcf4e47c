"""The Spark job next to ``extract-warc``: records/s on the same WARC files, and the projected
cost of one CC-NEWS day.

In a temporary folder, writes two inputs of ``--files`` WARC files each, of ``--small`` and of
``--records`` response records in all (gzip per record; the pages of ``warc_throughput.py``:
WCXB dev repeated, else generated). Then runs on each, once per worker count N of ``--jobs``,
in fresh processes with the repository's code:

- ``scrapy-boilerplate extract-warc FILES --jobs N`` (wall-clock seconds, start-up included);
- ``python -m scrapy_boilerplate.batch.spark LIST OUT --master local[N]`` without de-duplication
  (the same work: extract and write), and with it (the defaults: exact and near duplicates).
  Its seconds are the job's own, from its summary line (Spark's start-up left out).

and prints a markdown table: the seconds of both inputs, records/s of the large run, records/s
once running (the extra records over the extra seconds: Spark's fixed costs left out), the
same per worker, and its ratio to ``extract-warc``'s with as many workers (acceptance: at least
0.85). Then the cost of a CC-NEWS day: ``--records-per-day`` records (default 500,000, the
order of what CC-NEWS adds a day) divided by the best records/s per worker of the Spark job
with de-duplication, whole run and once running, in core-hours (the rate once running is a
difference of two timings: on a busy machine it is the noisier of the two). The machine's
load average is sampled before each run. ``--write`` puts the tables in the ``spark`` section
of docs/warc.md.

    nice -n 5 python benchmarks/spark_throughput.py --records 1500 --small 40 --write
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
LOADS: list[float] = []  # the load average before each run
SECTION_HEAD = """## Throughput on Spark

`python -m scrapy_boilerplate.batch.spark` (local mode, N worker threads) next to `extract-warc`
with `--jobs N` on the same WARC files (gzip per record), each run on a small and a large input.
Spark's seconds are the job's own (its start-up left out), `extract-warc`'s are wall-clock.
"Once running" is the extra records of the large run over its extra seconds: the rate a long
job runs at, Spark's fixed costs (its jobs and stages, tens of seconds on this machine) left
out.

```
nice -n 5 python benchmarks/spark_throughput.py \\
    --records {records} --small {small} --files {files} --jobs {jobs} --write
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
    LOADS.append(os.getloadavg()[0])
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


@dataclass
class Marginal:
    """The same run on the small and the large input: what one more record costs."""

    small: Run
    large: Run

    @property
    def name(self) -> str:
        return self.large.name

    @property
    def workers(self) -> int:
        return self.large.workers

    @property
    def rate(self) -> float:
        """Records/s once running: the extra records over the extra seconds."""
        extra = self.large.seconds - self.small.seconds
        return (self.large.records - self.small.records) / extra if extra > 0 else float("nan")


def report(
    runs: list[Marginal], records: int, small: int, files: int, source: str, per_day: int
) -> str:
    lines = [
        f"Pages: {source}, in {files} WARC files (gzip per record); extractor `article`; "
        f"{os.cpu_count()} CPUs shared with other work (load average {min(LOADS):.1f} to "
        f"{max(LOADS):.1f} before the runs), Python {platform.python_version()}; one run each.",
        "",
        f"| run | workers | s for {small} records | s for {records} | records/s, whole run "
        "| records/s once running | per worker | per worker / extract-warc's |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in runs:
        base = next(b for b in runs if b.name == "extract-warc" and b.workers == r.workers)
        lines.append(
            f"| {r.name} | {r.workers} | {r.small.seconds:.1f} | {r.large.seconds:.1f} "
            f"| {r.large.rate:.1f} | {r.rate:.1f} | {r.rate / r.workers:.1f} "
            f"| {r.rate / base.rate:.2f} |"
        )
    deduplicated = [r for r in runs if r.name == "spark, de-duplicated"]
    whole = max(r.large.rate / r.workers for r in deduplicated)
    running = max(r.rate / r.workers for r in deduplicated)
    lines += [
        "",
        f"One CC-NEWS day of {per_day:,} records, with de-duplication: "
        f"{per_day / whole / 3600:.1f} core-hours at the best whole-run rate per worker "
        f"({whole:.1f} records/s, Spark's fixed costs included), "
        f"{per_day / running / 3600:.1f} at the best rate once running ({running:.1f}); "
        "plus the download of the WARC files (read here from local disk).",
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--records", type=int, default=2000)
    parser.add_argument("--small", type=int, default=40, help="records of the small run")
    parser.add_argument("--files", type=int, default=4)
    parser.add_argument("--jobs", default="1,2", help="comma-separated worker counts")
    parser.add_argument("--records-per-day", type=int, default=500_000)
    parser.add_argument("--write", action="store_true", help="update docs/warc.md")
    args = parser.parse_args()
    runs: list[Marginal] = []
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        inputs = {}
        for size in (args.small, args.records):
            folder = workdir / f"warcs-{size}"
            folder.mkdir()
            paths, source = write_warcs(size, args.files, folder)
            listing = folder / "warcs.txt"
            listing.write_text("".join(f"{path}\n" for path in paths))
            inputs[size] = (paths, listing)
        for workers in (int(value) for value in args.jobs.split(",")):
            for name in ("extract-warc", "spark", "spark, de-duplicated"):
                small, large = (
                    measure(name, *inputs[size], workers, workdir)
                    for size in (args.small, args.records)
                )
                runs.append(Marginal(small, large))
                print(f"{name}, {workers} workers: {runs[-1].rate:.1f} records/s", file=sys.stderr)
    text = report(runs, args.records, args.small, args.files, source, args.records_per_day)
    print(text)
    if args.write:
        from run_benchmarks import replace_section

        doc_path = REPO / "docs" / "warc.md"
        section = SECTION_HEAD.format(
            records=args.records, small=args.small, files=args.files, jobs=args.jobs
        )
        doc_path.write_text(replace_section(doc_path.read_text(), "spark", section + text))


def measure(name: str, paths: list[Path], listing: Path, workers: int, workdir: Path) -> Run:
    if name == "extract-warc":
        return extract_warc(paths, workers, workdir)
    return spark_job(listing, workers, workdir, dedup=name != "spark")


if __name__ == "__main__":
    main()
