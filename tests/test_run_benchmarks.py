"""Pure helpers of ``benchmarks/run_benchmarks.py`` (its runs print tables, never assert)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "run_benchmarks.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("run_benchmarks", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_replace_section_keeps_other_sections(bench: ModuleType) -> None:
    doc = "# Benchmarks\n\n<!-- BEGIN scrapy -->\nthroughput\n<!-- END scrapy -->\n"
    doc = bench.replace_section(doc, "speed", "old table")
    assert doc.endswith("<!-- BEGIN speed -->\nold table\n<!-- END speed -->\n")
    doc = bench.replace_section(doc, "speed", "new table\n")
    assert "old table" not in doc and "new table" in doc
    assert "<!-- BEGIN scrapy -->\nthroughput\n<!-- END scrapy -->" in doc
    assert doc.count("BEGIN speed") == 1


def test_percentile_is_nearest_rank(bench: ModuleType) -> None:
    values = [float(v) for v in range(1, 101)]
    assert bench._percentile(values, 0.95) == 95.0
    assert bench._percentile(values, 0.0) == 1.0
    assert bench._percentile([3.0], 0.95) == 3.0
