"""Mapping a function over a stream in worker processes, in input order, with bounded memory.

:func:`ordered_map` takes items from its input only while fewer than ``in_flight`` of them are
submitted and not yet yielded, so at most ``in_flight`` items and results are held at a time,
however long the input. Results come back in input order: a slow item holds back the results
after it (the workers go on with the rest of the window meanwhile). With ``jobs`` of 1 the
function runs in this process, one item at a time. Workers ignore SIGINT: Ctrl-C stops the
caller, which cancels what is queued and waits for the running items.
"""

from __future__ import annotations

import signal
from collections import deque
from collections.abc import Callable, Generator, Iterable
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, TypeVar

__all__ = ["ordered_map"]

T = TypeVar("T")
R = TypeVar("R")


def ordered_map(
    func: Callable[[T], R],
    items: Iterable[T],
    *,
    jobs: int,
    in_flight: int,
    initializer: Callable[..., object] | None = None,
    initargs: tuple[Any, ...] = (),
) -> Generator[R, None, None]:
    """``func`` of each item, in input order, computed by ``jobs`` worker processes (each runs
    ``initializer(*initargs)`` first) with at most ``in_flight`` items submitted at a time.

    ``func``, the items and the results must pickle when ``jobs`` > 1. An exception raised by
    ``func`` is raised here, at its item; one raised by ``items`` after the results of the items
    taken before it, as with one job. Closing the generator stops the workers.
    """
    if jobs <= 1:
        return _in_process(func, items, initializer, initargs)
    return _in_pool(func, items, jobs, max(in_flight, jobs), initializer, initargs)


def _in_process(
    func: Callable[[T], R],
    items: Iterable[T],
    initializer: Callable[..., object] | None,
    initargs: tuple[Any, ...],
) -> Generator[R, None, None]:
    if initializer is not None:
        initializer(*initargs)
    for item in items:
        yield func(item)


def _in_pool(
    func: Callable[[T], R],
    items: Iterable[T],
    jobs: int,
    in_flight: int,
    initializer: Callable[..., object] | None,
    initargs: tuple[Any, ...],
) -> Generator[R, None, None]:
    pool = ProcessPoolExecutor(
        max_workers=jobs, initializer=_start_worker, initargs=(initializer, initargs)
    )
    pending: deque[Future[R]] = deque()
    inputs = iter(items)
    try:
        while True:
            try:
                item = next(inputs)
            except StopIteration:
                break
            except Exception:  # the results of the items taken before come out first
                while pending:
                    yield pending.popleft().result()
                raise
            pending.append(pool.submit(func, item))
            if len(pending) >= in_flight:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        for future in pending:
            future.cancel()
        pool.shutdown(wait=True, cancel_futures=True)


def _start_worker(initializer: Callable[..., object] | None, initargs: tuple[Any, ...]) -> None:
    """A worker's start: SIGINT ignored (the parent handles Ctrl-C), then ``initializer``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if initializer is not None:
        initializer(*initargs)
