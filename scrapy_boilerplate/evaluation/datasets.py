"""Readers of the evaluation datasets: one :class:`Page` per annotated page.

Three on-disk formats are understood (see ``docs/evaluation.md``):

* **WCXB**: ``html/<id>.html.gz`` plus ``ground-truth/<id>.json`` (gold text in
  ``ground_truth.main_content``, page type in ``_internal.page_type.primary``);
* **article benchmark**: ``html/<id>.html.gz`` plus one ``ground-truth.json`` mapping
  ``id -> {"articleBody": ..., "url": ...}``;
* **L3S-GN1**: ``original/`` plus ``annotated/`` pages (read by :mod:`.l3s`).

The datasets folder defaults to ``../shared/datasets`` next to the repository and can be
moved with the ``BOILERPLATE_DATASETS`` environment variable.
"""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

__all__ = [
    "Page",
    "DatasetFormat",
    "DatasetError",
    "datasets_root",
    "resolve_dataset",
    "detect_format",
    "load_pages",
    "html_files",
    "read_html",
]

DatasetFormat = Literal["wcxb", "article-benchmark", "l3s-gn1"]


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


def datasets_root() -> Path:
    """The shared datasets folder: ``$BOILERPLATE_DATASETS`` or ``../shared/datasets``."""
    env = os.environ.get("BOILERPLATE_DATASETS")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2].parent / "shared" / "datasets"


def resolve_dataset(name_or_path: str | os.PathLike[str]) -> Path:
    """A dataset path as given, or else the folder of that name under :func:`datasets_root`."""
    path = Path(name_or_path)
    if path.is_dir():
        return path
    shared = datasets_root() / path
    if shared.is_dir():
        return shared
    raise DatasetError(f"no dataset folder {str(name_or_path)!r} (nor under {datasets_root()})")


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
    raise DatasetError(
        f"{root} is not a known dataset layout (expected original/+annotated/, "
        "html/+ground-truth/, or html/+ground-truth.json)"
    )


def load_pages(
    path: str | os.PathLike[str], limit: int | None = None, page_type: str | None = None
) -> Iterator[Page]:
    """Yield the pages of the dataset at ``path`` in id order.

    ``limit`` stops after that many pages (after filtering); ``page_type`` keeps only pages of
    that WCXB type (pages of formats without types never match a given type).
    """
    root = resolve_dataset(path)
    fmt = detect_format(root)
    if fmt == "wcxb":
        pages = _load_wcxb(root, page_type)
    elif fmt == "article-benchmark":
        pages = _load_article_benchmark(root)
    else:
        pages = _load_l3s(root, limit if page_type is None else None)
    count = 0
    for page in pages:
        if limit is not None and count >= limit:
            return
        if page_type is not None and page.page_type != page_type:
            continue
        count += 1
        yield page


def read_html(path: Path) -> bytes:
    """Bytes of an HTML file; a ``.gz`` file is decompressed."""
    if path.suffix == ".gz":
        with gzip.open(path, "rb") as handle:
            return handle.read()
    return path.read_bytes()


def html_files(root: Path) -> dict[str, Path]:
    """Map page id -> html file (``<id>.html[.gz]``) of ``root/html``, or of ``root`` itself
    when it has no ``html`` folder; ids in sorted order."""
    html_dir = root / "html" if (root / "html").is_dir() else root
    files: dict[str, Path] = {}
    for path in sorted(html_dir.iterdir()):
        name = path.name
        for suffix in (".html.gz", ".htm.gz", ".html", ".htm"):
            if name.endswith(suffix):
                files[name[: -len(suffix)]] = path
                break
    return files


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
        )


def _load_l3s(root: Path, limit: int | None) -> Iterator[Page]:
    try:
        from .l3s import load_l3s_pages
    except ImportError as exc:
        raise DatasetError(
            f"{root} is an L3S-GN1 dataset but its reader (scrapy_boilerplate.evaluation.l3s) "
            f"is not available: {exc}"
        ) from exc
    return load_l3s_pages(root, limit=limit)
