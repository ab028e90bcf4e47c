"""Distributed crawl benchmark: one generated news network crawled by 1, 2 and 3 processes.

Each run is ``example_project``'s distributed runner (``newsroom.distributed.runner``): a local
``redis-server``, the generated network served on 127.0.0.1, N ``scrapy crawl
news_crawl_redis`` processes on scrapy-redis (leased scheduler), PostgreSQL as the shared
database (a fresh schema per run). The last run has 3 processes, one SIGKILLed mid-run and
started again. It prints a markdown table (pages, articles stored, duplicates, lost, seconds,
pages/s); ``--write`` puts it in the ``distributed`` section of docs/benchmarks.md.

    python benchmarks/distributed_crawl.py --database-url postgresql://u:p@127.0.0.1:5432/db \\
        [--sites 25 --articles-per-site 100] [--write]

Needs ``redis-server`` (``.ci/redis-setup.sh``), scrapy-redis and redis (``pip install -e
".[distributed,postgres]"``) and a PostgreSQL server (``.ci/pg-setup.sh``); the database URL
defaults to ``$BOILERPLATE_TEST_POSTGRES_URL``, then ``$DATABASE_URL``.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "example_project"))

from newsroom.distributed.runner import DistributedResult, run_distributed  # noqa: E402


@dataclass(frozen=True)
class Run:
    name: str
    processes: int
    kill: bool = False


RUNS = (
    Run("1 process", 1),
    Run("2 processes", 2),
    Run("3 processes", 3),
    Run("3 processes, 1 SIGKILLed + restarted", 3, kill=True),
)


@contextmanager
def fresh_schema(url: str) -> Iterator[str]:
    """``url`` with a new, empty schema as its search path; the schema is dropped afterwards."""
    import psycopg

    schema = f"distributed_bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


def table(results: list[tuple[Run, DistributedResult]], sites: int, per_site: int) -> str:
    """The markdown section: how it was run, the table, and what limits it."""
    first = results[0][1]
    lines = [
        "## Distributed crawl (scrapy-redis)",
        "",
        f"One generated news network ({sites} sites x {per_site} articles: {first.pages} pages, "
        f"{first.truth_articles} articles) crawled by N `scrapy crawl news_crawl_redis` "
        "processes sharing a local Redis (scrapy-redis dupe filter, leased scheduler) and one "
        "PostgreSQL database (`example_project/run_distributed.py`). Duplicates: database "
        "rows sharing a URL / pages fetched more than once. Lost: articles of the generator's "
        "truth not stored. Regenerate with `python benchmarks/distributed_crawl.py --write`.",
        "",
        f"Machine: {os.cpu_count()} CPUs, Python {platform.python_version()}.",
        "",
        "| run | pages | articles stored | duplicates (rows / pages fetched twice) | lost "
        "| leases re-queued | seconds | pages/s |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for run, result in results:
        lines.append(
            f"| {run.name} | {result.pages} | {result.stored} of {result.truth_articles} "
            f"| {result.duplicate_rows} / {result.refetched} | {len(result.lost)} "
            f"| {result.recovered} | {result.seconds:.1f} | {result.pages_per_second:.1f} |"
        )
    lines += ["", LIMITS]
    return "\n".join(lines) + "\n"


#: What limits the figures on the benchmark machine (kept next to the table).
LIMITS = (
    "What limits it on this 2-CPU machine is the CPU, not the shared frontier. One crawler "
    "already keeps most of both cores busy (Scrapy's own work in the crawl process, article "
    "extraction in its worker process); a second fills some of the gaps, and a third only adds "
    "contention: every crawler, its extraction worker, the demo server, Redis and PostgreSQL "
    "share the two cores, and every link a page yields costs a Redis round trip (the dupe "
    "filter is shared). These are single runs on a machine shared with other work: differences "
    "of 10-20% between the multi-process rows are within its noise. What the fault row shows "
    "does not depend on it: the killed crawler's leased requests were re-queued once its "
    "heartbeat key expired (5 s) and fetched again (the pages fetched twice), and no article "
    "was lost or stored twice. Times include generating the network and starting the "
    "processes."
)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--database-url",
        default=os.environ.get("BOILERPLATE_TEST_POSTGRES_URL") or os.environ.get("DATABASE_URL"),
    )
    parser.add_argument("--sites", type=int, default=25)
    parser.add_argument("--articles-per-site", type=int, default=100)
    parser.add_argument("--runs", default=",".join(str(n) for n in range(len(RUNS))))
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    args = parser.parse_args()
    if not (args.database_url or "").startswith(("postgresql://", "postgres://")):
        parser.error("a PostgreSQL URL is needed (--database-url or BOILERPLATE_TEST_POSTGRES_URL)")
    results = []
    with tempfile.TemporaryDirectory(prefix="distributed-bench-") as work:
        for index in (int(n) for n in args.runs.split(",")):
            run = RUNS[index]
            with fresh_schema(args.database_url) as url:
                result = run_distributed(
                    run.processes,
                    sites=args.sites,
                    articles_per_site=args.articles_per_site,
                    database_url=url,
                    kill=run.kill,
                    work_dir=Path(work) / f"run-{index}",
                )
            print(f"--- {run.name}\n{result.summary()}", file=sys.stderr, flush=True)
            results.append((run, result))
    text = table(results, args.sites, args.articles_per_site)
    print(text)
    if args.write:
        sys.path.insert(0, str(REPO / "benchmarks"))
        from run_benchmarks import replace_section

        doc_path = REPO / "docs" / "benchmarks.md"
        doc_path.write_text(replace_section(doc_path.read_text(), "distributed", text))
    return 0 if all(result.complete for _, result in results) else 1


if __name__ == "__main__":
    sys.exit(main())
