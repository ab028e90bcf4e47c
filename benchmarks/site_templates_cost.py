"""What site-template learning costs per page in the extraction worker (median / p95 ms, and
the mean CPU time: on a busy machine the wall times include waiting for a CPU).

    python benchmarks/site_templates_cost.py [--limit 300]

On the WCXB-dev pages (``../shared/datasets`` or ``$BOILERPLATE_DATASETS``): ``article``
alone; ``article`` asked for the page's node hashes (a site being learnt); and with
``site_templates=True`` and a template set from the page's own domain group (SiteLevel over
the WCXB pages of that domain, at least 2), which adds the matching. Also the size of the
hashes sent back and of a context carrying templates.
"""

from __future__ import annotations

import argparse
import pickle
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

from scrapy_boilerplate import ExtractionContext, get_extractor
from scrapy_boilerplate.evaluation.datasets import load_pages
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.site.hashing import hash_tree
from scrapy_boilerplate.site.learning import site_key
from scrapy_boilerplate.site.sitelevel import site_level
from scrapy_boilerplate.site.templates import LEARN_KEY, SITE_TEMPLATES_KEY, SiteTemplates

REPO = Path(__file__).resolve().parents[1]


def _ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return f"{statistics.median(ordered):.2f} / {p95:.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=300)
    parser.add_argument("--dataset", type=Path, default=REPO.parent / "shared/datasets/wcxb-dev")
    args = parser.parse_args(argv)
    pages = list(load_pages(args.dataset, limit=args.limit))
    groups: dict[str, list[int]] = defaultdict(list)
    for index, page in enumerate(pages):
        groups[site_key(page.url)].append(index)
    templates: dict[str, SiteTemplates] = {}
    for site, members in groups.items():
        if len(members) >= 2:
            hashes = site_level(hash_tree(parse_html(pages[i].html)) for i in members)
            templates[site] = SiteTemplates.of(hashes, 1, len(members))
    plain, with_site = get_extractor("article"), get_extractor("article", site_templates=True)
    times: dict[str, list[float]] = defaultdict(list)
    cpu: dict[str, list[float]] = defaultdict(list)
    sizes: list[int] = []
    context_sizes: list[int] = []
    for page in pages:
        site = site_key(page.url)
        runs = [("article", plain, ExtractionContext())]
        runs.append(("+ node hashes", plain, ExtractionContext(site, {LEARN_KEY: True})))
        if site in templates:
            data = {LEARN_KEY: True, SITE_TEMPLATES_KEY: templates[site]}
            runs.append(("article (site pages)", plain, ExtractionContext()))
            runs.append(("+ hashes + templates", with_site, ExtractionContext(site, data)))
            context_sizes.append(len(pickle.dumps(ExtractionContext(site, data))))
        for name, extractor, context in runs:
            started, started_cpu = time.perf_counter(), time.process_time()
            result = extractor.extract(page.html, page.url, context=context)
            times[name].append((time.perf_counter() - started) * 1000)
            cpu[name].append((time.process_time() - started_cpu) * 1000)
            if name == "+ node hashes" and result.site_fingerprint is not None:
                sizes.append(len(result.site_fingerprint))
    print(f"{len(pages)} pages, {len(templates)} domains with >= 2 pages")
    print("| run | pages | median / p95 ms | CPU ms/page (mean) |\n|---|---:|---:|---:|")
    for name, samples in times.items():
        print(f"| {name} | {len(samples)} | {_ms(samples)} | {statistics.mean(cpu[name]):.2f} |")
    print(
        f"node hashes sent back: median {statistics.median(sizes):,.0f} bytes, "
        f"p95 {sorted(sizes)[int(0.95 * (len(sizes) - 1))]:,} bytes"
    )
    if context_sizes:
        print(
            f"pickled context with templates: median {statistics.median(context_sizes):,.0f} bytes"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
