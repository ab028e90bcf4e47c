"""Imports of the papers' reproduction modules (``benchmarks/reproduce``, outside the
installed package) for the tests that check them."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[1]


def reproduce_module(name: str) -> ModuleType:
    """``benchmarks.reproduce.<name>``, imported from the repository root."""
    sys.path.insert(0, str(REPO))
    try:
        return importlib.import_module(f"benchmarks.reproduce.{name}")
    finally:
        sys.path.remove(str(REPO))
