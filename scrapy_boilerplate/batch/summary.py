"""What a batch run did: records read, pages extracted, skips and failures by reason, speed
and peak memory.

The counts add up: ``records = html_responses + sum(skipped)`` and
``html_responses = extracted + sum(failed)`` once a run has finished (a file that cannot be read
further stops adding records, and is listed in ``file_errors``).
"""

from __future__ import annotations

import resource
import sys
from collections import Counter
from dataclasses import dataclass, field

__all__ = ["BatchSummary", "peak_rss_mib", "with_reasons"]


@dataclass
class BatchSummary:
    """The counts of a run; ``seconds`` is its wall-clock time."""

    files: int = 0
    records: int = 0
    html_responses: int = 0
    extracted: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    failed: Counter[str] = field(default_factory=Counter)
    file_errors: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def pages_per_second(self) -> float:
        """Pages extracted per second of wall-clock time (0 before any time has passed)."""
        return self.extracted / self.seconds if self.seconds > 0 else 0.0

    def lines(self) -> list[str]:
        """The summary as printed at the end of ``extract-warc``: one ``name: value`` a line,
        reasons sorted by count, then name."""
        own, workers = peak_rss_mib()
        unreadable = f" ({len(self.file_errors)} not read to the end)" if self.file_errors else ""
        return [
            f"records: {self.records} in {self.files} file{'' if self.files == 1 else 's'}"
            f"{unreadable}",
            f"HTML responses: {self.html_responses}",
            f"extracted: {self.extracted} ({self.pages_per_second:.1f} pages/s"
            f" over {self.seconds:.1f} s)",
            f"skipped: {with_reasons(self.skipped)}",
            f"failed: {with_reasons(self.failed)}",
            f"peak RSS: {own:.0f} MiB (this process), {workers:.0f} MiB (largest worker)",
        ]


def with_reasons(counts: Counter[str]) -> str:
    """``N (reason: n, ...)``, or ``0``."""
    total = sum(counts.values())
    if not total:
        return "0"
    reasons = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return f"{total} (" + ", ".join(f"{name}: {count}" for name, count in reasons) + ")"


def peak_rss_mib() -> tuple[float, float]:
    """Peak resident set size in MiB of this process, and of its largest finished child process
    (``getrusage``: children count once they have exited, so a run's workers after it)."""
    scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss is bytes on macOS, else KiB
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * scale
    return own / 2**20, children / 2**20
