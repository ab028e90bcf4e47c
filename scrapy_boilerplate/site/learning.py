"""Learning site templates while pages come in: the per-site states a crawl keeps.

:class:`SiteTemplateLearner` runs where pages are dispatched (a crawl's main process). For
each page it gives the ``site_data`` to send with it (:meth:`~SiteTemplateLearner.site_data`:
the site's :class:`~.templates.SiteTemplates` once known, and a request for the page's node
hashes while the site is learnt), and it counts the hashes that come back
(:meth:`~SiteTemplateLearner.learn`). Policy:

* a site is a host without ``www.`` (:func:`site_key`);
* templates are used once ``min_pages`` pages of the site were counted, recomputed after every
  ``max(1, N // 10)``-th page (every page up to 20, every 10th from 100): the set and its
  version change about ten times per tenfold growth, so workers decode each version once;
* after ``max_pages`` pages (the paper samples at most 200 pages of a site) the templates are
  kept and the counts dropped: the site costs no hashing for learning any more;
* at most ``max_sites`` states stay in memory: the least recently used one leaves, and is
  saved with others, ``save_batch`` at a time (one store transaction), or when it comes back
  first (it is then taken back unsaved); a site's state is saved every ``flush_every`` pages
  and on :meth:`close`.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from .hashing import decode_hashes
from .sitelevel import MIN_DF, THETA
from .state import DEFAULT_CAPACITY, SiteState
from .store import SiteStore
from .templates import LEARN_KEY, SITE_TEMPLATES_KEY, SiteTemplates

__all__ = ["LearningConfig", "SiteTemplateLearner", "site_key"]


def site_key(url: str | None) -> str:
    """The site of ``url``: its host, lower case, without a leading ``www.`` ('' if none)."""
    try:
        host = urlsplit(url or "").hostname or ""
    except ValueError:
        return ""
    return host.removeprefix("www.")


@dataclass(frozen=True)
class LearningConfig:
    """The learner's policy (see the module doc)."""

    min_pages: int = 4
    max_pages: int = 200
    capacity: int = DEFAULT_CAPACITY
    theta: float = THETA
    min_df: int = MIN_DF
    max_sites: int = 64
    flush_every: int = 25
    save_batch: int = 32


class SiteTemplateLearner:
    """Per-site states over a store; counters say what happened (for stats)."""

    def __init__(self, store: SiteStore, config: LearningConfig | None = None) -> None:
        self.store = store
        self.config = config or LearningConfig()
        self._states: OrderedDict[str, SiteState] = OrderedDict()
        self._unsaved: dict[str, int] = {}  # site -> pages counted since its last save
        self._leaving: dict[str, SiteState] = {}  # out of memory, waiting for a batch save
        self._shipped: dict[str, SiteTemplates] = {}  # site -> templates of its current version
        self._learnt: set[str] = set()  # sites whose templates were sent with a page
        #: What happened, by event name: sites, loaded, sites_learnt (sites whose templates went
        #: with a page), pages_learnt, versions, saved, ...
        self.counters: dict[str, int] = {}

    def _count(self, event: str, amount: int = 1) -> None:
        self.counters[event] = self.counters.get(event, 0) + amount

    def state(self, site: str) -> SiteState:
        """The state of ``site``: in memory, else loaded, else new."""
        state = self._states.get(site)
        if state is not None:
            self._states.move_to_end(site)
            return state
        state = self._leaving.pop(site, None)
        if state is not None:  # dropped, not saved yet: its unsaved pages come back with it
            self._states[site] = state
            self._trim()
            return state
        state = self.store.load(site)
        self._count("sites")
        if state is None:
            state = SiteState()
        else:
            self._count("loaded")
        self._states[site] = state
        self._trim()
        return state

    def _trim(self) -> None:
        if len(self._states) > self.config.max_sites:
            self._drop(next(iter(self._states)))

    def _drop(self, site: str) -> None:
        state = self._states.pop(site)
        self._shipped.pop(site, None)
        if self._unsaved.get(site):
            self._leaving[site] = state
            if len(self._leaving) >= self.config.save_batch:
                self._save(list(self._leaving))

    def site_data(self, url: str | None) -> dict[str, Any]:
        """What to send with the page at ``url``: its site's templates (when known) and, while
        the site is learnt, a request for the page's node hashes. Empty without a host."""
        site = site_key(url)
        if not site:
            return {}
        state = self.state(site)
        data: dict[str, Any] = {}
        if not state.frozen:
            data[LEARN_KEY] = True
        if state.templates and state.pages >= self.config.min_pages:
            if site not in self._learnt:
                self._learnt.add(site)
                self._count("sites_learnt")
            shipped = self._shipped.get(site)
            if shipped is None or shipped.version != state.version:
                shipped = SiteTemplates.of(state.templates, state.version, state.pages)
                self._shipped[site] = shipped
            data[SITE_TEMPLATES_KEY] = shipped
        return data

    def learn(self, url: str | None, fingerprint: bytes | None) -> bool:
        """Count a page's node hashes (:func:`~.hashing.page_fingerprint`) for its site; True
        when the site's templates changed."""
        site = site_key(url)
        if not site or fingerprint is None:
            return False
        state = self.state(site)
        if state.frozen:
            return False
        config = self.config
        state.add_page(decode_hashes(fingerprint), config.capacity)
        self._count("pages_learnt")
        changed = False
        pages = state.pages
        if pages >= config.min_pages and (pages - config.min_pages) % max(1, pages // 10) == 0:
            changed = state.refresh(config.theta, config.min_df)
        if pages >= config.max_pages:
            changed = state.refresh(config.theta, config.min_df) or changed
            state.freeze()
            self._count("sites_frozen")
        if changed:
            self._count("versions")
        self._unsaved[site] = self._unsaved.get(site, 0) + 1
        if self._unsaved[site] >= config.flush_every or state.frozen:
            self._save([site])
        return changed

    def _save(self, sites: list[str]) -> None:
        states = {
            site: state
            for site in sites
            if (state := self._states.get(site) or self._leaving.get(site)) is not None
        }
        if states:
            self.store.save(states)
            self._count("saved", len(states))
        for site in sites:
            self._unsaved.pop(site, None)
            self._leaving.pop(site, None)

    def flush(self) -> None:
        """Save every site with pages counted since its last save."""
        self._save([site for site, pages in self._unsaved.items() if pages])

    def close(self) -> None:
        """Flush and close the store."""
        try:
            self.flush()
        finally:
            self.store.close()
