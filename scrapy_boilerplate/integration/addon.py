"""The Scrapy add-on: ``ADDONS = {"scrapy_boilerplate.Addon": 300}`` enables everything."""

from __future__ import annotations

import importlib.util

from scrapy.settings import BaseSettings
from scrapy.utils.misc import load_object

from .contracts import BoilerplateContract
from .downloadermiddleware import BoilerplateDownloaderMiddleware
from .pipelines import BoilerplatePipeline
from .settings import DEFAULTS
from .spidermiddleware import BoilerplateSpiderMiddleware

__all__ = [
    "Addon",
    "DOWNLOADER_MIDDLEWARE_PRIORITY",
    "SPIDER_MIDDLEWARE_PRIORITY",
    "PIPELINE_PRIORITY",
    "CONTRACT_PRIORITY",
]

#: Below HttpCompressionMiddleware (590), RedirectMiddleware (600), MetaRefreshMiddleware (580)
#: and RetryMiddleware (550): the middleware sees decompressed final responses only; above
#: scrapy-poet's InjectionMiddleware (543), so page objects find the response already marked.
DOWNLOADER_MIDDLEWARE_PRIORITY = 545
#: Above the built-in spider middlewares (the last, DepthMiddleware, is 900): items are filled
#: as soon as the callback yields them, before user middlewares with lower numbers see them.
SPIDER_MIDDLEWARE_PRIORITY = 950
#: The scrapy-poet provider of the page object's input (by path: scrapy-poet is optional).
POET_PROVIDER = "scrapy_boilerplate.integration.poet.BoilerplateArticleProvider"
POET_PROVIDER_PRIORITY = 700
#: Early, so storage pipelines (conventionally 300+) see the filled fields.
PIPELINE_PRIORITY = 100
#: The ``@boilerplate`` contract (the order of contracts does not matter to ``scrapy check``).
CONTRACT_PRIORITY = 10


class Addon:
    """Enables the downloader middleware, spider middleware and pipeline, and sets the
    ``BOILERPLATE_*`` defaults with the ``addon`` priority: values in ``settings.py``,
    ``custom_settings`` or ``-s`` win, and a component the user already listed keeps its order.

    When the crawl uses scrapy-poet (its add-on in ``ADDONS`` or its ``InjectionMiddleware`` in
    ``DOWNLOADER_MIDDLEWARES``) it registers the page input provider of
    :class:`~scrapy_boilerplate.integration.poet.BoilerplateArticlePage` in
    ``SCRAPY_POET_PROVIDERS``. Before any crawler exists it also registers the ``@boilerplate``
    contract in ``SPIDER_CONTRACTS``, which ``scrapy check`` reads from the project settings.
    """

    @classmethod
    def update_pre_crawler_settings(cls, settings: BaseSettings) -> None:
        settings.setdefault_in_component_priority_dict(
            "SPIDER_CONTRACTS", BoilerplateContract, CONTRACT_PRIORITY
        )

    def update_settings(self, settings: BaseSettings) -> None:
        for name, value in DEFAULTS.items():
            settings.set(name, value, priority="addon")
        settings.setdefault_in_component_priority_dict(
            "DOWNLOADER_MIDDLEWARES",
            BoilerplateDownloaderMiddleware,
            DOWNLOADER_MIDDLEWARE_PRIORITY,
        )
        settings.setdefault_in_component_priority_dict(
            "SPIDER_MIDDLEWARES", BoilerplateSpiderMiddleware, SPIDER_MIDDLEWARE_PRIORITY
        )
        settings.setdefault_in_component_priority_dict(
            "ITEM_PIPELINES", BoilerplatePipeline, PIPELINE_PRIORITY
        )
        if _uses_scrapy_poet(settings) and importlib.util.find_spec("zyte_common_items"):
            settings.setdefault_in_component_priority_dict(
                "SCRAPY_POET_PROVIDERS", load_object(POET_PROVIDER), POET_PROVIDER_PRIORITY
            )


def _uses_scrapy_poet(settings: BaseSettings) -> bool:
    """Whether scrapy-poet's add-on or injection middleware is enabled, judged by their names:
    a crawl that does not use it never imports it (nor zyte-common-items, a few hundred
    modules)."""
    enabled = [
        *settings.getdict("ADDONS").items(),
        *settings.getdict("DOWNLOADER_MIDDLEWARES").items(),
    ]
    return any(
        priority is not None and _qualified_name(component).startswith("scrapy_poet.")
        for component, priority in enabled
    )


def _qualified_name(component: object) -> str:
    if isinstance(component, str):
        return component
    kind = component if isinstance(component, type) else type(component)
    return f"{kind.__module__}.{kind.__qualname__}"
