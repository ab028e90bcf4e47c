"""Crawl throughput with and without the scrapy-boilerplate add-on.

Serves N local pages from a separate process on 127.0.0.1 and crawls them with Scrapy (each
crawl in a fresh process, modes interleaved, ``--repeat`` times), then prints a markdown table:
pages/s (median), the ratio to the crawl without the add-on (the median over rounds of the
ratio to the baseline run of the same round), extraction time per page and the
reactor's lag (a 10 ms LoopingCall: how late each tick ran, i.e. how long the event loop was
blocked; 95th percentile and worst, median over runs), the crawl process's own CPU time per
page: all of it (start-up included) and between spider_opened and spider_closed (worker
processes and the page server excluded), and the CPU time per page of the crawl process and its
extraction workers together (what the add-on costs the machine, whatever else runs on it).

Article pages (``--article-share`` of them) have the callback ``parse_article``, which yields an
item; the others play listing pages with their own callback ``parse_listing``, which yields
nothing (their links are already scheduled), as in the example project's spider.

Pages: the first N WCXB pages (``$BOILERPLATE_DATASETS`` or ``../shared/datasets`` next to the
repository) if present, else generated article pages.

    python benchmarks/crawl_throughput.py --pages 500 --repeat 3
"""

from __future__ import annotations

import argparse
import gzip
import json
import multiprocessing
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
#: Mode name -> settings added to the baseline crawl.
ADDON = {"ADDONS": {"scrapy_boilerplate.Addon": 300}}
MODES: dict[str, dict[str, Any]] = {
    "baseline": {},
    "addon-default": ADDON,
    "addon-on-demand": {**ADDON, "BOILERPLATE_EXTRACT": "on-demand"},
    "addon-eager": {**ADDON, "BOILERPLATE_EXTRACT": "always"},
    "addon-site-templates": {**ADDON, "BOILERPLATE_SITE_TEMPLATES": True},
    "addon-no-site-templates": {**ADDON, "BOILERPLATE_SITE_TEMPLATES": False},
    "addon-inline": {**ADDON, "BOILERPLATE_PROCESSES": 0, "BOILERPLATE_THREADS": 0},
    "addon-1-thread": {**ADDON, "BOILERPLATE_PROCESSES": 0, "BOILERPLATE_THREADS": 1},
    "addon-2-threads": {**ADDON, "BOILERPLATE_PROCESSES": 0, "BOILERPLATE_THREADS": 2},
    "addon-1-process": {**ADDON, "BOILERPLATE_PROCESSES": 1},
    "addon-2-processes": {**ADDON, "BOILERPLATE_PROCESSES": 2},
}


def datasets_dir() -> Path:
    return Path(os.environ.get("BOILERPLATE_DATASETS", REPO.parent / "shared" / "datasets"))


def load_pages(count: int) -> tuple[list[bytes], str]:
    """The first ``count`` WCXB pages, else generated pages; and a description of the source."""
    html_dir = datasets_dir() / "wcxb-dev" / "html"
    files = sorted(html_dir.glob("*.html.gz"))[:count] if html_dir.is_dir() else []
    if len(files) == count:
        return [gzip.decompress(f.read_bytes()) for f in files], f"WCXB dev, first {count} pages"
    return [generated_page(i) for i in range(count)], f"{count} generated article pages"


def generated_page(index: int) -> bytes:
    paragraph = (
        "<p>Paragraph {j} of story {i}: the council met on Tuesday to discuss the budget for the "
        "coming year, and members agreed to fund the library, the pool and two new bus routes.</p>"
    )
    body = "".join(paragraph.format(i=index, j=j) for j in range(12))
    nav = "".join(f'<li><a href="/p/{k}.html">Story {k}</a></li>' for k in range(40))
    return (
        f"<html><head><title>Story {index} | Courier</title></head><body><nav><ul>{nav}</ul></nav>"
        f"<article><h1>Story {index}</h1>{body}</article><footer>Copyright</footer></body></html>"
    ).encode()


def page_handler(pages: list[bytes], latency_s: float = 0.0) -> type[BaseHTTPRequestHandler]:
    """A handler serving ``pages[N]`` at ``/p/N.html`` (404 otherwise), after ``latency_s``."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            try:
                body = pages[int(self.path.rsplit("/", 1)[1].split(".")[0])]
            except (ValueError, IndexError):
                self.send_error(404)
                return
            if latency_s:
                time.sleep(latency_s)
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


def serve(pages: list[bytes], port_out: Any, latency_s: float) -> None:
    ThreadingHTTPServer.daemon_threads = True
    server = ThreadingHTTPServer(("127.0.0.1", 0), page_handler(pages, latency_s))
    port_out.put(server.server_address[1])
    server.serve_forever()


def is_article(index: int, article_share: float) -> bool:
    """Whether page ``index`` plays an article (``parse_article`` yields an item) or a listing
    page (``parse_listing`` yields nothing: its links are already scheduled); articles spread
    evenly."""
    return int((index + 1) * article_share) > int(index * article_share)


def run_child(mode: str, port: int, pages: int, extractor: str, article_share: float) -> None:
    """One crawl (in this process); prints its figures as JSON. Site states (when site
    templates are on) start empty in a SQLite file of their own: every crawl learns afresh."""
    with tempfile.TemporaryDirectory() as folder:
        store = str(Path(folder) / "sites.sqlite3")
        crawl_child(mode, port, pages, extractor, article_share, store)


def crawl_child(
    mode: str, port: int, pages: int, extractor: str, article_share: float, store: str
) -> None:
    import scrapy
    from scrapy.crawler import CrawlerProcess
    from twisted.internet import task

    lags: list[float] = []

    class BenchSpider(scrapy.Spider):
        name = "bench"

        async def start(self) -> Any:
            for i in range(pages):
                article = is_article(i, article_share)
                callback = self.parse_article if article else self.parse_listing
                yield scrapy.Request(f"http://127.0.0.1:{port}/p/{i}.html", callback=callback)

        def parse_article(self, response: Any) -> Any:
            yield {"url": response.url, "title": response.css("title::text").get()}

        def parse_listing(self, response: Any) -> Any:
            return ()  # its links are already scheduled

    def watch_reactor() -> task.LoopingCall:
        last = [time.perf_counter()]

        def tick() -> None:
            now = time.perf_counter()
            lags.append(now - last[0] - 0.01)
            last[0] = now

        loop = task.LoopingCall(tick)
        loop.start(0.01, now=True)
        return loop

    settings = {
        "LOG_LEVEL": "ERROR",
        "TELNETCONSOLE_ENABLED": False,
        "ROBOTSTXT_OBEY": False,
        "CONCURRENT_REQUESTS": 16,
        "CONCURRENT_REQUESTS_PER_DOMAIN": 16,
        "BOILERPLATE_EXTRACTOR": extractor,
        "BOILERPLATE_SITE_STORE": store,
        **MODES[mode],
    }
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(BenchSpider)
    cpu_marks: dict[str, float] = {}
    for name in ("spider_opened", "spider_closed"):
        crawler.signals.connect(
            lambda name=name, **_: cpu_marks.setdefault(name, time.process_time()),
            signal=getattr(scrapy.signals, name),
            weak=False,
        )
    process.crawl(crawler)
    from twisted.internet import reactor

    reactor.callWhenRunning(watch_reactor)
    process.start()
    stats = crawler.stats.get_stats() if crawler.stats else {}
    print(
        json.dumps(
            {
                "elapsed": stats.get("elapsed_time_seconds"),
                "responses": stats.get("response_received_count", 0),
                "items": stats.get("item_scraped_count", 0),
                "processed": stats.get("boilerplate/responses/processed", 0),
                "errors": stats.get("boilerplate/responses/errors", 0),
                "extraction_ms": stats.get("boilerplate/extraction_time_ms", 0.0),
                "crawler_cpu_s": time.process_time(),
                "crawl_cpu_s": cpu_marks["spider_closed"] - cpu_marks["spider_opened"],
                "workers_cpu_s": _children_cpu_s(),
                "max_lag_ms": max(lags, default=0.0) * 1000,
                "p95_lag_ms": statistics.quantiles(lags, n=20)[-1] * 1000 if len(lags) > 1 else 0.0,
            }
        )
    )


def _children_cpu_s() -> float:
    """CPU seconds of this process's ended and reaped children (the extraction workers)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def crawl_once(
    mode: str, port: int, pages: int, extractor: str, article_share: float
) -> dict[str, Any]:
    command = [sys.executable, __file__, "--child", mode, "--port", str(port)]
    command += ["--pages", str(pages), "--extractor", extractor]
    command += ["--article-share", str(article_share)]
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return json.loads(output.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pages", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--extractor", default="article")
    parser.add_argument("--latency-ms", type=float, default=0.0, help="server delay per response")
    parser.add_argument(
        "--article-share",
        type=float,
        default=1.0,
        help="share of pages whose callback yields an item (the others play listing pages)",
    )
    parser.add_argument(
        "--modes", default=",".join(MODES), help="comma-separated, from: " + ", ".join(MODES)
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        run_child(args.child, args.port, args.pages, args.extractor, args.article_share)
        return

    pages, source = load_pages(args.pages)
    ports: Any = multiprocessing.Queue()
    server = multiprocessing.Process(
        target=serve, args=(pages, ports, args.latency_ms / 1000), daemon=True
    )
    server.start()
    port = ports.get(timeout=30)
    modes = [mode.strip() for mode in args.modes.split(",")]
    runs: dict[str, list[dict[str, Any]]] = {mode: [] for mode in modes}
    try:
        for _ in range(args.repeat):
            for mode in modes:
                runs[mode].append(
                    crawl_once(mode, port, args.pages, args.extractor, args.article_share)
                )
    finally:
        server.terminate()

    def rate(run: dict[str, Any]) -> float:
        return run["responses"] / run["elapsed"]

    def paired_ratio(mode_runs: list[dict[str, Any]]) -> float | None:
        """Median over rounds of this mode's rate over the baseline's in the same round (runs
        of one round are back to back, so a machine that slows down for a while counts once)."""
        if "baseline" not in runs:
            return None
        pairs = zip(mode_runs, runs["baseline"], strict=True)
        return statistics.median(rate(run) / rate(base_run) for run, base_run in pairs)

    mean_size = sum(map(len, pages)) / len(pages) / 1024
    print(
        f"Pages: {source} (mean {mean_size:.0f} KiB), server latency {args.latency_ms:g} ms, "
        f"extractor `{args.extractor}`, {args.repeat} runs per mode (median); "
        f"{args.article_share:.0%} of the pages yield an item, the others play listing pages."
    )
    print(
        f"Machine: {os.cpu_count()} CPUs, Python {platform.python_version()}, "
        f"Scrapy {__import__('scrapy').__version__}, Twisted reactor: Scrapy default (asyncio)."
    )
    print()
    print(
        "| mode | pages/s | vs. baseline | items | extracted | errors "
        "| extraction ms/page | crawler CPU ms/page: all / in crawl "
        "| CPU ms/page, crawler + workers | reactor lag p95 / max ms |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for mode in modes:
        mode_runs = runs[mode]
        median_rate = statistics.median(rate(r) for r in mode_runs)
        paired = paired_ratio(mode_runs)
        ratio = "n/a" if paired is None else f"{paired:.0%}"
        last = mode_runs[-1]
        per_page = last["extraction_ms"] / last["processed"] if last["processed"] else 0.0
        max_lag = statistics.median(r["max_lag_ms"] for r in mode_runs)
        p95_lag = statistics.median(r["p95_lag_ms"] for r in mode_runs)
        cpu = statistics.median(r["crawler_cpu_s"] for r in mode_runs) * 1000 / last["responses"]
        crawl_cpu = (
            statistics.median(r["crawl_cpu_s"] for r in mode_runs) * 1000 / last["responses"]
        )
        total_cpu = statistics.median(
            (r["crawler_cpu_s"] + r.get("workers_cpu_s", 0.0)) * 1000 / r["responses"]
            for r in mode_runs
        )
        print(
            f"| {mode} | {median_rate:.1f} | {ratio} | {last['items']} | {last['processed']} | "
            f"{last['errors']} | {per_page:.1f} | {cpu:.1f} / {crawl_cpu:.1f} | {total_cpu:.1f} | "
            f"{p95_lag:.0f} / {max_lag:.0f} |"
        )


if __name__ == "__main__":
    main()
