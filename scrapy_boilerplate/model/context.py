"""What an extraction may know beyond the page itself: the extraction context.

A context travels with a page to the chain factories (``build_chain(options, context)``), in
the calling process or in a worker process. It is a small frozen value with no DOM and no
library objects, so pickling it costs a few dozen bytes plus its ``site_data``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

__all__ = ["ExtractionContext", "NO_CONTEXT"]


@dataclass(frozen=True, slots=True)
class ExtractionContext:
    """Per-site data for one extraction.

    ``site`` names the page's site (e.g. its host name); ``site_data`` holds what is known about
    that site (e.g. what a crawl learnt from its other pages), read-only by convention. Both
    are None/empty for a page seen on its own. ``site_data`` is pickled with every page sent to
    a worker process: keep it to plain, small values (strings, numbers, tuples, frozensets).
    """

    site: str | None = None
    site_data: Mapping[str, Any] = field(default_factory=dict)

    @property
    def is_empty(self) -> bool:
        """True when the context carries nothing (no site, no site data)."""
        return self.site is None and not self.site_data


#: The context of a page extracted on its own.
NO_CONTEXT: Final = ExtractionContext()
