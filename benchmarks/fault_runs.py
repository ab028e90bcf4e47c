"""Fault runs: real crawls whose extraction workers are SIGKILLed, slowed or interrupted.

Each run crawls N generated article pages, served on 127.0.0.1 by this process, in a fresh
crawl process (``scrapy_boilerplate.Addon``, the ``article`` extractor unless said otherwise),
while this process injects one fault:

* ``kill``: SIGKILL a random extraction worker (a child of the crawl process) every 50–300 ms,
  ``--kills`` times;
* ``slow``: one page in 25 makes the extractor sleep 30 s (a pathological page), with the
  default ``BOILERPLATE_TIMEOUT``, in worker processes or in a thread;
* ``sigint``: Ctrl-C (SIGINT) to the crawl once half the items are in; the time to exit counts;
* ``closespider``: ``CLOSESPIDER_ITEMCOUNT`` at half the pages.

It prints a markdown table: items expected / received / without article text / lost /
duplicated, faults injected, stats, time to finish; ``--write`` puts it in docs/benchmarks.md.
Also used by ``tests/test_integration_faults.py`` (fewer pages and runs).

    python benchmarks/fault_runs.py --pages 400 --repeat 3 --write
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "benchmarks"))  # its sibling scripts (page server, sections)
SLOW_MARKER = "PATHOLOGICAL-PAGE-SLEEPS-HERE"
SLOW_EVERY = 25


@dataclass
class Scenario:
    """One kind of run: crawl settings and the fault injected."""

    name: str
    fault: str  # "none", "kill", "slow", "sigint", "closespider"
    settings: dict[str, Any] = field(default_factory=dict)
    kills: int = 0


@dataclass
class Outcome:
    """What one run produced (the crawl's own report plus what the injector saw)."""

    scenario: str
    expected: int
    received: int
    without_text: int
    lost: int
    duplicated: int
    faults: int
    seconds: float
    exit_code: int
    stats: dict[str, Any]
    exit_seconds: float | None = None  # sigint: from the signal to the process's exit
    workers_seen: int = 0  # distinct worker processes seen during the run
    workers_left: int = 0  # of those, still running after the crawl process exited


SCENARIOS: dict[str, Scenario] = {
    "no-fault": Scenario("no-fault", "none"),
    "kill-1-worker": Scenario("kill-1-worker", "kill", {"BOILERPLATE_PROCESSES": 1}, kills=8),
    "kill-2-workers": Scenario("kill-2-workers", "kill", {"BOILERPLATE_PROCESSES": 2}, kills=8),
    "slow-process": Scenario("slow-process", "slow", {"BOILERPLATE_PROCESSES": 1}),
    "slow-thread": Scenario(
        "slow-thread", "slow", {"BOILERPLATE_PROCESSES": 0, "BOILERPLATE_THREADS": 1}
    ),
    "sigint": Scenario("sigint", "sigint", {"BOILERPLATE_PROCESSES": 1}),
    "closespider": Scenario("closespider", "closespider", {"BOILERPLATE_PROCESSES": 1}),
}


# -- the site ----------------------------------------------------------------------------------


def page(index: int) -> bytes:
    """Article page ``index``: a nav, twelve paragraphs, a footer; every 25th is pathological."""
    marker = f" {SLOW_MARKER}" if index % SLOW_EVERY == SLOW_EVERY - 1 else ""
    paragraphs = "".join(
        f"<p>Paragraph {j} of story {index}{marker}: the council met on Tuesday to discuss the "
        "budget for the coming year, and members agreed to fund the library and a bus route.</p>"
        for j in range(12)
    )
    nav = "".join(f'<li><a href="/p/{k}.html">Story {k}</a></li>' for k in range(30))
    return (
        f"<html><head><title>Story {index}</title></head><body><nav><ul>{nav}</ul></nav>"
        f"<article><h1>Story {index}</h1>{paragraphs}</article><footer>(c)</footer></body></html>"
    ).encode()


@contextmanager
def serving(pages: int) -> Iterator[int]:
    """Serve ``pages`` article pages on a free local port (yields the port)."""
    from crawl_throughput import page_handler

    bodies = [page(index) for index in range(pages)]
    server = ThreadingHTTPServer(("127.0.0.1", 0), page_handler(bodies))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


# -- the crawl (a child process) ---------------------------------------------------------------


def crawl_child(port: int, pages: int, settings: dict[str, Any], report: str) -> None:
    """Crawl the site in this process; write the items' URLs and the stats to ``report``."""
    import scrapy
    from scrapy.crawler import CrawlerProcess

    from scrapy_boilerplate import register_extractor
    from scrapy_boilerplate.classifiers import NUM_WORDS_RULES

    def sleep_on_marker(doc: Any) -> bool:
        if any(SLOW_MARKER in block.text for block in doc.blocks):
            time.sleep(30)
        return False

    register_extractor("fault-slow", lambda options, context: [NUM_WORDS_RULES, sleep_on_marker])
    received: list[tuple[str, bool]] = []

    class FaultSpider(scrapy.Spider):
        name = "faults"

        async def start(self) -> Any:
            for index in range(pages):
                yield scrapy.Request(f"http://127.0.0.1:{port}/p/{index}.html")

        def parse(self, response: Any) -> Any:
            yield {"url": response.url}

    def scraped(item: dict[str, Any]) -> None:
        received.append((item["url"], bool(item.get("article_text"))))
        if len(received) == pages // 2:
            print("HALF", flush=True)

    process = CrawlerProcess(
        {
            "LOG_LEVEL": "ERROR",
            "TELNETCONSOLE_ENABLED": False,
            "ROBOTSTXT_OBEY": False,
            "CONCURRENT_REQUESTS": 16,
            "CONCURRENT_REQUESTS_PER_DOMAIN": 16,
            "ADDONS": {"scrapy_boilerplate.Addon": 300},
            **settings,
        }
    )
    crawler = process.create_crawler(FaultSpider)
    from scrapy import signals

    crawler.signals.connect(scraped, signal=signals.item_scraped)
    process.crawl(crawler)
    process.start()
    stats = crawler.stats.get_stats() if crawler.stats else {}
    boilerplate = {k: v for k, v in stats.items() if k.startswith("boilerplate/")}
    Path(report).write_text(json.dumps({"items": received, "stats": boilerplate}))


# -- the injector (this process) ---------------------------------------------------------------


def children_of(pid: int) -> list[int]:
    """Process ids whose parent is ``pid`` (Linux ``/proc``)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry.name))
    return found


def run(scenario: Scenario, pages: int, port: int, seed: int, workdir: Path) -> Outcome:
    """One crawl of ``pages`` pages with ``scenario``'s fault; returns what came out."""
    settings = dict(scenario.settings)
    if scenario.fault == "slow":
        settings["BOILERPLATE_EXTRACTOR"] = "fault-slow"
    if scenario.fault == "closespider":
        settings["CLOSESPIDER_ITEMCOUNT"] = pages // 2
    report = workdir / f"{scenario.name}-{seed}.json"
    command = [sys.executable, __file__, "--child", json.dumps(settings), "--port", str(port)]
    command += ["--pages", str(pages), "--report", str(report)]
    rng = random.Random(seed)
    started = time.monotonic()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=REPO)
    seen: set[int] = set()
    watcher = threading.Thread(target=_watch_children, args=(child, seen), daemon=True)
    watcher.start()
    faults, exit_seconds = 0, None
    if scenario.fault == "kill":
        faults = _kill_workers(child, scenario.kills, rng)
    elif scenario.fault == "sigint":
        assert child.stdout is not None
        child.stdout.readline()  # "HALF"
        child.send_signal(signal.SIGINT)
        signalled, faults = time.monotonic(), 1
    child.wait(timeout=600)
    seconds = time.monotonic() - started
    watcher.join()
    time.sleep(0.5)  # a worker that outlives its parent would still be here
    left = [pid for pid in seen if _running(pid)]
    if scenario.fault == "sigint":
        exit_seconds = time.monotonic() - signalled
    data = json.loads(report.read_text()) if report.exists() else {"items": [], "stats": {}}
    urls = [url for url, _ in data["items"]]
    expected = {f"http://127.0.0.1:{port}/p/{index}.html" for index in range(pages)}
    return Outcome(
        scenario=scenario.name,
        expected=len(expected),
        received=len(urls),
        without_text=sum(1 for _, has_text in data["items"] if not has_text),
        lost=len(expected - set(urls)),
        duplicated=len(urls) - len(set(urls)),
        faults=faults,
        seconds=seconds,
        exit_code=child.returncode,
        stats=data["stats"],
        exit_seconds=exit_seconds,
        workers_seen=len(seen),
        workers_left=len(left),
    )


def _watch_children(child: subprocess.Popen[str], seen: set[int]) -> None:
    while child.poll() is None:
        seen.update(children_of(child.pid))
        time.sleep(0.05)


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _kill_workers(child: subprocess.Popen[str], kills: int, rng: random.Random) -> int:
    done = 0
    while done < kills and child.poll() is None:
        time.sleep(rng.uniform(0.05, 0.3))
        workers = children_of(child.pid)
        if workers:
            try:
                os.kill(rng.choice(workers), signal.SIGKILL)
                done += 1
            except ProcessLookupError:
                pass
    return done


# -- the table ---------------------------------------------------------------------------------


def table(outcomes: list[Outcome], pages: int) -> str:
    lines = [
        f"{pages} generated article pages per run, served locally; CONCURRENT_REQUESTS=16; "
        "`article` extractor (the slow runs: `numwords` plus a 30 s sleep on every 25th page, "
        "default `BOILERPLATE_TIMEOUT` of 5 s). Lost: expected items never received; a SIGINT "
        "or CLOSESPIDER run stops early by design, so its missing items were never crawled.",
        "",
        "| run | faults | items expected | received | without text | lost | duplicated "
        "| worker deaths / retried / given up | timed out | seconds | exit after SIGINT "
        "| workers seen / left running |",
        "|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|",
    ]
    for o in outcomes:
        stats = o.stats
        deaths = (
            f"{stats.get('boilerplate/workers/died', 0)} / "
            f"{stats.get('boilerplate/responses/retried', 0)} / "
            f"{stats.get('boilerplate/responses/errors/WorkerDiedError', 0)}"
        )
        exit_after = f"{o.exit_seconds:.1f} s" if o.exit_seconds is not None else ""
        stopped_early = o.scenario in ("sigint", "closespider")
        lost = f"{o.lost} (not crawled)" if stopped_early else str(o.lost)
        lines.append(
            f"| {o.scenario} | {o.faults} | {o.expected} | {o.received} | {o.without_text} "
            f"| {lost} | {o.duplicated} | {deaths} "
            f"| {stats.get('boilerplate/responses/timed_out', 0)} | {o.seconds:.1f} | {exit_after} "
            f"| {o.workers_seen} / {o.workers_left} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pages", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=3, help="runs per fault scenario")
    parser.add_argument("--scenarios", default=",".join(SCENARIOS))
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--report", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        crawl_child(args.port, args.pages, json.loads(args.child), args.report)
        return
    import tempfile

    outcomes = []
    with serving(args.pages) as port, tempfile.TemporaryDirectory() as workdir:
        for name in args.scenarios.split(","):
            scenario = SCENARIOS[name.strip()]
            repeat = 1 if scenario.fault in ("none", "closespider") else args.repeat
            for seed in range(repeat):
                outcome = run(scenario, args.pages, port, seed, Path(workdir))
                print(json.dumps(asdict(outcome)), file=sys.stderr)
                outcomes.append(outcome)
    text = table(outcomes, args.pages)
    print(text)
    if args.write:
        from run_benchmarks import replace_section

        doc_path = REPO / "docs" / "benchmarks.md"
        doc_path.write_text(replace_section(doc_path.read_text(), "faults", text))


if __name__ == "__main__":
    main()
