"""The runtime's warm-up (it builds the very extractor the crawl's pages are sent to) and how a
bad setting ends a crawl."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from integration_support import make_project
from scrapy.settings import Settings

from scrapy_boilerplate import get_extractor
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


_IDLE_SPIDER = """
import scrapy

class Idle(scrapy.Spider):
    name = "idle"
    start_urls = []
"""


@pytest.mark.parametrize("logging", [[], ["--nolog"]])
def test_a_bad_setting_is_one_line_on_stderr_not_a_traceback(
    tmp_path: Path, logging: list[str]
) -> None:
    project = make_project(tmp_path, _IDLE_SPIDER)
    command = [
        sys.executable,
        "-m",
        "scrapy",
        "crawl",
        "idle",
        "-s",
        "BOILERPLATE_EXTRACTOR=artcle",
    ]
    done = subprocess.run(
        [*command, *logging],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    [line] = [line for line in done.stderr.splitlines() if "artcle" in line]
    assert line.startswith("scrapy-boilerplate: error: BOILERPLATE_EXTRACTOR")
    assert "unknown extractor 'artcle'" in line
    if logging:
        assert done.stderr == line + "\n"


def test_the_start_up_line_names_the_metadata_sources(monkeypatch: pytest.MonkeyPatch) -> None:
    with_metadata = get_extractor("numwords", metadata=True)
    assert runtime.metadata_sources(get_extractor("numwords")) == "metadata not read"
    monkeypatch.setattr(runtime, "extruct_available", lambda: True)
    assert "JSON-LD, microdata, OpenGraph" in runtime.metadata_sources(with_metadata)
    monkeypatch.setattr(runtime, "extruct_available", lambda: False)
    sources = runtime.metadata_sources(with_metadata)
    assert "microdata" in sources and "extruct not installed" in sources
