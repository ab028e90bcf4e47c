"""scrapy-redis's scheduler with leases: a killed crawler process loses no request.

scrapy-redis pops a request from the shared Redis queue with no acknowledgement: if the process
that popped it dies before the page is done, the request is gone from the queue, and its
fingerprint is already in the dupe filter, so nobody fetches that page again. This scheduler
adds the least that closes the gap, all in Redis, one Lua script per step:

* **enqueue**: the dupe-filter check (``SADD`` of the fingerprint) and the push (``ZADD``) are
  one script, so a process killed between the two cannot leave a URL "seen" but never queued;
* **pop**: the pop and the lease are one script: the request moves from the queue into this
  process's lease hash ``<spider>:leases:<worker>`` (field: a lease number; value: the score and
  the serialised request), never only into memory;
* **ack**: every ``SCHEDULER_LEASE_HEARTBEAT`` seconds (default 1) the process deletes the
  leases of the requests it has finished: requests no longer in the downloader or the scraper,
  so their callback output is scheduled and their items have been through the pipelines
  (stored or spooled);
* **heartbeat**: at the same beat it sets ``<spider>:alive:<worker>`` with a time to live of
  ``SCHEDULER_LEASE_TIMEOUT`` seconds (default 10) and adds itself to ``<spider>:workers``;
* **recover**: at the same beat it re-queues, with their priority, the leases of every worker
  whose alive key has expired (a script that re-checks the key, so two survivors never
  re-queue the same leases twice), and removes that worker. A process that restarts gets a new
  worker name and takes part like any other.

A request is therefore fetched again only if its process died (or stalled for longer than the
lease timeout) before acknowledging it; the storage pipeline's upsert by URL makes that second
fetch harmless: every article is stored once.

**Done**: :meth:`LeasedScheduler.has_pending_requests` is true while the queue holds requests
or any worker holds a lease (a busy process may still queue links; a dead one's leases come
back). Scrapy calls the spider idle only when that is false and the process has nothing in
flight, so a process closes only once the shared frontier is drained (seeded start URLs are
pulled by the spider, see :mod:`newsroom.distributed.spider`).

**Redis unavailable** (connection refused, reset, loading after a restart): the process fails
stop. It logs one error, acknowledges nothing more (a request whose links could not all be
queued must be fetched again), drops what it would have queued, and closes the spider with the
reason ``redis_unavailable``. Nothing is lost as long as Redis keeps its data: with a
persistent Redis (AOF), re-running the crawlers resumes the frontier, and the leases of the
stopped processes are re-queued once their alive keys expire. A Redis restarted without
persistence has lost the frontier and the dupe filter: seed it again and re-crawl (the storage
upserts keep every article stored once).

Only scrapy-redis's default queue (:class:`scrapy_redis.queue.PriorityQueue`) and its dupe
filter (:class:`scrapy_redis.dupefilter.RFPDupeFilter`) are supported.
"""

from __future__ import annotations

import itertools
import logging
import os
import socket
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from redis import Redis
from redis.exceptions import RedisError
from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.spiders import Spider
from scrapy.utils.defer import deferred_from_coro
from scrapy_redis.dupefilter import RFPDupeFilter
from scrapy_redis.queue import PriorityQueue
from scrapy_redis.scheduler import Scheduler
from twisted.internet.task import LoopingCall

__all__ = [
    "CLOSE_REASON",
    "Frontier",
    "LeasedScheduler",
    "alive_key",
    "frontier",
    "leases_key",
    "workers_key",
]

logger = logging.getLogger(__name__)

#: The close reason of a process that stopped because Redis was unavailable.
CLOSE_REASON = "redis_unavailable"

# KEYS: dupefilter, queue. ARGV: filter (1/0), fingerprint, score, request.
_ENQUEUE = """
if ARGV[1] == '1' and redis.call('SADD', KEYS[1], ARGV[2]) == 0 then return 0 end
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
return 1
"""
# KEYS: queue, this worker's leases. ARGV: lease number. Returns the request or nil. Run again
# with the same lease number (redis-py retrying after a lost reply), it returns the same request.
_POP_AND_LEASE = """
local held = redis.call('HGET', KEYS[2], ARGV[1])
if held then return string.sub(held, string.find(held, '|', 1, true) + 1) end
local top = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if #top == 0 then return false end
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, 0)
redis.call('HSET', KEYS[2], ARGV[1], top[2] .. '|' .. top[1])
return top[1]
"""
# KEYS: the worker's alive key, its leases, queue, workers. ARGV: worker. Returns the number of
# requests re-queued, or -1 if the worker is alive.
_RECOVER = """
if redis.call('EXISTS', KEYS[1]) == 1 then return -1 end
local leases = redis.call('HGETALL', KEYS[2])
for i = 2, #leases, 2 do
  local lease = leases[i]
  local sep = string.find(lease, '|', 1, true)
  redis.call('ZADD', KEYS[3], string.sub(lease, 1, sep - 1), string.sub(lease, sep + 1))
end
redis.call('DEL', KEYS[2])
redis.call('SREM', KEYS[4], ARGV[1])
return #leases / 2
"""
# KEYS: queue, workers. ARGV: the lease-key prefix. Returns queued + leased requests.
_PENDING = """
local count = redis.call('ZCARD', KEYS[1])
for _, worker in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  count = count + redis.call('HLEN', ARGV[1] .. worker)
end
return count
"""


def workers_key(spider_name: str) -> str:
    """The set of the workers (crawler processes) of a spider's distributed crawl."""
    return f"{spider_name}:workers"


def leases_key(spider_name: str, worker: str) -> str:
    """The hash of the requests ``worker`` has popped and not yet finished."""
    return f"{spider_name}:leases:{worker}"


def alive_key(spider_name: str, worker: str) -> str:
    """The key ``worker`` keeps alive while it runs (it expires when the worker dies)."""
    return f"{spider_name}:alive:{worker}"


@dataclass(frozen=True)
class Frontier:
    """What is left of a distributed crawl in Redis."""

    queued: int  # requests in the shared queue
    seeds: int  # start URLs pushed and not yet read by a spider
    leased: int  # requests popped by a worker and not finished (or of a dead worker)

    @property
    def drained(self) -> bool:
        return self.queued == self.seeds == self.leased == 0


def frontier(server: Redis, spider_name: str, queue_key: str | None = None) -> Frontier:
    """The frontier of ``spider_name``'s crawl (default scrapy-redis key names)."""
    workers = [_text(worker) for worker in server.smembers(workers_key(spider_name))]
    pipe = server.pipeline()
    pipe.zcard(queue_key or f"{spider_name}:requests")
    pipe.llen(f"{spider_name}:start_urls")
    for worker in workers:
        pipe.hlen(leases_key(spider_name, worker))
    queued, seeds, *leased = pipe.execute()
    return Frontier(int(queued), int(seeds), sum(int(count) for count in leased))


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def local_requests(crawler: Crawler) -> set[Request]:
    """The requests this process is downloading or scraping (items included), by identity."""
    engine = crawler.engine
    if engine is None:
        return set()
    live = set(engine.downloader.active)
    slot = engine.scraper.slot
    if slot is not None:
        live |= slot.active
        live |= {request for _, request, _ in slot.queue}
    return live


class LeasedScheduler(Scheduler):  # type: ignore[misc]  # scrapy-redis is untyped
    """scrapy-redis's :class:`~scrapy_redis.scheduler.Scheduler` with leases (module docstring).

    Settings: ``SCHEDULER_LEASE_HEARTBEAT`` (seconds between beats, default 1.0) and
    ``SCHEDULER_LEASE_TIMEOUT`` (seconds without a beat after which a worker counts as dead and
    its leases are re-queued, default 10.0; keep it well above the heartbeat). Stats:
    ``scheduler/leases/{acked,recovered}``.
    """

    crawler: Crawler
    spider: Spider
    heartbeat: float
    lease_timeout: float
    worker: str  # host:pid:random, unique per process start
    failed: bool  # True once Redis failed: fail stop
    _leases: dict[str, Request]  # lease number -> the request popped under it
    _numbers: Iterator[int]
    _beat: LoopingCall | None
    _keys: dict[str, str]

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> LeasedScheduler:
        scheduler: LeasedScheduler = super().from_crawler(crawler)
        settings = crawler.settings
        scheduler.crawler = crawler
        scheduler.heartbeat = settings.getfloat("SCHEDULER_LEASE_HEARTBEAT", 1.0)
        scheduler.lease_timeout = settings.getfloat("SCHEDULER_LEASE_TIMEOUT", 10.0)
        if scheduler.lease_timeout <= scheduler.heartbeat:
            raise ValueError("SCHEDULER_LEASE_TIMEOUT must be longer than the heartbeat")
        scheduler.worker = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        scheduler.failed = False
        scheduler._leases = {}
        scheduler._numbers = itertools.count(1)
        scheduler._beat = None
        return scheduler

    # --- Scrapy's scheduler interface -----------------------------------------------------------

    def open(self, spider: Spider) -> None:
        super().open(spider)
        if not isinstance(self.queue, PriorityQueue) or not isinstance(self.df, RFPDupeFilter):
            raise ValueError(
                "LeasedScheduler needs scrapy-redis's PriorityQueue (SCHEDULER_QUEUE_CLASS) and "
                "RFPDupeFilter (DUPEFILTER_CLASS)"
            )
        name = spider.name
        self._keys = {
            "workers": workers_key(name),
            "leases": leases_key(name, self.worker),
            "alive": alive_key(name, self.worker),
        }
        self._enqueue = self.server.register_script(_ENQUEUE)
        self._pop = self.server.register_script(_POP_AND_LEASE)
        self._recover = self.server.register_script(_RECOVER)
        self._pending = self.server.register_script(_PENDING)
        logger.info(
            "Distributed crawl: worker %s (leases in %s)", self.worker, self._keys["leases"]
        )
        self.beat()  # alive and registered before the first pop
        self._beat = LoopingCall(self.beat)
        self._beat.start(self.heartbeat, now=False)

    def close(self, reason: str) -> None:
        if self._beat is not None and self._beat.running:
            self._beat.stop()
        if self.failed:
            return
        try:
            self._ack(self._finished())
            self._release()
        except RedisError as exc:
            self._fail(exc)
            return
        super().close(reason)

    def enqueue_request(self, request: Request) -> bool:
        if self.failed:
            return False
        try:
            added = self._enqueue(
                keys=[self.df.key, self.queue.key],
                args=[
                    0 if request.dont_filter else 1,
                    self.df.request_fingerprint(request),
                    -request.priority,
                    self.queue._encode_request(request),
                ],
            )
        except RedisError as exc:
            self._fail(exc)
            return False
        if not added:
            self.df.log(request, self.spider)
            return False
        self._inc("scheduler/enqueued/redis")
        return True

    def next_request(self) -> Request | None:
        if self.failed:
            return None
        lease = str(next(self._numbers))
        try:
            data = self._pop(keys=[self.queue.key, self._keys["leases"]], args=[lease])
        except RedisError as exc:
            self._fail(exc)
            return None
        if data is None:
            return None
        try:
            request: Request = self.queue._decode_request(data)
        except Exception:
            logger.exception("Dropping a request that cannot be decoded")
            self._ack([lease])
            return None
        self._leases[lease] = request
        self._inc("scheduler/dequeued/redis")
        return request

    def has_pending_requests(self) -> bool:
        """True while the shared queue holds requests or any worker holds a lease."""
        if self.failed:
            return False
        try:
            prefix = leases_key(self.spider.name, "")
            count = self._pending(keys=[self.queue.key, self._keys["workers"]], args=[prefix])
        except RedisError as exc:
            self._fail(exc)
            return False
        return int(count) > 0

    # --- leases ---------------------------------------------------------------------------------

    def beat(self) -> None:
        """Acknowledge finished requests, stay alive, re-queue dead workers' leases, and wake
        the engine (an idle Scrapy engine polls its scheduler only every 5 s)."""
        if self.failed:
            return
        try:
            self._ack(self._finished())
            pipe = self.server.pipeline()
            pipe.set(self._keys["alive"], 1, px=int(self.lease_timeout * 1000))
            pipe.sadd(self._keys["workers"], self.worker)
            pipe.execute()
            self.recover_dead_workers()
        except RedisError as exc:
            self._fail(exc)
            return
        slot = getattr(self.crawler.engine, "_slot", None)  # the one private name used
        if slot is not None:
            slot.nextcall.schedule()

    def recover_dead_workers(self) -> int:
        """Re-queue the leases of every worker whose alive key expired; return how many."""
        name = self.spider.name
        others = [
            worker
            for worker in (_text(w) for w in self.server.smembers(self._keys["workers"]))
            if worker != self.worker
        ]
        recovered = 0
        for worker in others:
            count = int(self._recover_worker(name, worker))
            if count > 0:
                logger.warning(
                    "Re-queued %d request(s) of worker %s (no heartbeat for %.0f s)",
                    count,
                    worker,
                    self.lease_timeout,
                )
                recovered += count
        if recovered:
            self._inc("scheduler/leases/recovered", recovered)
        return recovered

    def _recover_worker(self, name: str, worker: str) -> Any:
        keys = [alive_key(name, worker), leases_key(name, worker), self.queue.key]
        return self._recover(keys=[*keys, self._keys["workers"]], args=[worker])

    def _finished(self) -> list[str]:
        """The leases of requests that have left the downloader and the scraper."""
        live = local_requests(self.crawler)
        return [lease for lease, request in self._leases.items() if request not in live]

    def _ack(self, leases: Iterable[str]) -> None:
        done = list(leases)
        if not done:
            return
        self.server.hdel(self._keys["leases"], *done)
        for lease in done:
            self._leases.pop(lease, None)
        self._inc("scheduler/leases/acked", len(done))

    def _release(self) -> None:
        """On a clean close: give back what was popped and not finished (a stopped crawl),
        and leave the worker set."""
        self.server.delete(self._keys["alive"])
        count = int(self._recover_worker(self.spider.name, self.worker))
        if count > 0:
            logger.info("Gave back %d unfinished request(s) to the shared queue", count)

    def _fail(self, exc: BaseException) -> None:
        """Fail stop: no more acknowledgements or Redis calls; close the spider."""
        if self.failed:
            return
        self.failed = True
        if self._beat is not None and self._beat.running:
            self._beat.stop()
        logger.error(
            "Redis unavailable (%s): stopping this crawler process. Its %d unfinished "
            "request(s) stay leased in Redis and are re-queued when the crawl is run again "
            "(a persistent Redis keeps them).",
            exc,
            len(self._leases),
        )
        engine = self.crawler.engine
        if engine is None or getattr(self, "spider", None) is None:
            return
        if hasattr(engine, "close_spider_async"):  # Scrapy >= 2.14
            closing = deferred_from_coro(engine.close_spider_async(reason=CLOSE_REASON))
        else:
            closing = engine.close_spider(self.spider, reason=CLOSE_REASON)
        closing.addErrback(lambda failure: logger.error("Close failed: %s", failure))

    def _inc(self, key: str, count: int = 1) -> None:
        if self.stats is not None:
            self.stats.inc_value(key, count)
