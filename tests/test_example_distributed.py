"""Distributed crawls: the scaled demo network, the leased scrapy-redis scheduler on a real
Redis server, and small crawls with two processes, a SIGKILLed crawler and a Redis restart.

Tests that need Redis skip (saying why) without a ``redis-server`` binary or scrapy-redis; the
crawls also need PostgreSQL (the shared database).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from example_support import (  # noqa: F401 - EXAMPLE_PROJECT puts example_project on sys.path
    EXAMPLE_PROJECT,
    postgres_schema_url,
    redis_server_or_skip,
)

# isort: split

from demo_site.generator import SITES, build_pages, network_sites

#: sha256 of every (host, path, body) of the default demo network, as before the scale option.
DEFAULT_NETWORK_DIGEST = "87fb612f1ccd7e89335f59d7e796df6da1ba4a015ed3e0b6cc08ab7629c0f342"


def _digest(pages: list[Any]) -> str:
    digest = hashlib.sha256()
    for page in pages:
        digest.update(f"{page.host}{page.path}".encode() + page.body)
    return digest.hexdigest()


# --- The generated network at scale ---------------------------------------------------------------


def test_default_network_is_the_demo_unchanged() -> None:
    pages, articles = build_pages()
    assert _digest(pages) == DEFAULT_NETWORK_DIGEST
    assert network_sites() == SITES and len(articles) == 66


def test_more_sites_keep_the_demo_sites_and_add_numbered_copies() -> None:
    pages, articles = build_pages(sites=5)
    demo_hosts = {site.host for site in SITES}
    assert [page for page in pages if page.host in demo_hosts] == build_pages()[0]
    hosts = [site.host for site in network_sites(5)]
    assert hosts[3:] == ["www.harbourledger-2.test", "northsidecourier-2.test"]
    assert len(articles) == 5 * 22 and len({a.url for a in articles}) == len(articles)
    copy = [page for page in pages if page.host == "northsidecourier-2.test"]
    assert {"/latest/", "/feed/", "/sitemap.xml", "/robots.txt"} <= {page.path for page in copy}


def test_articles_per_site_scales_every_site() -> None:
    _, articles = build_pages(sites=4, articles_per_site=40)
    assert len(articles) == 160 and len({a.url for a in articles}) == 160
    with pytest.raises(ValueError):
        network_sites(0)


# --- Redis: the local server, the seam for site state ---------------------------------------------


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    redis_server_or_skip()
    from newsroom.distributed.redis_server import LocalRedis

    with LocalRedis(tmp_path / "redis") as server:
        yield server.url


def test_local_redis_keeps_nothing_unless_persistent(tmp_path: Path) -> None:
    redis_server_or_skip()
    from newsroom.distributed.redis_server import LocalRedis

    for persist in (False, True):
        server = LocalRedis(tmp_path / f"redis-{persist}", persist=persist).start()
        try:
            client = server.client()
            assert client.config_get("save")["save"] == ""
            assert client.config_get("appendonly")["appendonly"] == ("yes" if persist else "no")
            client.set("key", "value")
            server.restart()  # SIGKILL, then start again on the same port and directory
            assert server.client().get("key") == (b"value" if persist else None)
        finally:
            server.stop()


def test_site_state_is_shared_through_redis(redis_url: str) -> None:
    from newsroom.distributed.site_state import MemorySiteState, open_site_state

    one, other = open_site_state(redis_url), open_site_state(redis_url)
    one.update("news.test", {"template": [1, 2], "pages": 3})
    other.update("news.test", {"pages": 4})
    assert one.get("news.test") == {"template": [1, 2], "pages": 4}
    assert other.get("elsewhere.test") == {}
    assert isinstance(open_site_state(None), MemorySiteState)
    with pytest.raises(ValueError):
        open_site_state("postgresql://x/y")


# --- The leased scheduler ------------------------------------------------------------------------


def _scheduler(redis_url: str, engine: Any = None, **settings: Any) -> Any:
    """A LeasedScheduler opened on a news_crawl_redis spider, with a stand-in engine."""
    from newsroom.distributed.scheduler import LeasedScheduler
    from newsroom.distributed.spider import NewsCrawlRedisSpider
    from redis.backoff import NoBackoff
    from redis.retry import Retry
    from scrapy.utils.test import get_crawler

    crawler = get_crawler(
        NewsCrawlRedisSpider,
        {
            "REDIS_URL": redis_url,
            "REDIS_PARAMS": {"retry": Retry(NoBackoff(), 0)},
            "DUPEFILTER_CLASS": "scrapy_redis.dupefilter.RFPDupeFilter",
            "SCHEDULER_PERSIST": True,
            "SCHEDULER_LEASE_TIMEOUT": 3.0,
            **settings,
        },
    )
    spider = NewsCrawlRedisSpider.from_crawler(crawler, allowed_domains="a.test")
    crawler.engine = engine or _engine()
    scheduler = LeasedScheduler.from_crawler(crawler)
    scheduler.open(spider)
    return scheduler


def _engine(*active: Any) -> SimpleNamespace:
    """A stand-in engine: its downloader holds ``active``; it records close reasons."""
    closed: list[str] = []

    async def close_spider_async(reason: str) -> None:
        closed.append(reason)

    return SimpleNamespace(
        downloader=SimpleNamespace(active=set(active)),
        scraper=SimpleNamespace(slot=None),
        close_spider_async=close_spider_async,
        closed=closed,
    )


def test_enqueue_filters_duplicates_and_pop_leases_until_finished(redis_url: str) -> None:
    from newsroom.distributed.scheduler import frontier
    from scrapy import Request

    engine = _engine()
    scheduler = _scheduler(redis_url, engine)
    try:
        assert scheduler.enqueue_request(Request("http://a.test/1"))
        assert not scheduler.enqueue_request(Request("http://a.test/1"))  # seen
        assert scheduler.enqueue_request(Request("http://a.test/1", dont_filter=True))
        request = scheduler.next_request()
        assert request.url == "http://a.test/1"
        engine.downloader.active.add(request)
        scheduler.beat()  # in flight: still leased
        assert frontier(scheduler.server, "news_crawl_redis").leased == 1
        engine.downloader.active.clear()
        scheduler.next_request()  # the dont_filter copy; finished at once
        scheduler.beat()
        assert frontier(scheduler.server, "news_crawl_redis").drained
        assert not scheduler.has_pending_requests()
        assert scheduler.stats.get_value("scheduler/leases/acked") == 2
    finally:
        scheduler.close("finished")


def test_a_dead_workers_leases_are_requeued_once(redis_url: str) -> None:
    from newsroom.distributed.scheduler import alive_key, workers_key
    from scrapy import Request

    first_engine = _engine()
    first, second = _scheduler(redis_url, first_engine), _scheduler(redis_url, _engine())
    try:
        for number in (1, 2):
            first.enqueue_request(Request(f"http://a.test/{number}", priority=number))
        popped = first.next_request()
        first_engine.downloader.active.add(popped)
        assert popped.url == "http://a.test/2"  # highest priority first
        assert second.next_request().url == "http://a.test/1"
        assert second.has_pending_requests()  # the first worker holds a lease
        first.server.delete(alive_key("news_crawl_redis", first.worker))  # it died
        assert second.recover_dead_workers() == 1
        assert second.recover_dead_workers() == 0
        again = second.next_request()
        assert again.url == "http://a.test/2" and again.priority == 2
        assert first.worker.encode() not in second.server.smembers(workers_key("news_crawl_redis"))
        assert second.stats.get_value("scheduler/leases/recovered") == 1
    finally:
        first.failed = True  # dead: its close must not touch Redis
        first.close("killed")
        second.close("finished")


def test_redis_unavailable_stops_the_process_without_acknowledging(tmp_path: Path) -> None:
    redis_server_or_skip()
    from newsroom.distributed.redis_server import LocalRedis
    from newsroom.distributed.scheduler import frontier
    from scrapy import Request

    server = LocalRedis(tmp_path / "redis", persist=True).start()
    try:
        engine = _engine()
        scheduler = _scheduler(server.url, engine)
        scheduler.enqueue_request(Request("http://a.test/1"))
        engine.downloader.active.add(scheduler.next_request())
        server.kill()
        assert scheduler.next_request() is None and scheduler.failed
        assert engine.closed == ["redis_unavailable"]
        assert not scheduler.enqueue_request(Request("http://a.test/2"))
        assert not scheduler.has_pending_requests()
        server.start()
        scheduler.beat()  # failed: no acknowledgement, even with Redis back
        scheduler.close("redis_unavailable")
        assert frontier(server.client(), "news_crawl_redis").leased == 1
    finally:
        server.stop()


def test_seeds_are_plain_requests_through_the_dupe_filter(redis_url: str) -> None:
    scheduler = _scheduler(redis_url)
    try:
        spider = scheduler.spider
        request = spider.make_request_from_data(b'{"url": "http://a.test/"}')
        assert request.url == "http://a.test/" and not request.dont_filter
        assert spider.make_request_from_data(b"http://a.test/x").url == "http://a.test/x"
        assert spider.make_request_from_data(b'{"meta": {}}') == []
    finally:
        scheduler.close("finished")


def test_distributed_settings_use_scrapy_redis() -> None:
    pytest.importorskip("scrapy_redis", reason="scrapy-redis is not installed")
    from newsroom import settings as base
    from newsroom import settings_distributed as settings

    assert settings.SCHEDULER == "newsroom.distributed.scheduler.LeasedScheduler"
    assert settings.DUPEFILTER_CLASS == "scrapy_redis.dupefilter.RFPDupeFilter"
    assert settings.SCHEDULER_PERSIST is True
    assert settings.ITEM_PIPELINES == base.ITEM_PIPELINES  # page-type filter, then storage
    assert settings.ITEM_PIPELINES["newsroom.pipelines.ArticleStoragePipeline"] == 300
    assert "newsroom.distributed.spider" in settings.SPIDER_MODULES
    assert settings.BOILERPLATE_SITE_STATE_URL


def test_several_processes_need_postgresql(tmp_path: Path) -> None:
    pytest.importorskip("scrapy_redis", reason="scrapy-redis is not installed")
    from newsroom.distributed.runner import run_distributed

    with pytest.raises(ValueError, match="PostgreSQL"):
        run_distributed(2, work_dir=tmp_path)


# --- Small distributed crawls (Redis, PostgreSQL, real crawler processes) -----------------------


@pytest.fixture
def shared_database() -> Iterator[str]:
    """A fresh PostgreSQL schema (skips without a configured server)."""
    yield from postgres_schema_url()


def _crawl(tmp_path: Path, database_url: str, **options: Any) -> tuple[Any, int]:
    """A distributed crawl into ``database_url``; its result and the rows in the database."""
    redis_server_or_skip()
    from newsroom.distributed.runner import run_distributed
    from newsroom.storage import open_store

    result = run_distributed(
        database_url=database_url,
        work_dir=tmp_path / "run",
        lease_timeout=3.0,
        timeout=240,  # a crawl that never drains fails instead of stalling
        **options,
    )
    return result, open_store(database_url).count()


def test_killed_crawler_loses_nothing_and_stores_nothing_twice(
    tmp_path: Path, shared_database: str
) -> None:
    result, rows = _crawl(
        tmp_path, shared_database, processes=2, sites=6, articles_per_site=30, kill=True
    )
    assert result.kills == 1 and not result.timed_out, result.summary()
    assert result.recovered >= 1, result.summary()  # the dead crawler's leases came back
    assert result.lost == [] and result.duplicate_rows == 0, result.summary()
    assert result.stored == result.truth_articles == rows == 180
    assert result.frontier_left == 0 and result.complete


def test_redis_restart_stops_the_crawlers_and_the_next_round_resumes(
    tmp_path: Path, shared_database: str
) -> None:
    result, rows = _crawl(
        tmp_path, shared_database, processes=2, sites=3, redis_restart=True, redis_down=6.0
    )
    assert result.redis_restarts == 1 and result.rounds >= 2, result.summary()
    assert result.lost == [] and result.duplicate_rows == 0, result.summary()
    assert result.stored == result.truth_articles == rows == 66
    assert result.frontier_left == 0
