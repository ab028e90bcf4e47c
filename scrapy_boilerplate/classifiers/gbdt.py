"""Inference of a binary classifier made of gradient-boosted decision trees.

A :class:`TreeEnsemble` holds its trees as flat node arrays. At an internal node a row goes
left when ``x[split_feature] <= threshold``, else right (LightGBM's rule for numerical splits;
features are never NaN). A row's margin (log-odds) is ``base_margin`` plus the values of the
leaves it reaches, added in tree order; its probability is ``1 / (1 + exp(-margin))``.

:func:`predict_margins_pure` is the reference. The compiled twin (``_gbdt``, built with Cython
when the package is installed) adds in the same order and so gives the very same floats; it
runs when built, unless :data:`~scrapy_boilerplate.page.segmentation.PURE_PYTHON_ENV` is set.
It walks a copy of the trees laid out for batches of rows without branches, made on a model's
first compiled prediction and kept with it.

Models are stored as JSON (gzip-compressed when the file name ends with ``.gz``); see
:func:`dump_model`. :func:`from_lightgbm` converts a trained LightGBM model.
"""

from __future__ import annotations

import functools
import gzip
import json
import math
import os
from array import array
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Final, Protocol

from ..page.segmentation import compiled_twin

if TYPE_CHECKING:
    from . import _gbdt as _gbdt_types

__all__ = [
    "TreeEnsemble",
    "predict_margins",
    "predict_margins_pure",
    "predict_proba",
    "predict_proba_pure",
    "dump_model",
    "load_model",
    "from_lightgbm",
    "model_to_json",
    "model_from_json",
    "read_json_file",
    "write_json_file",
    "ACCELERATED",
    "FORMAT",
    "VERSION",
]

#: The ``format`` name and ``version`` of the model files this module reads and writes.
FORMAT: Final = "scrapy-boilerplate-trees"
VERSION: Final = 1

_GZIP_MAGIC: Final = b"\x1f\x8b"
_NODE_ARRAYS: Final = (("split_feature", "i"), ("threshold", "d"), ("left", "i"), ("right", "i"))


@dataclass(frozen=True)
class TreeEnsemble:
    """A boosted tree ensemble for binary classification, as flat arrays.

    Node ``n`` is a leaf when ``split_feature[n] == -1``: then ``threshold[n]`` is its value (a
    margin, in log-odds) and ``left[n] == right[n] == -1``. Otherwise its children are
    ``left[n]`` and ``right[n]``, both greater than ``n`` (so every walk ends) and less than the
    number of nodes. ``tree_roots`` holds each tree's root node; no node is a root or a child
    twice. Checked on construction (:class:`ValueError`); the arrays must not be changed
    afterwards (the compiled twin predicts with a copy made on first use).
    """

    feature_names: tuple[str, ...]
    base_margin: float
    tree_roots: array[int]
    split_feature: array[int]
    threshold: array[float]
    left: array[int]
    right: array[int]
    #: Free-form, JSON-serialisable facts about the model (decision thresholds, training data).
    metadata: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _check(self)

    @functools.cached_property
    def _walk(self) -> _gbdt_types.Walk:
        """The compiled twin's copy of the trees, made on first use (needs :data:`ACCELERATED`)."""
        assert _gbdt is not None
        walk: _gbdt_types.Walk = _gbdt.Walk(self)
        return walk

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the compiled copy (a worker makes its own)."""
        return {name: value for name, value in self.__dict__.items() if name != "_walk"}

    @property
    def n_trees(self) -> int:
        return len(self.tree_roots)

    @property
    def n_nodes(self) -> int:
        return len(self.split_feature)


def _check(model: TreeEnsemble) -> None:
    """Raise :class:`ValueError` unless every walk through ``model`` stays in its arrays."""
    n_nodes = len(model.split_feature)
    for name, typecode in (("tree_roots", "i"), *_NODE_ARRAYS):
        values = getattr(model, name)
        if not isinstance(values, array) or values.typecode != typecode:
            raise ValueError(f"{name} must be an array({typecode!r})")
        if name != "tree_roots" and len(values) != n_nodes:
            raise ValueError(f"{name} has {len(values)} entries, split_feature has {n_nodes}")
    n_features = len(model.feature_names)
    for node, (feature, left, right) in enumerate(
        zip(model.split_feature, model.left, model.right, strict=True)
    ):
        if feature == -1:
            if left != -1 or right != -1:
                raise ValueError(f"leaf node {node} has children ({left}, {right})")
        elif not 0 <= feature < n_features:
            raise ValueError(f"node {node} splits on feature {feature} of {n_features}")
        elif not (node < left < n_nodes and node < right < n_nodes):
            raise ValueError(
                f"node {node} has children ({left}, {right}) outside {node + 1}..{n_nodes - 1}"
            )
    for tree, root in enumerate(model.tree_roots):
        if not 0 <= root < n_nodes:
            raise ValueError(f"tree {tree} has root {root}, outside 0..{n_nodes - 1}")
    reached = [*model.tree_roots, *model.left, *model.right]
    seen: set[int] = set()
    for node in reached:
        if node in seen and node != -1:
            raise ValueError(f"node {node} is a root or child twice: the trees are not a forest")
        seen.add(node)


def _check_rows(model: TreeEnsemble, rows: array[float], n_rows: int) -> None:
    n_features = len(model.feature_names)
    if n_rows < 0 or len(rows) != n_rows * n_features:
        raise ValueError(f"{len(rows)} values are not {n_rows} rows of {n_features} features")


def predict_margins_pure(model: TreeEnsemble, rows: array[float], n_rows: int) -> list[float]:
    """The margin (log-odds) of each row; ``rows`` is ``n_rows`` rows of features, row-major.

    Each margin is ``base_margin`` plus the leaf values reached, added one tree at a time in
    tree order (the compiled twin adds in the same order, so it gives the same floats).
    """
    _check_rows(model, rows, n_rows)
    n_features = len(model.feature_names)
    split_feature, threshold = model.split_feature, model.threshold
    left, right = model.left, model.right
    margins = []
    for row in range(n_rows):
        start = row * n_features
        margin = model.base_margin
        for node in model.tree_roots:
            feature = split_feature[node]
            while feature >= 0:
                node = left[node] if rows[start + feature] <= threshold[node] else right[node]
                feature = split_feature[node]
            margin += threshold[node]
        margins.append(margin)
    return margins


_gbdt = compiled_twin(f"{__package__}._gbdt")
#: True when predictions run the compiled twin of :func:`predict_margins_pure`.
ACCELERATED: Final = _gbdt is not None


def predict_margins(model: TreeEnsemble, rows: array[float], n_rows: int) -> list[float]:
    """:func:`predict_margins_pure`, by the compiled twin when :data:`ACCELERATED`."""
    if _gbdt is not None:
        margins: list[float] = model._walk.margins(rows, n_rows)
        return margins
    return predict_margins_pure(model, rows, n_rows)


def _sigmoid(margin: float) -> float:
    try:
        return 1.0 / (1.0 + math.exp(-margin))
    except OverflowError:  # margin below about -709: the probability is below 1e-308
        return 0.0


def predict_proba(model: TreeEnsemble, rows: array[float], n_rows: int) -> list[float]:
    """The probability of the positive class for each row: ``1 / (1 + exp(-margin))``
    (:func:`predict_proba_pure`, by the compiled twin when :data:`ACCELERATED`)."""
    if _gbdt is not None:
        probabilities: list[float] = model._walk.probabilities(rows, n_rows)
        return probabilities
    return predict_proba_pure(model, rows, n_rows)


def predict_proba_pure(model: TreeEnsemble, rows: array[float], n_rows: int) -> list[float]:
    """:func:`predict_proba` in pure Python (the reference of the compiled twin)."""
    return [_sigmoid(margin) for margin in predict_margins_pure(model, rows, n_rows)]


# -- model files ---------------------------------------------------------------------------


def model_to_json(model: TreeEnsemble) -> dict[str, Any]:
    """``model`` as a JSON-serialisable object (what :func:`dump_model` writes)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "feature_names": list(model.feature_names),
        "base_margin": model.base_margin,
        "tree_roots": model.tree_roots.tolist(),
        **{name: getattr(model, name).tolist() for name, _ in _NODE_ARRAYS},
        "metadata": model.metadata,
    }


def dump_model(model: TreeEnsemble, path_or_file: str | os.PathLike[str] | BinaryIO) -> None:
    """Write ``model`` as compact JSON; gzip-compressed when a path's name ends with ``.gz``.

    Floats are written in their shortest exact form, so :func:`load_model` gives them back
    bit for bit. A file object gets the plain JSON bytes.
    """
    write_json_file(model_to_json(model), path_or_file)


def write_json_file(document: Any, path_or_file: str | os.PathLike[str] | BinaryIO) -> None:
    """Write ``document`` as compact JSON to a path (gzip-compressed, reproducibly, when its
    name ends with ``.gz``) or, plain, to a binary file object."""
    data = json.dumps(document, separators=(",", ":")).encode()
    if not isinstance(path_or_file, (str, os.PathLike)):
        path_or_file.write(data)
        return
    path = Path(path_or_file)
    if path.name.endswith(".gz"):
        data = gzip.compress(data, mtime=0)  # mtime=0: the same model gives the same bytes
    path.write_bytes(data)


def load_model(path_or_bytes_or_file: str | os.PathLike[str] | bytes | BinaryIO) -> TreeEnsemble:
    """Read a model written by :func:`dump_model` from a path, bytes or a binary file.

    Gzip-compressed data is recognised by its magic bytes. Raises :class:`ValueError` for
    anything but a valid model of this format and version.
    """
    return model_from_json(read_json_file(path_or_bytes_or_file, "model file"))


def read_json_file(
    path_or_bytes_or_file: str | os.PathLike[str] | bytes | BinaryIO, kind: str
) -> Any:
    """The decoded JSON of a path, bytes or a binary file, gzip-compressed or not (told by its
    magic bytes); ``ValueError`` saying it is "not a {kind}" for bad gzip data or bad JSON."""
    if isinstance(path_or_bytes_or_file, (str, os.PathLike)):
        data = Path(path_or_bytes_or_file).read_bytes()
    elif isinstance(path_or_bytes_or_file, (bytes, bytearray, memoryview)):
        data = bytes(path_or_bytes_or_file)
    else:
        data = path_or_bytes_or_file.read()
    if data[:2] == _GZIP_MAGIC:
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as exc:
            raise ValueError(f"not a {kind}: bad gzip data ({exc})") from None
    try:
        return json.loads(data)
    except ValueError as exc:
        raise ValueError(f"not a {kind}: bad JSON ({exc})") from None


def model_from_json(document: Any) -> TreeEnsemble:
    """The model in a decoded JSON object of :func:`model_to_json`; ``ValueError`` for
    anything else."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ValueError(f"not a model file: its format is not {FORMAT!r}")
    if document.get("version") != VERSION:
        raise ValueError(f"model file version {document.get('version')!r}, expected {VERSION}")
    try:
        names = document["feature_names"]
        metadata = document.get("metadata", {})
        if not (isinstance(names, list) and all(isinstance(name, str) for name in names)):
            raise TypeError("feature_names is not a list of strings")
        if not isinstance(metadata, dict):
            raise TypeError("metadata is not an object")
        arrays = {
            name: array(typecode, document[name])
            for name, typecode in (("tree_roots", "i"), *_NODE_ARRAYS)
        }
        base_margin = float(document["base_margin"])
    except KeyError as exc:
        raise ValueError(f"model file without {exc}") from None
    except (TypeError, OverflowError) as exc:
        raise ValueError(f"malformed model file: {exc}") from None
    return TreeEnsemble(tuple(names), base_margin, metadata=metadata, **arrays)


# -- LightGBM ------------------------------------------------------------------------------


class _LightGBMBooster(Protocol):
    def dump_model(self) -> dict[str, Any]: ...


def from_lightgbm(booster_or_dump: Mapping[str, Any] | _LightGBMBooster) -> TreeEnsemble:
    """The ensemble of a LightGBM binary classifier: ``Booster.dump_model()`` or the booster.

    Its margin equals ``Booster.predict(x, raw_score=True)``: the binary objective has put the
    initial score into the first tree's leaves, so ``base_margin`` is 0.0. Only numerical
    splits are supported (``ValueError`` for categorical ones, zero-as-missing, linear trees,
    random forests and objectives other than ``binary`` with ``sigmoid:1``).
    """
    dump = booster_or_dump if isinstance(booster_or_dump, Mapping) else booster_or_dump.dump_model()
    _check_lightgbm(dump)
    nodes = _Nodes()
    roots = []
    for tree in dump["tree_info"]:
        if tree.get("is_linear"):
            raise ValueError("linear trees are not supported")
        roots.append(len(nodes.split_feature))
        nodes.add_tree(tree["tree_structure"])
    return TreeEnsemble(
        feature_names=tuple(dump["feature_names"]),
        base_margin=0.0,
        tree_roots=array("i", roots),
        split_feature=array("i", nodes.split_feature),
        threshold=array("d", nodes.threshold),
        left=array("i", nodes.left),
        right=array("i", nodes.right),
    )


def _check_lightgbm(dump: Mapping[str, Any]) -> None:
    """Raise :class:`ValueError` unless ``dump`` is a model whose margins are a plain sum."""
    objective, *options = str(dump.get("objective", "")).split()
    sigmoid = dict(option.split(":", 1) for option in options if ":" in option).get("sigmoid")
    if objective != "binary" or float(sigmoid or 1) != 1.0:
        raise ValueError(f"objective {dump.get('objective')!r}, expected binary (sigmoid:1)")
    if dump.get("num_tree_per_iteration", 1) != 1:
        raise ValueError("more than one tree per iteration (a multi-class model)")
    if dump.get("average_output"):
        raise ValueError("a random forest (average_output) is not supported")


@dataclass
class _Nodes:
    """The node arrays of an ensemble being converted, as lists."""

    split_feature: list[int] = field(default_factory=list)
    threshold: list[float] = field(default_factory=list)
    left: list[int] = field(default_factory=list)
    right: list[int] = field(default_factory=list)

    def new_leaf(self) -> int:
        self.split_feature.append(-1)
        self.threshold.append(0.0)
        self.left.append(-1)
        self.right.append(-1)
        return len(self.split_feature) - 1

    def add_tree(self, root: Mapping[str, Any]) -> None:
        """Append one LightGBM ``tree_structure`` (without recursion: any depth works)."""
        pending = [(root, self.new_leaf())]
        while pending:
            node, index = pending.pop()
            if "leaf_value" in node:
                self.threshold[index] = float(node["leaf_value"])
                continue
            if node.get("decision_type") != "<=":
                raise ValueError(f"split {node.get('decision_type')!r}: only numerical (<=)")
            if node.get("missing_type") == "Zero":
                raise ValueError("zero_as_missing splits are not supported")
            left, right = self.new_leaf(), self.new_leaf()
            self.split_feature[index] = int(node["split_feature"])
            self.threshold[index] = float(node["threshold"])
            self.left[index], self.right[index] = left, right
            pending += [(node["right_child"], right), (node["left_child"], left)]
