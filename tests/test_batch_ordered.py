"""``ordered_map``: results in input order, at most ``in_flight`` items taken ahead."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import pytest

from scrapy_boilerplate.batch.ordered import ordered_map

_STATE: dict[str, int] = {}


def set_offset(offset: int) -> None:
    _STATE["offset"] = offset


def slow_square(n: int) -> tuple[int, int]:
    """``n * n + offset``, slower for small ``n`` (so later items finish first), and the pid."""
    time.sleep(0.02 if n % 5 == 0 else 0.001)
    return n * n + _STATE["offset"], os.getpid()


def fail_on_three(n: int) -> int:
    if n == 3:
        raise ValueError("three")
    return n


@pytest.mark.parametrize("jobs", [1, 2])
def test_results_come_in_input_order_after_the_initializer(jobs: int) -> None:
    results = list(
        ordered_map(
            slow_square, range(30), jobs=jobs, in_flight=6, initializer=set_offset, initargs=(7,)
        )
    )
    assert [value for value, _ in results] == [n * n + 7 for n in range(30)]
    workers = {pid for _, pid in results}
    assert (workers == {os.getpid()}) if jobs == 1 else (os.getpid() not in workers)


@pytest.mark.parametrize("jobs", [1, 2])
def test_at_most_in_flight_items_are_taken_ahead(jobs: int) -> None:
    taken = 0

    def items() -> Iterator[int]:
        nonlocal taken
        for n in range(40):
            taken += 1
            yield n

    ahead = []
    for count, _ in enumerate(
        ordered_map(
            slow_square, items(), jobs=jobs, in_flight=5, initializer=set_offset, initargs=(0,)
        ),
        start=1,
    ):
        ahead.append(taken - count)
    assert max(ahead) <= 5
    assert max(ahead) >= (4 if jobs > 1 else 0)  # the window is used


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_error_is_raised_at_its_item(jobs: int) -> None:
    results = ordered_map(fail_on_three, range(10), jobs=jobs, in_flight=4)
    assert [next(results) for _ in range(3)] == [0, 1, 2]
    with pytest.raises(ValueError, match="three"):
        next(results)


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_error_of_the_input_comes_after_the_results_of_the_items_before_it(jobs: int) -> None:
    def items() -> Iterator[int]:
        yield from range(3)
        raise OSError("the input broke")

    results: list[int] = []
    with pytest.raises(OSError, match="the input broke"):
        for value in ordered_map(fail_on_three, items(), jobs=jobs, in_flight=8):
            results.append(value)
    assert results == [0, 1, 2]  # with 2 jobs, all three were still in flight
