"""Regularized tree isotonic regression: optimum against brute force, special cases, and the
compiled twin against the pure-Python reference.

The compiled tests are skipped when ``_isotonic`` is not built, unless
``BOILERPLATE_REQUIRE_SPEEDUPS`` is set (CI sets it).
"""

from __future__ import annotations

import itertools
import os
import random
import subprocess
import sys
from array import array
from collections.abc import Callable, Sequence
from types import ModuleType

import numpy as np
import pytest
from shared_datasets import SHARED_DATASETS

from scrapy_boilerplate.classifiers.template import (
    load_template_model,
    node_weights,
    page_nodes,
    penalties,
    template_scores,
)
from scrapy_boilerplate.errors import BoilerplateError
from scrapy_boilerplate.evaluation.datasets import load_pages
from scrapy_boilerplate.filters import isotonic
from scrapy_boilerplate.filters.isotonic import (
    exact_grid,
    level_grid,
    smooth_levels_pure,
    smooth_tree,
)
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import PURE_PYTHON_ENV, segment

_isotonic: ModuleType | None
try:
    from scrapy_boilerplate.filters import _isotonic
except ImportError:
    if os.environ.get("BOILERPLATE_REQUIRE_SPEEDUPS"):
        raise
    _isotonic = None

needs_compiled = pytest.mark.skipif(_isotonic is None, reason="the compiled _isotonic is not built")

Solver = Callable[..., tuple[list[int], float]]
SOLVERS: list[tuple[str, Solver]] = [("pure", smooth_levels_pure)]
if _isotonic is not None:
    SOLVERS.append(("compiled", _isotonic.smooth_levels))


def random_tree(rng: random.Random, n: int) -> list[int]:
    """Parents of a random tree with ``parent[i] < i``: bushy, deep or in between."""
    span = rng.choice([1, 2, 3, n])
    return [-1] + [rng.randrange(max(0, i - span), i) for i in range(1, n)]


def cost_of(
    parent: Sequence[int],
    x: Sequence[float],
    w: Sequence[float],
    gamma: Sequence[float],
    y: Sequence[float],
) -> float:
    """The objective of the module docstring for a feasible ``y``."""
    total = gamma[0] if x else 0.0
    for i in range(len(x)):
        total += w[i] * abs(x[i] - y[i])
        if i and y[i] > y[parent[i]]:
            total += gamma[i]
    return total


def brute_force(
    parent: Sequence[int],
    x: Sequence[float],
    w: Sequence[float],
    gamma: Sequence[float],
    grid: Sequence[float],
) -> float:
    """The least cost over every monotone assignment of grid values (all of grid^n tried)."""
    n = len(x)
    values = np.asarray(grid)
    choice = np.array(list(itertools.product(range(len(grid)), repeat=n)), dtype=np.int16)
    y = values[choice]
    cost = np.full(len(choice), gamma[0]) + np.abs(y - np.asarray(x)) @ np.asarray(w)
    feasible = np.ones(len(choice), dtype=bool)
    for i in range(1, n):
        feasible &= choice[:, i] >= choice[:, parent[i]]
        cost += gamma[i] * (choice[:, i] > choice[:, parent[i]])
    return float(cost[feasible].min())


def small_problem(rng: random.Random) -> tuple[list[int], list[float], list[float], list[float]]:
    """A tree of at most 7 nodes; scores with 2 decimals, often tied; weights 1-3."""
    n = rng.randint(1, 7)
    pool = [round(rng.random(), 2) for _ in range(rng.randint(1, n))]
    x = [rng.choice(pool) for _ in range(n)]
    w = [float(rng.choice([1, 2, 3])) for _ in range(n)]
    gamma = [rng.choice([0.0, 0.05, 0.2, 0.5, 1.5]) for _ in range(n)]
    return random_tree(rng, n), x, w, gamma


def solve(solver: Solver, parent, x, w, gamma, grid) -> tuple[list[float], float]:  # type: ignore[no-untyped-def]
    chosen, cost = solver(
        array("i", parent), array("d", x), array("d", w), array("d", gamma), array("d", grid)
    )
    return [grid[k] for k in chosen], cost


@pytest.mark.parametrize(("name", "solver"), SOLVERS)
def test_equals_brute_force_on_small_random_trees(name: str, solver: Solver) -> None:
    rng = random.Random(12)
    for _ in range(500):
        parent, x, w, gamma = small_problem(rng)
        grid = exact_grid(x)
        y, cost = solve(solver, parent, x, w, gamma, grid)
        assert all(y[i] >= y[parent[i]] for i in range(1, len(x)))
        assert cost == pytest.approx(cost_of(parent, x, w, gamma, y), abs=1e-9)
        assert cost == pytest.approx(brute_force(parent, x, w, gamma, grid), abs=1e-9)


def test_a_finer_grid_never_beats_the_scores() -> None:
    """Lemma 3: an optimum takes only scores as values (also with weights and node penalties)."""
    rng = random.Random(3)
    for _ in range(200):
        parent, x, w, gamma = small_problem(rng)
        if len(x) > 5:
            continue
        fine = sorted({*x, 0.0, 1.0, *((a + b) / 2 for a, b in itertools.pairwise(sorted(x)))})
        exact = brute_force(parent, x, w, gamma, exact_grid(x))
        assert brute_force(parent, x, w, gamma, fine) == pytest.approx(exact, abs=1e-9)


def test_without_penalties_it_is_plain_tree_isotonic_regression() -> None:
    rng = random.Random(5)
    for _ in range(200):
        parent, x, w, _ = small_problem(rng)
        zero = [0.0] * len(x)
        plain = brute_force(parent, x, w, zero, exact_grid(x))  # min Σ w|x - y|, monotone y
        result = smooth_tree(parent, x, w, zero)
        assert result.cost == pytest.approx(plain, abs=1e-9)
        assert all(result.values[i] >= result.values[parent[i]] for i in range(1, len(x)))


def test_monotone_scores_without_penalties_stay_as_they_are() -> None:
    parent = [-1, 0, 0, 1, 1, 2]
    x = [0.1, 0.3, 0.2, 0.7, 0.3, 0.9]
    result = smooth_tree(parent, x, [1.0] * 6, [0.0] * 6)
    assert result.values == x
    assert result.cost == 0.0
    assert result.segment_roots == [0, 1, 2, 3, 5]


def test_a_huge_penalty_gives_one_segment_at_the_weighted_median() -> None:
    rng = random.Random(8)
    for _ in range(100):
        parent, x, w, _ = small_problem(rng)
        result = smooth_tree(parent, x, w, [1e6] * len(x))
        (value,) = set(result.values)
        below = sum(wi for xi, wi in zip(x, w, strict=True) if xi < value)
        above = sum(wi for xi, wi in zip(x, w, strict=True) if xi > value)
        assert below <= sum(w) / 2 and above <= sum(w) / 2  # a weighted median
        assert result.segment_roots == [0]
        assert result.cost == pytest.approx(
            1e6 + sum(wi * abs(xi - value) for xi, wi in zip(x, w, strict=True))
        )


def test_the_root_can_take_the_smallest_score() -> None:
    """The paper's BuildError lets the root take only a value above some score: not here."""
    result = smooth_tree([-1, 0, 0], [0.1, 0.8, 0.9], [1.0] * 3, [0.01] * 3)
    assert result.values == [0.1, 0.8, 0.9]
    only_root = smooth_tree([-1], [0.4], [1.0], [0.5])
    assert only_root.values == [0.4]
    assert only_root.cost == 0.5


def test_a_leaf_leaves_its_parents_segment_only_when_it_pays() -> None:
    """A leaf at distance d from its parent's value starts a segment iff w·d > gamma."""
    parent, w = [-1, 0, 0, 0], [10.0, 10.0, 10.0, 1.0]
    x = [0.2, 0.2, 0.2, 0.6]  # the leaf 3 is 0.4 above: cost 0.4 to stay, gamma to leave
    assert smooth_tree(parent, x, w, [0.0, 0.0, 0.0, 0.39]).values[3] == 0.6
    assert smooth_tree(parent, x, w, [0.0, 0.0, 0.0, 0.41]).values[3] == 0.2
    heavier = smooth_tree(parent, x, [10.0, 10.0, 10.0, 2.0], [0.0, 0.0, 0.0, 0.41])
    assert heavier.values[3] == 0.6


def test_ties_keep_the_lower_value_and_fewer_segments() -> None:
    # 0.2 or 0.8 for the single node cost the same with weight 1 each on two scores.
    result = smooth_tree([-1, 0], [0.8, 0.2], [1.0, 1.0], [0.0, 0.6])
    assert result.values == [0.2, 0.2]
    assert result.segment_roots == [0]


def test_a_quantised_grid_is_within_half_a_bin_per_weight_of_exact() -> None:
    rng = random.Random(21)
    for _ in range(50):
        n = rng.randint(1, 200)
        parent = random_tree(rng, n)
        x = [rng.random() for _ in range(n)]
        w = [float(rng.randint(1, 4)) for _ in range(n)]
        gamma = [rng.choice([0.0, 0.1, 1.0]) for _ in range(n)]
        exact = smooth_tree(parent, x, w, gamma).cost
        for levels in (4, 16, 64):
            quantised = smooth_tree(parent, x, w, gamma, levels=levels)
            assert quantised.cost == pytest.approx(cost_of(parent, x, w, gamma, quantised.values))
            assert exact - 1e-9 <= quantised.cost <= exact + sum(w) / (2 * levels) + 1e-9


def test_a_path_of_ten_thousand_nodes_needs_no_recursion() -> None:
    n = 10_000
    x = [(i % 100) / 100 for i in range(n)]
    result = smooth_tree([-1, *range(n - 1)], x, [1.0] * n, [0.1] * n, levels=16)
    assert len(result.values) == n
    assert all(a <= b for a, b in itertools.pairwise(result.values))


def test_empty_tree() -> None:
    assert smooth_tree([], [], [], []) == isotonic.Smoothing([], 0.0, [])


@pytest.mark.parametrize(
    ("parent", "x", "w", "gamma", "message"),
    [
        ([0], [0.5], [1.0], [0.0], "root"),
        ([-1, 1], [0.5, 0.5], [1.0, 1.0], [0.0, 0.0], "before its child"),
        ([-1, -1], [0.5, 0.5], [1.0, 1.0], [0.0, 0.0], "before its child"),
        ([-1], [0.5, 0.5], [1.0], [0.0], "same length"),
        ([-1], [float("nan")], [1.0], [0.0], "finite"),
        ([-1, 0], [float("inf"), float("-inf")], [1.0, 1.0], [0.0, 0.0], "finite"),
        ([-1, 0], [0.5, 0.5], [1.0, float("inf")], [0.0, 0.0], "positive and finite"),
        ([-1, 0], [0.5, 0.5], [1.0, 1.0], [0.0, float("inf")], "non-negative and finite"),
        ([-1], [0.5], [0.0], [0.0], "positive"),
        ([-1], [0.5], [1.0], [-1.0], "non-negative"),
    ],
)
def test_malformed_input_is_refused(parent, x, w, gamma, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match=message):
        smooth_tree(parent, x, w, gamma)


def test_finite_values_whose_sum_overflows_are_finite() -> None:
    assert isotonic._finite(array("d", [1e308, 1e308, -1e308]))
    assert not isotonic._finite(array("d", [1e308, 1e308, float("nan")]))
    result = smooth_tree([-1, 0], [0.5, 0.5], [1e308, 1e308], [0.0, 0.0])
    assert result.values == [0.5, 0.5]


def test_level_grid() -> None:
    assert list(level_grid(4)) == [0.125, 0.375, 0.625, 0.875]
    with pytest.raises(ValueError):
        level_grid(0)


@needs_compiled
def test_compiled_equals_pure_on_random_trees() -> None:
    assert _isotonic is not None
    rng = random.Random(99)
    for trial in range(200):
        n = rng.randint(1, 3_000) if trial < 30 else rng.randint(1, 300)
        parent = array("i", random_tree(rng, n))
        x = array("d", [round(rng.random(), rng.choice([2, 6])) for _ in range(n)])
        w = array("d", [float(rng.randint(1, 5)) for _ in range(n)])
        gamma = array("d", [rng.choice([0.0, 0.01, 0.3, 2.0]) * rng.random() for _ in range(n)])
        grid = level_grid(64) if n > 300 or trial % 2 else exact_grid(x)
        assert _isotonic.smooth_levels(parent, x, w, gamma, grid) == smooth_levels_pure(
            parent, x, w, gamma, grid
        )


@needs_compiled
@pytest.mark.parametrize("dataset", ["wcxb-dev", "l3s-gn1"])
def test_compiled_equals_pure_on_shared_dataset_pages(dataset: str) -> None:
    """The shipped model's node scores of real pages, smoothed by both twins (first 40 pages)."""
    if not (SHARED_DATASETS / dataset).is_dir():
        pytest.skip(f"{dataset} is not in {SHARED_DATASETS}")
    assert _isotonic is not None
    model = load_template_model()
    for page in load_pages(SHARED_DATASETS / dataset, limit=40):
        try:
            nodes = page_nodes(segment(parse_html(page.html), url=page.url))
        except BoilerplateError:
            continue
        arrays = (
            array("i", nodes.tree.parent),
            array("d", template_scores(model, nodes.rows)),
            array("d", node_weights(nodes.tree.weight, nodes.visible_words, "words")),
            array("d", penalties(nodes.visible_area, 0.01)),
            level_grid(64),
        )
        assert _isotonic.smooth_levels(*arrays) == smooth_levels_pure(*arrays), page.id


@needs_compiled
def test_compiled_refuses_bad_arrays() -> None:
    assert _isotonic is not None
    one = array("d", [0.5])
    with pytest.raises(ValueError, match="same length"):
        _isotonic.smooth_levels(array("i", [-1, 0]), one, one, one, one)
    with pytest.raises(ValueError, match="before its child"):
        _isotonic.smooth_levels(array("i", [-1, 3]), one * 2, one * 2, one * 2, one)
    with pytest.raises(ValueError, match="grid"):
        _isotonic.smooth_levels(array("i", [-1]), one, one, one, array("d"))


@needs_compiled
def test_compiled_is_used_unless_pure_python_is_asked_for() -> None:
    assert isotonic.ACCELERATED is not bool(os.environ.get(PURE_PYTHON_ENV))


def test_the_environment_variable_forces_pure_python() -> None:
    code = "from scrapy_boilerplate.filters import isotonic\nassert not isotonic.ACCELERATED\n"
    env = {**os.environ, PURE_PYTHON_ENV: "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
