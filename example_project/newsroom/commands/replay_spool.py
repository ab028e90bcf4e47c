"""``scrapy replay_spool``: write the articles spooled during a database outage.

Replays a spool left by an interrupted replay and the current spool in one run; a second
replay of the same spool waits for the first (see :mod:`newsroom.storage.spool`). The crawl
may keep appending meanwhile: those items stay in the spool for the next replay.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from ..pipelines import PROJECT_DIR
from ..storage import open_store, replay_spool


class Command(ScrapyCommand):
    requires_project = True
    default_settings: ClassVar = {"LOG_ENABLED": False}

    def syntax(self) -> str:
        return "[--spool PATH] [--database-url URL]"

    def short_desc(self) -> str:
        return "Write the articles spooled while the database was down into the database"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--spool", help="spool file (default: the STORAGE_SPOOL_PATH setting)")
        parser.add_argument("--database-url", help="database (default: the DATABASE_URL setting)")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if args:
            raise UsageError("replay-spool takes no positional arguments")
        assert self.settings is not None
        spool = (
            Path(opts.spool)
            if opts.spool
            else PROJECT_DIR / self.settings.get("STORAGE_SPOOL_PATH")
        )
        store = open_store(
            opts.database_url or self.settings.get("DATABASE_URL"),
            base_dir=PROJECT_DIR,
            sqlite_timeout=self.settings.getfloat("STORAGE_SQLITE_TIMEOUT", 5.0),
        )
        try:
            report = replay_spool(spool, store)
        finally:
            store.close()
        if report.waited:
            print(f"Waited for another replay of {spool} to finish.")
        outcomes = (
            ", ".join(f"{count} {name}" for name, count in sorted(report.outcomes.items()))
            or "nothing"
        )
        print(
            f"Replayed {report.replayed} spooled article(s) from {spool} "
            f"into {store.description}: {outcomes}."
        )
        if report.rejected:
            print(f"{report.rejected} malformed line(s) moved to {spool}.rejected.")
        if report.still_failing:
            print(
                f"{report.still_failing} article(s) still not written ({report.last_error}); "
                f"they stay in {spool}."
            )
            self.exitcode = 1
