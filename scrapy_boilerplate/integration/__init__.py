"""The Scrapy layer: add-on, downloader middleware, spider middleware, item pipeline, command.

It holds no extraction logic: components build extractors with
:func:`~scrapy_boilerplate.get_extractor` at start-up and call ``extract()`` per page.
"""

from __future__ import annotations

from .addon import Addon
from .articles import article_for, article_of
from .downloadermiddleware import BoilerplateDownloaderMiddleware
from .pipelines import BoilerplatePipeline
from .settings import SettingError
from .spidermiddleware import BoilerplateSpiderMiddleware

__all__ = [
    "Addon",
    "article_for",
    "article_of",
    "BoilerplateDownloaderMiddleware",
    "BoilerplateSpiderMiddleware",
    "BoilerplatePipeline",
    "SettingError",
]
