"""Pathological pages: time and peak memory of ``scrapy_boilerplate.extract`` on hostile input.

Every case is a function in :data:`CASES` (name -> page bytes, built in memory):

* ``nbsp-dashes-40k``: ``<p>a&nbsp;b `` then 40,000 ``-`` and ``</p>`` (no other markup).
* ``nbsp-dashes-200k``: five such paragraphs in a small page (about 200 KB).
* ``attributes-40k``: one ``<div a0="x" a1="x" ... a39999="x">text</div>`` in a small page.
* ``million-divs-12mb``: 1,000,000 ``<div>x</div>`` (about 12 MB).
* ``tiny-elements-5mb``: ``<span>a</span><b>b</b><i>c</i><br>`` repeated up to 5,000,000 bytes
  (about 590,000 elements).
* ``ordinary-text-5mb``: ``<p>`` paragraphs of English-like prose (60-120 words each, words
  drawn by ``random.Random(0)``) up to 5,000,000 bytes.
* ``deep-nesting-100k``: 100,000 nested unclosed ``<div>``, then a paragraph of prose.
* ``deep-font-3k``: 3,000 nested unclosed ``<font>``, then a paragraph of prose.
* ``long-word-run-1mb``: ``<p>a&nbsp;b `` then 1,000,000 ``-`` (no space) and ``</p>``.
* ``page-100mb``: prose paragraphs up to 100,000,000 bytes; only with ``--huge`` (or when named
  in ``--cases``).

Each case runs in a fresh child process (this file with ``--child PAGE_FILE``, same Python) so
peak RSS is per case. The page is written to a temporary file by another short-lived process
(``--generate``): on Linux ``ru_maxrss`` survives ``exec`` and would carry the peak of the
process that spawned the child, so the parent never holds a page and stays smaller than any
child. The child imports ``scrapy_boilerplate``, reads the page, makes one
untimed warm-up call on a small ordinary page, then times one ``extract(page)`` call: wall
seconds (``time.perf_counter``), CPU seconds (``time.process_time``), and peak RSS
(``ru_maxrss`` of the child, its whole life: imports and page bytes included; "base MB" is the
same figure just before the call). MB here are MiB. A child still running after ``--timeout``
seconds (counted from its start) is killed and reported as ``timeout``, with the peak RSS and
CPU time it had reached (``/proc``). No assertions: the script prints a markdown table.

    python benchmarks/pathological_pages.py [--cases NAME,...] [--timeout 120] [--huge]
        [--json OUT.json] [--baseline BEFORE.json] [--write-doc]

``--baseline`` takes an earlier ``--json`` file and shows before/after columns; ``--write-doc``
replaces the text between ``<!-- BEGIN pathological -->`` and ``<!-- END pathological -->`` in
``docs/benchmarks.md`` (or ``--doc``) with the table and a provenance line.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import shlex
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

Row = dict[str, Any]

TARGET_BYTES = 5_000_000
TARGET_SECONDS = 1.0
TARGET_MB = 300.0
CAPTION = (
    f"Target: every case up to {TARGET_BYTES // 1_000_000} MB in under {TARGET_SECONDS:g} s "
    f"and under {TARGET_MB:g} MB peak RSS (one `extract(page)` call, fresh process per case)."
)
BEGIN, END = "<!-- BEGIN pathological -->", "<!-- END pathological -->"
DOC = Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md"
RESULT_MARK = "@@pathological-result@@ "

HEAD = (
    b'<!DOCTYPE html><html><head><meta charset="utf-8"><title>A pathological page</title>'
    b"</head><body><h1>A pathological page</h1>\n"
)
TAIL = b"\n</body></html>\n"
_VOCABULARY = (
    "the of and to in a is that for it as was with be by on not he this are or his from at "
    "which but have an they you were her she there one all we their been has when who will "
    "more no if out so said what up its about into than them can only other new some could "
    "time these two may then do first any my now such like our over man me even most made "
    "after also did many before must through back years where much your way well down should "
    "because each just those people how too little state good very make world still own see "
    "men work long get here between both life being under never day same another know while "
    "last might us great old year off come since against go came right used take three river "
    "market council village morning letter garden history station report winter evening"
)
WORDS = _VOCABULARY.split()


# --- the pages ----------------------------------------------------------------------------


def sentence(rng: random.Random, count: int) -> str:
    words = rng.choices(WORDS, k=count)
    if count > 8 and rng.random() < 0.4:
        words[rng.randrange(3, count - 2)] += ","
    return " ".join(words).capitalize() + "."


def prose_paragraph(rng: random.Random) -> str:
    """60 to 120 words in sentences of 6 to 18 words."""
    remaining, sentences = rng.randint(60, 120), []
    while remaining > 0:
        count = min(remaining, rng.randint(6, 18))
        sentences.append(sentence(rng, count))
        remaining -= count
    return " ".join(sentences)


def paragraph_bytes(seed: int = 0) -> bytes:
    return b"<p>" + prose_paragraph(random.Random(seed)).encode() + b"</p>"


def prose_page(limit: int, seed: int = 0) -> bytes:
    """A page of ``<p>`` prose paragraphs, at most ``limit`` bytes."""
    rng = random.Random(seed)
    parts, size = [HEAD], len(HEAD) + len(TAIL)
    while True:
        para = b"<p>" + prose_paragraph(rng).encode() + b"</p>\n"
        if size + len(para) > limit:
            break
        parts.append(para)
        size += len(para)
    parts.append(TAIL)
    return b"".join(parts)


def small_page(body: bytes) -> bytes:
    """``body`` between a title, a heading and two ordinary paragraphs."""
    return HEAD + paragraph_bytes(1) + b"\n" + body + b"\n" + paragraph_bytes(2) + TAIL


def repeated(unit: bytes, limit: int) -> bytes:
    """``unit`` repeated as often as fits in a page of at most ``limit`` bytes."""
    return HEAD + unit * ((limit - len(HEAD) - len(TAIL)) // len(unit)) + TAIL


def nbsp_dashes(dashes: int) -> bytes:
    return b"<p>a&nbsp;b " + b"-" * dashes + b"</p>"


def attributes(count: int) -> bytes:
    names = b" ".join(b'a%d="x"' % index for index in range(count))
    return small_page(b"<div " + names + b">text</div>")


def nested(open_tag: bytes, depth: int) -> bytes:
    return HEAD + open_tag * depth + paragraph_bytes(3) + TAIL


CASES: dict[str, Callable[[], bytes]] = {
    "nbsp-dashes-40k": lambda: nbsp_dashes(40_000),
    "nbsp-dashes-200k": lambda: small_page(b"\n".join([nbsp_dashes(40_000)] * 5)),
    "attributes-40k": lambda: attributes(40_000),
    "million-divs-12mb": lambda: HEAD + b"<div>x</div>" * 1_000_000 + TAIL,
    "tiny-elements-5mb": lambda: repeated(b"<span>a</span><b>b</b><i>c</i><br>", TARGET_BYTES),
    "ordinary-text-5mb": lambda: prose_page(TARGET_BYTES),
    "deep-nesting-100k": lambda: nested(b"<div>", 100_000),
    "deep-font-3k": lambda: nested(b"<font>", 3_000),
    "long-word-run-1mb": lambda: nbsp_dashes(1_000_000),
}
HUGE_CASES: dict[str, Callable[[], bytes]] = {"page-100mb": lambda: prose_page(100_000_000)}


# --- the child: one timed call ----------------------------------------------------------------


def peak_kib() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux


def short_error(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    message = lines[0] if lines else ""
    message = message if len(message) <= 80 else message[:77] + "..."
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


def child(page_file: str) -> int:
    import scrapy_boilerplate
    from scrapy_boilerplate.page import ACCELERATED

    page = Path(page_file).read_bytes()
    scrapy_boilerplate.extract(prose_page(4000, seed=7))  # warm-up, not timed
    base_kib = peak_kib()
    cpu_start, wall_start = time.process_time(), time.perf_counter()
    try:
        outcome, status = f"ok: {len(scrapy_boilerplate.extract(page).text)} chars of text", "ok"
    except Exception as exc:
        outcome, status = short_error(exc), "error"
    wall_end, cpu_end = time.perf_counter(), time.process_time()
    row = {
        "seconds": wall_end - wall_start,
        "cpu_seconds": cpu_end - cpu_start,
        "peak_mb": peak_kib() / 1024,
        "base_mb": base_kib / 1024,
        "status": status,
        "outcome": outcome,
        "package": scrapy_boilerplate.__file__,
        "version": scrapy_boilerplate.__version__,
        "accelerated": bool(ACCELERATED),
    }
    sys.stdout.write(RESULT_MARK + json.dumps(row) + "\n")
    return 0


# --- the parent: one child per case ---------------------------------------------------------


def proc_figures(pid: int) -> tuple[float | None, float | None]:
    """Peak RSS (MiB, ``VmHWM``) and CPU seconds so far of a live process, from ``/proc``."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None, None
    hwm = [line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:")]
    ticks = int(stat[11]) + int(stat[12])  # utime, stime
    peak = int(hwm[0]) / 1024 if hwm else None
    return peak, ticks / os.sysconf("SC_CLK_TCK")


def timeout_row(proc: subprocess.Popen[str], timeout: float) -> Row:
    peak, cpu = proc_figures(proc.pid)
    proc.kill()
    proc.communicate()
    outcome = f"timeout (killed after {timeout:g} s)"
    return {
        "status": "timeout",
        "outcome": outcome,
        "seconds": None,
        "cpu_seconds": cpu,
        "peak_mb": peak,
        "base_mb": None,
    }


def failed_row(proc: subprocess.Popen[str], stderr: str) -> Row:
    if proc.returncode < 0:
        outcome = f"crashed: signal {-proc.returncode}"
    else:
        lines = stderr.strip().splitlines() or ["no output"]
        outcome = f"child failed (exit {proc.returncode}): {lines[-1][:80]}"
    return {
        "status": "crash",
        "outcome": outcome,
        "seconds": None,
        "cpu_seconds": None,
        "peak_mb": None,
        "base_mb": None,
    }


def run_child(page_file: Path, timeout: float) -> Row:
    command = [sys.executable, str(Path(__file__).resolve()), "--child", str(page_file)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        return timeout_row(proc, timeout)
    for line in reversed(stdout.splitlines()):
        if line.startswith(RESULT_MARK):
            row: Row = json.loads(line[len(RESULT_MARK) :])
            return row
    return failed_row(proc, stderr)


def generate(name: str, page_file: Path) -> None:
    command = [sys.executable, str(Path(__file__).resolve()), "--generate", name, str(page_file)]
    subprocess.run(command, check=True)


def run_case(name: str, timeout: float) -> Row:
    with tempfile.TemporaryDirectory(prefix="pathological-") as tmp:
        page_file = Path(tmp) / f"{name}.html"
        generate(name, page_file)
        size = page_file.stat().st_size
        row = run_child(page_file, timeout)
    return {"case": name, "bytes": size, "timeout": timeout, **row}


def progress(index: int, total: int, row: Row) -> None:
    print(
        f"[{index}/{total}] {row['case']}: {seconds(row)} s, {megabytes(row['peak_mb'])} MB, "
        f"{row['outcome']}",
        file=sys.stderr,
        flush=True,
    )


# --- the table ------------------------------------------------------------------------------


def seconds(row: Row | None) -> str:
    if row is None:
        return "—"
    if row["status"] == "timeout":
        return f"> {row['timeout']:g}"
    return "—" if row["seconds"] is None else f"{row['seconds']:.2f}"


def megabytes(value: float | None, at_least: bool = False) -> str:
    if value is None:
        return "—"
    return f"≥ {value:.0f}" if at_least else f"{value:.0f}"


def peak(row: Row | None) -> str:
    return "—" if row is None else megabytes(row["peak_mb"], row["status"] == "timeout")


def meets_target(row: Row) -> str:
    """Time and memory only (see the outcome); "n/a" for pages over the target's size."""
    if row["bytes"] > TARGET_BYTES:
        return "n/a"
    if row["status"] not in ("ok", "error"):
        return "no"
    return "yes" if row["seconds"] < TARGET_SECONDS and row["peak_mb"] < TARGET_MB else "no"


def cpu(row: Row) -> str:
    value = row["cpu_seconds"]
    return "—" if value is None else f"{value:.2f}"


def page_mb(row: Row) -> str:
    return f"{row['bytes'] / 1_000_000:.2f}"


def markdown(header: list[str], rows: list[list[str]]) -> str:
    align = [
        "---" if index == 0 or name.startswith(("outcome", "meets")) else "---:"
        for index, name in enumerate(header)
    ]
    lines = [header, align, *rows]
    return "\n".join(
        "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |" for cells in lines
    )


def plain_table(rows: list[Row]) -> str:
    header = [
        "case",
        "page MB",
        "seconds",
        "CPU s",
        "base MB",
        "peak MB",
        "meets target",
        "outcome",
    ]
    cells = [
        [
            row["case"],
            page_mb(row),
            seconds(row),
            cpu(row),
            megabytes(row["base_mb"]),
            peak(row),
            meets_target(row),
            row["outcome"],
        ]
        for row in rows
    ]
    return markdown(header, cells)


def compared_table(rows: list[Row], before: dict[str, Row]) -> str:
    header = [
        "case",
        "page MB",
        "s before",
        "s after",
        "peak MB before",
        "peak MB after",
        "meets target after",
        "outcome after",
    ]
    cells = []
    for row in rows:
        old = before.get(row["case"])
        cells.append(
            [
                row["case"],
                page_mb(row),
                seconds(old),
                seconds(row),
                peak(old),
                peak(row),
                meets_target(row),
                row["outcome"],
            ]
        )
    return markdown(header, cells)


# --- provenance, JSON, the doc ----------------------------------------------------------------


def provenance(rows: list[Row]) -> dict[str, Any]:
    accelerated = next((row["accelerated"] for row in rows if "accelerated" in row), None)
    package = next((row["package"] for row in rows if "package" in row), None)
    return {
        "command": shlex.join(["python", "benchmarks/pathological_pages.py", *sys.argv[1:]]),
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": platform.machine(),
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "accelerated": accelerated,
        "package": package,
    }


def provenance_line(meta: dict[str, Any], before: dict[str, Any] | None) -> str:
    line = (
        f"Measured {meta['date']} by `{meta['command']}` on {meta['machine']}, "
        f"Python {meta['python']}, {meta['cpus']} CPUs, "
        f"`scrapy_boilerplate.page.ACCELERATED` = {meta['accelerated']}."
    )
    if before:
        line += (
            f" Before: measured {before.get('date', '?')} by `{before.get('command', '?')}`, "
            f"Python {before.get('python', '?')}, ACCELERATED = {before.get('accelerated')}."
        )
    return line


def load_baseline(path: Path) -> tuple[dict[str, Row], dict[str, Any]]:
    data = json.loads(path.read_text("utf-8"))
    rows, meta = (data, {}) if isinstance(data, list) else (data["rows"], data.get("meta", {}))
    return {row["case"]: row for row in rows}, meta


def section(table: str, note: str) -> str:
    return f"## Pathological pages\n\n{CAPTION}\n\n{table}\n\n{note}\n"


def write_doc(doc: Path, text: str) -> bool:
    """Replace the text between the markers; False (and the section printed) if they are absent."""
    content = doc.read_text("utf-8") if doc.is_file() else ""
    begin, end = content.find(BEGIN), content.find(END)
    if begin < 0 or end < begin:
        print(f"\nThe markers {BEGIN} / {END} are missing in {doc}; not edited. Section:\n")
        print(text)
        return False
    doc.write_text(content[: begin + len(BEGIN)] + "\n" + text + content[end:], "utf-8")
    print(f"\nWrote the section between the markers in {doc}")
    return True


# --- command line ---------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", help="comma-separated case names (default: all)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per case")
    parser.add_argument("--huge", action="store_true", help="also run page-100mb")
    parser.add_argument("--json", type=Path, help="write the measured rows here")
    parser.add_argument("--baseline", type=Path, help="an earlier --json: before/after columns")
    parser.add_argument("--write-doc", action="store_true", help="update docs/benchmarks.md")
    parser.add_argument("--doc", type=Path, default=DOC, help=argparse.SUPPRESS)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--generate", nargs=2, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def selected_cases(args: argparse.Namespace) -> list[str]:
    known = {**CASES, **HUGE_CASES}
    if not args.cases:
        return [*CASES, *(HUGE_CASES if args.huge else [])]
    names = [name.strip() for name in args.cases.split(",") if name.strip()]
    unknown = [name for name in names if name not in known]
    if unknown:
        raise SystemExit(f"unknown case(s): {', '.join(unknown)}; known: {', '.join(known)}")
    return names


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.child:
        return child(args.child)
    if args.generate:
        name, page_file = args.generate
        Path(page_file).write_bytes({**CASES, **HUGE_CASES}[name]())
        return 0
    cases = selected_cases(args)
    rows = []
    for index, name in enumerate(cases, 1):
        rows.append(run_case(name, args.timeout))
        progress(index, len(cases), rows[-1])
    meta = provenance(rows)
    if args.json:
        args.json.write_text(json.dumps({"meta": meta, "rows": rows}, indent=2) + "\n", "utf-8")
    before, before_meta = load_baseline(args.baseline) if args.baseline else ({}, None)
    table = compared_table(rows, before) if args.baseline else plain_table(rows)
    print(f"{CAPTION}\n\n{table}\n\nPackage: {meta['package']}")
    if args.write_doc and not write_doc(
        args.doc, section(table, provenance_line(meta, before_meta))
    ):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
