"""The runtime's warm-up: it builds the very extractor the crawl's pages are sent to."""

from __future__ import annotations

from scrapy.settings import Settings

from scrapy_boilerplate.integration import runtime
from scrapy_boilerplate.integration.settings import DEFAULTS, BoilerplateConfig


def test_the_warm_up_fills_the_cache_entry_the_pages_use() -> None:
    config = BoilerplateConfig.from_settings(Settings(dict(DEFAULTS)))
    extractor = config.default.extractor
    assert extractor is not None
    name, options = runtime._by_name(extractor)
    assert dict(options)["metadata"] is True  # a crawl reads the metadata: warm that too
    warm_up = runtime._warm_up_call(config)
    assert warm_up is not None
    runtime._worker_extractor.cache_clear()
    warm_up()
    before = runtime._worker_extractor.cache_info()
    runtime._extract_in_process(name, options, b"<p>A page.</p>", None, "text/html")
    after = runtime._worker_extractor.cache_info()
    assert (after.hits, after.misses) == (before.hits + 1, before.misses)
