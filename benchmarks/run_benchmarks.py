#!/usr/bin/env python
"""Quality and speed of this project's extractors and of the peer libraries, same pages, same run.

Every extractor runs in its own subprocess (so its peak RSS is its own), over the same pages,
one page at a time: the page is decoded to ``str`` first (not timed), then
``time.perf_counter()`` (``--cpu``: the worker's CPU clock, ``time.thread_time()``, which waiting
for a core on a shared machine does not inflate) brackets the extractor call (parsing
included). The floor is the bare
``lxml.html.document_fromstring(html)`` of the same pages, timed the same way. Scores are
computed in the worker after the timed loop, from the outputs it kept (see
``docs/evaluation.md`` for the metrics).

Writes the marked sections of ``docs/benchmarks.md`` (``<!-- BEGIN x -->`` ... ``<!-- END x -->``
for x in method, quality, speed, memory, acceptance); other sections are left alone.

    python benchmarks/run_benchmarks.py                 # everything (about 30-40 min on 2 cores)
    python benchmarks/run_benchmarks.py --quick         # 50 pages per dataset, smoke test
    python benchmarks/run_benchmarks.py --extractors article boilerpy3-article --limit 200
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from scrapy_boilerplate.evaluation.datasets import (
    DATASETS_ENV,
    FULL_TEXT_SUFFIX,
    Page,
    load_pages,
    resolve_dataset,
)
from scrapy_boilerplate.evaluation.metrics import (
    Counts,
    benchmark_scores,
    bootstrap_se,
)
from scrapy_boilerplate.evaluation.peers import PEERS, PeerUnavailableError, resolve_extractor
from scrapy_boilerplate.evaluation.report import (
    PageScore,
    Summary,
    page_text,
    quality_table,
    score_page,
    summarise,
    type_table,
)
from scrapy_boilerplate.page import segmentation

REPO = Path(__file__).resolve().parents[1]
DOC = REPO / "docs" / "benchmarks.md"
#: Dataset names resolve here: ``$BOILERPLATE_DATASETS``, else ``../shared/datasets`` beside
#: the repository (set for this process and its workers).
DATASETS_ROOT = Path(os.environ.get(DATASETS_ENV) or REPO.parent / "shared" / "datasets")
os.environ[DATASETS_ENV] = str(DATASETS_ROOT)
FLOOR = "lxml-parse"
OURS = ["article", "article-rules", "page-template", "boilerpipe-article", "default", "victor"]
DEFAULT_EXTRACTORS = [*OURS, *PEERS, FLOOR]
DEFAULT_DATASETS = [
    "wcxb-dev",
    "fundus",
    "magic-html",
    "l3s-gn1",
    f"l3s-gn1{FULL_TEXT_SUFFIX}",
    "cleaneval/final",
]
RSS_CHECKPOINTS = (100, 500, 1000, 2000)
QUICK_LIMIT = 50
EXIT_UNAVAILABLE = 3


# -- worker (one extractor, one subprocess) ---------------------------------------------------


def _current_rss_mb() -> float:
    """Resident set size now, from /proc/self/statm (Linux), in MiB."""
    with open("/proc/self/statm") as handle:
        resident_pages = int(handle.read().split()[1])
    return resident_pages * resource.getpagesize() / 2**20


def _floor_extractor() -> Any:
    import lxml.html

    def parse(html: str, url: str | None) -> str:
        lxml.html.document_fromstring(html)
        return ""

    return parse


def _pages(datasets: Sequence[str], limit: int | None) -> Iterator[tuple[str, Page]]:
    for name in datasets:
        for page in load_pages(name, limit=limit):
            yield name, page


def run_worker(
    spec: str, datasets: Sequence[str], limit: int | None, out: Path, cpu: bool = False
) -> int:
    """Run one extractor over the pages; write one JSON line per page, then a summary line
    (``cpu``: times by the thread's CPU clock, else by wall clock).

    The timed loop only extracts (each output is appended to a side file); the pages are
    scored afterwards, in a second pass over them: scoring between two timed calls leaves the
    next call's caches cold, which inflated the slower extractors' times (measured: ``article``
    on CleanEval and L3S-GN1 pages 4.1 -> 4.65 ms CPU median). Peak RSS is taken before scoring.
    """
    clock = time.thread_time if cpu else time.perf_counter
    try:
        extract = _floor_extractor() if spec == FLOOR else resolve_extractor(spec)
    except PeerUnavailableError as exc:
        print(exc, file=sys.stderr)
        return EXIT_UNAVAILABLE
    rss_start = _current_rss_mb()
    checkpoints: dict[int, float] = {}
    count = 0
    texts_path = out.with_suffix(".texts.jsonl")
    with texts_path.open("w", encoding="utf-8") as texts:
        for dataset, page in _pages(datasets, limit):
            html = page_text(page)
            if count == 0:  # warm-up: first-call imports and caches are not the page's cost
                with contextlib.suppress(Exception):
                    extract(html, page.url)
            error = None
            start = clock()
            try:
                text = extract(html, page.url)
            except Exception as exc:
                text, error = "", repr(exc)[:200]
            seconds = clock() - start
            count += 1
            record = {"dataset": dataset, "id": page.id, "seconds": seconds, "error": error}
            texts.write(json.dumps([record, text]) + "\n")
            if count in RSS_CHECKPOINTS:
                checkpoints[count] = _current_rss_mb()
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    with texts_path.open(encoding="utf-8") as texts, out.open("w", encoding="utf-8") as sink:
        for (_dataset, page), line in zip(_pages(datasets, limit), texts, strict=True):
            record, text = json.loads(line)
            if spec != FLOOR:
                score = score_page(page, text, error=record["error"] is not None)
                record["score"] = asdict(score)
            sink.write(json.dumps(record) + "\n")
        summary = {
            "summary": True,
            "rss_start_mb": rss_start,
            "peak_rss_mb": peak_mb,
            "rss": checkpoints,
        }
        sink.write(json.dumps(summary) + "\n")
    texts_path.unlink()
    return 0


# -- parent: run workers, aggregate ----------------------------------------------------------


@dataclass
class Run:
    """What one extractor's worker reported."""

    spec: str
    available: bool = True
    note: str = ""
    seconds: dict[tuple[str, str], float] = field(default_factory=dict)
    errors: dict[tuple[str, str], str] = field(default_factory=dict)
    scores: dict[str, list[PageScore]] = field(default_factory=dict)  # dataset -> page scores
    peak_rss_mb: float = 0.0
    rss_start_mb: float = 0.0
    rss: dict[int, float] = field(default_factory=dict)


def _page_score(data: dict[str, Any]) -> PageScore:
    counts = {key: Counts(**data[key]) for key in ("shingle", "bag_of_words", "characters")}
    return PageScore(**{**data, **counts})


def run_one(
    spec: str, datasets: Sequence[str], limit: int | None, workdir: Path, cpu: bool = False
) -> Run:
    out = workdir / f"{spec.replace(':', '_').replace('/', '_')}.jsonl"
    command = [
        sys.executable,
        __file__,
        "--worker",
        spec,
        "--datasets",
        *datasets,
        "--result",
        str(out),
    ]
    if limit is not None:
        command += ["--limit", str(limit)]
    if cpu:
        command.append("--cpu")
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True)
    run = Run(spec)
    if done.returncode == EXIT_UNAVAILABLE:
        return Run(spec, available=False, note=done.stderr.strip().splitlines()[-1])
    if done.returncode != 0:
        tail = done.stderr.strip().splitlines()[-1:] or ["no output"]
        return Run(spec, available=False, note=f"worker failed: {tail[0]}")
    for line in out.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record.get("summary"):
            run.peak_rss_mb = record["peak_rss_mb"]
            run.rss_start_mb = record["rss_start_mb"]
            run.rss = {int(k): v for k, v in record["rss"].items()}
            continue
        key = (record["dataset"], record["id"])
        run.seconds[key] = record["seconds"]
        if record["error"]:
            run.errors[key] = record["error"]
        if "score" in record:
            run.scores.setdefault(record["dataset"], []).append(_page_score(record["score"]))
    print(
        f"  {spec}: {len(run.seconds)} pages in {time.monotonic() - started:.0f} s", file=sys.stderr
    )
    return run


# -- tables -----------------------------------------------------------------------------------


def _percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))
    return ordered[index]


def speed_table(runs: Sequence[Run]) -> str:
    floor = next((run for run in runs if run.spec == FLOOR and run.available), None)
    header = [
        "extractor",
        "pages",
        "median ms/page",
        "p95 ms/page",
        "pages/s",
        "median ratio to lxml parse",
        "peak RSS MiB",
        "errors",
    ]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for run in sorted(
        runs, key=lambda r: statistics.median(r.seconds.values()) if r.seconds else 1e9
    ):
        if not run.available:
            lines.append(f"| `{run.spec}` | not run: {run.note} |" + " |" * (len(header) - 2))
            continue
        times = list(run.seconds.values())
        ratio = "-"
        if floor is not None:
            ratios = [
                seconds / floor.seconds[key]
                for key, seconds in run.seconds.items()
                if floor.seconds.get(key) and key not in floor.errors
            ]
            ratio = f"{statistics.median(ratios):.2f}" if ratios else "-"
        lines.append(
            f"| `{run.spec}` | {len(times)} | {1000 * statistics.median(times):.1f} | "
            f"{1000 * _percentile(times, 0.95):.1f} | {len(times) / sum(times):.1f} | {ratio} | "
            f"{run.peak_rss_mb:.0f} | {len(run.errors)} |"
        )
    return "\n".join(lines)


def memory_table(run: Run) -> str:
    cells = [f"{run.rss_start_mb:.0f}"] + [
        f"{run.rss[n]:.0f}" if n in run.rss else "-" for n in RSS_CHECKPOINTS
    ]
    header = ["before page 1"] + [f"after page {n}" for n in RSS_CHECKPOINTS] + ["peak"]
    return "\n".join(
        [
            "| " + " | ".join(header) + " |",
            "|" + "---|" * len(header),
            "| " + " | ".join([*cells, f"{run.peak_rss_mb:.0f}"]) + " |",
        ]
    )


def _articles(scores: Sequence[PageScore]) -> list[PageScore]:
    return [score for score in scores if score.page_type == "article"]


def _difference(a: Sequence[PageScore], b: Sequence[PageScore], attr: str, samples: int) -> str:
    """``attr`` (precision / f1) of shingle scores, a minus b, with a paired bootstrap SE."""

    def stat(pairs: Sequence[tuple[PageScore, PageScore]]) -> float:
        first = benchmark_scores([x.shingle for x, _ in pairs])
        second = benchmark_scores([y.shingle for _, y in pairs])
        return float(getattr(first, attr) - getattr(second, attr))

    pairs = list(zip(a, b, strict=True))
    return f"{stat(pairs):+.3f} ± {bootstrap_se(pairs, stat, samples=samples):.3f}"


def acceptance(runs: dict[str, Run], subsets: dict[str, str], samples: int) -> str:
    """The headline comparisons (this project against its peers) this run can show, with numbers."""
    lines = ["| check | subset | value (paired bootstrap SE) |", "|---|---|---|"]
    pairs = [
        ("`article` - `article-rules`, shingle F1", "article-rules", "f1"),
        ("`article` - `trafilatura`, shingle F1", "trafilatura", "f1"),
        ("`article` - `readability`, shingle F1", "readability", "f1"),
        ("`article` - `boilerpy3-article`, shingle F1 (goal >= +0.05)", "boilerpy3-article", "f1"),
        (
            "`article` - `boilerpy3-article`, shingle precision (goal > 0)",
            "boilerpy3-article",
            "precision",
        ),
    ]
    ours = runs.get("article")
    for label, other_name, attr in pairs:
        other = runs.get(other_name)
        if not ours or not other or not ours.available or not other.available:
            continue
        for subset, dataset in subsets.items():
            a, b = ours.scores.get(dataset, []), other.scores.get(dataset, [])
            if subset.endswith("article pages"):
                a, b = _articles(a), _articles(b)
            if a and len(a) == len(b):
                lines.append(f"| {label} | {subset} | {_difference(a, b, attr, samples)} |")
    floor, boilerpy3 = runs.get(FLOOR), runs.get("boilerpy3-article")
    if ours and ours.available and floor and floor.available:
        ratios = [s / floor.seconds[k] for k, s in ours.seconds.items() if floor.seconds.get(k)]
        of_medians = statistics.median(ours.seconds.values()) / statistics.median(
            floor.seconds.values()
        )
        lines.append(
            f"| `article` median per-page time / lxml parse time (goal <= 3.5) | all pages | "
            f"{statistics.median(ratios):.2f} (ratio of medians {of_medians:.2f}) |"
        )
    if ours and ours.available and boilerpy3 and boilerpy3.available:
        lines.append(
            f"| median ms/page `article` vs `boilerpy3-article` (goal: faster) | all pages | "
            f"{1000 * statistics.median(ours.seconds.values()):.1f} vs "
            f"{1000 * statistics.median(boilerpy3.seconds.values()):.1f} |"
        )
    return "\n".join(lines)


# -- docs/benchmarks.md ----------------------------------------------------------------------


def replace_section(document: str, name: str, body: str) -> str:
    """Replace the marked section ``name`` of ``document`` (appended if missing)."""
    begin, end = f"<!-- BEGIN {name} -->", f"<!-- END {name} -->"
    block = f"{begin}\n{body.strip()}\n{end}"
    if begin in document and end in document:
        head, _, rest = document.partition(begin)
        _, _, tail = rest.partition(end)
        return head + block + tail
    return document.rstrip() + "\n\n" + block + "\n"


def _versions(specs: Sequence[str]) -> str:
    from importlib.metadata import PackageNotFoundError, version

    names = {
        "trafilatura": "trafilatura",
        "boilerpy3-article": "boilerpy3",
        "justext": "justext",
        "readability": "readability-lxml",
        "newspaper4k": "newspaper4k",
        "goose3": "goose3",
        "resiliparse": "resiliparse",
        "html-text": "html-text",
        FLOOR: "lxml",
    }
    found = []
    for spec in specs:
        package = names.get(spec)
        if package:
            try:
                found.append(f"{package} {version(package)}")
            except PackageNotFoundError:
                found.append(f"{package} (not installed)")
    return ", ".join(found)


def write_doc(path: Path, sections: dict[str, str]) -> None:
    document = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    for name, body in sections.items():
        document = replace_section(document, name, body)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(document, encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--extractors", nargs="+", default=DEFAULT_EXTRACTORS, metavar="SPEC")
    parser.add_argument("--datasets", nargs="+", default=DEFAULT_DATASETS, metavar="NAME")
    parser.add_argument("--limit", type=int, help="first N pages of each dataset")
    parser.add_argument(
        "--quick", action="store_true", help=f"--limit {QUICK_LIMIT}, 100 resamples"
    )
    parser.add_argument(
        "--jobs", type=int, default=1, help="extractors run at once (keep 1 for timings)"
    )
    parser.add_argument("--bootstrap", type=int, default=300, help="bootstrap resamples")
    parser.add_argument("--out", type=Path, default=DOC, help="markdown file to update")
    parser.add_argument("--no-write", action="store_true", help="print the tables only")
    parser.add_argument(
        "--cpu", action="store_true", help="time by the workers' CPU clock (shared machines)"
    )
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--result", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.quick:
        args.limit = args.limit or QUICK_LIMIT
        args.bootstrap = min(args.bootstrap, 100)
    if args.worker:
        return run_worker(args.worker, args.datasets, args.limit, args.result, args.cpu)

    datasets = [name for name in args.datasets if _exists(name)]
    if not datasets:
        print(f"no datasets found under {DATASETS_ROOT}", file=sys.stderr)
        return 2
    specs = list(dict.fromkeys(args.extractors))
    print(f"running {len(specs)} extractors on {', '.join(datasets)}", file=sys.stderr)
    with tempfile.TemporaryDirectory() as workdir, ThreadPoolExecutor(args.jobs) as pool:
        results = list(
            pool.map(lambda s: run_one(s, datasets, args.limit, Path(workdir), args.cpu), specs)
        )
    runs = {run.spec: run for run in results}
    scored = [run for run in results if run.available and run.spec != FLOOR]

    quality: list[str] = []
    subsets: dict[str, str] = {}
    for dataset in datasets:
        with_snippets = any(
            s.with_rate is not None for r in scored for s in r.scores.get(dataset, [])
        )
        types = {s.page_type for r in scored for s in r.scores.get(dataset, [])}
        has_types = len(types - {None}) > 1
        groups: list[tuple[str, str | None]] = [(dataset, None)]
        if has_types:
            groups.insert(0, (f"{dataset}, article pages", "article"))
        for title, page_type in groups:
            rows: list[Summary] = []
            for run in scored:
                scores = run.scores.get(dataset, [])
                if page_type:
                    scores = [s for s in scores if s.page_type == page_type]
                rows.append(summarise(run.spec, scores, bootstrap=args.bootstrap))
            subsets[title] = dataset
            count = rows[0].pages if rows else 0
            quality.append(
                f"### {title} ({count} pages)\n\n{quality_table(rows, snippets=with_snippets)}"
            )
        if has_types:
            by_type = {run.spec: run.scores.get(dataset, []) for run in scored}
            quality.append(f"### {dataset}: word-shingle F1 by page type\n\n{type_table(by_type)}")
    unavailable = [f"`{run.spec}` ({run.note})" for run in results if not run.available]
    if unavailable:
        quality.append("Not run: " + "; ".join(unavailable))

    command = "python benchmarks/run_benchmarks.py " + " ".join(
        argv if argv is not None else sys.argv[1:]
    )
    method = "\n".join(
        [
            "## Extraction benchmark: method",
            "",
            f"Generated {date.today().isoformat()} by `{command.strip()}` on "
            f"{platform.machine()}, Python {platform.python_version()}, {_cpu_count()} CPUs; "
            f"datasets: {', '.join(datasets)}"
            f"{f' (first {args.limit} pages of each)' if args.limit else ''}.",
            f"Peers: {_versions(specs)}.",
            "scrapy-boilerplate's compiled speedups: "
            f"{'on' if segmentation.ACCELERATED else 'off (pure Python)'}.",
            "",
            "Each extractor runs alone in its own subprocess (`--jobs 1`), over the same pages "
            "in the same order, one page at a time. A page is decoded to `str` first (BOM, "
            "`<meta>`, sniffing; not timed); the time of a page is "
            f"{'`time.thread_time()` (CPU time)' if args.cpu else '`time.perf_counter()`'} "
            "around the one extractor call, parsing included; one untimed warm-up call "
            f"precedes the first page. The floor `{FLOOR}` is "
            "`lxml.html.document_fromstring(html)` of the same `str`. *Median ratio to lxml "
            "parse* is the median over pages of (extractor time / parse time of that page). "
            "The outputs are scored after the timed loop, in a second pass (scoring between "
            "timed calls left the next call's caches cold). "
            "Peak RSS is `ru_maxrss` of the worker process over the timed loop (libraries and "
            "one page; the scorer not included). Metrics: see "
            "[evaluation.md](evaluation.md); ± is one bootstrap standard error "
            f"({args.bootstrap} page resamples).",
            "",
            "`article`'s shipped models (the model of article pages and the page-type "
            "classifier on WCXB-dev, fundus and magic-html; the model of every page on "
            "WCXB-dev) and those of `page-template` and `victor` (WCXB-dev) are trained on "
            "some of these pages: their rows of those datasets are training scores. Their "
            "figures of record there are cross-validated by domain: below for `article`, in "
            "[reproduction.md](reproduction.md) for `page-template` (section 5) and `victor` "
            "(section 7).",
        ]
    )
    sections = {
        "method": method,
        "quality": "## Extraction quality\n\n" + "\n\n".join(quality),
        "speed": "## Extraction speed\n\n" + speed_table(results),
        "acceptance": "## Headline comparisons\n\n" + acceptance(runs, subsets, args.bootstrap),
    }
    if "article" in runs and runs["article"].available:
        sections["memory"] = (
            "## Memory of `article` over the run\n\n"
            "RSS in MiB (`/proc/self/statm`) of the `article` worker over "
            f"{len(runs['article'].seconds)} pages (datasets in the order above).\n\n"
            + memory_table(runs["article"])
        )
    for body in sections.values():
        print(body + "\n")
    if not args.no_write:
        write_doc(args.out, sections)
        print(f"updated {args.out}", file=sys.stderr)
    return 0


def _exists(name: str) -> bool:
    try:
        resolve_dataset(name.removesuffix(FULL_TEXT_SUFFIX))
    except ValueError:
        print(f"skipping dataset {name!r}: not found", file=sys.stderr)
        return False
    return True


def _cpu_count() -> int:
    import os

    return os.cpu_count() or 1


if __name__ == "__main__":
    sys.exit(main())
