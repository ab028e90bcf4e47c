"""Readers of the evaluation datasets: one :class:`Page` per annotated page.

Three on-disk formats are understood (see ``docs/evaluation.md``):

* **WCXB**: ``html/<id>.html.gz`` plus ``ground-truth/<id>.json`` (gold text in
  ``ground_truth.main_content``, page type in ``_internal.page_type.primary``);
* **article benchmark**: ``html/<id>.html.gz`` plus one ``ground-truth.json`` mapping
  ``id -> {"articleBody": ..., "url": ...}``;
* **L3S-GN1**: ``original/`` plus ``annotated/`` pages (labels aligned by :mod:`.l3s`);
* **CleanEval**: ``input/<n>.html.gz`` (the page wrapped in ``<text id=URL encoding=...>``)
  plus ``gold/<n>.txt.gz`` (a ``URL:`` line, then ``<p>``/``<h>``/``<l>`` segments).

A dataset is named by its path, or by its folder name under the datasets root given by the
``BOILERPLATE_DATASETS`` environment variable.
"""

from __future__ import annotations

import gzip
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from ..page.cleaneval import cleaneval_page_html
from ..page.files import html_files, read_html
from .l3s import (
    CONTENT_LABELS,
    L3SLabel,
    annotated_html,
    original_html,
    page_ids,
    read_url_mapping,
    segment_annotated,
)

__all__ = [
    "Page",
    "DatasetFormat",
    "DatasetError",
    "datasets_root",
    "resolve_dataset",
    "detect_format",
    "load_pages",
    "DATASETS_ENV",
    "cleaneval_gold_text",
    "cleaneval_page_html",
]

#: The headline and full-text classes of L3S-GN1 (the gold of :data:`FULL_TEXT_SUFFIX`).
FULL_TEXT_LABELS: Final = frozenset({L3SLabel.HEADLINE, L3SLabel.FULL_TEXT})

#: The environment variable naming the folder that holds the datasets by name.
DATASETS_ENV = "BOILERPLATE_DATASETS"

DatasetFormat = Literal["wcxb", "article-benchmark", "l3s-gn1", "cleaneval"]


class DatasetError(ValueError):
    """A dataset folder is missing, of an unknown format, or cannot be read."""


@dataclass(frozen=True)
class Page:
    """One annotated page.

    ``html`` is the raw page bytes (gunzipped, in the page's own charset); ``gold_text`` the
    annotated main text; ``with_snippets`` / ``without_snippets`` the WCXB snippets a correct
    extraction must / must not contain (empty for other formats).
    """

    id: str
    html: bytes
    url: str | None
    gold_text: str
    title: str | None = None
    page_type: str | None = None
    with_snippets: tuple[str, ...] = ()
    without_snippets: tuple[str, ...] = ()


def datasets_root() -> Path | None:
    """The folder of datasets by name: ``$BOILERPLATE_DATASETS``, or None when it is unset."""
    env = os.environ.get(DATASETS_ENV)
    return Path(env) if env else None


def resolve_dataset(name_or_path: str | os.PathLike[str]) -> Path:
    """A dataset path as given, or else the folder of that name under :func:`datasets_root`."""
    path = Path(name_or_path)
    if path.is_dir():
        return path
    root = datasets_root()
    if root is not None and (root / path).is_dir():
        return root / path
    where = f"nor under ${DATASETS_ENV}={root}" if root else f"and ${DATASETS_ENV} is not set"
    raise DatasetError(f"no dataset folder {str(name_or_path)!r} ({where})")


def detect_format(path: str | os.PathLike[str]) -> DatasetFormat:
    """Name the format of the dataset folder ``path`` from the files it holds.

    Raises :class:`DatasetError` if the folder matches none of the known layouts.
    """
    root = Path(path)
    if (root / "original").is_dir() and (root / "annotated").is_dir():
        return "l3s-gn1"
    if (root / "html").is_dir() and (root / "ground-truth").is_dir():
        return "wcxb"
    if (root / "html").is_dir() and (root / "ground-truth.json").is_file():
        return "article-benchmark"
    if (root / "input").is_dir() and (root / "gold").is_dir():
        return "cleaneval"
    raise DatasetError(
        f"{root} is not a known dataset layout (expected original/+annotated/, "
        "html/+ground-truth/, html/+ground-truth.json, or input/+gold/)"
    )


#: Suffix of an L3S-GN1 dataset name whose gold is the headline and the full text only (classes
#: 1-2: supplemental text, related content and user comments out), e.g. ``l3s-gn1#full-text``.
FULL_TEXT_SUFFIX: Final = "#full-text"


def load_pages(
    path: str | os.PathLike[str], limit: int | None = None, page_type: str | None = None
) -> Iterator[Page]:
    """Yield the pages of the dataset at ``path`` in id order.

    ``limit`` stops after that many pages (after filtering); ``page_type`` keeps only pages of
    that WCXB type (pages of formats without types never match a given type). An L3S-GN1 name
    ending in :data:`FULL_TEXT_SUFFIX` gives that set with the full-text gold.
    """
    name = str(path)
    full_text = name.endswith(FULL_TEXT_SUFFIX)
    root = resolve_dataset(name.removesuffix(FULL_TEXT_SUFFIX) if full_text else path)
    fmt = detect_format(root)
    if full_text and fmt != "l3s-gn1":
        raise DatasetError(f"{FULL_TEXT_SUFFIX} names a gold of L3S-GN1 only, not of {root}")
    if fmt == "wcxb":
        pages = _load_wcxb(root, page_type)
    elif fmt == "article-benchmark":
        pages = _load_article_benchmark(root)
    elif fmt == "cleaneval":
        pages = _load_cleaneval(root)
    else:
        labels = FULL_TEXT_LABELS if full_text else CONTENT_LABELS
        pages = _load_l3s(root, limit if page_type is None else None, labels)
    count = 0
    for page in pages:
        if limit is not None and count >= limit:
            return
        if page_type is not None and page.page_type != page_type:
            continue
        count += 1
        yield page


def _snippets(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list):
        return ()
    return tuple(str(item) for item in value if isinstance(item, str) and item.strip())


def _load_wcxb(root: Path, only_type: str | None) -> Iterator[Page]:
    for page_id, html_path in html_files(root).items():
        truth_path = root / "ground-truth" / f"{page_id}.json"
        if not truth_path.is_file():
            continue
        data = json.loads(truth_path.read_text(encoding="utf-8"))
        truth = data.get("ground_truth") or {}
        page_type = ((data.get("_internal") or {}).get("page_type") or {}).get("primary")
        if only_type is not None and page_type != only_type:
            continue  # skip before reading the page
        yield Page(
            id=page_id,
            html=read_html(html_path),
            url=data.get("url"),
            gold_text=truth.get("main_content") or "",
            title=truth.get("title") or None,
            page_type=page_type,
            with_snippets=_snippets(truth.get("with")),
            without_snippets=_snippets(truth.get("without")),
        )


def _load_article_benchmark(root: Path) -> Iterator[Page]:
    truth = json.loads((root / "ground-truth.json").read_text(encoding="utf-8"))
    if not isinstance(truth, dict):
        raise DatasetError(f"{root / 'ground-truth.json'} must map page id -> record")
    for page_id, html_path in html_files(root).items():
        record = truth.get(page_id)
        if not isinstance(record, dict):
            continue
        yield Page(
            id=page_id,
            html=read_html(html_path),
            url=record.get("url"),
            gold_text=record.get("articleBody") or "",
            title=record.get("headline") or record.get("title") or None,
            page_type=record.get("page_type") or None,
        )


_CLEANEVAL_MARKER = re.compile(r"^\s*<[phl]>\s*", re.MULTILINE)


def cleaneval_gold_text(raw: str) -> str:
    """CleanEval gold as plain text: the ``URL:`` line and the segment markers removed, one
    paragraph per segment (text without a marker continues the segment before it)."""
    lines = raw.splitlines()
    if lines and lines[0].startswith("URL:"):
        lines = lines[1:]
    segments: list[list[str]] = []
    for line in lines:
        starts = _CLEANEVAL_MARKER.match(line) is not None
        text = " ".join(_CLEANEVAL_MARKER.sub("", line).split())
        if starts or not segments:
            segments.append([])
        if text:
            segments[-1].append(text)
    return "\n\n".join(" ".join(segment) for segment in segments if segment)


def _load_cleaneval(root: Path) -> Iterator[Page]:
    inputs = html_files(root / "input")
    for page_id in sorted(inputs, key=lambda name: (len(name), name)):
        gold_path = root / "gold" / f"{page_id}.txt.gz"
        if not gold_path.is_file():
            continue
        html, url = cleaneval_page_html(read_html(inputs[page_id]))
        gold = gzip.decompress(gold_path.read_bytes()).decode("utf-8-sig", "replace")
        yield Page(id=page_id, html=html, url=url, gold_text=cleaneval_gold_text(gold))


def _load_l3s(
    root: Path, limit: int | None, labels: frozenset[L3SLabel] = CONTENT_LABELS
) -> Iterator[Page]:
    """L3S-GN1 pages in id order: ``html`` is the original page (bytes in its own charset);
    ``gold_text`` the text of the annotated page's spans with ``labels`` (by default the
    headline, full text, supplemental and comment spans); ``title`` the first headline span's
    text (None without one)."""
    urls = read_url_mapping(root)
    for count, page_id in enumerate(page_ids(root)):
        if limit is not None and count >= limit:
            return
        annotated = segment_annotated(annotated_html(root, page_id), urls.get(page_id))
        headline = annotated.text_of(frozenset({L3SLabel.HEADLINE})).split("\n", 1)[0]
        yield Page(
            id=page_id,
            html=original_html(root, page_id),
            url=urls.get(page_id),
            gold_text=annotated.text_of(labels),
            title=headline or None,
            page_type="article",
        )
