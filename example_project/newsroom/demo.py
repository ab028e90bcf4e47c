"""The offline demo: generate the demo news sites, serve them, crawl them into a database, score.

    python example_project/run_demo.py [--db PATH | --database-url URL]
        [--spider news_crawl|news_sitemap|news_rss]

Steps: write the three demo sites to a temporary directory, start the local server, run
``scrapy crawl`` in a subprocess with the server as its HTTP proxy (so the sites keep their
own host names), stop the server, then read the database the crawl wrote (through the storage
layer: SQLite or PostgreSQL) and the spool, and print a summary: the database, pages crawled,
articles stored, metadata and page types stored, mean token F1 of the stored text against the
generator's truth, items spooled. Running it again re-crawls into the same database: rows are
updated, never duplicated.

The database is, first that applies: ``database_url`` (``--database-url``, default the
``DATABASE_URL`` environment variable), a ``DATABASE_URL=...`` in ``settings`` (``-s``), the
SQLite file ``db_path`` (``--db``). The spool: ``spool_path``, a ``STORAGE_SPOOL_PATH=...`` in
``settings``, ``spool.jsonl`` next to ``db_path``. The crawl's site-template state (learnt
while it crawls, used by the next run): ``site-templates.sqlite3`` next to ``db_path``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from statistics import mean

from demo_site.generator import SITES, generate
from demo_site.server import DemoSiteServer

from .pipelines import PROJECT_DIR
from .scoring import token_f1
from .storage import ArticleStore, Spool, StoredArticle, StoreError, open_store

__all__ = [
    "DemoResult",
    "run_demo",
    "spider_arguments",
    "demo_database_url",
    "score_store",
    "main",
]

DEFAULT_DB = PROJECT_DIR / "data" / "articles.sqlite3"
#: Seconds the scoring waits on a locked SQLite file (the crawl's own timeout may be tiny).
SCORING_SQLITE_TIMEOUT = 30.0
#: The stored metadata the summary counts, with their labels.
METADATA_LABELS = {
    "published": "published",
    "modified": "modified",
    "authors": "authors",
    "language": "language",
    "canonical_url": "canonical URL",
    "description": "description",
    "image": "image",
}


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
    #: The database the crawl wrote (``SQLite /path`` or ``PostgreSQL host:port/db``).
    database: str = ""
    #: Why the database could not be read after the crawl (None: it was read).
    database_error: str | None = None
    #: Articles (of the truth) with each metadata value stored, by :data:`METADATA_LABELS` key.
    metadata_counts: dict[str, int] = field(default_factory=dict)
    #: Articles (of the truth) stored with each page type (none without a page type).
    page_type_counts: dict[str, int] = field(default_factory=dict)
    spool_path: Path | None = None
    #: Items spooled during this run (the database was unavailable), and lines in the spool now.
    spooled: int = 0
    spool_waiting: int = 0

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
            f"Database:        {self.database}",
            f"Pages crawled:   {pages} ({detail})",
        ]
        if self.database_error:
            lines.append(f"Database not readable after the crawl: {self.database_error}")
        lines += [
            f"Articles stored: {self.stored_articles} of {self.truth_articles} article pages "
            f"({self.inserted} new, {self.updated} changed in this run)",
            f"Metadata stored: {self.metadata_line()}",
            f"Page types:      {self.page_type_line()}",
            f"Mean article-text token F1 vs truth: {self.mean_f1:.3f} (over the stored articles)",
        ]
        lines += [f"    {name}: {f1:.3f}" for name, f1 in self.mean_f1_by_site().items()]
        lines.append(self.spool_line())
        if self.missing:
            lines.append(f"Missing articles: {len(self.missing)} (e.g. {self.missing[0]})")
        if self.stored_not_articles:
            lines.append(f"Stored pages that are not articles: {len(self.stored_not_articles)}")
        lines.append(f"Time: {self.seconds:.1f} s")
        return "\n".join(lines)

    def metadata_line(self) -> str:
        """How many stored articles have each metadata value."""
        if not self.metadata_counts:
            return "none"
        counts = ", ".join(
            f"{label} {self.metadata_counts.get(key, 0)}" for key, label in METADATA_LABELS.items()
        )
        return f"{counts} (of {self.stored_articles})"

    def page_type_line(self) -> str:
        """How many stored articles have each page type, most frequent first."""
        if not self.page_type_counts:
            return "none"
        by_count = Counter(self.page_type_counts).most_common()
        counts = ", ".join(f"{name} {count}" for name, count in by_count)
        return f"{counts} (of {self.stored_articles})"

    def spool_line(self) -> str:
        """The items spooled in this run and waiting in the spool."""
        where = self.spool_path or "the spool"
        line = f"Spooled:         {self.spooled} item(s) in this run"
        if self.spooled:
            line += " (the database was unavailable)"
        line += f"; {self.spool_waiting} waiting in {where}"
        if self.spool_waiting:
            line += " (write them with `scrapy replay_spool`)"
        return line


def spider_arguments(spider: str) -> list[str]:
    """The ``-a`` arguments that point ``spider`` at the demo sites."""
    if spider == "news_crawl":
        return ["-a", "start_urls=" + ",".join(site.url("/") for site in SITES)]
    if spider == "news_sitemap":
        return ["-a", "sitemap_urls=" + ",".join(site.url("/robots.txt") for site in SITES)]
    if spider == "news_rss":
        return ["-a", "feed_urls=" + ",".join(site.url(site.feed_path) for site in SITES)]
    raise ValueError(f"unknown spider {spider!r}")


def demo_database_url(
    db_path: Path, database_url: str | None = None, settings: Sequence[str] = ()
) -> str:
    """The database the demo crawls into (see the module docstring for the precedence)."""
    return database_url or _setting(settings, "DATABASE_URL") or f"sqlite:///{db_path.resolve()}"


def _setting(settings: Sequence[str], name: str) -> str | None:
    """The last ``NAME=VALUE`` of ``name`` in ``settings`` (as ``scrapy -s`` reads them)."""
    values = [item.split("=", 1)[1] for item in settings if item.split("=", 1)[0] == name]
    return values[-1] if values else None


def score_store(
    store: ArticleStore, truth: dict[str, dict[str, str]], since: datetime | None = None
) -> DemoResult:
    """Compare the stored articles with the truth (the crawl facts are left empty).

    Articles first seen at or after ``since`` count as new, those changed since as changed.
    Raises :class:`StoreError` if the database cannot be read.
    """
    stored = {article.url: article for article in store.articles()}
    scored = [article for url, article in stored.items() if url in truth]
    start = since or datetime.max.replace(tzinfo=timezone.utc)
    return DemoResult(
        returncode=0,
        seconds=0.0,
        pages_served={},
        truth_articles=len(truth),
        stored_articles=len(scored),
        stored_not_articles=sorted(url for url in stored if url not in truth),
        missing=sorted(url for url in truth if url not in stored),
        inserted=sum(1 for a in stored.values() if a.first_seen >= start),
        updated=sum(1 for a in stored.values() if a.last_changed >= start > a.first_seen),
        f1_by_url={a.url: token_f1(a.text, truth[a.url]["text"]).f1 for a in scored},
        database=store.description,
        metadata_counts={key: sum(1 for a in scored if _has(a, key)) for key in METADATA_LABELS},
        page_type_counts=dict(Counter(a.page_type for a in scored if a.page_type)),
    )


def _has(article: StoredArticle, name: str) -> bool:
    return bool(getattr(article, name))


def _read_result(
    database_url: str, truth: dict[str, dict[str, str]], since: datetime
) -> DemoResult:
    """:func:`score_store` of the database; an empty result naming the error if unreadable."""
    store = open_store(database_url, base_dir=PROJECT_DIR, sqlite_timeout=SCORING_SQLITE_TIMEOUT)
    try:
        return score_store(store, truth, since)
    except StoreError as exc:
        result = DemoResult(0, 0.0, {}, len(truth), 0, [], sorted(truth), 0, 0)
        result.database, result.database_error = store.description, str(exc)
        return result
    finally:
        store.close()


def run_demo(
    db_path: Path = DEFAULT_DB,
    *,
    database_url: str | None = None,
    spider: str = "news_crawl",
    seed: int = 7,
    edition: int = 1,
    spool_path: Path | None = None,
    feed_path: Path | None = None,
    settings: Sequence[str] = (),
    log_path: Path | None = None,
) -> DemoResult:
    """Generate, serve and crawl the demo sites into the database; score what it holds.

    The database is ``database_url``, else a ``DATABASE_URL=`` in ``settings``, else the SQLite
    file ``db_path``. ``settings`` are extra ``NAME=VALUE`` Scrapy settings; the crawl log goes
    to ``log_path`` (default: next to ``db_path``).
    """
    started = time.perf_counter()
    since = datetime.now(timezone.utc)
    db_path = db_path.resolve()
    db_path.parent.mkdir(parents=True, exist_ok=True)
    database_url = demo_database_url(db_path, database_url, settings)
    log_path = (log_path or db_path.with_name("demo-crawl.log")).resolve()
    configured_spool = _setting(settings, "STORAGE_SPOOL_PATH")
    spool_path = (
        spool_path
        or (PROJECT_DIR / configured_spool if configured_spool else None)
        or db_path.with_name("spool.jsonl")
    ).resolve()
    settings = [
        item
        for item in settings
        if item.split("=", 1)[0] not in ("DATABASE_URL", "STORAGE_SPOOL_PATH")
    ]
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
                f"DATABASE_URL={database_url}",
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
                "-s",
                f"BOILERPLATE_SITE_STORE={db_path.with_name('site-templates.sqlite3')}",
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
    result = _read_result(database_url, truth, since)
    spool = Spool(spool_path)
    result.spool_path, result.spooled, result.spool_waiting = (
        spool_path,
        spool.count(since=since),
        spool.count(),
    )
    result.returncode = process.returncode
    result.pages_served = served
    result.seconds = time.perf_counter() - started
    result.log_path = log_path
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Crawl the bundled demo news sites into a database and score the result."
    )
    parser.add_argument(
        "--db",
        type=Path,
        default=DEFAULT_DB,
        help=f"SQLite file, unless a database URL is given (default: {DEFAULT_DB})",
    )
    parser.add_argument(
        "--database-url",
        default=os.environ.get("DATABASE_URL") or None,
        help="database to crawl into, e.g. postgresql://user:password@host:5432/news "
        "(default: the DATABASE_URL environment variable, else --db)",
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
    database_url = demo_database_url(args.db, args.database_url, args.settings)
    where = open_store(database_url, base_dir=PROJECT_DIR).description
    print(f"Crawling the demo news sites with {args.spider} into {where} ...", flush=True)
    result = run_demo(
        args.db,
        database_url=database_url,
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
