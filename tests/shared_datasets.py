"""Where the tests find the shared datasets: ``$BOILERPLATE_DATASETS``, else
``../shared/datasets`` beside the repository (tests that need them skip when absent)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from scrapy_boilerplate.errors import BoilerplateError
from scrapy_boilerplate.evaluation.datasets import Page, load_pages
from scrapy_boilerplate.model.document import TextDocument
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import segment

SHARED_DATASETS = Path(
    os.environ.get("BOILERPLATE_DATASETS")
    or Path(__file__).resolve().parents[2] / "shared" / "datasets"
)
#: The datasets whose every page the compiled twins are checked on.
TWIN_DATASETS = ("wcxb-dev", "l3s-gn1", "cleaneval/dev", "cleaneval/final")


def segmented_pages(dataset: str) -> Iterator[tuple[Page, TextDocument]]:
    """Every page of the shared ``dataset`` that parses, with its blocks; skips the test when
    the dataset is absent, and fails it when fewer than 50 pages parse."""
    if not (SHARED_DATASETS / dataset).is_dir():
        pytest.skip(f"shared dataset {dataset} not present")
    count = 0
    for page in load_pages(SHARED_DATASETS / dataset):
        try:
            doc = segment(parse_html(page.html), url=page.url)
        except BoilerplateError:
            continue
        count += 1
        yield page, doc
    assert count >= 50, f"only {count} pages of {dataset} parse"
