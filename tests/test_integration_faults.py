"""Fault injection in real crawls: SIGKILLed workers, slow pages, Ctrl-C, CLOSESPIDER.

Each run is a fresh crawl process of generated pages served locally
(``benchmarks/fault_runs.py``, which also prints the benchmark table of these runs). Bounded:
about a minute in all.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "fault_runs.py"
PAGES = 240

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the injector reads /proc"
)


@pytest.fixture(scope="module")
def faults() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fault_runs", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def port(faults: ModuleType) -> Iterator[int]:
    with faults.serving(PAGES) as port:
        yield port


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("workers", [1, 2])
def test_killed_workers_lose_no_item_and_at_most_their_pages_fields(
    faults: ModuleType, port: int, tmp_path: Path, workers: int, seed: int
) -> None:
    scenario = faults.Scenario(
        f"kill-{workers}", "kill", {"BOILERPLATE_PROCESSES": workers}, kills=6
    )
    outcome = faults.run(scenario, PAGES, port, seed, tmp_path)
    assert outcome.exit_code == 0
    assert outcome.faults >= 1
    assert outcome.received == PAGES and outcome.lost == 0 and outcome.duplicated == 0
    stats = outcome.stats
    # a kill can land as the crawl closes its pool: the pool notices at most the kills made
    deaths = stats.get("boilerplate/workers/died", 0)
    assert 1 <= deaths <= outcome.faults
    # a page misses its fields only if its worker was killed on both of its runs
    assert outcome.without_text <= deaths // 2
    assert outcome.without_text == stats.get("boilerplate/responses/errors/WorkerDiedError", 0)
    assert outcome.workers_left == 0


@pytest.mark.parametrize("pool", ["slow-process", "slow-thread"])
def test_slow_pages_time_out_alone(
    faults: ModuleType, port: int, tmp_path: Path, pool: str
) -> None:
    outcome = faults.run(faults.SCENARIOS[pool], 50, port, 0, tmp_path)
    slow_pages = 50 // faults.SLOW_EVERY
    assert outcome.exit_code == 0
    assert outcome.received == 50 and outcome.lost == 0 and outcome.duplicated == 0
    assert outcome.without_text == slow_pages
    assert outcome.stats["boilerplate/responses/timed_out"] == slow_pages
    # each pathological page would hold its worker 30 s; the time limit (5 s) ends it
    assert outcome.seconds < 30
    assert outcome.workers_left == 0


def test_ctrl_c_ends_the_crawl_promptly_and_stops_the_workers(
    faults: ModuleType, port: int, tmp_path: Path
) -> None:
    outcome = faults.run(faults.SCENARIOS["sigint"], PAGES, port, 0, tmp_path)
    assert outcome.exit_seconds is not None and outcome.exit_seconds < 10
    assert 0 < outcome.received < PAGES and outcome.duplicated == 0
    assert outcome.without_text == 0
    assert outcome.workers_seen >= 1 and outcome.workers_left == 0


def test_closespider_ends_the_crawl(faults: ModuleType, port: int, tmp_path: Path) -> None:
    outcome = faults.run(faults.SCENARIOS["closespider"], PAGES, port, 0, tmp_path)
    assert outcome.exit_code == 0
    assert PAGES // 2 <= outcome.received < PAGES and outcome.duplicated == 0
    assert outcome.without_text == 0 and outcome.workers_left == 0
