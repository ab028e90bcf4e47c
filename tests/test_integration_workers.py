"""The supervised worker pools: results, errors, deaths, time limits, signals, shutdown."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
import pytest_twisted
from twisted.internet import reactor, task
from twisted.internet.defer import Deferred

from scrapy_boilerplate.integration.workers import (
    ExtractionTimeoutError,
    PoolBrokenError,
    PoolClosedError,
    ProcessWorkers,
    ThreadWorkers,
    WorkerDiedError,
)

Events = list[tuple[str, str | None, str]]


def double(value: int) -> int:
    return value * 2


def big(size: int) -> bytes:
    return b"x" * size


def fail(message: str) -> None:
    raise KeyError(message)


def sleep_then(seconds: float, value: int) -> int:
    time.sleep(seconds)
    return value


def die(value: int) -> int:
    os.kill(os.getpid(), signal.SIGKILL)
    return value


def die_once(marker: str, value: int) -> int:
    """Dies the first time (leaving ``marker`` behind), returns ``value`` the second time."""
    if not os.path.exists(marker):
        Path(marker).touch()
        os.kill(os.getpid(), signal.SIGKILL)
    return value


def pid() -> int:
    return os.getpid()


@pytest.fixture
def events() -> Events:
    return []


@pytest.fixture
def processes(events: Events) -> Generator[ProcessWorkers, None, None]:
    pool = ProcessWorkers(
        2, timeout=1.0, reactor=reactor, on_event=lambda *event: events.append(event)
    )
    pool.start()
    yield pool
    pool.close()


def outcome(deferred: Deferred[Any]) -> Deferred[Any]:
    """A Deferred firing with the value or the exception (never failing)."""
    return deferred.addErrback(lambda failure: failure.value)


def _alive(process_id: int) -> bool:
    try:
        os.kill(process_id, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is dead too
        with open(f"/proc/{process_id}/stat") as stat:
            return stat.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


@pytest_twisted.inlineCallbacks
def test_calls_return_values_and_large_results(
    processes: ProcessWorkers,
) -> Generator[Any, Any, None]:
    values = yield _gather([processes.submit(double, (n,), None) for n in range(20)])
    assert values == [2 * n for n in range(20)]
    payload = yield processes.submit(big, (5_000_000,), None)
    assert payload == b"x" * 5_000_000


def checksum(data: bytes, tag: int) -> tuple[int, int, int]:
    return tag, len(data), sum(data[::4096])


@pytest_twisted.inlineCallbacks
def test_arguments_larger_than_the_socket_buffers_arrive_whole_and_in_order(
    processes: ProcessWorkers,
) -> Generator[Any, Any, None]:
    # 9 MB arguments do not fit the 4 MiB socket buffers: the rest of each frame, and the
    # frames sent while it is pending, go through the transport's buffer, in order.
    pages = [bytes([n]) * (9_000_000 + n) for n in range(6)]
    pages[2] = b"small"
    sent = [processes.submit(checksum, (page, n), None) for n, page in enumerate(pages)]
    values = yield _gather(sent)
    assert values == [checksum(page, n) for n, page in enumerate(pages)]


def _gather(deferreds: list[Deferred[Any]]) -> Deferred[list[Any]]:
    from twisted.internet.defer import gatherResults

    return gatherResults([outcome(d) for d in deferreds])


@pytest_twisted.inlineCallbacks
def test_an_exception_in_the_call_reaches_the_caller(
    processes: ProcessWorkers,
) -> Generator[Any, Any, None]:
    error = yield outcome(processes.submit(fail, ("boom",), None))
    assert isinstance(error, KeyError) and error.args == ("boom",)
    assert (yield processes.submit(double, (4,), None)) == 8


@pytest_twisted.inlineCallbacks
def test_a_killed_worker_costs_nothing_its_call_runs_again(
    processes: ProcessWorkers, events: Events, tmp_path: Path
) -> Generator[Any, Any, None]:
    before = set(processes.pids)
    value = yield processes.submit(die_once, (str(tmp_path / "died"), 7), "http://a/")
    assert value == 7
    assert [kind for kind, _, _ in events] == ["died", "retried", "restarted"]
    assert events[0][1] == "http://a/"
    assert len(processes.pids) == 2 and set(processes.pids) != before


@pytest_twisted.inlineCallbacks
def test_a_page_that_kills_every_worker_fails_alone(
    processes: ProcessWorkers, events: Events
) -> Generator[Any, Any, None]:
    poison = outcome(processes.submit(die, (1,), "http://poison/"))
    others = _gather([processes.submit(sleep_then, (0.05, n), None) for n in range(6)])
    assert isinstance((yield poison), WorkerDiedError)
    assert (yield others) == list(range(6))
    assert [kind for kind, _, _ in events].count("died") == 2
    assert not processes.broken and len(processes.pids) == 2


@pytest_twisted.inlineCallbacks
def test_a_slow_call_times_out_and_its_worker_is_replaced(
    processes: ProcessWorkers, events: Events
) -> Generator[Any, Any, None]:
    started = time.monotonic()
    slow = outcome(processes.submit(sleep_then, (30, 0), "http://slow/"))
    quick = _gather([processes.submit(sleep_then, (0.01, n), None) for n in range(10)])
    assert (yield quick) == list(range(10))  # the other worker kept going
    error = yield slow
    assert isinstance(error, ExtractionTimeoutError)
    assert time.monotonic() - started < 5
    assert ("timed_out", "http://slow/", "1 s") in events
    assert len(processes.pids) == 2
    assert (yield processes.submit(double, (1,), None)) == 2


def slow_warm_up() -> None:
    time.sleep(1.5)


def broken_warm_up() -> None:
    raise RuntimeError("no model")


@pytest_twisted.inlineCallbacks
def test_a_warm_up_runs_in_the_worker_before_its_first_call_and_off_the_clock() -> Generator[
    Any, Any, None
]:
    pool = ProcessWorkers(1, timeout=1.0, reactor=reactor, warm_up=slow_warm_up)
    started = time.monotonic()
    pool.start()
    try:
        assert time.monotonic() - started < 0.5  # the reactor was not held up
        # a 1.5 s warm-up under a 1 s time limit: the call's clock starts after it
        assert (yield processes_call(pool, double, 21)) == 42
        assert time.monotonic() - started >= 1.5
    finally:
        pool.close()


@pytest_twisted.inlineCallbacks
def test_a_failing_warm_up_leaves_the_worker_serving() -> Generator[Any, Any, None]:
    pool = ProcessWorkers(1, timeout=1.0, reactor=reactor, warm_up=broken_warm_up)
    pool.start()
    try:
        assert (yield processes_call(pool, double, 2)) == 4
        assert not pool.broken
    finally:
        pool.close()


def hung_warm_up() -> None:
    time.sleep(3600)


@pytest_twisted.inlineCallbacks
def test_a_hung_warm_up_is_a_death_and_the_pool_gives_up_on_it(
    events: Events,
) -> Generator[Any, Any, None]:
    pool = ProcessWorkers(
        1,
        timeout=1.0,
        reactor=reactor,
        on_event=lambda *event: events.append(event),
        max_failed_starts=2,
        warm_up=hung_warm_up,
        ready_timeout=0.5,
    )
    pool.start()
    try:
        error = yield outcome(processes_call(pool, double, 1))
        assert isinstance(error, PoolBrokenError)  # the runtime reruns it in threads
        assert [kind for kind, _, _ in events].count("died") == 2
    finally:
        pool.close()


def processes_call(pool: ProcessWorkers, function: Any, value: int) -> Deferred[Any]:
    return pool.submit(function, (value,), None)


@pytest_twisted.inlineCallbacks
def test_workers_ignore_sigint_and_stop_on_sigterm(
    processes: ProcessWorkers,
) -> Generator[Any, Any, None]:
    first, second = processes.pids
    os.kill(first, signal.SIGINT)
    yield task.deferLater(reactor, 0.3, lambda: None)
    assert _alive(first)
    assert (yield processes.submit(double, (3,), None)) == 6
    os.kill(second, signal.SIGTERM)
    yield task.deferLater(reactor, 0.5, lambda: None)
    assert not _alive(second)
    assert len(processes.pids) == 2  # replaced


@pytest_twisted.inlineCallbacks
def test_close_kills_workers_and_fails_unfinished_calls(
    events: Events,
) -> Generator[Any, Any, None]:
    pool = ProcessWorkers(1, timeout=0, reactor=reactor)
    pool.start()
    [worker] = pool.pids
    running = outcome(pool.submit(sleep_then, (30, 0), None))
    queued = outcome(pool.submit(double, (1,), None))
    yield task.deferLater(reactor, 0.2, lambda: None)
    pool.close()
    assert isinstance((yield running), PoolClosedError)
    assert isinstance((yield queued), PoolClosedError)
    assert not _alive(worker)
    assert isinstance((yield outcome(pool.submit(double, (1,), None))), PoolClosedError)


@pytest_twisted.inlineCallbacks
def test_workers_dying_in_a_row_break_the_pool() -> Generator[Any, Any, None]:
    pool = ProcessWorkers(1, timeout=0, reactor=reactor, max_failed_starts=3)
    pool.start()
    results = yield _gather([pool.submit(die, (n,), None) for n in range(4)])
    # the first call killed two workers, the second a third: the calls never started are handed
    # back as PoolBrokenError, to be run elsewhere
    assert [type(result) for result in results] == [WorkerDiedError] + [PoolBrokenError] * 3
    assert pool.broken
    pool.close()


def test_workers_die_with_their_parent(tmp_path: Path) -> None:
    script = textwrap.dedent(
        """
        import sys, time
        from twisted.internet import reactor
        from scrapy_boilerplate.integration.workers import ProcessWorkers
        pool = ProcessWorkers(2, timeout=0, reactor=reactor)
        pool.start()
        print(*pool.pids, flush=True)
        reactor.run()
        """
    )
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    workers = [int(word) for word in parent.stdout.readline().split()]
    assert len(workers) == 2 and all(_alive(worker) for worker in workers)
    parent.kill()
    parent.wait()
    deadline = time.monotonic() + 5
    while any(_alive(worker) for worker in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(worker) for worker in workers)


def test_a_pool_needs_one_worker() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        ProcessWorkers(0, timeout=0, reactor=reactor)
    with pytest.raises(ValueError, match="at least 1"):
        ThreadWorkers(0, timeout=0, reactor=reactor)


# -- threads ----------------------------------------------------------------------------------


@pytest_twisted.inlineCallbacks
def test_threads_return_values_and_errors(events: Events) -> Generator[Any, Any, None]:
    pool = ThreadWorkers(2, timeout=1.0, reactor=reactor)
    assert (yield _gather([pool.submit(double, (n,), None) for n in range(10)])) == [
        2 * n for n in range(10)
    ]
    assert isinstance((yield outcome(pool.submit(fail, ("x",), None))), KeyError)
    pool.close()


@pytest_twisted.inlineCallbacks
def test_a_slow_call_abandons_its_thread_and_the_queue_moves_on(
    events: Events,
) -> Generator[Any, Any, None]:
    pool = ThreadWorkers(
        1, timeout=0.3, reactor=reactor, on_event=lambda *event: events.append(event)
    )
    started = time.monotonic()
    slow = outcome(pool.submit(sleep_then, (3, 0), "http://slow/"))
    quick = _gather([pool.submit(double, (n,), None) for n in range(5)])
    assert isinstance((yield slow), ExtractionTimeoutError)
    assert (yield quick) == [0, 2, 4, 6, 8]
    assert time.monotonic() - started < 2
    assert events == [("timed_out", "http://slow/", "0.3 s")] and pool.abandoned == 1
    pool.close()


@pytest_twisted.inlineCallbacks
def test_closing_threads_fails_queued_calls() -> Generator[Any, Any, None]:
    pool = ThreadWorkers(1, timeout=0, reactor=reactor)
    running = outcome(pool.submit(sleep_then, (0.3, 1), None))
    queued = outcome(pool.submit(double, (1,), None))
    yield task.deferLater(reactor, 0.1, lambda: None)
    pool.close()
    assert isinstance((yield queued), PoolClosedError)
    assert (yield running) == 1
