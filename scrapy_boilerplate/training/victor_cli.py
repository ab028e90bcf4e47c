"""``scrapy-boilerplate train --extractor victor``: cross-validate, report, train, write."""

from __future__ import annotations

import statistics
import sys
from collections import defaultdict
from datetime import date
from importlib.metadata import version
from pathlib import Path

from ..evaluation.datasets import DatasetError
from ..evaluation.metrics import page_f1, shingle_counts
from .victor import (
    CRF_PARAMETERS,
    VictorPage,
    cross_validate,
    decoded_text,
    train_model,
    victor_dataset,
)

__all__ = ["train_victor", "victor_type_report"]


def victor_type_report(pages: list[VictorPage], predicted: list[list[str]]) -> str:
    """Label accuracy and mean page shingle F1 of the decoded text per page type (markdown)."""
    by_type: dict[str, list[tuple[float, int, int]]] = defaultdict(list)
    for page, codes in zip(pages, predicted, strict=True):
        f1 = page_f1(shingle_counts(page.gold_text, decoded_text(page, codes)))
        right = sum(a == b for a, b in zip(page.codes, codes, strict=True))
        for name in ("all", page.page_type or "untyped"):
            by_type[name].append((f1, right, len(codes)))
    lines = ["| page type | pages | label accuracy | mean F1 |", "|---|---:|---:|---:|"]
    for name, rows in sorted(by_type.items(), key=lambda item: (item[0] != "all", item[0])):
        accuracy = sum(r for _, r, _ in rows) / max(1, sum(n for _, _, n in rows))
        mean_f1 = statistics.fmean(f for f, _, _ in rows)
        lines.append(f"| {name} | {len(rows)} | {accuracy:.3f} | {mean_f1:.3f} |")
    return "\n".join(lines)


def train_victor(dataset: str, out: Path, folds: int, limit: int | None) -> int:
    """Run the command; 0 on success, 2 when the dataset cannot be read."""
    try:
        pages = victor_dataset(dataset, limit=limit)
    except (DatasetError, ValueError) as exc:
        print(f"scrapy-boilerplate: error: {exc}", file=sys.stderr)
        return 2
    if not pages:
        print(f"scrapy-boilerplate: error: no readable pages in {dataset}", file=sys.stderr)
        return 2
    print(f"{len(pages)} pages, {sum(len(p.rows) for p in pages)} victor blocks from {dataset}")
    if folds > 1:
        predicted = cross_validate(pages, folds, by_domain=True)
        print(f"\n{folds}-fold CV by domain, parameters {CRF_PARAMETERS}:\n")
        print(victor_type_report(pages, predicted))
    metadata = {
        "trained_on": Path(dataset).name,
        "package_version": version("scrapy-boilerplate"),
        "date": date.today().isoformat(),
    }
    out.write_bytes(train_model(pages, metadata=metadata))
    print(f"\nmodel written to {out}")
    return 0
