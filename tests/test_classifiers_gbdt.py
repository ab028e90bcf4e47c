"""Boosted-tree inference: the pure-Python reference, its compiled twin, model files, LightGBM.

The compiled tests are skipped when ``_gbdt`` is not built, unless ``BOILERPLATE_REQUIRE_SPEEDUPS``
is set (CI sets it, so a broken build fails there instead of silently testing nothing).
"""

from __future__ import annotations

import dataclasses
import gzip
import io
import json
import math
import os
import pickle
import random
import subprocess
import sys
from array import array
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from scrapy_boilerplate.classifiers import gbdt
from scrapy_boilerplate.classifiers.gbdt import (
    TreeEnsemble,
    dump_model,
    from_lightgbm,
    load_model,
    predict_margins,
    predict_margins_pure,
    predict_proba,
)
from scrapy_boilerplate.page.segmentation import PURE_PYTHON_ENV

_gbdt: ModuleType | None
try:
    from scrapy_boilerplate.classifiers import _gbdt
except ImportError:
    if os.environ.get("BOILERPLATE_REQUIRE_SPEEDUPS"):
        raise
    _gbdt = None

needs_compiled = pytest.mark.skipif(_gbdt is None, reason="the compiled _gbdt is not built")


def hand_made() -> TreeEnsemble:
    """Two trees; every value is a dyadic fraction, so the margins below are exact.

    tree 0: x0 <= 0.5 ? (x1 <= -1.0 ? 0.125 : 0.25) : -0.5
    tree 1: x1 <= 2.0 ? 1.0 : -2.0
    """
    return TreeEnsemble(
        feature_names=("x0", "x1"),
        base_margin=0.0625,
        tree_roots=array("i", [0, 5]),
        split_feature=array("i", [0, 1, -1, -1, -1, 1, -1, -1]),
        threshold=array("d", [0.5, -1.0, 0.125, 0.25, -0.5, 2.0, 1.0, -2.0]),
        left=array("i", [1, 2, -1, -1, -1, 6, -1, -1]),
        right=array("i", [4, 3, -1, -1, -1, 7, -1, -1]),
        metadata={"threshold": 0.5, "trained_on": "hand"},
    )


HAND_ROWS = [
    ((0.5, -1.0), 0.0625 + 0.125 + 1.0),  # both on their thresholds: left, left, left
    ((0.6, 3.0), 0.0625 - 0.5 - 2.0),
    ((0.0, 2.0), 0.0625 + 0.25 + 1.0),
    ((-math.inf, math.inf), 0.0625 + 0.25 - 2.0),
    ((-0.0, -1.0000000000000002), 0.0625 + 0.125 + 1.0),
]


def test_hand_made_ensemble() -> None:
    model = hand_made()
    rows = array("d", [value for features, _ in HAND_ROWS for value in features])
    expected = [margin for _, margin in HAND_ROWS]
    assert predict_margins_pure(model, rows, len(HAND_ROWS)) == expected
    assert predict_margins(model, rows, len(HAND_ROWS)) == expected
    assert predict_proba(model, rows, len(HAND_ROWS)) == [1 / (1 + math.exp(-m)) for m in expected]
    assert predict_margins_pure(model, array("d"), 0) == []
    assert (model.n_trees, model.n_nodes) == (2, 8)


def test_extreme_margins_give_probabilities_of_zero_and_one() -> None:
    leaf = {"split_feature": array("i", [-1]), "left": array("i", [-1]), "right": array("i", [-1])}
    low = TreeEnsemble((), -1000.0, array("i", [0]), threshold=array("d", [-1.0]), **leaf)
    high = dataclasses.replace(low, base_margin=1000.0)
    assert predict_proba(low, array("d"), 3) == [0.0] * 3
    assert predict_proba(high, array("d"), 1) == [1.0]


@pytest.mark.parametrize("length", [3, 5])
def test_rows_of_the_wrong_length_are_refused(length: int) -> None:
    with pytest.raises(ValueError, match="rows of 2 features"):
        predict_margins_pure(hand_made(), array("d", [0.0] * length), 2)
    with pytest.raises(ValueError, match="rows of 2 features"):
        predict_margins(hand_made(), array("d", [0.0] * length), 2)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"left": array("i", [1, 2, -1, -1, -1, 6, -1, 0])}, "leaf node 7 has children"),
        ({"left": array("i", [1, 0, -1, -1, -1, 6, -1, -1])}, r"node 1 has children \(0, 3\)"),
        ({"right": array("i", [4, 3, -1, -1, -1, 8, -1, -1])}, r"node 5 has children \(6, 8\)"),
        ({"split_feature": array("i", [0, 2, -1, -1, -1, 1, -1, -1])}, "feature 2 of 2"),
        ({"threshold": array("d", [0.5])}, "threshold has 1 entries"),
        ({"tree_roots": array("i", [0, 8])}, "tree 1 has root 8"),
        ({"tree_roots": array("i", [0, 1])}, "node 1 is a root or child twice"),
        ({"right": array("i", [4, 3, -1, -1, -1, 6, -1, -1])}, "node 6 is a root or child twice"),
        ({"left": array("l", [1, 2, -1, -1, -1, 6, -1, -1])}, r"left must be an array\('i'\)"),
    ],
)
def test_invalid_ensembles_are_refused(change: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        dataclasses.replace(hand_made(), **change)


# -- model files ---------------------------------------------------------------------------

AWKWARD_FLOATS = [0.1 + 0.2, 1e-300, 5e-324, -0.0, 1 / 3, 2.0**60 + 1, math.inf]


def awkward_model() -> TreeEnsemble:
    values = array("d", [*hand_made().threshold[:7], AWKWARD_FLOATS[0]])
    return dataclasses.replace(hand_made(), base_margin=1 / 3, threshold=values)


def assert_same_model(loaded: TreeEnsemble, model: TreeEnsemble) -> None:
    assert loaded == model
    assert [v.hex() for v in loaded.threshold] == [v.hex() for v in model.threshold]
    assert loaded.base_margin.hex() == model.base_margin.hex()
    for name in ("tree_roots", "split_feature", "threshold", "left", "right"):
        assert getattr(loaded, name).typecode == getattr(model, name).typecode


@pytest.mark.parametrize("name", ["model.json", "model.json.gz"])
def test_dump_and_load_round_trip(tmp_path: Path, name: str) -> None:
    model = awkward_model()
    path = tmp_path / name
    dump_model(model, path)
    data = path.read_bytes()
    assert (data[:2] == b"\x1f\x8b") == name.endswith(".gz")
    assert_same_model(load_model(path), model)
    assert_same_model(load_model(str(path)), model)
    assert_same_model(load_model(data), model)
    with path.open("rb") as file:
        assert_same_model(load_model(file), model)


def test_dump_to_a_file_object_writes_plain_json() -> None:
    buffer = io.BytesIO()
    dump_model(awkward_model(), buffer)
    document = json.loads(buffer.getvalue())
    assert document["format"] == "scrapy-boilerplate-trees"
    assert document["version"] == 1
    assert document["metadata"] == {"threshold": 0.5, "trained_on": "hand"}
    assert document["threshold"][7] == 0.1 + 0.2
    assert_same_model(load_model(buffer.getvalue()), awkward_model())


def test_gzip_output_is_reproducible(tmp_path: Path) -> None:
    dump_model(hand_made(), tmp_path / "a.json.gz")
    dump_model(hand_made(), tmp_path / "b.json.gz")
    assert (tmp_path / "a.json.gz").read_bytes() == (tmp_path / "b.json.gz").read_bytes()


def test_awkward_floats_round_trip_exactly() -> None:
    for value in AWKWARD_FLOATS:
        model = dataclasses.replace(hand_made(), base_margin=value)
        buffer = io.BytesIO()
        dump_model(model, buffer)
        assert load_model(buffer.getvalue()).base_margin.hex() == value.hex()


def model_document() -> dict[str, Any]:
    buffer = io.BytesIO()
    dump_model(hand_made(), buffer)
    document: dict[str, Any] = json.loads(buffer.getvalue())
    return document


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "xgboost"}, "its format is not 'scrapy-boilerplate-trees'"),
        ({"version": 2}, "version 2, expected 1"),
        ({"left": [1, 2, -1, -1, -1, 6, -1, 99]}, r"leaf node 7 has children \(99, -1\)"),
        ({"right": [4, 30, -1, -1, -1, 7, -1, -1]}, r"node 1 has children \(2, 30\)"),
        ({"threshold": [0.5, -1.0, 0.125]}, "threshold has 3 entries, split_feature has 8"),
        ({"left": [1, 2, -1]}, "left has 3 entries, split_feature has 8"),
        ({"split_feature": [0, 5, -1, -1, -1, 1, -1, -1]}, "feature 5 of 2"),
        ({"tree_roots": [0, -1]}, "tree 1 has root -1"),
        ({"left": [1.5, 2, -1, -1, -1, 6, -1, -1]}, "malformed model file"),
        ({"feature_names": "x0"}, "feature_names is not a list of strings"),
        ({"metadata": []}, "metadata is not an object"),
        ({"base_margin": None}, "malformed model file"),
        ({"right": None}, "malformed model file"),
    ],
)
def test_invalid_files_are_refused(change: dict[str, Any], message: str) -> None:
    document = {**model_document(), **change}
    with pytest.raises(ValueError, match=message):
        load_model(json.dumps(document).encode())
    with pytest.raises(ValueError, match=message):
        load_model(gzip.compress(json.dumps(document).encode()))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"not json", "bad JSON"),
        (b"[1, 2]", "its format is not"),
        (b"\x1f\x8b\x08\x00garbage", "bad gzip data"),
        (b"\xff\xfe\x00", "bad JSON"),
    ],
)
def test_non_model_files_are_refused(data: bytes, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        load_model(data)


def test_a_missing_key_is_named() -> None:
    document = model_document()
    del document["tree_roots"]
    with pytest.raises(ValueError, match="without 'tree_roots'"):
        load_model(json.dumps(document).encode())
    del document["metadata"]  # optional
    document["tree_roots"] = [0, 5]
    assert load_model(json.dumps(document).encode()).metadata == {}


# -- LightGBM ------------------------------------------------------------------------------


def test_from_lightgbm_matches_lightgbm_raw_scores() -> None:
    lightgbm = pytest.importorskip("lightgbm")
    np = pytest.importorskip("numpy")
    rng = np.random.default_rng(7)
    x = rng.normal(size=(600, 5))
    x[:, 3] = rng.integers(0, 4, size=600)  # a few distinct values: splits between them
    y = (x[:, 0] + 0.5 * x[:, 1] * x[:, 2] + rng.normal(scale=0.5, size=600) > 0).astype(int)
    params = {"objective": "binary", "num_leaves": 15, "verbose": -1, "num_threads": 1}
    booster = lightgbm.train(params, lightgbm.Dataset(x, y), num_boost_round=30)
    model = from_lightgbm(booster.dump_model())
    assert model == from_lightgbm(booster)
    assert model.base_margin == 0.0
    assert model.feature_names == tuple(booster.feature_name())
    assert model.n_trees == booster.num_trees() == 30

    # rows exactly on every threshold, and on the floats just below and above it
    splits = [(f, t) for f, t in zip(model.split_feature, model.threshold, strict=True) if f >= 0]
    on_thresholds = rng.normal(size=(3 * len(splits), 5))
    for i, (feature, value) in enumerate(splits):
        for j, sign in enumerate((0, -1, 1)):
            on_thresholds[3 * i + j, feature] = (
                math.nextafter(value, sign * math.inf) if sign else value
            )
    test = np.vstack([rng.normal(size=(200, 5)), on_thresholds])
    rows = array("d", test.ravel().tolist())

    margins = predict_margins(model, rows, len(test))
    expected = booster.predict(test, raw_score=True)
    assert np.max(np.abs(np.array(margins) - expected)) < 1e-9
    proba = np.array(predict_proba(model, rows, len(test)))
    assert np.array_equal(proba > 0.5, booster.predict(test) > 0.5)
    assert np.max(np.abs(proba - booster.predict(test))) < 1e-12
    # each tree alone: the very same leaf, so the very same value
    for tree, root in enumerate(model.tree_roots):
        alone = dataclasses.replace(model, tree_roots=array("i", [root]))
        ours = predict_margins_pure(alone, rows, len(test))
        theirs = booster.predict(test, raw_score=True, start_iteration=tree, num_iteration=1)
        assert ours == theirs.tolist(), f"tree {tree}"


def lightgbm_dump(*trees: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {
        "objective": "binary sigmoid:1",
        "num_tree_per_iteration": 1,
        "feature_names": ["a", "b"],
        "tree_info": [{"tree_structure": tree} for tree in trees],
        **fields,
    }


def split(feature: int, threshold: float, left: Any, right: Any, **fields: Any) -> dict[str, Any]:
    return {
        "split_feature": feature,
        "threshold": threshold,
        "decision_type": "<=",
        "default_left": True,
        "missing_type": "None",
        "left_child": left,
        "right_child": right,
        **fields,
    }


def leaf(value: float) -> dict[str, Any]:
    return {"leaf_value": value}


def test_from_lightgbm_on_hand_made_dumps() -> None:
    dump = lightgbm_dump(leaf(0.75), split(1, 0.5, leaf(-1.0), split(0, 2.0, leaf(2), leaf(3))))
    model = from_lightgbm(dump)
    assert model.n_trees == 2 and model.n_nodes == 6
    rows = array("d", [0.0, 0.5, 2.0, 0.75, 2.5, 0.75])
    assert predict_margins_pure(model, rows, 3) == [0.75 - 1.0, 0.75 + 2.0, 0.75 + 3.0]


def test_from_lightgbm_converts_deep_trees_without_recursion() -> None:
    depth = 5 * sys.getrecursionlimit()
    tree = leaf(1.0)  # a chain: x <= 0 ? -0.0 : x <= 1 ? -1.0 : ... : x <= depth - 1 ? ... : 1.0
    for level in range(depth - 1, -1, -1):
        tree = split(level % 2, float(level), leaf(-float(level)), tree)
    model = from_lightgbm(lightgbm_dump(tree))
    assert model.n_nodes == 2 * depth + 1
    rows = array("d", [depth, depth, 0.0, 0.0, 7.5, 7.5])
    assert predict_margins_pure(model, rows, 3) == [1.0, -0.0, -8.0]


@pytest.mark.parametrize(
    ("dump", "message"),
    [
        (lightgbm_dump(split(0, 1.0, leaf(0), leaf(1), decision_type="==")), "only numerical"),
        (lightgbm_dump(split(0, 1.0, leaf(0), leaf(1), missing_type="Zero")), "zero_as_missing"),
        (lightgbm_dump(leaf(0), objective="regression"), "expected binary"),
        (lightgbm_dump(leaf(0), objective="binary sigmoid:2"), "expected binary"),
        (lightgbm_dump(leaf(0), num_tree_per_iteration=3), "multi-class"),
        (lightgbm_dump(leaf(0), average_output=True), "random forest"),
        (lightgbm_dump(split(2, 1.0, leaf(0), leaf(1))), "feature 2 of 2"),
    ],
)
def test_from_lightgbm_refuses_what_it_cannot_convert(dump: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        from_lightgbm(dump)


def test_from_lightgbm_refuses_linear_trees() -> None:
    dump = lightgbm_dump(leaf(0))
    dump["tree_info"][0]["is_linear"] = True
    with pytest.raises(ValueError, match="linear trees"):
        from_lightgbm(dump)


# -- the compiled twin ---------------------------------------------------------------------

GRID = [-2.5, -1.0, -0.1, -0.0, 0.0, 1 / 3, 0.7, 5e-324, 1e-300, 2.0, 1e6]


def random_ensemble(rng: random.Random, n_features: int, n_trees: int = 50) -> TreeEnsemble:
    """Random trees up to depth 8 with thresholds from GRID and leaf values of all magnitudes
    (so that adding them in another order would give other floats)."""
    nodes: list[list[float]] = []  # [split_feature, threshold, left, right]
    roots = []

    def new() -> int:
        nodes.append([-1, 0.0, -1, -1])
        return len(nodes) - 1

    for _ in range(n_trees):
        roots.append(new())
        pending = [(roots[-1], 0)]
        while pending:
            node, depth = pending.pop()
            if depth < 8 and rng.random() < 0.8:
                threshold = rng.choice(GRID) if rng.random() < 0.7 else rng.uniform(-3, 3)
                nodes[node] = [rng.randrange(n_features), threshold, new(), new()]
                pending += [(int(nodes[node][2]), depth + 1), (int(nodes[node][3]), depth + 1)]
            else:
                nodes[node][1] = rng.uniform(-1, 1) * 10.0 ** rng.randint(-12, 6)
    return TreeEnsemble(
        feature_names=tuple(f"f{i}" for i in range(n_features)),
        base_margin=rng.uniform(-1, 1),
        tree_roots=array("i", roots),
        split_feature=array("i", [int(n[0]) for n in nodes]),
        threshold=array("d", [n[1] for n in nodes]),
        left=array("i", [int(n[2]) for n in nodes]),
        right=array("i", [int(n[3]) for n in nodes]),
    )


def random_rows(rng: random.Random, model: TreeEnsemble, n_rows: int) -> array[float]:
    """Rows whose values are often exactly a threshold (of GRID or of the model)."""
    thresholds = [t for f, t in zip(model.split_feature, model.threshold, strict=True) if f >= 0]
    pools = [GRID, thresholds, [-math.inf, math.inf, -1e308, 1e308]]
    values = [
        rng.uniform(-3, 3) if rng.random() < 0.3 else rng.choice(rng.choice(pools))
        for _ in range(n_rows * len(model.feature_names))
    ]
    return array("d", values)


def hexes(values: list[float]) -> list[str]:
    return [value.hex() for value in values]


def test_pure_adds_the_leaf_values_in_tree_order() -> None:
    rng = random.Random(99)
    model = random_ensemble(rng, n_features=4, n_trees=20)
    rows = random_rows(rng, model, 50)
    summed = [model.base_margin] * 50
    for root in model.tree_roots:
        alone = dataclasses.replace(model, base_margin=0.0, tree_roots=array("i", [root]))
        values = predict_margins_pure(alone, rows, 50)
        summed = [margin + value for margin, value in zip(summed, values, strict=True)]
    assert hexes(predict_margins_pure(model, rows, 50)) == hexes(summed)


@needs_compiled
@pytest.mark.parametrize("seed", range(8))
def test_compiled_equals_pure_bit_for_bit(seed: int) -> None:
    assert _gbdt is not None
    rng = random.Random(seed)
    model = random_ensemble(rng, n_features=rng.randint(1, 12))
    rows = random_rows(rng, model, 300)
    pure = predict_margins_pure(model, rows, 300)
    fast = _gbdt.predict_margins(model, rows, 300)
    assert fast == pure
    assert hexes(fast) == hexes(pure)
    assert predict_proba(model, rows, 300) == [gbdt._sigmoid(m) for m in pure]
    assert hexes(_gbdt.predict_proba(model, rows, 300)) == hexes(
        gbdt.predict_proba_pure(model, rows, 300)
    )


@needs_compiled
@pytest.mark.parametrize("margin", [-800.0, -709.7, -36.8, -1e-300, 0.0, 1e-17, 36.8, 800.0])
def test_compiled_probabilities_at_extreme_margins(margin: float) -> None:
    # below about -709 math.exp overflows (the reference returns 0.0), C's exp gives inf
    assert _gbdt is not None
    leaf = {"split_feature": array("i", [-1]), "left": array("i", [-1]), "right": array("i", [-1])}
    model = TreeEnsemble((), margin, array("i", [0]), threshold=array("d", [0.0]), **leaf)
    assert hexes(_gbdt.predict_proba(model, array("d"), 2)) == hexes(
        gbdt.predict_proba_pure(model, array("d"), 2)
    )


@needs_compiled
def test_compiled_hand_made_and_edge_cases() -> None:
    assert _gbdt is not None
    model = hand_made()
    rows = array("d", [value for features, _ in HAND_ROWS for value in features])
    assert _gbdt.predict_margins(model, rows, len(HAND_ROWS)) == [m for _, m in HAND_ROWS]
    assert _gbdt.predict_margins(model, array("d"), 0) == []
    no_features = random_ensemble(random.Random(1), n_features=1)
    no_features = dataclasses.replace(
        no_features,
        feature_names=(),
        split_feature=array("i", [-1] * no_features.n_nodes),
        left=array("i", [-1] * no_features.n_nodes),
        right=array("i", [-1] * no_features.n_nodes),
    )
    assert _gbdt.predict_margins(no_features, array("d"), 4) == predict_margins_pure(
        no_features, array("d"), 4
    )
    for length, n_rows in ((3, 2), (4, -2)):
        with pytest.raises(ValueError, match="rows of 2 features"):
            _gbdt.predict_margins(model, array("d", [0.0] * length), n_rows)


@needs_compiled
def test_compiled_never_reads_outside_a_model_changed_after_construction() -> None:
    assert _gbdt is not None
    rows = array("d", [0.0, 0.0])
    for name, index, value in [
        ("left", 1, 1000),
        ("right", 0, 0),
        ("split_feature", 1, 7),
        ("tree_roots", 1, 8),
        ("tree_roots", 0, -3),
    ]:
        model = hand_made()
        getattr(model, name)[index] = value
        with pytest.raises(ValueError, match="out of range"):
            _gbdt.predict_margins(model, rows, 1)
    model = hand_made()
    model.threshold.pop()
    with pytest.raises(ValueError, match="different lengths"):
        _gbdt.predict_margins(model, rows, 1)


def renumbered(model: TreeEnsemble, rng: random.Random) -> TreeEnsemble:
    """The same trees with their nodes in another order (children no longer neighbours, and
    unreachable nodes added), still each child after its parent."""
    n_nodes = model.n_nodes
    spare = n_nodes // 3
    depths = _depths(model)
    depth_order = sorted(range(n_nodes), key=lambda node: (depths[node], rng.random()))
    new_index = {old: new for new, old in enumerate(depth_order)}
    size = n_nodes + spare
    split_feature, threshold = array("i", [-1] * size), array("d", [0.0] * size)
    left, right = array("i", [-1] * size), array("i", [-1] * size)
    for old, new in new_index.items():
        split_feature[new], threshold[new] = model.split_feature[old], model.threshold[old]
        if model.split_feature[old] >= 0:
            left[new], right[new] = new_index[model.left[old]], new_index[model.right[old]]
    for node in range(n_nodes, size):  # never reached: a leaf with a huge value
        threshold[node] = 1e300
    roots = array("i", [new_index[root] for root in model.tree_roots])
    changed = dict(split_feature=split_feature, threshold=threshold, left=left, right=right)
    return dataclasses.replace(model, tree_roots=roots, **changed)


def _depths(model: TreeEnsemble) -> list[int]:
    depth = [0] * model.n_nodes
    for node in range(model.n_nodes):
        if model.split_feature[node] >= 0:
            depth[model.left[node]] = depth[model.right[node]] = depth[node] + 1
    return depth


@needs_compiled
@pytest.mark.parametrize("seed", range(4))
def test_compiled_equals_pure_on_any_node_order(seed: int) -> None:
    assert _gbdt is not None
    rng = random.Random(seed)
    original = random_ensemble(rng, n_features=6, n_trees=20)
    model = renumbered(original, rng)
    internal = [node for node in range(model.n_nodes) if model.split_feature[node] >= 0]
    assert any(model.right[node] != model.left[node] + 1 for node in internal)
    rows = random_rows(rng, model, 77)
    pure = predict_margins_pure(model, rows, 77)
    assert hexes(pure) == hexes(predict_margins_pure(original, rows, 77))
    assert hexes(_gbdt.predict_margins(model, rows, 77)) == hexes(pure)


@needs_compiled
@pytest.mark.parametrize("n_rows", [*range(0, 19), 64, 65])
def test_compiled_equals_pure_for_any_number_of_rows(n_rows: int) -> None:
    # rows are walked in batches: every remainder of a batch, and rows holding NaN (which go
    # right at every split, as in the reference)
    assert _gbdt is not None
    rng = random.Random(n_rows)
    model = random_ensemble(rng, n_features=3, n_trees=10)
    rows = random_rows(rng, model, n_rows)
    for index in range(0, len(rows), 7):
        rows[index] = math.nan
    assert hexes(_gbdt.predict_margins(model, rows, n_rows)) == hexes(
        predict_margins_pure(model, rows, n_rows)
    )


@needs_compiled
def test_the_compiled_copy_is_made_once_and_not_pickled() -> None:
    model = random_ensemble(random.Random(5), n_features=4, n_trees=5)
    rows = random_rows(random.Random(6), model, 9)
    first = predict_margins(model, rows, 9)
    walk = model.__dict__["_walk"]
    assert predict_proba(model, rows, 9) == [gbdt._sigmoid(m) for m in first]
    assert model.__dict__["_walk"] is walk
    copy = pickle.loads(pickle.dumps(model))
    assert "_walk" not in copy.__dict__
    assert copy == model
    assert predict_margins(copy, rows, 9) == first


@needs_compiled
def test_compiled_refuses_a_model_changed_into_shared_nodes() -> None:
    # a node with two parents would be copied once per path: the copy refuses it instead
    assert _gbdt is not None
    model = hand_made()
    model.right[0] = 1  # nodes 1..3 now hang under both children of the root
    with pytest.raises(ValueError, match="reached twice"):
        _gbdt.predict_margins(model, array("d", [0.0, 0.0]), 1)
    model = hand_made()
    model.tree_roots[1] = 0
    with pytest.raises(ValueError, match="reached twice"):
        _gbdt.predict_margins(model, array("d", [0.0, 0.0]), 1)


@needs_compiled
def test_compiled_is_used_unless_pure_python_is_asked_for() -> None:
    asked_for_pure = bool(os.environ.get(PURE_PYTHON_ENV))
    assert gbdt.ACCELERATED is not asked_for_pure


def test_the_environment_variable_forces_pure_python() -> None:
    code = (
        "from array import array\n"
        "from scrapy_boilerplate.classifiers import gbdt\n"
        "assert not gbdt.ACCELERATED\n"
        "assert gbdt._gbdt is None\n"
    )
    env = {**os.environ, PURE_PYTHON_ENV: "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
