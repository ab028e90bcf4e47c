"""Digests of every extractor's output on every shared dataset page: proof that a refactoring
changed no output.

    python benchmarks/output_digests.py --write benchmarks/output-digests.json   # record
    python benchmarks/output_digests.py --check benchmarks/output-digests.json   # compare
    python benchmarks/output_digests.py --write benchmarks/output-digests.json --only victor

Each registered extractor (default options, plus ``article`` with ``strict_reference``,
``include_html`` and ``include_markdown``) runs on the raw bytes of every page of WCXB-dev,
L3S-GN1 (``original/``) and CleanEval (dev and final inputs). Per extractor and dataset, one
SHA-256 covers, page by page in id order, the page id, the title, the text and (when asked for)
the main-content HTML and the Markdown; a page
that fails contributes its error type instead. ``--pages-out FILE`` also writes one short digest
per page, to find which pages changed when a check fails. ``--only LABEL`` (repeatable) measures
only those configurations: ``--write`` then updates just their entries of an existing record,
``--check`` compares just them.

Only the public API is used, so the script runs unchanged across layouts of the package.
The datasets root is ``--datasets`` or ``$BOILERPLATE_DATASETS`` or ``../shared/datasets``.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import scrapy_boilerplate
from scrapy_boilerplate import BoilerplateError, available_extractors, get_extractor

REPO = Path(__file__).resolve().parents[1]
#: dataset name -> folders (relative to the datasets root) holding its ``.html.gz`` inputs.
DATASETS: dict[str, tuple[str, ...]] = {
    "wcxb-dev": ("wcxb-dev/html",),
    "l3s-gn1": ("l3s-gn1/original",),
    "cleaneval": ("cleaneval/dev/input", "cleaneval/final/input"),
}
#: Extra configurations beside each extractor's defaults: (label, extractor, options).
VARIANTS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("article+strict_reference", "article", {"strict_reference": True}),
    ("article+include_html", "article", {"include_html": True}),
    ("article+include_markdown", "article", {"include_markdown": True}),
)


def configurations() -> list[tuple[str, str, dict[str, Any]]]:
    """(label, extractor, options) of every configuration measured."""
    return [(name, name, {}) for name in available_extractors()] + list(VARIANTS)


def dataset_files(root: Path, folders: tuple[str, ...]) -> list[tuple[str, Path]]:
    """(page id, path) of the inputs, ids prefixed by their folder, sorted."""
    files = []
    for folder in folders:
        for path in sorted((root / folder).glob("*.htm*")):
            files.append((f"{folder}/{path.name}", path))
    return files


def _page_digests(job: tuple[str, str, dict[str, Any]]) -> list[str]:
    """One hex digest per page of a dataset for one configuration (runs in a worker)."""
    paths_file, name, options = job
    extractor = get_extractor(name, **options)
    digests = []
    for line in Path(paths_file).read_text(encoding="utf-8").splitlines():
        page_id, path = line.split("\t")
        data = Path(path).read_bytes()
        if path.endswith(".gz"):
            data = gzip.decompress(data)
        try:
            result = extractor.extract(data, None)
            parts = [page_id, result.title or "", result.text, result.html or ""]
            markdown = getattr(result, "markdown", None)  # absent before the Markdown output
            if markdown is not None:
                parts.append(markdown)
        except BoilerplateError as exc:
            parts = [page_id, "error", type(exc).__name__]
        digests.append(hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest())
    return digests


def _jobs(
    root: Path, work: Path, only: frozenset[str] = frozenset()
) -> Iterator[tuple[str, str, list[str], tuple[str, str, dict[str, Any]]]]:
    for dataset, folders in DATASETS.items():
        files = dataset_files(root, folders)
        if not files:
            continue
        paths_file = work / f"{dataset}.tsv"
        paths_file.write_text("".join(f"{pid}\t{path}\n" for pid, path in files), "utf-8")
        ids = [pid for pid, _ in files]
        for label, name, options in configurations():
            if not only or label in only:
                yield label, dataset, ids, (str(paths_file), name, options)


def measure(
    root: Path, work: Path, jobs: int, only: frozenset[str] = frozenset()
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Per-(configuration, dataset) digests and per-page digests (``only``: those labels)."""
    todo = list(_jobs(root, work, only))
    summary: dict[str, Any] = {}
    pages: dict[str, Any] = {}
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        outputs = pool.map(_page_digests, [job for *_, job in todo])
        for (label, dataset, ids, _), digests in zip(todo, outputs, strict=True):
            combined = hashlib.sha256("".join(digests).encode("ascii")).hexdigest()
            summary.setdefault(label, {})[dataset] = {"pages": len(ids), "sha256": combined}
            pages.setdefault(label, {})[dataset] = {
                pid: d[:16] for pid, d in zip(ids, digests, strict=True)
            }
            print(f"{label:<28} {dataset:<10} {len(ids):>5} pages  {combined[:16]}", flush=True)
    return summary, pages


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--write", type=Path, metavar="FILE", help="record the digests")
    action.add_argument("--check", type=Path, metavar="FILE", help="compare with a record")
    parser.add_argument("--datasets", type=Path, help="datasets root")
    parser.add_argument("--pages-out", type=Path, help="also write per-page digests here")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--only", action="append", default=[], metavar="LABEL", help="only this configuration"
    )
    args = parser.parse_args(argv)
    only = frozenset(args.only)
    unknown = only - {label for label, _, _ in configurations()}
    if unknown:
        print(f"unknown configurations: {sorted(unknown)}", file=sys.stderr)
        return 2
    root = args.datasets or Path(
        os.environ.get("BOILERPLATE_DATASETS", REPO.parent / "shared" / "datasets")
    )
    if not root.is_dir():
        print(f"no datasets under {root}", file=sys.stderr)
        return 2
    work = REPO / "benchmarks" / "out"
    work.mkdir(parents=True, exist_ok=True)
    summary, pages = measure(root, work, args.jobs, only)
    if args.pages_out:
        args.pages_out.write_text(json.dumps(pages, indent=0, sort_keys=True), encoding="utf-8")
    if args.write:
        record = {"package_version": scrapy_boilerplate.__version__, "digests": summary}
        if only and args.write.exists():
            record = json.loads(args.write.read_text(encoding="utf-8"))
            record["digests"].update(summary)
        args.write.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", "utf-8")
        return 0
    expected = json.loads(args.check.read_text(encoding="utf-8"))["digests"]
    if only:
        expected = {label: value for label, value in expected.items() if label in only}
    differences = [
        f"{label} / {dataset}"
        for label in sorted(set(expected) | set(summary))
        for dataset in sorted(set(expected.get(label, {})) | set(summary.get(label, {})))
        if expected.get(label, {}).get(dataset) != summary.get(label, {}).get(dataset)
    ]
    for difference in differences:
        print(f"CHANGED: {difference}", file=sys.stderr)
    print(f"{len(differences)} of {sum(map(len, summary.values()))} digests differ")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
