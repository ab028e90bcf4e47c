"""The offline demo: generate the demo news sites, serve them, crawl them into SQLite, score.

    python example_project/run_demo.py [--db PATH] [--spider news_crawl|news_sitemap|news_rss]

Steps: write the three demo sites to a temporary directory, start the local server, run
``scrapy crawl`` in a subprocess with the server as its HTTP proxy (so the sites keep their
own host names), stop the server, then read the database and print a summary: pages
crawled, articles stored, mean token F1 of the stored text against the generator's truth.
Running it again re-crawls into the same database: rows are updated, never duplicated.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from statistics import mean

from demo_site.generator import SITES, generate
from demo_site.server import DemoSiteServer

from .pipelines import PROJECT_DIR
from .scoring import token_f1

__all__ = ["DemoResult", "run_demo", "spider_arguments", "score_database", "main"]

DEFAULT_DB = PROJECT_DIR / "data" / "articles.sqlite3"


@dataclass
class DemoResult:
    """What one demo run did and how well the stored text matches the truth."""

    returncode: int
    seconds: float
    pages_served: dict[str, int]
    truth_articles: int
    stored_articles: int
    stored_not_articles: list[str]
    missing: list[str]
    inserted: int
    updated: int
    f1_by_url: dict[str, float] = field(default_factory=dict)
    log_path: Path | None = None

    @property
    def mean_f1(self) -> float:
        """Mean F1 of the stored articles (missing ones are counted in :attr:`missing`)."""
        return mean(self.f1_by_url.values()) if self.f1_by_url else 0.0

    def mean_f1_by_site(self) -> dict[str, float]:
        hosts = {site.host: site.name for site in SITES}
        scores: dict[str, list[float]] = {}
        for url, f1 in self.f1_by_url.items():
            host = url.split("/")[2]
            scores.setdefault(hosts.get(host, host), []).append(f1)
        return {name: mean(values) for name, values in sorted(scores.items())}

    def summary(self) -> str:
        served = self.pages_served
        pages = sum(count for kind, count in served.items() if kind not in ("robots", "missing"))
        detail = ", ".join(
            f"{count} {kind}" for kind, count in sorted(served.items()) if kind != "robots"
        )
        lines = [
            f"Pages crawled:   {pages} ({detail})",
            f"Articles stored: {self.stored_articles} of {self.truth_articles} article pages "
            f"({self.inserted} new, {self.updated} changed in this run)",
            f"Mean article-text token F1 vs truth: {self.mean_f1:.3f} (over the stored articles)",
        ]
        lines += [f"    {name}: {f1:.3f}" for name, f1 in self.mean_f1_by_site().items()]
        if self.missing:
            lines.append(f"Missing articles: {len(self.missing)} (e.g. {self.missing[0]})")
        if self.stored_not_articles:
            lines.append(f"Stored pages that are not articles: {len(self.stored_not_articles)}")
        lines.append(f"Time: {self.seconds:.1f} s")
        return "\n".join(lines)


def spider_arguments(spider: str) -> list[str]:
    """The ``-a`` arguments that point ``spider`` at the demo sites."""
    if spider == "news_crawl":
        return ["-a", "start_urls=" + ",".join(site.url("/") for site in SITES)]
    if spider == "news_sitemap":
        return ["-a", "sitemap_urls=" + ",".join(site.url("/robots.txt") for site in SITES)]
    if spider == "news_rss":
        return ["-a", "feed_urls=" + ",".join(site.url(site.feed_path) for site in SITES)]
    raise ValueError(f"unknown spider {spider!r}")


def score_database(
    db_path: Path, truth: dict[str, dict[str, str]], since: datetime | None = None
) -> DemoResult:
    """Compare the stored rows with the truth (the crawl facts are left empty)."""
    conn = sqlite3.connect(db_path)
    try:
        rows = conn.execute(
            "SELECT url, article_text, first_seen, last_changed, version FROM articles"
        ).fetchall()
    finally:
        conn.close()
    stamp = since.isoformat(timespec="microseconds") if since else ""
    stored = {url: text for url, text, *_ in rows}
    return DemoResult(
        returncode=0,
        seconds=0.0,
        pages_served={},
        truth_articles=len(truth),
        stored_articles=sum(1 for url in stored if url in truth),
        stored_not_articles=sorted(url for url in stored if url not in truth),
        missing=sorted(url for url in truth if url not in stored),
        inserted=sum(1 for _, _, first, _, _ in rows if first >= stamp),
        updated=sum(1 for _, _, first, changed, _ in rows if changed >= stamp > first),
        f1_by_url={
            url: token_f1(text, truth[url]["text"]).f1
            for url, text in stored.items()
            if url in truth
        },
    )


def run_demo(
    db_path: Path = DEFAULT_DB,
    *,
    spider: str = "news_crawl",
    seed: int = 7,
    edition: int = 1,
    spool_path: Path | None = None,
    feed_path: Path | None = None,
    settings: Sequence[str] = (),
    log_path: Path | None = None,
) -> DemoResult:
    """Generate, serve and crawl the demo sites into the SQLite file ``db_path``; score the result.

    ``settings`` are extra ``NAME=VALUE`` Scrapy settings; the crawl log goes to ``log_path``
    (default: next to the database).
    """
    started = time.perf_counter()
    since = datetime.now(timezone.utc)
    db_path = db_path.resolve()
    db_path.parent.mkdir(parents=True, exist_ok=True)
    log_path = (log_path or db_path.with_name("demo-crawl.log")).resolve()
    spool_path = (spool_path or db_path.with_name("spool.jsonl")).resolve()
    with tempfile.TemporaryDirectory(prefix="newsroom-demo-") as site_dir:
        generate(site_dir, seed=seed, edition=edition)
        truth = json.loads((Path(site_dir) / "truth.json").read_text(encoding="utf-8"))
        with DemoSiteServer(site_dir) as server:
            command = [
                sys.executable,
                "-m",
                "scrapy",
                "crawl",
                spider,
                *spider_arguments(spider),
                "-s",
                f"DATABASE_URL=sqlite:///{db_path}",
                "-s",
                f"STORAGE_SPOOL_PATH={spool_path}",
                "-s",
                f"LOG_FILE={log_path}",
                "-s",
                "LOG_FILE_APPEND=False",
                "-s",
                "LOG_LEVEL=INFO",
                # The local server needs no politeness delay.
                "-s",
                "DOWNLOAD_DELAY=0",
                "-s",
                "AUTOTHROTTLE_ENABLED=False",
                "-s",
                "CONCURRENT_REQUESTS_PER_DOMAIN=8",
            ]
            for setting in settings:
                command += ["-s", setting]
            if feed_path is not None:
                command += ["-O", str(feed_path.resolve())]
            env = {
                key: value
                for key, value in os.environ.items()
                if key.lower() not in ("http_proxy", "https_proxy", "no_proxy", "all_proxy")
            }
            env["http_proxy"] = server.proxy_url  # the demo hosts resolve through the local server
            env.pop("DATABASE_URL", None)
            process = subprocess.run(command, cwd=PROJECT_DIR, env=env, check=False)
            served = dict(server.hits)
    result = (
        score_database(db_path, truth, since)
        if db_path.exists()
        else DemoResult(0, 0.0, {}, len(truth), 0, [], sorted(truth), 0, 0)
    )
    result.returncode = process.returncode
    result.pages_served = served
    result.seconds = time.perf_counter() - started
    result.log_path = log_path
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Crawl the bundled demo news sites into SQLite and score the result."
    )
    parser.add_argument(
        "--db", type=Path, default=DEFAULT_DB, help=f"SQLite file (default: {DEFAULT_DB})"
    )
    parser.add_argument(
        "--spider", default="news_crawl", choices=("news_crawl", "news_sitemap", "news_rss")
    )
    parser.add_argument("--seed", type=int, default=7, help="seed of the generated sites")
    parser.add_argument(
        "--edition", type=int, default=1, help="2 revises some articles (to see updates)"
    )
    parser.add_argument("--feed", type=Path, help="also export the items to this JSON-lines file")
    parser.add_argument(
        "-s",
        "--set",
        dest="settings",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="extra Scrapy setting, e.g. -s BOILERPLATE_EXTRACTOR=numwords",
    )
    args = parser.parse_args(argv)
    print(f"Crawling the demo news sites with {args.spider} into {args.db} ...", flush=True)
    result = run_demo(
        args.db,
        spider=args.spider,
        seed=args.seed,
        edition=args.edition,
        feed_path=args.feed,
        settings=args.settings,
    )
    print(result.summary())
    print(f"Crawl log: {result.log_path}")
    if result.returncode != 0:
        print(f"The crawl failed (exit code {result.returncode}); see the log.", file=sys.stderr)
        return result.returncode
    return 0
