"""Training rows of a dataset: per page, the feature rows of its blocks, their gold labels and
what scoring the decoded text needs.

Pages are read by :func:`~scrapy_boilerplate.evaluation.datasets.load_pages` (WCXB, the
article-benchmark format, L3S-GN1) and processed in worker processes; the headline comes from
the extractor's own title finder, as at inference time.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Final, TypeVar
from urllib.parse import urlsplit

from lxml import etree

from ..classifiers.features import feature_rows
from ..errors import BoilerplateError
from ..evaluation.datasets import Page, load_pages
from ..extractors.title import find_title
from ..filters.dialogs import dialog_blocks
from ..model.document import BlockRow, Element, TextBlock, blocks_to_rows
from ..page.parsing import parse_html
from ..page.segmentation import segment
from .labels import gold_labels

__all__ = [
    "PageRows",
    "Skeleton",
    "page_rows",
    "dataset_rows",
    "domain_of",
    "skeleton_of",
    "skeleton_elements",
]

#: The elements that hold a page's blocks and their ancestors, as (parent index or -1, tag,
#: class and id) triples, parents first: enough tree for the tree and comment rules of the
#: decoding, picklable.
Skeleton = list[tuple[int, str, str]]
_ELEMENT_NAME: Final = re.compile(r"[A-Za-z_][\w.-]*")
_ANY_ELEMENT: Final = "x-node"


@dataclass
class PageRows:
    """One page's training data: feature rows, labels and blocks (without DOM), plus the page
    (its HTML dropped) for scoring decoded text."""

    page: Page
    domain: str
    rows: list[list[float]]
    labels: list[int]
    blocks: list[BlockRow]
    title: str | None
    skeleton: Skeleton = dataclasses.field(default_factory=list)
    #: Per block, the index of its container element in ``skeleton`` (-1: none).
    containers: list[int] = dataclasses.field(default_factory=list)
    #: The indices of the blocks inside a modal dialog (:func:`~..filters.dialogs.dialog_blocks`).
    dialog_blocks: list[int] = dataclasses.field(default_factory=list)


def domain_of(url: str | None, fallback: str) -> str:
    """The host of ``url`` without ``www.`` (``fallback`` when there is none): the CV group."""
    host = urlsplit(url or "").hostname or ""
    return host.removeprefix("www.") or fallback


def page_rows(page: Page) -> PageRows | None:
    """The training data of one page, or None when the page cannot be read."""
    try:
        doc = segment(parse_html(page.html), url=page.url)
    except BoilerplateError:
        return None
    title = find_title(doc)
    rows = feature_rows(doc, title)
    labels = gold_labels(doc.blocks, page.gold_text)
    skeleton, containers = skeleton_of(doc.blocks)
    in_dialogs = dialog_blocks(doc)
    for block in doc.blocks:
        block.is_content = False
        block.labels.clear()
    return PageRows(
        page=dataclasses.replace(page, html=b""),
        domain=domain_of(page.url, page.id),
        rows=rows,
        labels=labels,
        blocks=blocks_to_rows(doc.blocks),
        title=title,
        skeleton=skeleton,
        containers=containers,
        dialog_blocks=in_dialogs,
    )


def skeleton_of(blocks: list[TextBlock]) -> tuple[Skeleton, list[int]]:
    """The skeleton of the blocks' container elements and their ancestors, and per block the
    index of its container (-1 for a block without element)."""
    index: dict[Element, int] = {}
    skeleton: Skeleton = []
    containers = []
    for block in blocks:
        element = block.element
        if element is None:
            containers.append(-1)
            continue
        chain = []
        node: Element | None = element
        while node is not None and node not in index:
            chain.append(node)
            node = node.getparent()
        parent = -1 if node is None else index[node]
        for missing in reversed(chain):
            tag = missing.tag
            names = f"{missing.get('class') or ''} {missing.get('id') or ''}".strip()
            skeleton.append((parent, tag if isinstance(tag, str) else "", names))
            parent = index[missing] = len(skeleton) - 1
        containers.append(index[element])
    return skeleton, containers


def skeleton_elements(skeleton: Skeleton) -> list[Element]:
    """The skeleton as fresh lxml elements (same tags and parents, the class and id names as
    their ``class``), by index; a tag that is not an element name (HTML parsers keep ``o:p``,
    ``class="row"`` ...) becomes ``x-node``."""
    elements: list[Element] = []
    for parent, tag, names in skeleton:
        name = tag if _ELEMENT_NAME.fullmatch(tag) else _ANY_ELEMENT
        attributes = {"class": names} if names else {}
        if parent < 0:
            elements.append(etree.Element(name, attributes))
        else:
            elements.append(etree.SubElement(elements[parent], name, attributes))
    return elements


def dataset_rows(path: str, *, limit: int | None = None, jobs: int | None = None) -> list[PageRows]:
    """Training data of every readable page of the dataset at ``path``, in id order."""
    pages: Iterator[Page] = load_pages(path, limit=limit)
    workers = jobs or os.cpu_count() or 1
    if workers == 1:
        results = [page_rows(page) for page in pages]
    else:
        with ProcessPoolExecutor(workers) as pool:
            results = list(pool.map(page_rows, pages, chunksize=8))
    return [result for result in results if result is not None]


_Row = TypeVar("_Row")


def map_named_pages(
    function: Callable[[tuple[str, Page]], _Row | None],
    sources: Sequence[tuple[str, str]],
    *,
    limit: int | None = None,
    jobs: int | None = None,
) -> list[_Row]:
    """``function`` of every ``(name, page)`` of the ``(name, path)`` datasets (the first
    ``limit`` pages of each), in ``jobs`` worker processes (default: one per CPU; ``function``
    must then be picklable), without the None answers (pages it cannot use)."""

    def pages() -> Iterator[tuple[str, Page]]:
        for name, path in sources:
            for page in load_pages(path, limit=limit):
                yield name, page

    workers = jobs or os.cpu_count() or 1
    if workers == 1:
        results = [function(item) for item in pages()]
    else:
        with ProcessPoolExecutor(workers) as pool:
            results = list(pool.map(function, pages(), chunksize=8))
    return [row for row in results if row is not None]
