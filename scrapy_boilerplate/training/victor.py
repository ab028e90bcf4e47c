"""Training Victor's CRF: labelled pages, CRFsuite training, cross-validation, decoded text.

Pages come from WCXB (labels aligned from ``main_content_markdown``), the article-benchmark
format (fundus, magic-html: each non-empty line of ``articleBody`` a ``p`` segment) or CleanEval
(labels aligned from the gold's ``<p>``/``<h>``/``<l>`` segments), see :mod:`.victor_labels`;
several datasets train one model over their union (:func:`victor_datasets`).
Training: L-BFGS with L1 + L2 penalties (:data:`CRF_PARAMETERS`), label transitions learned
(``feature.possible_transitions``). Cross-validation folds group pages by domain (WCXB) or
split them at random with a fixed seed (CleanEval, as the thesis's six subsets); the folds'
models may train on a subset of the pages (``train_on``) while every page is predicted.
"""

from __future__ import annotations

import gzip
import json
import random
import tempfile
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..classifiers.crf import VictorModel, block_attributes, dump_victor_model, require_crfsuite
from ..classifiers.victor import CONTENT_CODES, join_blocks, segment_spans
from ..errors import BoilerplateError
from ..evaluation.cleaneval import SEGMENT_TAGS, cleaneval_segments
from ..evaluation.datasets import cleaneval_page_html, detect_format, load_pages, resolve_dataset
from ..features.victor import FEATURE_NAMES, victor_features
from ..page.files import html_files, read_html
from ..page.parsing import parse_html
from ..page.victor import victor_blocks
from .dataset import domain_of
from .victor_labels import aligned_labels, markdown_segments

__all__ = [
    "CRF_PARAMETERS",
    "VictorPage",
    "labelled_page",
    "victor_dataset",
    "victor_datasets",
    "train_crf",
    "train_model",
    "fold_ids",
    "cross_validate",
    "decoded_text",
    "decoded_cleaneval",
]

#: CRFsuite training parameters (c1/c2 chosen by grouped CV, see docs/extractors.md).
CRF_PARAMETERS: dict[str, Any] = {
    "c1": 0.05,
    "c2": 0.05,
    "max_iterations": 150,
    "feature.possible_transitions": True,
}


@dataclass
class VictorPage:
    """One page's training data: features, gold label codes, what decoding needs."""

    id: str
    domain: str
    page_type: str | None
    rows: list[list[int]]
    codes: list[str]
    texts: list[str]
    glued: list[bool]
    gold_text: str
    gold_cleaneval: str
    source: str = ""  # the dataset folder's name


def labelled_page(
    page_id: str,
    html: bytes | str,
    url: str | None,
    segments: Sequence[tuple[str, str]],
    page_type: str | None = None,
    gold_text: str | None = None,
) -> VictorPage | None:
    """A page's blocks, features and aligned labels (None when the page cannot be parsed).

    ``gold_text`` is the text extractions are scored against (default: the segments, one
    paragraph each)."""
    try:
        blocks = victor_blocks(parse_html(html))
    except BoilerplateError:
        return None
    texts = [block.text for block in blocks]
    glued = [block.glued for block in blocks]
    gold_lines = [f"{SEGMENT_TAGS[code]} {text}" for code, text in segments]
    return VictorPage(
        id=page_id,
        domain=domain_of(url, page_id),
        page_type=page_type,
        rows=victor_features(blocks),
        codes=aligned_labels(texts, glued, segments),
        texts=texts,
        glued=glued,
        gold_text="\n\n".join(text for _, text in segments) if gold_text is None else gold_text,
        gold_cleaneval="\n".join([f"URL: {url or ''}", *gold_lines]) + "\n",
    )


def _wcxb_pages(root: Path, limit: int | None) -> list[VictorPage]:
    pages = []
    for page in load_pages(root, limit=limit):
        truth = json.loads((root / "ground-truth" / f"{page.id}.json").read_text("utf-8"))
        markdown = truth["ground_truth"].get("main_content_markdown") or page.gold_text
        segments = markdown_segments(markdown)
        labelled = labelled_page(
            page.id, page.html, page.url, segments, page.page_type, page.gold_text
        )
        if labelled is not None:
            pages.append(labelled)
    return pages


def _cleaneval_pages(root: Path, limit: int | None) -> list[VictorPage]:
    inputs = html_files(root / "input")
    pages = []
    for page_id in sorted(inputs, key=lambda name: (len(name), name))[:limit]:
        gold_path = root / "gold" / f"{page_id}.txt.gz"
        if not gold_path.is_file():
            continue
        html, url = cleaneval_page_html(read_html(inputs[page_id]))
        gold = gzip.decompress(gold_path.read_bytes()).decode("utf-8-sig", "replace")
        labelled = labelled_page(page_id, html, url, cleaneval_segments(gold))
        if labelled is not None:
            pages.append(labelled)
    return pages


def _article_benchmark_pages(root: Path, limit: int | None) -> list[VictorPage]:
    pages = []
    for page in load_pages(root, limit=limit):
        segments = [("p", line.strip()) for line in page.gold_text.splitlines() if line.strip()]
        labelled = labelled_page(
            page.id, page.html, page.url, segments, page.page_type, page.gold_text
        )
        if labelled is not None:
            pages.append(labelled)
    return pages


_READERS: dict[str, Callable[[Path, int | None], list[VictorPage]]] = {
    "wcxb": _wcxb_pages,
    "article-benchmark": _article_benchmark_pages,
    "cleaneval": _cleaneval_pages,
}


def victor_dataset(path: str, limit: int | None = None) -> list[VictorPage]:
    """The labelled pages of a WCXB, article-benchmark or CleanEval dataset folder (or shared
    name), each with the folder's name as its ``source``."""
    root = resolve_dataset(path)
    fmt = detect_format(root)
    if fmt not in _READERS:
        raise ValueError(
            f"victor training reads WCXB, article-benchmark or CleanEval datasets, not {fmt}"
        )
    pages = _READERS[fmt](root, limit)
    for page in pages:
        page.source = root.name
    return pages


def victor_datasets(paths: Sequence[str], limit: int | None = None) -> list[VictorPage]:
    """The labelled pages of several datasets in the given order (``limit`` per dataset)."""
    return [page for path in paths for page in victor_dataset(path, limit)]


def train_crf(
    pages: Sequence[VictorPage],
    features: Collection[str] | None = None,
    parameters: dict[str, Any] | None = None,
) -> bytes:
    """CRFsuite model bytes trained on ``pages`` with the given features (default: all)."""
    crfsuite = require_crfsuite()
    trainer = crfsuite.Trainer(verbose=False)
    for page in pages:
        if page.rows:
            trainer.append(block_attributes(page.rows, features), page.codes)
    trainer.set_params({**CRF_PARAMETERS, **(parameters or {})})
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "model.crfsuite"
        trainer.train(str(path))
        return path.read_bytes()


def train_model(
    pages: Sequence[VictorPage],
    features: Collection[str] | None = None,
    parameters: dict[str, Any] | None = None,
    metadata: dict[str, Any] | None = None,
) -> bytes:
    """A complete model file (:func:`~..classifiers.crf.dump_victor_model`) for ``pages``."""
    used = [name for name in FEATURE_NAMES if features is None or name in features]
    model_bytes = train_crf(pages, used, parameters)
    header = {
        "features": used,
        "parameters": {**CRF_PARAMETERS, **(parameters or {})},
        "pages": len(pages),
        **(metadata or {}),
    }
    return dump_victor_model(model_bytes, header)


def fold_ids(pages: Sequence[VictorPage], folds: int, by_domain: bool, seed: int = 0) -> list[int]:
    """The fold of each page: domains dealt round-robin in a seeded random order
    (``by_domain``), else pages in a seeded random order."""
    keys = [page.domain if by_domain else page.id for page in pages]
    distinct = sorted(set(keys))
    random.Random(seed).shuffle(distinct)
    fold_of = {key: number % folds for number, key in enumerate(distinct)}
    return [fold_of[key] for key in keys]


def cross_validate(
    pages: Sequence[VictorPage],
    folds: int,
    by_domain: bool,
    features: Collection[str] | None = None,
    parameters: dict[str, Any] | None = None,
    train_on: Callable[[VictorPage], bool] | None = None,
) -> list[list[str]]:
    """Out-of-fold label codes of every page's blocks; each fold's model trains on the other
    folds' pages that ``train_on`` accepts (default: all)."""
    assignment = fold_ids(pages, folds, by_domain)
    predicted: list[list[str]] = [[] for _ in pages]
    used = [name for name in FEATURE_NAMES if features is None or name in features]
    for fold in range(folds):
        train = [
            p
            for p, f in zip(pages, assignment, strict=True)
            if f != fold and (train_on is None or train_on(p))
        ]
        model = VictorModel(train_crf(train, used, parameters), {"features": used})
        for index, (page, f) in enumerate(zip(pages, assignment, strict=True)):
            if f == fold:
                predicted[index] = model.tag(page.rows)
    return predicted


def _content_segments(page: VictorPage, codes: Sequence[str]) -> list[tuple[str, str]]:
    spans = segment_spans(codes)
    return [
        (code, join_blocks([page.texts[i] for i in indices], [page.glued[i] for i in indices]))
        for code, indices in spans
        if code in CONTENT_CODES
    ]


def decoded_text(page: VictorPage, codes: Sequence[str]) -> str:
    """The text ``codes`` extract from ``page``: one paragraph per content segment."""
    return "\n\n".join(text for _, text in _content_segments(page, codes))


def decoded_cleaneval(page: VictorPage, codes: Sequence[str]) -> str:
    """The CleanEval output ``codes`` give for ``page`` (a continuation-led segment is
    ``<p>``)."""
    lines = ["URL:"]
    for code, text in _content_segments(page, codes):
        lines.append(f"{SEGMENT_TAGS.get(code, '<p>')} {text}")
    return "\n".join(lines) + "\n"
