"""Site templates learnt during a crawl (``BOILERPLATE_SITE_TEMPLATES``): the Scrapy wiring.

The learning itself lives in :mod:`scrapy_boilerplate.site` (:class:`~scrapy_boilerplate.site.
learning.SiteTemplateLearner`); here it is owned by the crawl's main process, fed by every
extracted page and given a store from the settings:

* before a page goes to the workers, :meth:`SiteTemplateLearning.prepare` turns the
  extractor's ``site_templates`` option on and builds the page's
  :class:`~scrapy_boilerplate.model.context.ExtractionContext`: the site's template hashes
  once known (8 bytes each, versioned), and a request for the page's node hashes while the
  site is being learnt;
* when the result comes back, :meth:`SiteTemplateLearning.learned` counts those hashes.

A failing store (Redis down, disk full) costs the learning, never the crawl: it is logged
once, counted in ``boilerplate/site/errors``, and learning stops.
"""

from __future__ import annotations

import functools
import logging
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.utils.project import data_path

from ..extractors import Extractor, get_extractor
from ..model.context import ExtractionContext
from ..model.result import ExtractionResult
from ..site.learning import LearningConfig, SiteTemplateLearner, site_key
from ..site.store import open_store
from ..site.templates import SITE_TEMPLATES_KEY
from .settings import SettingError

__all__ = ["SITE_DEFAULTS", "SiteTemplateLearning", "STORE_FILE_NAME"]

logger = logging.getLogger("scrapy_boilerplate")

#: The settings of site-template learning and their defaults.
SITE_DEFAULTS: dict[str, Any] = {
    "BOILERPLATE_SITE_TEMPLATES": True,
    "BOILERPLATE_SITE_STORE": "",
    "BOILERPLATE_SITE_MIN_PAGES": 4,
    "BOILERPLATE_SITE_MAX_PAGES": 200,
}
#: The SQLite file of the default store (in ``JOBDIR``, else in the project's ``.scrapy``).
STORE_FILE_NAME = "boilerplate-site-templates.sqlite3"
_STATS = "boilerplate/site"
_OPTION = "site_templates"

_LEARNINGS: WeakKeyDictionary[Crawler, SiteTemplateLearning | None] = WeakKeyDictionary()


def _setting(crawler: Crawler, name: str) -> Any:
    value = crawler.settings.get(name)
    return SITE_DEFAULTS[name] if value is None else value


def store_location(crawler: Crawler) -> str:
    """``BOILERPLATE_SITE_STORE``, else the SQLite file in ``JOBDIR`` or ``.scrapy``."""
    location = str(_setting(crawler, "BOILERPLATE_SITE_STORE") or "")
    if location:
        return location
    jobdir = crawler.settings.get("JOBDIR")
    if jobdir:
        return str(Path(jobdir) / STORE_FILE_NAME)
    # data_path(name, createdir=True) would make ``name`` itself a folder: make .scrapy only
    return str(Path(data_path("", createdir=True)) / STORE_FILE_NAME)


class SiteTemplateLearning:
    """One crawler's site-template learner; :meth:`of` gives it (None when the setting is off)."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        try:
            min_pages = int(_setting(crawler, "BOILERPLATE_SITE_MIN_PAGES"))
            max_pages = int(_setting(crawler, "BOILERPLATE_SITE_MAX_PAGES"))
        except (TypeError, ValueError) as exc:
            raise SettingError(f"BOILERPLATE_SITE_MIN_PAGES/MAX_PAGES: {exc}") from exc
        if not 1 <= min_pages <= max_pages:
            raise SettingError(
                "BOILERPLATE_SITE_MIN_PAGES/MAX_PAGES: need 1 <= min pages <= max pages"
            )
        self.location = store_location(crawler)
        self.learner: SiteTemplateLearner | None = None
        try:
            store = open_store(self.location)
        except Exception as exc:
            self._failed(exc)
            return
        self.learner = SiteTemplateLearner(
            store, LearningConfig(min_pages=min_pages, max_pages=max_pages)
        )
        crawler.signals.connect(self.close, signal=signals.spider_closed)
        logger.info(
            "scrapy-boilerplate: site templates on (each site's repeated blocks learnt from its"
            " first %d pages), state in %s; BOILERPLATE_SITE_TEMPLATES = False turns them off",
            min_pages,
            _shown(self.location),
            extra={"crawler": crawler},
        )

    @classmethod
    def of(cls, crawler: Crawler) -> SiteTemplateLearning | None:
        """The crawler's learner, made on first use (at the latest); None when
        BOILERPLATE_SITE_TEMPLATES is off."""
        if crawler not in _LEARNINGS:
            enabled = crawler.settings.getbool(
                "BOILERPLATE_SITE_TEMPLATES", SITE_DEFAULTS["BOILERPLATE_SITE_TEMPLATES"]
            )
            _LEARNINGS[crawler] = cls(crawler) if enabled else None
        return _LEARNINGS[crawler]

    # -- per page ----------------------------------------------------------------------------
    def prepare(
        self, extractor: Extractor, url: str | None
    ) -> tuple[Extractor, ExtractionContext | None]:
        """The extractor (with ``site_templates`` on) and the context to extract the page at
        ``url`` with; an extractor without that option as it is, without context (its pages
        are not learnt from)."""
        learner = self.learner
        if learner is None or _OPTION not in extractor.options:
            return extractor, None  # an extractor that cannot use templates pays no hashing
        try:
            data = learner.site_data(url)
        except Exception as exc:
            self._failed(exc)
            return extractor, None
        if SITE_TEMPLATES_KEY in data:
            self._inc("pages_with_templates")
            self._inc("template_bytes", len(data[SITE_TEMPLATES_KEY].packed))
        if not data:
            return extractor, None
        return _with_site_templates(extractor), ExtractionContext(site_key(url), data)

    def learned(self, url: str | None, result: ExtractionResult | None) -> None:
        """Count the node hashes ``result`` carries for its site, and the blocks its site's
        templates left out."""
        learner = self.learner
        if learner is None or result is None:
            return
        if result.site_template_drops:
            self._inc("blocks_dropped", result.site_template_drops)
        if result.site_fingerprint is None:
            return
        self._inc("fingerprint_bytes", len(result.site_fingerprint))
        try:
            learner.learn(url, result.site_fingerprint)
        except Exception as exc:
            self._failed(exc)
            return
        self._sync_counters()

    # -- bookkeeping -------------------------------------------------------------------------
    def _inc(self, key: str, count: int = 1) -> None:
        if self.crawler.stats is not None:
            self.crawler.stats.inc_value(f"{_STATS}/{key}", count)

    def _sync_counters(self) -> None:
        if self.crawler.stats is not None and self.learner is not None:
            for event, value in self.learner.counters.items():
                self.crawler.stats.set_value(f"{_STATS}/{event}", value)

    def _failed(self, exc: Exception) -> None:
        self._inc("errors")
        logger.warning(
            "Site-template learning stopped (store %s): %r",
            self.location,
            exc,
            extra={"crawler": self.crawler},
        )
        learner, self.learner = self.learner, None
        if learner is not None:
            try:
                learner.store.close()
            except Exception:
                logger.debug("Closing the site store failed", exc_info=True)

    def close(self) -> None:
        """Save what was learnt (when the spider closes)."""
        learner = self.learner
        if learner is None:
            return
        try:
            learner.close()
        except Exception as exc:
            self._failed(exc)
            return
        self._sync_counters()
        self.learner = None


def _shown(location: str) -> str:
    """``location`` for the log: a URL without its user and password."""
    scheme, sep, rest = location.partition("://")
    if not sep or "@" not in rest.split("/", 1)[0]:
        return location
    return f"{scheme}://{rest.split('@', 1)[1]}"


@functools.lru_cache(maxsize=64)
def _derived(name: str, options: tuple[tuple[str, Any], ...]) -> Extractor:
    return get_extractor(name, **dict(options), **{_OPTION: True})


def _with_site_templates(extractor: Extractor) -> Extractor:
    """``extractor`` with its ``site_templates`` option on (itself if it has no such option)."""
    if extractor.options.get(_OPTION, True) or _OPTION not in extractor.options:
        return extractor
    options = tuple(sorted((k, v) for k, v in extractor.options.items() if k != _OPTION))
    try:
        return _derived(extractor.name, options)
    except TypeError:  # unhashable option values: build it each time
        return get_extractor(extractor.name, **dict(options), **{_OPTION: True})
