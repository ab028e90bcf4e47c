"""Evaluation of extractors against annotated datasets: readers, metrics, reports, quality gate.

This layer sits on top of the extractors and is not needed to extract text; see
``docs/evaluation.md`` for the metrics and the tokenisation they use.
"""

from __future__ import annotations

from .datasets import DatasetError, Page, detect_format, load_pages

__all__ = ["Page", "DatasetError", "detect_format", "load_pages"]
