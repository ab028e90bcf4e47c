"""What travels with a page to the extractors: a site's template hashes, in the context.

A crawl (or any caller) that knows a site's SiteLevel templates puts a :class:`SiteTemplates`
in :attr:`ExtractionContext.site_data <scrapy_boilerplate.model.context.ExtractionContext>`
under :data:`SITE_TEMPLATES_KEY`; an extractor with the ``site_templates`` option then drops
the blocks inside template nodes (:class:`~.filter.SiteTemplateFilter`). A caller that learns
from the page sets :data:`LEARN_KEY`: the result then carries the page's node hashes
(``ExtractionResult.site_fingerprint``). Both values are plain and small: 8 bytes per hash,
decoded once per process and set of hashes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from ..model.context import ExtractionContext
from .hashing import decode_hashes, encode_hashes

__all__ = [
    "SITE_TEMPLATES_KEY",
    "LEARN_KEY",
    "SiteTemplates",
    "templates_of",
    "wants_fingerprint",
]

#: ``site_data`` key of a :class:`SiteTemplates`.
SITE_TEMPLATES_KEY: Final = "site_templates"
#: ``site_data`` key: True asks the extraction to return the page's node hashes.
LEARN_KEY: Final = "site_learn"


@dataclass(frozen=True, slots=True)
class SiteTemplates:
    """A site's template hashes as learnt from ``pages`` pages; ``version`` changes whenever
    the set does. ``packed`` holds the hashes sorted, 8 bytes each (little-endian)."""

    version: int
    pages: int
    packed: bytes

    @classmethod
    def of(cls, hashes: frozenset[int] | set[int], version: int, pages: int) -> SiteTemplates:
        return cls(version, pages, encode_hashes(sorted(hashes)))

    @property
    def hashes(self) -> frozenset[int]:
        """The template hashes (decoded once per process and distinct set)."""
        return _decoded(self.packed)

    def __len__(self) -> int:
        return len(self.packed) // 8


@lru_cache(maxsize=64)
def _decoded(packed: bytes) -> frozenset[int]:
    return frozenset(decode_hashes(packed))


def templates_of(context: ExtractionContext) -> SiteTemplates | None:
    """The site templates ``context`` carries (None when it carries none, or an empty set)."""
    value = context.site_data.get(SITE_TEMPLATES_KEY)
    return value if isinstance(value, SiteTemplates) and len(value) else None


def wants_fingerprint(context: ExtractionContext | None) -> bool:
    """True when the caller asked for the page's node hashes (:data:`LEARN_KEY`)."""
    return context is not None and bool(context.site_data.get(LEARN_KEY))
