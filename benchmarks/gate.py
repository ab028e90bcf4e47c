"""Quality gate: the default extractor must keep its word-shingle scores on fixed page subsets.

The baseline file (``benchmarks/quality-baseline.json``) names, per subset, a dataset, the page
ids, a SHA-256 digest of those ids and their gold texts, and floors for shingle F1 and precision.
A check runs the extractor on each subset and fails if a score is below its floor, or if the
subset's digest no longer matches (the dataset changed: the floors would mean nothing).

    python benchmarks/gate.py                 # check (exit 1 if a floor broke)
    python benchmarks/gate.py --raise-floors  # floors up to today's scores
    python benchmarks/gate.py --lower-floor --reason "why"   # explicit only
    python benchmarks/gate.py --init          # choose subsets, set floors

Floors are set ``MARGIN`` below the measured score (rounded down to 3 decimals), so that
harmless changes pass and real regressions do not. Lowering a floor needs ``--lower-floor`` and
a ``--reason``, which is recorded in the file's history (quote it in the commit message).
Missing datasets skip the gate (exit 0) unless ``--require-datasets`` is given. The datasets
root is ``--datasets``, else ``$BOILERPLATE_DATASETS``, else ``../shared/datasets`` beside the
repository.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from itertools import islice
from pathlib import Path
from typing import Any

from scrapy_boilerplate.evaluation.datasets import (
    DATASETS_ENV,
    DatasetError,
    Page,
    load_pages,
    resolve_dataset,
)
from scrapy_boilerplate.evaluation.metrics import Scores, benchmark_scores, shingle_counts
from scrapy_boilerplate.evaluation.peers import resolve_extractor
from scrapy_boilerplate.evaluation.report import run_extractor

__all__ = [
    "BASELINE",
    "MARGIN",
    "METRICS",
    "SubsetResult",
    "SubsetChangedError",
    "subset_digest",
    "measure",
    "check",
    "update_floors",
    "init_baseline",
    "main",
]

REPO = Path(__file__).resolve().parents[1]
BASELINE = REPO / "benchmarks" / "quality-baseline.json"
#: The datasets root when neither ``--datasets`` nor ``$BOILERPLATE_DATASETS`` names one.
DEFAULT_DATASETS = REPO.parent / "shared" / "datasets"
MARGIN = 0.005
METRICS = ("f1", "precision")
#: name -> (dataset, page type or None, number of pages): the subsets ``--init`` chooses.
DEFAULT_SUBSETS: dict[str, tuple[str, str | None, int]] = {
    "wcxb-dev-article-200": ("wcxb-dev", "article", 200),
    "l3s-gn1-150": ("l3s-gn1", None, 150),
}


class SubsetChangedError(DatasetError):
    """A pinned subset's pages are missing or their ids / gold texts changed."""


@dataclass(frozen=True)
class SubsetResult:
    """One subset's measured scores against its floors."""

    name: str
    scores: Scores
    floors: dict[str, float]

    @property
    def broken(self) -> list[str]:
        """Metrics whose score is below the floor."""
        return [m for m, floor in self.floors.items() if getattr(self.scores, m) < floor]


def subset_digest(pages: Sequence[Page]) -> str:
    """SHA-256 over each page's id and gold text, in order (NUL-separated, UTF-8)."""
    digest = hashlib.sha256()
    for page in pages:
        digest.update(page.id.encode("utf-8") + b"\0" + page.gold_text.encode("utf-8") + b"\0")
    return digest.hexdigest()


def _subset_pages(subset: dict[str, Any], datasets_root: Path | None) -> list[Page]:
    root = resolve_dataset(
        Path(datasets_root, subset["dataset"]) if datasets_root else subset["dataset"]
    )
    wanted = list(subset["ids"])
    by_id: dict[str, Page] = {}
    for page in load_pages(root, page_type=subset.get("page_type")):
        if page.id in wanted:
            by_id[page.id] = page
            if len(by_id) == len(wanted):
                break  # the subset is usually a prefix: stop reading early
    missing = [page_id for page_id in wanted if page_id not in by_id]
    if missing:
        raise SubsetChangedError(
            f"{root}: {len(missing)} subset pages are missing (first: {missing[0]})"
        )
    pages = [by_id[page_id] for page_id in wanted]
    if subset_digest(pages) != subset["digest"]:
        raise SubsetChangedError(
            f"{root}: the subset's ids or gold texts changed (digest mismatch)"
        )
    return pages


def measure(extractor: str, pages: Sequence[Page]) -> Scores:
    """Word-shingle scores of ``extractor`` on ``pages`` (failed pages score as empty text)."""
    runs = run_extractor(resolve_extractor(extractor), pages)
    return benchmark_scores(
        [shingle_counts(p.gold_text, r.text) for p, r in zip(pages, runs, strict=True)]
    )


def check(baseline: dict[str, Any], datasets_root: Path | None = None) -> list[SubsetResult]:
    """Measure every subset of ``baseline``; raises :class:`DatasetError` if one cannot be read."""
    results = []
    for name, subset in baseline["subsets"].items():
        pages = _subset_pages(subset, datasets_root)
        results.append(
            SubsetResult(name, measure(baseline["extractor"], pages), dict(subset["floors"]))
        )
    return results


def _floor(score: float) -> float:
    return max(0.0, math.floor((score - MARGIN) * 1000) / 1000)


def update_floors(
    baseline: dict[str, Any],
    results: Sequence[SubsetResult],
    *,
    allow_lower: bool,
    reason: str,
) -> list[str]:
    """Move floors to ``MARGIN`` below the measured scores: up always, down only with
    ``allow_lower``. Records the changes and ``reason`` in the history; returns the changes."""
    changes = []
    for result in results:
        floors = baseline["subsets"][result.name]["floors"]
        for metric in METRICS:
            new = _floor(getattr(result.scores, metric))
            old = floors.get(metric)
            if old is None or new > old or (allow_lower and new < old):
                floors[metric] = new
                changes.append(f"{result.name} {metric}: {old} -> {new}")
    if changes:
        baseline.setdefault("history", []).append(
            {"date": date.today().isoformat(), "reason": reason, "changes": changes}
        )
    return changes


def init_baseline(extractor: str, datasets_root: Path | None = None) -> dict[str, Any]:
    """A new baseline: the :data:`DEFAULT_SUBSETS` of the datasets present, floors unset."""
    subsets: dict[str, Any] = {}
    for name, (dataset, page_type, size) in DEFAULT_SUBSETS.items():
        try:
            root = resolve_dataset(Path(datasets_root, dataset) if datasets_root else dataset)
        except DatasetError:
            continue
        pages = list(islice(load_pages(root, page_type=page_type), size))
        subsets[name] = {
            "dataset": dataset,
            "page_type": page_type,
            "ids": [page.id for page in pages],
            "digest": subset_digest(pages),
            "floors": {},
        }
    return {
        "extractor": extractor,
        "metric": "word-shingle (n=4), article-benchmark aggregation",
        "subsets": subsets,
        "history": [],
    }


def _print_results(results: Sequence[SubsetResult]) -> None:
    for result in results:
        for metric, floor in sorted(result.floors.items()):
            score = getattr(result.scores, metric)
            status = "BROKEN" if score < floor else "ok"
            print(f"{result.name:<24} {metric:<10} {score:.4f}  floor {floor:.3f}  {status}")


def main(argv: Sequence[str] | None = None) -> int:
    """Command line of the gate; returns the exit status (0 ok or skipped, 1 broken, 2 error)."""
    parser = argparse.ArgumentParser(
        prog="python benchmarks/gate.py",
        description=__doc__.splitlines()[0] if __doc__ else None,
    )
    parser.add_argument("--baseline", type=Path, default=BASELINE)
    parser.add_argument(
        "--datasets",
        type=Path,
        default=Path(os.environ.get(DATASETS_ENV) or DEFAULT_DATASETS),
        help=f"datasets root (default: ${DATASETS_ENV} or {DEFAULT_DATASETS})",
    )
    parser.add_argument("--init", action="store_true", help="write a new baseline")
    parser.add_argument("--extractor", default="article", help="with --init (default: article)")
    parser.add_argument("--raise-floors", action="store_true", help="raise floors to the scores")
    parser.add_argument("--lower-floor", action="store_true", help="allow floors to go down")
    parser.add_argument("--reason", default="", help="why the floors move (required to lower)")
    parser.add_argument(
        "--require-datasets", action="store_true", help="fail if datasets are absent"
    )
    args = parser.parse_args(argv)
    if args.lower_floor and not args.reason.strip():
        parser.error("--lower-floor needs --reason")

    if args.init:
        baseline = init_baseline(args.extractor, args.datasets)
        if not baseline["subsets"]:
            print("gate: no dataset found, nothing to pin", file=sys.stderr)
            return 2
    else:
        try:
            baseline = json.loads(args.baseline.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            print(f"gate: cannot read {args.baseline}: {exc}", file=sys.stderr)
            return 2
    try:
        results = check(baseline, args.datasets)
    except DatasetError as exc:
        if args.require_datasets or isinstance(exc, SubsetChangedError):
            print(f"gate: error: {exc}", file=sys.stderr)
            return 2
        print(f"gate: skipped ({exc})", file=sys.stderr)
        return 0
    if args.init or args.raise_floors or args.lower_floor:
        reason = args.reason or ("initial floors" if args.init else "raise floors")
        changes = update_floors(baseline, results, allow_lower=args.lower_floor, reason=reason)
        args.baseline.write_text(json.dumps(baseline, indent=1) + "\n", encoding="utf-8")
        print("\n".join(changes) or "gate: floors unchanged", file=sys.stderr)
        results = [
            SubsetResult(r.name, r.scores, dict(baseline["subsets"][r.name]["floors"]))
            for r in results
        ]
    _print_results(results)
    broken = [f"{r.name} {m}" for r in results for m in r.broken]
    if broken:
        print(
            f"gate: floor broken: {', '.join(broken)} (lower only with --lower-floor --reason)",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
