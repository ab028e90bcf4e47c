"""The extraction context: it reaches the chain factories, in this process and in a worker
process, and costs little to send."""

from __future__ import annotations

import multiprocessing
import pickle
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

from scrapy_boilerplate import ExtractionContext, extract, register_extractor
from scrapy_boilerplate.filters import Filter
from scrapy_boilerplate.integration.runtime import _extract_in_process
from scrapy_boilerplate.model.context import NO_CONTEXT
from scrapy_boilerplate.model.document import TextDocument

PAGE = "<html><body><p>" + "Words of a paragraph that is long enough. " * 5 + "</p></body></html>"


def _site_labeller(options: Mapping[str, Any], context: ExtractionContext) -> Sequence[Filter]:
    """A chain that labels every block with what the context says."""

    def label(doc: TextDocument) -> bool:
        for block in doc.blocks:
            block.is_content = True
            block.labels.add(f"site={context.site}")
            block.labels.update(f"{k}={v}" for k, v in sorted(context.site_data.items()))
        return True

    return [label]


register_extractor("test-context", _site_labeller, replace=True)


def test_the_context_reaches_the_chain_factory() -> None:
    context = ExtractionContext(site="example.com", site_data={"pages_seen": 12})
    result = extract(PAGE, extractor="test-context", context=context)
    assert result.blocks[0].labels == {"site=example.com", "pages_seen=12"}


def test_no_context_is_the_empty_context() -> None:
    result = extract(PAGE, extractor="test-context")
    assert result.blocks[0].labels == {"site=None"}
    assert NO_CONTEXT.is_empty and not ExtractionContext(site="a").is_empty


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="no fork")
def test_the_context_travels_to_a_worker_process() -> None:
    context = ExtractionContext(site="example.org", site_data={"templates": ("a1", "b2")})
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")) as pool:
        future = pool.submit(_extract_in_process, "test-context", (), PAGE, None, None, context)
        result, _ = future.result(timeout=60)
    assert result.blocks[0].labels == {"site=example.org", "templates=('a1', 'b2')"}


def test_a_context_pickles_small_and_whole() -> None:
    context = ExtractionContext(site="news.example.com", site_data={"pages_seen": 3})
    data = pickle.dumps(context, pickle.HIGHEST_PROTOCOL)
    assert pickle.loads(data) == context
    assert len(data) < 200  # bytes: a site name and a small mapping
    with pytest.raises(AttributeError):
        context.site = "other"  # type: ignore[misc]
