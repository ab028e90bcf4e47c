"""``extract-warc`` next to ``extract-dir``: throughput on the same pages, and memory over the run.

In a temporary folder, writes a WARC file of N response records (gzip per record, compression
level 6; ``Content-Type: text/html`` without a charset, so both commands decode the same bytes by
the same rules) and a dataset folder of the same N pages. Pages: the WCXB dev pages
(``$BOILERPLATE_DATASETS`` or ``../shared/datasets`` next to the repository), repeated in order
until there are N (record ``i`` holds page ``i mod 1497``, at its own URL; the folder holds
symbolic links to the dataset's ``.html.gz`` files), else N generated article pages.

Then runs ``scrapy-boilerplate extract-warc`` and ``extract-dir`` (``python -m
scrapy_boilerplate.cli``, the repository's code, ``--quiet``) once each per ``--jobs`` value, in
fresh processes (``extract-warc`` without its body size limit, as ``extract-dir`` has none), and
prints a markdown table: wall-clock seconds (start-up included), pages/s,
pages/s per worker, and the RSS of the command's process tree (the command and its workers,
summed from ``/proc/<pid>/statm``, sampled every 0.5 s): first sample, at a quarter of the run,
largest, last. Then, per ``--jobs``: the ratio of the two rates (acceptance: extract-warc at
least 85% of extract-dir) and whether extract-warc's RSS stays flat (acceptance: after the
first quarter of the run it never exceeds the quarter's sample by more than 10% + 16 MiB).
``extract-dir`` keeps every prediction in memory until its end, so its RSS is expected to grow.
``--write`` puts the tables in the ``warc`` section of docs/benchmarks.md.

    python benchmarks/warc_throughput.py --records 10000 --jobs 1,2 --write
"""

from __future__ import annotations

import argparse
import gzip
import io
import os
import platform
import re
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from crawl_throughput import datasets_dir, generated_page

REPO = Path(__file__).resolve().parents[1]
SAMPLE_SECONDS = 0.5
NO_SIZE_LIMIT = 2**40
MIN_RATIO = 0.85
FLAT_SHARE = 0.10
FLAT_SLACK_MIB = 16.0
_PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")
SECTION_HEAD = """## `extract-warc` throughput and memory

`scrapy-boilerplate extract-warc` (a WARC file, gzip per record) next to `extract-dir` (a folder
of the same pages) with the same `--jobs`: is reading WARC records in one process and sending
the pages to the workers as fast as workers reading their own files, and does memory stay flat?
Seconds are wall-clock, start-up included.

```
python benchmarks/warc_throughput.py --records {records} --jobs {jobs} --write
```

"""


# -- inputs --------------------------------------------------------------------------------------


def source_pages() -> tuple[list[Path], str]:
    """The WCXB dev page files, or none; and a description of the source."""
    html_dir = datasets_dir() / "wcxb-dev" / "html"
    files = sorted(html_dir.glob("*.html.gz")) if html_dir.is_dir() else []
    return files, f"WCXB dev ({len(files)} pages, repeated)" if files else "generated pages"


def warc_record(url: str, body: bytes) -> bytes:
    """One WARC/1.0 response record, uncompressed."""
    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n" + (
        b"Content-Length: %d\r\n\r\n" % len(body)
    )
    block = http + body
    headers = (
        "WARC/1.0\r\nWARC-Type: response\r\n"
        f"WARC-Record-ID: <urn:uuid:{uuid.uuid4()}>\r\nWARC-Date: 2025-01-01T00:00:00Z\r\n"
        f"WARC-Target-URI: {url}\r\nContent-Type: application/http; msgtype=response\r\n"
        f"Content-Length: {len(block)}\r\n\r\n"
    ).encode()
    return headers + block + b"\r\n\r\n"


def write_inputs(records: int, workdir: Path) -> tuple[Path, Path, str]:
    """The WARC file and the dataset folder of ``records`` pages, and the pages' source."""
    files, source = source_pages()
    folder = workdir / "dataset" / "html"
    folder.mkdir(parents=True)
    warc = workdir / "pages.warc.gz"
    cache: dict[int, bytes] = {}
    with warc.open("wb") as sink:
        for i in range(records):
            if files:
                path = files[i % len(files)]
                if i % len(files) not in cache:
                    cache[i % len(files)] = gzip.decompress(path.read_bytes())
                body = cache[i % len(files)]
                (folder / f"{i:06d}.html.gz").symlink_to(path)
            else:
                body = generated_page(i)
                (folder / f"{i:06d}.html").write_bytes(body)
            record = warc_record(f"https://example.com/page/{i}", body)
            sink.write(gzip.compress(record, compresslevel=6))
    return warc, folder.parent, source


# -- measuring -----------------------------------------------------------------------------------


def tree_rss_mib(root: int) -> float:
    """RSS of ``root`` and its descendants, summed, in MiB (0 once they are gone)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    tree, frontier = {root}, [root]
    while frontier:
        pid = frontier.pop()
        children = [child for child, parent in parents.items() if parent == pid]
        tree.update(children)
        frontier.extend(children)
    total = 0
    for pid in tree:
        try:
            total += int(Path(f"/proc/{pid}/statm").read_text().split()[1])
        except OSError:
            continue
    return total * _PAGE_SIZE / 2**20


@dataclass
class Run:
    command: str
    jobs: int
    pages: int = 0
    seconds: float = 0.0
    rss: list[float] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.pages / self.seconds

    def rss_at_quarter(self) -> float:
        return self.rss[len(self.rss) // 4]

    def flat(self) -> bool:
        quarter = self.rss_at_quarter()
        later = max(self.rss[len(self.rss) // 4 :])
        return later <= quarter * (1 + FLAT_SHARE) + FLAT_SLACK_MIB


def run_command(command: str, jobs: int, source: Path, workdir: Path) -> Run:
    """Run one command over ``source``; its time, pages and RSS samples."""
    out = workdir / f"{command}-{jobs}.out"
    args = [sys.executable, "-m", "scrapy_boilerplate.cli", command, str(source)]
    args += ["--out", str(out), "--jobs", str(jobs), "--quiet"]
    if command == "extract-warc":  # extract-dir has no size limit: the same pages for both
        args += ["--max-body-size", str(NO_SIZE_LIMIT)]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
    }
    result = Run(command, jobs)
    start = time.perf_counter()
    process = subprocess.Popen(args, env=env, stderr=subprocess.PIPE, text=True)
    err = io.StringIO()
    reader = threading.Thread(target=lambda: err.write(process.stderr.read()))  # type: ignore[union-attr]
    reader.start()
    while process.poll() is None:
        result.rss.append(tree_rss_mib(process.pid))
        time.sleep(SAMPLE_SECONDS)
    result.seconds = time.perf_counter() - start
    reader.join()
    if process.returncode != 0:
        raise SystemExit(f"{command} failed ({process.returncode}):\n{err.getvalue()}")
    result.pages = pages_done(command, err.getvalue())
    return result


def pages_done(command: str, stderr: str) -> int:
    """Pages extracted (errors not counted), from the command's closing lines."""
    if command == "extract-warc":
        found = re.search(r"^extracted: (\d+)", stderr, re.MULTILINE)
    else:
        found = re.search(r"^(\d+) pages, (\d+) errors", stderr, re.MULTILINE)
    if found is None:
        raise SystemExit(f"{command}: no page count in:\n{stderr}")
    return int(found.group(1)) - (int(found.group(2)) if found.lastindex == 2 else 0)


# -- report --------------------------------------------------------------------------------------


def report(runs: list[Run], records: int, source: str, warc_mib: float) -> str:
    lines = [
        f"Pages: {source}, {records} records (WARC {warc_mib:.0f} MiB, gzip per record); "
        f"extractor `article`; {os.cpu_count()} CPUs, Python {platform.python_version()}; "
        "one run each. RSS: the command and its workers, summed, sampled every 0.5 s.",
        "",
        "| command | jobs | pages | seconds | pages/s | pages/s per worker "
        "| RSS MiB: first / at 25% / max / last |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for r in runs:
        rss = f"{r.rss[0]:.0f} / {r.rss_at_quarter():.0f} / {max(r.rss):.0f} / {r.rss[-1]:.0f}"
        lines.append(
            f"| `{r.command}` | {r.jobs} | {r.pages} | {r.seconds:.1f} | {r.rate:.1f} "
            f"| {r.rate / r.jobs:.1f} | {rss} |"
        )
    lines += [
        "",
        "| jobs | extract-warc / extract-dir pages/s | within 15% | extract-warc RSS flat |",
        "|---:|---:|---|---|",
    ]
    for jobs in sorted({r.jobs for r in runs}):
        warc = next(r for r in runs if r.jobs == jobs and r.command == "extract-warc")
        folder = next(r for r in runs if r.jobs == jobs and r.command == "extract-dir")
        ratio = warc.rate / folder.rate
        lines.append(
            f"| {jobs} | {ratio:.2f} | {'yes' if ratio >= MIN_RATIO else 'no'} "
            f"| {'yes' if warc.flat() else 'no'} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--jobs", default="1,2", help="comma-separated --jobs values")
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    args = parser.parse_args()
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        warc, folder, source = write_inputs(args.records, workdir)
        warc_mib = warc.stat().st_size / 2**20
        for jobs in (int(value) for value in args.jobs.split(",")):
            for command, target in (("extract-warc", warc), ("extract-dir", folder)):
                runs.append(run_command(command, jobs, target, workdir))
                print(f"{command} --jobs {jobs}: {runs[-1].rate:.1f} pages/s", file=sys.stderr)
    text = report(runs, args.records, source, warc_mib)
    print(text)
    if args.write:
        from run_benchmarks import replace_section

        doc_path = REPO / "docs" / "benchmarks.md"
        section = SECTION_HEAD.format(records=args.records, jobs=args.jobs) + text
        doc_path.write_text(replace_section(doc_path.read_text(), "warc", section))


if __name__ == "__main__":
    main()
