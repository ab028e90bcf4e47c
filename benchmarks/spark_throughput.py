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
once running (the extra records over the extra seconds: Spark's fixed costs left out) and its
ratio to ``extract-warc``'s with as many workers; then the same in CPU seconds, those of every
process of the run (driver, JVM, Python workers, pool), read from ``/proc``: records per CPU
second is a core's throughput, and unlike wall-clock seconds it hardly moves when other jobs
share the machine (acceptance: the Spark job's at least 0.85 of ``extract-warc``'s). Then the
cost of a CC-NEWS day: ``--records-per-day`` records (default 500,000, the order of what
CC-NEWS adds a day) over the Spark job's records per CPU second with de-duplication, whole run
and once running, in core-hours. The machine's load average is sampled before each run.
``--write`` puts the tables in the ``spark`` section of docs/warc.md.

    nice -n 5 python benchmarks/spark_throughput.py --records 3000 --small 300 --write
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
job runs at, Spark's fixed costs (its start-up, jobs and stages: tens of seconds of a core on
this machine) left out. CPU seconds are those of every process of the run (driver, JVM, Python
workers, `extract-warc`'s pool), read from `/proc`: records per CPU second is what a core
gets through, and unlike wall-clock seconds it hardly moves with what else the machine runs.

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
    cpu: float

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


def run(args: list[str]) -> tuple[str, float, float]:
    """Run a command; its standard error, wall-clock seconds and CPU seconds (its process
    tree's: :func:`tree_cpu_seconds`)."""
    LOADS.append(os.getloadavg()[0])
    start = time.perf_counter()
    with tempfile.TemporaryFile("w+") as err:
        process = subprocess.Popen(args, env=environment(), stdout=subprocess.DEVNULL, stderr=err)
        cpu = tree_cpu_seconds(process)
        wall = time.perf_counter() - start
        err.seek(0)
        stderr = err.read()
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed ({process.returncode}):\n{stderr[-3000:]}")
    return stderr, wall, cpu


def tree_cpu_seconds(process: subprocess.Popen[bytes], every: float = 0.2) -> float:
    """Wait for ``process``; the CPU seconds (user + system) its process and all its
    descendants used, read from ``/proc`` every ``every`` seconds (a process's last reading
    counts: the JVM, Spark's Python workers and ``extract-warc``'s pool live the whole run,
    so little is missed). NaN where ``/proc`` is missing."""
    if not Path("/proc/self/stat").exists():
        process.wait()
        return float("nan")
    ticks = os.sysconf("SC_CLK_TCK")
    used: dict[int, int] = {}
    while process.poll() is None:
        used.update(_descendant_ticks(process.pid))
        time.sleep(every)
    return sum(used.values()) / ticks


def _descendant_ticks(root: int) -> dict[int, int]:
    """user + system clock ticks of ``root`` and its descendants, by process ID."""
    parents: dict[int, int] = {}
    ticks: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended meanwhile
            continue
        pid = int(stat.parent.name)
        parents[pid] = int(fields[1])
        ticks[pid] = int(fields[11]) + int(fields[12])
    tree = {root}
    grown = True
    while grown:
        found = {pid for pid, parent in parents.items() if parent in tree} - tree
        grown = bool(found)
        tree |= found
    return {pid: ticks[pid] for pid in tree if pid in ticks}


def extract_warc(paths: list[Path], workers: int, workdir: Path) -> Run:
    args = [sys.executable, "-m", "scrapy_boilerplate.cli", "extract-warc", *map(str, paths)]
    err, wall, cpu = run(
        [*args, "--out", str(workdir / "out.jsonl"), "--jobs", str(workers), "--quiet"]
    )
    records = int(_found(r"^records: (\d+)", err))
    return Run("extract-warc", workers, records, wall, wall, cpu)


def spark_job(listing: Path, workers: int, workdir: Path, dedup: bool) -> Run:
    args = [sys.executable, "-m", "scrapy_boilerplate.batch.spark", str(listing)]
    args += [str(workdir / "spark-out"), "--master", f"local[{workers}]"]
    if not dedup:
        args += ["--no-exact-duplicates", "--near-duplicates", "0"]
    err, wall, cpu = run(args)
    found = re.search(r"^records: (\d+) in .* over ([\d.]+) s\)", err, re.MULTILINE)
    if found is None:
        raise SystemExit(f"no summary in:\n{err[-3000:]}")
    name = "spark, de-duplicated" if dedup else "spark"
    return Run(name, workers, int(found.group(1)), float(found.group(2)), wall, cpu)


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

    @property
    def cpu_rate(self) -> float:
        """Records per CPU second once running: the extra records over the extra CPU seconds
        of every process of the run (a core's throughput, whatever else the machine runs)."""
        extra = self.large.cpu - self.small.cpu
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
        "| records/s once running | per worker / extract-warc's | CPU s for "
        f"{small} / {records} | records per CPU s, whole run | once running "
        "| per CPU s / extract-warc's |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in runs:
        base = next(b for b in runs if b.name == "extract-warc" and b.workers == r.workers)
        lines.append(
            f"| {r.name} | {r.workers} | {r.small.seconds:.1f} | {r.large.seconds:.1f} "
            f"| {r.large.rate:.1f} | {r.rate:.1f} | {r.rate / base.rate:.2f} "
            f"| {r.small.cpu:.1f} / {r.large.cpu:.1f} | {r.large.records / r.large.cpu:.1f} "
            f"| {r.cpu_rate:.1f} | {r.cpu_rate / base.cpu_rate:.2f} |"
        )
    deduplicated = [r for r in runs if r.name == "spark, de-duplicated"]
    whole = max(r.large.records / r.large.cpu for r in deduplicated)
    running = max(r.cpu_rate for r in deduplicated)
    lines += [
        "",
        f"One CC-NEWS day of {per_day:,} records, with de-duplication: "
        f"{per_day / whole / 3600:.1f} core-hours at the whole-run rate per CPU second "
        f"({whole:.1f} records, Spark's start-up and fixed costs included), "
        f"{per_day / running / 3600:.1f} at the rate once running ({running:.1f}); "
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
