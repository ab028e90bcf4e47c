"""The page-type classifier: which kind of page a document is, with a confidence.

One boosted tree ensemble per page type (one against the rest, :mod:`.gbdt`) scores the page's
feature row (:mod:`scrapy_boilerplate.features.page`); the type with the highest probability
wins, and its confidence is that probability divided by the sum over the types (0-1). The
types are WCXB's seven (:data:`PAGE_TYPES`). The shipped model (:data:`SHIPPED_PAGE_TYPE_MODEL`)
is trained on WCXB-dev (CC-BY-4.0), fundus (MIT) and magic-html (Apache-2.0) with
``scrapy-boilerplate train wcxb-dev fundus magic-html --extractor page-type``.
"""

from __future__ import annotations

import functools
from array import array
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Final

from ..features.page import PAGE_FEATURE_NAMES, page_features
from ..model.document import TextDocument
from .gbdt import (
    TreeEnsemble,
    model_from_json,
    model_to_json,
    predict_proba,
    read_json_file,
    write_json_file,
)

__all__ = [
    "PAGE_TYPES",
    "SHIPPED_PAGE_TYPE_MODEL",
    "PageTypeModel",
    "PageTypeClassifier",
    "classify_page_type",
    "dump_page_type_model",
    "load_page_type_model",
]

#: The page types, as WCXB names them.
PAGE_TYPES: Final = (
    "article", "listing", "forum", "product", "collection", "documentation", "service",
)  # fmt: skip
#: File name of the shipped page-type model inside ``scrapy_boilerplate/classifiers/models``.
SHIPPED_PAGE_TYPE_MODEL: Final = "page-types-v2.json.gz"
#: The ``format`` name and ``version`` of page-type model files.
FORMAT: Final = "scrapy-boilerplate-page-types"
VERSION: Final = 1


@dataclass(frozen=True)
class PageTypeModel:
    """One binary ensemble per page type (its probability that a page is of that type)."""

    ensembles: dict[str, TreeEnsemble]
    metadata: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name, ensemble in self.ensembles.items():
            if ensemble.feature_names != PAGE_FEATURE_NAMES:
                raise ValueError(
                    f"page-type model of {name!r} was trained on other page features than this "
                    "version computes; retrain it with `scrapy-boilerplate train --extractor "
                    "page-type`"
                )
        if not self.ensembles:
            raise ValueError("a page-type model needs at least one page type")


def classify_page_type(model: PageTypeModel, row: list[float]) -> tuple[str, float]:
    """The most probable page type of a feature row and its share (0-1) of the summed
    probabilities; ties go to the type listed first in the model."""
    values = array("d", row)
    names = iter(model.ensembles)
    best_type = next(names)
    best = total = predict_proba(model.ensembles[best_type], values, 1)[0]
    for name in names:
        probability = predict_proba(model.ensembles[name], values, 1)[0]
        total += probability  # in model order, as sum() adds
        if probability > best:  # strictly (as max()): a tie keeps the type listed first
            best_type, best = name, probability
    return best_type, best / total if total > 0 else 0.0


@dataclass(frozen=True)
class PageTypeClassifier:
    """Set ``doc.page_type`` and ``doc.page_type_confidence`` from the model. Changes no
    block (returns False)."""

    model: PageTypeModel

    def __call__(self, doc: TextDocument) -> bool:
        doc.page_type, doc.page_type_confidence = classify_page_type(self.model, page_features(doc))
        return False


# -- model files ---------------------------------------------------------------------------


def dump_page_type_model(model: PageTypeModel, path: str | Path) -> None:
    """Write ``model`` as JSON, gzip-compressed when the name ends with ``.gz``."""
    document = {
        "format": FORMAT,
        "version": VERSION,
        "types": {name: model_to_json(ensemble) for name, ensemble in model.ensembles.items()},
        "metadata": model.metadata,
    }
    write_json_file(document, path)


def _from_json(document: Any) -> PageTypeModel:
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ValueError(f"not a page-type model file: its format is not {FORMAT!r}")
    if document.get("version") != VERSION:
        raise ValueError(f"page-type model version {document.get('version')!r}, expected {VERSION}")
    types = document.get("types")
    if not isinstance(types, dict):
        raise ValueError("malformed page-type model file: no types")
    ensembles = {str(name): model_from_json(value) for name, value in types.items()}
    return PageTypeModel(ensembles, dict(document.get("metadata") or {}))


@functools.lru_cache(maxsize=4)
def load_page_type_model(path: str = "") -> PageTypeModel:
    """The page-type model at ``path`` (the shipped one for ``""``), loaded once per process;
    ``ValueError`` for a file that is not a valid one."""
    if path:
        data = Path(path).read_bytes()
    else:
        source = resources.files(__package__).joinpath("models").joinpath(SHIPPED_PAGE_TYPE_MODEL)
        data = source.read_bytes()
    return _from_json(read_json_file(data, "page-type model file"))
