#!/usr/bin/env python
"""Victor's CRF penalties (c1, c2) by 5-fold cross-validation on WCXB-dev, folds by domain.

Every page is scored only by a model that did not train on its domain. Per setting: word-shingle
F1 of the decoded text against the gold (benchmark aggregation, ``docs/evaluation.md``), and the
label accuracy (five labels; content vs noise) against the WCXB-derived labels. The shipped
model's recipe is ``training.victor.CRF_PARAMETERS``; each setting here overrides c1 and c2.
About 7 minutes per setting on one core (plus about 2 for labelling the pages).

    python benchmarks/victor_tuning.py --grid 0.05,0.05 0.05,0.5 0.2,0.05
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from benchmarks.reproduce.victor import WCXB_FOLDS, _accuracies
from scrapy_boilerplate.evaluation.datasets import DATASETS_ENV
from scrapy_boilerplate.evaluation.metrics import benchmark_scores, shingle_counts
from scrapy_boilerplate.training.victor import cross_validate, decoded_text, victor_dataset

REPO = Path(__file__).resolve().parents[1]
DATASETS_ROOT = Path(os.environ.get(DATASETS_ENV) or REPO.parent / "shared" / "datasets")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--grid", nargs="+", default=["0.05,0.05"], help="c1,c2 pairs")
    args = parser.parse_args(argv)
    started = time.time()
    pages = victor_dataset(str(DATASETS_ROOT / "wcxb-dev"))
    print(f"{len(pages)} pages labelled in {time.time() - started:.0f} s", flush=True)
    print("| c1 | c2 | shingle F1 (P / R) | accuracy (%) | content-noise (%) |")
    print("|---:|---:|---:|---:|---:|", flush=True)
    for pair in args.grid:
        c1, c2 = (float(value) for value in pair.split(","))
        predicted = cross_validate(
            pages, WCXB_FOLDS, by_domain=True, parameters={"c1": c1, "c2": c2}
        )
        counts = [
            shingle_counts(page.gold_text, decoded_text(page, codes))
            for page, codes in zip(pages, predicted, strict=True)
        ]
        scores = benchmark_scores(counts)
        accuracy, content_noise = _accuracies(pages, predicted)
        print(
            f"| {c1} | {c2} | {scores.f1:.3f} ({scores.precision:.3f} / {scores.recall:.3f}) |"
            f" {accuracy:.1f} | {content_noise:.1f} |",
            flush=True,
        )
    print(f"({time.time() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
