"""A distributed crawl of a generated news network: N crawler processes sharing Redis.

    python example_project/run_distributed.py --processes 3 --sites 24 --articles-per-site 60 \\
        --database-url postgresql://user:password@127.0.0.1:5432/news [--kill] [--redis-restart]

Steps: generate the network (``demo_site`` at scale: sites x articles), start a local
``redis-server`` (:class:`~newsroom.distributed.redis_server.LocalRedis`; no persistence unless
``persist`` or ``redis_restart``), serve the sites on one local port (the demo's server, used as
the crawlers' HTTP proxy), push every site's home page to ``news_crawl_redis:start_urls``, start
N ``scrapy crawl news_crawl_redis`` processes with :mod:`newsroom.settings_distributed`, and
wait until the crawl is **done**: every process has exited (each closes once the shared frontier
is drained and it is idle) and the frontier is drained (no queued request, no unread seed, no
lease). If the processes have all exited and the frontier is not drained (they stopped because
Redis was unavailable), the runner starts them again, up to ``max_rounds`` times in all.

Faults: ``kill`` SIGKILLs crawler 1 once ``kill_at`` of the article pages have been served and
starts it again at once (the survivors go on; the dead process's leases are re-queued when its
heartbeat key expires, after ``lease_timeout`` seconds). ``redis_restart`` kills the Redis server
(persistent, AOF fsynced on every write) at the same point, keeps it down ``redis_down`` seconds
and starts it again: the crawlers stop (Redis unavailable) and the next round resumes.

The report: pages crawled (distinct URLs served), fetches, pages fetched more than once, articles
stored (truth URLs written in this run), duplicate rows (must be 0), lost articles (truth minus
stored; must be 0), time and pages/s.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from demo_site.generator import ARTICLES_PER_SITE, generate, network_sites
from demo_site.server import DemoSiteServer

from ..pipelines import PROJECT_DIR
from ..storage import StoreError, open_store
from .redis_server import LocalRedis
from .scheduler import frontier
from .spider import NewsCrawlRedisSpider, seed_data

__all__ = ["DistributedResult", "main", "run_distributed"]

SPIDER = NewsCrawlRedisSpider.name
DEFAULT_WORK_DIR = PROJECT_DIR / "data" / "distributed"
#: Seconds between two looks at the crawlers, the server and Redis.
POLL = 0.2


@dataclass
class DistributedResult:
    """What a distributed crawl did, checked against the generator's truth."""

    processes: int
    sites: int
    truth_articles: int
    pages: int  # distinct URLs served (robots.txt and 404s not counted)
    fetches: int  # responses served (same exclusions)
    refetched: int  # URLs served more than once
    stored: int  # truth articles written in this run
    duplicate_rows: int  # database rows sharing a URL (must be 0)
    lost: list[str]  # truth articles not stored in this run (must be empty)
    seconds: float
    database: str
    kills: int = 0
    redis_restarts: int = 0
    rounds: int = 1
    recovered: int = 0  # leases re-queued by the crawlers (from their logs)
    frontier_left: int = 0
    timed_out: bool = False
    returncodes: list[int] = field(default_factory=list)
    log_dir: Path | None = None

    @property
    def pages_per_second(self) -> float:
        return self.pages / self.seconds if self.seconds else 0.0

    @property
    def complete(self) -> bool:
        """Every article stored exactly once, nothing left in the frontier."""
        return not self.lost and self.duplicate_rows == 0 and not self.frontier_left

    def summary(self) -> str:
        faults = []
        if self.kills:
            faults.append(f"{self.kills} crawler SIGKILLed and restarted")
        if self.redis_restarts:
            faults.append(f"Redis restarted {self.redis_restarts}x")
        lines = [
            f"Crawlers:        {self.processes} process(es), {self.rounds} round(s)"
            + (f"; {', '.join(faults)}" if faults else ""),
            f"Database:        {self.database}",
            f"Pages crawled:   {self.pages} of {self.sites} sites "
            f"({self.fetches} fetches, {self.refetched} page(s) fetched more than once)",
            f"Articles stored: {self.stored} of {self.truth_articles} "
            f"(duplicate rows: {self.duplicate_rows}, lost: {len(self.lost)})",
            f"Leases re-queued after a crawler died: {self.recovered}",
            f"Time: {self.seconds:.1f} s, {self.pages_per_second:.1f} pages/s",
        ]
        if self.lost:
            lines.append(f"Lost articles, e.g. {self.lost[0]}")
        if self.frontier_left:
            lines.append(f"Left in the frontier: {self.frontier_left} (the crawl did not finish)")
        if self.timed_out:
            lines.append("Timed out: the crawlers were stopped")
        return "\n".join(lines)


@dataclass
class _Crawlers:
    """The crawler processes of one run, their command and their logs."""

    command: list[str]
    env: dict[str, str]
    log_dir: Path
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    launched: int = 0

    def launch(self, slot: int | None = None) -> None:
        """Start a crawler (in ``slot``, replacing what is there, or as a new one)."""
        self.launched += 1
        log = self.log_dir / f"crawler-{self.launched}.log"
        command = [*self.command, "-s", f"LOG_FILE={log}"]
        with open(log.with_suffix(".out"), "wb") as out:
            process = subprocess.Popen(
                command, cwd=PROJECT_DIR, env=self.env, stdin=subprocess.DEVNULL,
                stdout=out, stderr=subprocess.STDOUT,
            )  # fmt: skip
        if slot is None:
            self.processes.append(process)
        else:
            self.processes[slot] = process

    def running(self) -> bool:
        return any(process.poll() is None for process in self.processes)

    def kill(self, slot: int) -> None:
        self.processes[slot].send_signal(signal.SIGKILL)
        self.processes[slot].wait()

    def stop_all(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.kill()
                process.wait()

    def recovered(self) -> int:
        """Leases re-queued, as the crawlers logged them."""
        total = 0
        for log in self.log_dir.glob("crawler-*.log"):
            for line in log.read_text(errors="replace").splitlines():
                if "Re-queued " in line and " request(s) of worker " in line:
                    total += int(line.split("Re-queued ", 1)[1].split()[0])
        return total


def crawler_command(
    domains: Sequence[str],
    redis_url: str,
    database_url: str,
    spool_path: Path,
    lease_timeout: float,
    settings: Sequence[str] = (),
) -> list[str]:
    """``scrapy crawl news_crawl_redis`` with the run's settings (before ``LOG_FILE``)."""
    command = [
        sys.executable, "-m", "scrapy", "crawl", SPIDER,
        "-a", "allowed_domains=" + ",".join(domains),
        "-s", f"REDIS_URL={redis_url}",
        "-s", f"DATABASE_URL={database_url}",
        "-s", f"STORAGE_SPOOL_PATH={spool_path}",
        "-s", "LOG_LEVEL=INFO",
        # The local server needs no politeness delay; the generated network is finite, so no
        # depth limit either (deep pagination must not hide articles from the count).
        "-s", "DOWNLOAD_DELAY=0",
        "-s", "AUTOTHROTTLE_ENABLED=False",
        "-s", "CONCURRENT_REQUESTS_PER_DOMAIN=8",
        "-s", "DEPTH_LIMIT=0",
        "-s", f"SCHEDULER_LEASE_TIMEOUT={lease_timeout}",
        "-s", "MAX_IDLE_TIME_BEFORE_CLOSE=1",
    ]  # fmt: skip
    for setting in settings:
        command += ["-s", setting]
    return command


def crawler_env(proxy_url: str) -> dict[str, str]:
    """The environment of a crawler: distributed settings, the demo server as HTTP proxy."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key.lower() not in ("http_proxy", "https_proxy", "no_proxy", "all_proxy")
        and key not in ("DATABASE_URL", "REDIS_URL")
    }
    env["SCRAPY_SETTINGS_MODULE"] = "newsroom.settings_distributed"
    env["http_proxy"] = proxy_url
    return env


def run_distributed(
    processes: int = 2,
    *,
    sites: int = 12,
    articles_per_site: int = ARTICLES_PER_SITE,
    database_url: str | None = None,
    kill: bool = False,
    redis_restart: bool = False,
    kill_at: float = 0.4,
    persist: bool = False,
    redis_down: float = 10.0,
    lease_timeout: float = 5.0,
    seed: int = 7,
    settings: Sequence[str] = (),
    work_dir: Path = DEFAULT_WORK_DIR,
    max_rounds: int = 3,
    timeout: float = 1800.0,
) -> DistributedResult:
    """Crawl a generated network with ``processes`` crawlers (module docstring); report.

    ``database_url`` defaults to an SQLite file in ``work_dir``, which only one process may
    use: several processes need a PostgreSQL URL (ValueError otherwise). ``work_dir`` is
    emptied first; it keeps the sites, the Redis directory and the crawler logs afterwards.
    """
    database_url = database_url or f"sqlite:///{(work_dir / 'articles.sqlite3').resolve()}"
    if processes > 1 and not database_url.startswith(("postgresql://", "postgres://")):
        raise ValueError("several crawler processes need a shared PostgreSQL database URL")
    started, since = time.perf_counter(), datetime.now(timezone.utc)
    shutil.rmtree(work_dir, ignore_errors=True)
    log_dir = work_dir / "logs"
    log_dir.mkdir(parents=True)
    generate(work_dir / "sites", seed, sites=sites, articles_per_site=articles_per_site)
    truth = json.loads((work_dir / "sites" / "truth.json").read_text(encoding="utf-8"))
    network = network_sites(sites)
    redis = LocalRedis(work_dir / "redis", persist=persist or redis_restart)
    with redis, DemoSiteServer(work_dir / "sites") as server:
        client = redis.client()
        client.lpush(f"{SPIDER}:start_urls", *(seed_data(site.url("/")) for site in network))
        crawlers = _Crawlers(
            crawler_command(
                [site.host for site in network],
                redis.url,
                database_url,
                work_dir / "spool.jsonl",
                lease_timeout,
                settings,
            ),
            crawler_env(server.proxy_url),
            log_dir,
        )
        for _ in range(processes):
            crawlers.launch()
        facts = _supervise(
            crawlers,
            server,
            redis,
            fault_at=int(len(truth) * kill_at),
            kill=kill,
            redis_restart=redis_restart,
            redis_down=redis_down,
            max_rounds=max_rounds,
            deadline=time.monotonic() + timeout,
        )
        left = frontier(redis.client(), SPIDER)
        fetches = {url: count for url, count in server.fetches.items() if "/robots.txt" not in url}
    facts.update(
        pages=len(fetches),
        fetches=sum(fetches.values()),
        refetched=sum(1 for count in fetches.values() if count > 1),
        frontier_left=left.queued + left.seeds + left.leased,
        recovered=crawlers.recovered(),
        returncodes=[process.returncode for process in crawlers.processes],
    )
    return _report(database_url, truth, since, processes, sites, facts, started, log_dir)


def _supervise(
    crawlers: _Crawlers,
    server: DemoSiteServer,
    redis: LocalRedis,
    *,
    fault_at: int,
    kill: bool,
    redis_restart: bool,
    redis_down: float,
    max_rounds: int,
    deadline: float,
) -> dict[str, object]:
    """Wait for the crawl to be done, injecting the faults asked for; the counts."""
    kills = restarts = 0
    rounds = 1
    timed_out = False
    while True:
        time.sleep(POLL)
        if time.monotonic() > deadline:
            crawlers.stop_all()
            timed_out = True
            break
        articles = server.hits["article"]
        if kill and not kills and articles >= fault_at and crawlers.processes[0].poll() is None:
            crawlers.kill(0)
            crawlers.launch(0)
            kills += 1
        if redis_restart and not restarts and articles >= fault_at:
            redis.kill()
            time.sleep(redis_down)
            redis.start()
            restarts += 1
        if crawlers.running():
            continue
        if frontier(redis.client(), SPIDER).drained or rounds >= max_rounds:
            break
        rounds += 1
        for slot in range(len(crawlers.processes)):
            crawlers.launch(slot)
    return {"kills": kills, "redis_restarts": restarts, "rounds": rounds, "timed_out": timed_out}


def _report(
    database_url: str,
    truth: dict[str, dict[str, str]],
    since: datetime,
    processes: int,
    sites: int,
    facts: dict[str, object],
    started: float,
    log_dir: Path,
) -> DistributedResult:
    """Read the database back (through the storage layer) and build the result."""
    store = open_store(database_url, base_dir=PROJECT_DIR, sqlite_timeout=30.0)
    try:
        articles = store.articles()
    except StoreError:
        articles = []
    finally:
        store.close()
    urls = [article.url for article in articles]
    written = {article.url for article in articles if article.last_fetched >= since}
    result = DistributedResult(
        processes=processes,
        sites=sites,
        truth_articles=len(truth),
        pages=0,
        fetches=0,
        refetched=0,
        stored=len(written & truth.keys()),
        duplicate_rows=len(urls) - len(set(urls)),
        lost=sorted(truth.keys() - written),
        seconds=time.perf_counter() - started,
        database=store.description,
        log_dir=log_dir,
    )
    for name, value in facts.items():
        setattr(result, name, value)
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Crawl a generated news network with several crawler processes sharing "
        "a local Redis (scrapy-redis) and one database; report what was stored."
    )
    parser.add_argument("--processes", type=int, default=2, help="crawler processes (2)")
    parser.add_argument("--sites", type=int, default=12, help="generated sites (12)")
    parser.add_argument(
        "--articles-per-site", type=int, default=ARTICLES_PER_SITE, help="articles on each site"
    )
    parser.add_argument(
        "--database-url",
        default=os.environ.get("DATABASE_URL") or None,
        help="shared database, postgresql://... (default: DATABASE_URL; SQLite only with one "
        "process)",
    )
    parser.add_argument(
        "--kill", action="store_true", help="SIGKILL one crawler mid-run and restart it"
    )
    parser.add_argument(
        "--redis-restart", action="store_true", help="kill Redis mid-run and start it again"
    )
    parser.add_argument(
        "--persist", action="store_true", help="Redis writes an append-only file (default: no)"
    )
    parser.add_argument("--work-dir", type=Path, default=DEFAULT_WORK_DIR)
    parser.add_argument("--lease-timeout", type=float, default=5.0)
    parser.add_argument(
        "-s",
        "--set",
        dest="settings",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="extra Scrapy setting for every crawler",
    )
    args = parser.parse_args(argv)
    result = run_distributed(
        args.processes,
        sites=args.sites,
        articles_per_site=args.articles_per_site,
        database_url=args.database_url,
        kill=args.kill,
        redis_restart=args.redis_restart,
        persist=args.persist,
        lease_timeout=args.lease_timeout,
        settings=args.settings,
        work_dir=args.work_dir,
    )
    print(result.summary())
    print(f"Crawler logs: {result.log_dir}")
    return 0 if result.complete and not result.timed_out else 1
