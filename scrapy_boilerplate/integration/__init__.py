"""The Scrapy layer: add-on, downloader middleware, spider middleware, item pipeline, command.

It holds no extraction logic: components build extractors with
:func:`~scrapy_boilerplate.get_extractor` at start-up and call ``extract()`` per page.
"""

from __future__ import annotations

from .addon import Addon
from .downloadermiddleware import BoilerplateDownloaderMiddleware, article_of
from .pipelines import BoilerplatePipeline
from .settings import SettingError
from .spidermiddleware import BoilerplateSpiderMiddleware

__all__ = [
    "Addon",
    "article_of",
    "BoilerplateDownloaderMiddleware",
    "BoilerplateSpiderMiddleware",
    "BoilerplatePipeline",
    "SettingError",
]
