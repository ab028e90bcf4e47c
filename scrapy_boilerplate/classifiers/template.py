"""Page-level templateness (Chakrabarti, Kumar, Punera 2007): a classifier scores every visible
DOM node, the scores are smoothed over the tree, and blocks in template nodes are boilerplate.

* **Nodes and features**: :mod:`~scrapy_boilerplate.features.nodes` (node table, area proxy,
  hidden nodes folded into their parent) and :mod:`~scrapy_boilerplate.features.node_features`.
* **Classifier** (:class:`TemplateModel`): four logistic regressions, one per area bucket
  (``log(1 + area)`` cut at ``area_cuts``); a node's score ``x`` is its probability of being
  template. Stored as a small JSON file (coefficients on the raw features; standardisation
  folded in). The shipped one (:data:`SHIPPED_TEMPLATE_MODEL`) is trained on the WCXB
  development split only (CC-BY-4.0), with ``scrapy-boilerplate train --extractor page-template``.
* **Smoothing** (:func:`~scrapy_boilerplate.filters.isotonic.smooth_tree`): node weights
  ``1 + hidden children``, penalties ``gamma_i = c · A_body / A_i`` (the paper's choice,
  ``c = 0.01``), ``levels`` score levels.
* **Decision**: a block is content when the smoothed score of its node (the visible node
  holding its element) is below ``threshold``; its ``score`` is ``1 - y`` (the probability
  of content). Without smoothing (``smooth=False``) the raw scores decide: the paper's
  *PageLevel Basic*.
"""

from __future__ import annotations

import bisect
import functools
import json
import math
import operator
from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Final

from ..features.node_features import (
    node_feature_matrix,
    node_feature_names,
    node_feature_rows,
)
from ..features.nodes import (
    NodeTable,
    VisibleTree,
    areas,
    block_owners,
    fold_hidden,
    node_table,
)
from ..filters.isotonic import smooth_tree
from ..model import labels as L
from ..model.document import Element, TextDocument
from ..page.segmentation import compiled_twin

__all__ = [
    "FORMAT",
    "VERSION",
    "SHIPPED_TEMPLATE_MODEL",
    "TemplateModel",
    "PageNodes",
    "page_nodes",
    "page_template_scores",
    "penalties",
    "template_scores",
    "template_scores_pure",
    "ACCELERATED",
    "smoothed_scores",
    "WEIGHTINGS",
    "node_weights",
    "load_template_model",
    "dump_template_model",
    "TemplateEvidence",
    "PageTemplateFilter",
]

#: The ``format`` name and ``version`` of template model files.
FORMAT: Final = "scrapy-boilerplate-template-lr"
VERSION: Final = 1
#: File name of the shipped model inside ``scrapy_boilerplate/classifiers/models``.
SHIPPED_TEMPLATE_MODEL: Final = "template-lr-v1.json"


@dataclass(frozen=True)
class TemplateModel:
    """Logistic regressions by area bucket: bucket ``b`` holds the nodes whose ``log(1 + A)``
    has ``b`` cut points at or below it (``bisect_right``); its margin is
    ``intercepts[b] + Σ coefs[b][k] · row[k]`` over ``feature_names``."""

    feature_names: tuple[str, ...]
    area_cuts: tuple[float, ...]
    intercepts: tuple[float, ...]
    coefs: tuple[tuple[float, ...], ...]
    metadata: dict[str, Any] = field(default_factory=dict)
    #: Positions of ``feature_names`` in a full row of :func:`node_feature_names`.
    columns: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        known = {name: k for k, name in enumerate(node_feature_names())}
        unknown = [name for name in self.feature_names if name not in known]
        if unknown:
            raise ValueError(f"template model with unknown features: {', '.join(unknown)}")
        if len(self.intercepts) != len(self.area_cuts) + 1 or len(self.coefs) != len(
            self.intercepts
        ):
            raise ValueError("template model needs one more bucket than area cuts")
        if any(len(coef) != len(self.feature_names) for coef in self.coefs):
            raise ValueError("template model coefficients do not match its features")
        if list(self.area_cuts) != sorted(self.area_cuts):
            raise ValueError("template model area cuts must ascend")
        object.__setattr__(self, "columns", tuple(known[name] for name in self.feature_names))


_template = compiled_twin(f"{__package__}._template")
#: True when :func:`template_scores` runs the compiled twin of :func:`template_scores_pure`.
ACCELERATED: Final = _template is not None
_LOG_AREA: Final = node_feature_names().index("log_area")
_ALL_COLUMNS: Final = tuple(range(len(node_feature_names())))


def _sigmoid(margin: float) -> float:
    if margin < -700.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-margin))


@dataclass
class PageNodes:
    """A page's visible nodes: node table, areas, visible tree, block owners; their feature
    rows are computed on first use."""

    table: NodeTable
    area: list[float]
    tree: VisibleTree
    owners: list[int]

    @functools.cached_property
    def rows(self) -> list[list[float]]:
        """One row of :func:`~..features.node_features.node_feature_names` per visible node."""
        return node_feature_rows(self.table, self.tree, self.area)

    @property
    def visible_area(self) -> list[float]:
        return list(map(self.area.__getitem__, self.tree.nodes))

    @property
    def visible_words(self) -> list[int]:
        return list(map(self.table.words.__getitem__, self.tree.nodes))


def page_nodes(doc: TextDocument) -> PageNodes:
    """The visible nodes of a segmented page (hidden elements are nodes when the segmenter
    kept hidden blocks)."""
    keep_hidden = any(L.HIDDEN in block.labels for block in doc.blocks)
    table = node_table(doc.root, doc.url, doc.title, keep_hidden=keep_hidden)
    area = areas(table)
    tree = fold_hidden(table, area)
    return PageNodes(table, area, tree, block_owners(table, tree, doc.blocks))


def page_template_scores(model: TemplateModel, nodes: PageNodes) -> list[float]:
    """:func:`template_scores` of the page's feature rows; with the compiled twins, the rows
    go from the features to the scores as one flat array of doubles (same scores)."""
    if _template is not None and model.columns == _ALL_COLUMNS:
        matrix = node_feature_matrix(nodes.table, nodes.tree, nodes.area)
        if matrix is not None:
            scores: list[float] | None = _template.matrix_scores(
                matrix, _LOG_AREA, model.area_cuts, model.intercepts, model.coefs
            )
            if scores is not None:
                return scores
    return template_scores(model, nodes.rows)


def template_scores(model: TemplateModel, rows: Sequence[Sequence[float]]) -> list[float]:
    """P(template) of each feature row (full rows of :func:`node_feature_names`):
    :func:`template_scores_pure`, by the compiled twin when :data:`ACCELERATED` (for lists of
    floats and a model on every feature, in order)."""
    if _template is not None and model.columns == _ALL_COLUMNS:
        scores: list[float] | None = _template.template_scores(
            rows, _LOG_AREA, model.area_cuts, model.intercepts, model.coefs
        )
        if scores is not None:
            return scores
    return template_scores_pure(model, rows)


def template_scores_pure(model: TemplateModel, rows: Sequence[Sequence[float]]) -> list[float]:
    """:func:`template_scores` in pure Python (the reference of the compiled twin)."""
    log_area = _LOG_AREA
    columns = model.columns
    identity = columns == tuple(range(len(columns)))
    scores = []
    for row in rows:
        bucket = bisect.bisect_right(model.area_cuts, row[log_area])
        values = row if identity else [row[k] for k in columns]
        margin = model.intercepts[bucket] + sum(map(operator.mul, values, model.coefs[bucket]))
        scores.append(_sigmoid(margin))
    return scores


def penalties(visible_area: Sequence[float], c: float) -> list[float]:
    """``gamma_i = c · A_body / A_i`` (``A_i`` at least 1)."""
    page = max(1.0, visible_area[0]) if visible_area else 1.0
    return [c * page / (a if a > 1.0 else 1.0) for a in visible_area]


#: Node weights of the smoothing: ``paper`` = 1 + hidden children; ``words`` adds the square
#: root of the node's words (big nodes resist being pulled by small neighbours).
WEIGHTINGS: Final = ("words", "paper")


def node_weights(
    hidden_weight: Sequence[float], words: Sequence[int], weighting: str
) -> list[float]:
    """The smoothing weight of each visible node (:data:`WEIGHTINGS`)."""
    if weighting == "paper":
        return list(hidden_weight)
    if weighting == "words":
        if len(hidden_weight) != len(words):
            raise ValueError("one weight and one word count per node")
        return list(map(operator.add, hidden_weight, map(math.sqrt, words)))
    raise ValueError(f"weighting must be one of {', '.join(WEIGHTINGS)}, not {weighting!r}")


def smoothed_scores(
    parent: Sequence[int],
    scores: Sequence[float],
    weights: Sequence[float],
    visible_area: Sequence[float],
    *,
    c: float,
    levels: int,
) -> list[float]:
    """The isotonic smoothing of ``scores`` over a visible tree, ``gamma_i = c·A/A_i``."""
    if not scores:
        return []
    gamma = penalties(visible_area, c)
    return smooth_tree(parent, scores, weights, gamma, levels).values


#: Elements some outside evidence calls template (e.g. the site's repeated nodes).
TemplateEvidence = Callable[[TextDocument], Container[Element]]


@dataclass(frozen=True)
class PageTemplateFilter:
    """Set each block's ``score`` to ``1 - y`` of its node and ``is_content`` to
    ``y < threshold`` (module docstring); ``smooth=False`` uses the raw scores.

    ``evidence`` (optional) names elements known to be template: a visible node whose
    element it names has its raw score raised to at least ``evidence_score`` before the
    smoothing (evidence can only raise templateness)."""

    model: TemplateModel
    c: float = 0.01
    threshold: float = 0.5
    levels: int = 64
    smooth: bool = True
    weighting: str = "words"
    evidence: TemplateEvidence | None = None
    evidence_score: float = 0.95

    def __call__(self, doc: TextDocument) -> bool:
        if not doc.blocks:
            return False
        nodes = page_nodes(doc)
        scores = page_template_scores(self.model, nodes)
        if self.evidence is not None:
            scores = self._raised(scores, nodes, self.evidence(doc))
        if self.smooth:
            weights = node_weights(nodes.tree.weight, nodes.visible_words, self.weighting)
            scores = smoothed_scores(
                nodes.tree.parent, scores, weights, nodes.visible_area, c=self.c, levels=self.levels
            )
        for block, owner in zip(doc.blocks, nodes.owners, strict=True):
            block.score = 1.0 - scores[owner]
            block.is_content = scores[owner] < self.threshold
        return True

    def _raised(
        self, scores: list[float], nodes: PageNodes, template: Container[Element]
    ) -> list[float]:
        """``scores`` with the evidence's nodes at least :attr:`evidence_score`."""
        elements = nodes.table.elements
        floor = self.evidence_score
        return [
            max(score, floor) if elements[i] in template else score
            for score, i in zip(scores, nodes.tree.nodes, strict=True)
        ]


# -- model files ---------------------------------------------------------------------------


def dump_template_model(model: TemplateModel, path: str | Path) -> None:
    """Write ``model`` as JSON (floats in their shortest exact form)."""
    document = {
        "format": FORMAT,
        "version": VERSION,
        "feature_names": list(model.feature_names),
        "area_cuts": list(model.area_cuts),
        "intercepts": list(model.intercepts),
        "coefs": [list(coef) for coef in model.coefs],
        "metadata": model.metadata,
    }
    Path(path).write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


def _from_json(document: Any) -> TemplateModel:
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ValueError(f"not a template model file: its format is not {FORMAT!r}")
    if document.get("version") != VERSION:
        raise ValueError(f"template model version {document.get('version')!r}, expected {VERSION}")
    try:
        return TemplateModel(
            feature_names=tuple(str(name) for name in document["feature_names"]),
            area_cuts=tuple(float(cut) for cut in document["area_cuts"]),
            intercepts=tuple(float(value) for value in document["intercepts"]),
            coefs=tuple(tuple(float(value) for value in coef) for coef in document["coefs"]),
            metadata=dict(document.get("metadata", {})),
        )
    except KeyError as exc:
        raise ValueError(f"template model file without {exc}") from None
    except (TypeError, ValueError) as exc:
        raise ValueError(f"malformed template model file: {exc}") from None


@functools.lru_cache(maxsize=8)
def load_template_model(path: str = "") -> TemplateModel:
    """The template model at ``path`` (the shipped one for ``""``), loaded once per process.

    Raises ``ValueError`` for a file that is not a valid template model.
    """
    if path:
        data = Path(path).read_bytes()
    else:
        source = resources.files(__package__).joinpath("models").joinpath(SHIPPED_TEMPLATE_MODEL)
        data = source.read_bytes()
    try:
        document = json.loads(data)
    except ValueError as exc:
        raise ValueError(f"not a template model file: bad JSON ({exc})") from None
    return _from_json(document)
