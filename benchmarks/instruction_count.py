#!/usr/bin/env python
"""Instructions that ``article``'s ``extract()`` and the bare lxml parse execute on the same
pages, counted by valgrind's callgrind: a figure that, unlike a clock, does not move with the
load of a shared machine (the same binary, pages and hash seed give the same count).

    python benchmarks/instruction_count.py --pages 80                       # this checkout
    python benchmarks/instruction_count.py --pages 80 --trees ../before .   # versions side by side

The pages: the first 400 of each of WCXB-dev, fundus, magic-html, L3S-GN1 and CleanEval final
(as text, the way ``run_benchmarks.py`` hands them over), shuffled with seed 7, the first
``--pages`` of them. Per source tree (a checkout with its compiled twins built, put first on
``PYTHONPATH``), three runs under callgrind with ``PYTHONHASHSEED=0``: one that only loads the
pages, imports the package and extracts three pages (the *base*), one that then parses every page
with ``lxml.html.document_fromstring``, one that then extracts every page; *parse* and
*extract* are those runs' counts minus the base's. Each run takes about a minute per 60 pages.
"""

from __future__ import annotations

import argparse
import os
import pickle
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATASETS = ("wcxb-dev", "fundus", "magic-html", "l3s-gn1", "cleaneval/final")
MODES = ("base", "parse", "extract")
#: What one run executes: ``python -c RUN MODE PAGES_FILE COUNT``.
RUN = """
import pickle, sys
import lxml.html
from scrapy_boilerplate import get_extractor
mode, path, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
pages = pickle.load(open(path, "rb"))[:count]
extractor = get_extractor("article")
for html, url in pages[-3:]:
    extractor.extract(html, url)
if mode == "parse":
    for html, url in pages:
        lxml.html.document_fromstring(html)
elif mode == "extract":
    for html, url in pages:
        extractor.extract(html, url)
"""


def write_pages(root: Path, path: Path) -> None:
    """The shuffled pages of the module docstring, as ``(text, url)`` pairs, into ``path``."""
    from scrapy_boilerplate.evaluation.datasets import load_pages
    from scrapy_boilerplate.evaluation.report import page_text

    pages = [
        (page_text(page), page.url)
        for name in DATASETS
        for page in load_pages(root / name, limit=400)
    ]
    random.Random(7).shuffle(pages)
    with path.open("wb") as sink:
        pickle.dump(pages, sink)


def instructions(tree: Path, mode: str, pages: Path, count: int) -> int:
    """Instructions of one run under callgrind."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    with tempfile.TemporaryDirectory() as scratch:
        done = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={scratch}/out",
                sys.executable,
                "-c",
                RUN,
                mode,
                str(pages),
                str(count),
            ],
            env=env,
            cwd=scratch,  # not the caller's folder: ``-c`` puts it first on sys.path
            capture_output=True,
            text=True,
            check=True,
        )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise RuntimeError(f"no count from callgrind: {done.stderr[-500:]}")
    return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=60)
    parser.add_argument("--trees", nargs="+", type=Path, default=[REPO])
    parser.add_argument(
        "--datasets",
        type=Path,
        default=Path(os.environ.get("BOILERPLATE_DATASETS") or REPO.parent / "shared" / "datasets"),
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        pages = Path(scratch) / "pages.pickle"
        write_pages(args.datasets, pages)
        print(f"{args.pages} pages; millions of instructions (callgrind, PYTHONHASHSEED=0)\n")
        print("| source tree | parse | extract() | extract / parse |")
        print("|---|---:|---:|---:|")
        for tree in args.trees:
            counts = {mode: instructions(tree.resolve(), mode, pages, args.pages) for mode in MODES}
            parse, extract = counts["parse"] - counts["base"], counts["extract"] - counts["base"]
            print(f"| {tree} | {parse / 1e6:,.0f} | {extract / 1e6:,.0f} | {extract / parse:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
