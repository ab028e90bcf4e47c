"""Runs a snippet in a fresh interpreter with the compiled twins switched off (tests that the
pure-Python reference is selected)."""

from __future__ import annotations

import os
import subprocess
import sys

from scrapy_boilerplate.page.segmentation import PURE_PYTHON_ENV


def assert_runs_in_pure_python(code: str) -> None:
    """``code`` (asserting on the ``ACCELERATED`` flags) succeeds with ``PURE_PYTHON_ENV`` set."""
    env = {**os.environ, PURE_PYTHON_ENV: "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
