"""Settings of a distributed newsroom crawl: several processes share one frontier in Redis.

    pip install -e ".[distributed,postgres]"
    export SCRAPY_SETTINGS_MODULE=newsroom.settings_distributed
    export REDIS_URL=redis://127.0.0.1:6379/0
    export DATABASE_URL=postgresql://user:password@127.0.0.1:5432/news
    scrapy crawl news_crawl_redis -a allowed_domains=example-news.com   # in each process

Everything of :mod:`newsroom.settings` (extraction, storage pipeline, politeness), plus:

* the frontier on scrapy-redis: its dupe filter, and its scheduler with leases
  (:class:`newsroom.distributed.scheduler.LeasedScheduler`: a killed process's requests are
  re-queued); the queue, dupe filter and leases persist in Redis when a process closes
  (``SCHEDULER_PERSIST``), so other processes, and a later run, go on with them;
* a process closes when the shared frontier is drained and it has been idle for
  ``MAX_IDLE_TIME_BEFORE_CLOSE`` seconds (``0``: wait for new seeds for ever);
* storage: the same pipeline, with **PostgreSQL as the shared database** (``DATABASE_URL``);
  every process upserts by URL, so an article fetched by two processes (or twice by a restarted
  one) is stored once. SQLite stays the default of single-process crawls: several processes
  writing one SQLite file wait on its lock;
* ``BOILERPLATE_SITE_STATE_URL``: reserved (see below).
"""

from __future__ import annotations

import os

from redis.backoff import ExponentialBackoff
from redis.retry import Retry

from .settings import *  # noqa: F403 - the base settings, extended below
from .settings import SPIDER_MODULES

# --- Shared frontier (scrapy-redis) ---------------------------------------------------------------
SPIDER_MODULES = [*SPIDER_MODULES, "newsroom.distributed.spider"]
REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
# A failed Redis command is retried 3 times, 0.5, 1 and 2 s apart (the reactor waits), before
# the error reaches the scheduler, which then stops this process (newsroom.distributed.scheduler):
# a Redis back within 3.5 s goes unnoticed.
REDIS_PARAMS = {
    "socket_timeout": 10,
    "socket_connect_timeout": 5,
    "retry": Retry(ExponentialBackoff(cap=2.0, base=0.25), 3),
}
SCHEDULER = "newsroom.distributed.scheduler.LeasedScheduler"
DUPEFILTER_CLASS = "scrapy_redis.dupefilter.RFPDupeFilter"
SCHEDULER_QUEUE_CLASS = "scrapy_redis.queue.PriorityQueue"  # the one LeasedScheduler supports
# Keep the queue, dupe filter and leases when a process closes: the others still need them.
SCHEDULER_PERSIST = True
# A worker re-acknowledges and proves it is alive every heartbeat; one silent for the timeout
# counts as dead and its unfinished requests go back to the queue.
SCHEDULER_LEASE_HEARTBEAT = 1.0
SCHEDULER_LEASE_TIMEOUT = 10.0
# Seconds a process stays idle, with the shared frontier drained, before it closes.
MAX_IDLE_TIME_BEFORE_CLOSE = 2
# Not used: scrapy-redis's blocking pop applies only to its FIFO/LIFO queues.
SCHEDULER_IDLE_BEFORE_CLOSE = 0

# --- Storage: one database for every process ------------------------------------------------------
# Give a postgresql:// URL (environment variable or -s DATABASE_URL=...) when several processes
# crawl; the base settings' SQLite default suits one process only.
DATABASE_URL = os.environ.get("DATABASE_URL", "sqlite:///data/articles.sqlite3")

# --- Shared per-site state (reserved) -------------------------------------------------------------
# Where the add-on will keep per-site template state once it learns site templates (a later
# version): a Redis URL shares it between the crawl's processes. Reserved: nothing reads it yet.
# newsroom.distributed.site_state is the interface such a store offers.
BOILERPLATE_SITE_STATE_URL = os.environ.get("BOILERPLATE_SITE_STATE_URL", REDIS_URL)
