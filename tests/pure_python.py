"""Helpers of the compiled-twin tests: the twin module or a skip, and a snippet run in a fresh
interpreter with the twins switched off (tests that the pure-Python reference is selected)."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from types import ModuleType

import pytest

from scrapy_boilerplate.page.segmentation import PURE_PYTHON_ENV


def assert_runs_in_pure_python(code: str) -> None:
    """``code`` (asserting on the ``ACCELERATED`` flags) succeeds with ``PURE_PYTHON_ENV`` set."""
    env = {**os.environ, PURE_PYTHON_ENV: "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr


def twin_or_skip(module: str) -> ModuleType:
    """The compiled twin ``module`` (dotted name); skips the calling test module when it is not
    built, unless ``BOILERPLATE_REQUIRE_SPEEDUPS`` is set (CI sets it: a broken build fails)."""
    try:
        return importlib.import_module(module)
    except ImportError:
        if os.environ.get("BOILERPLATE_REQUIRE_SPEEDUPS"):
            raise
        pytest.skip(f"the compiled {module} is not built", allow_module_level=True)
