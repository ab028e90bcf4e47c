"""The newsroom spiders: ``news_crawl`` (follows links), ``news_sitemap`` and ``news_rss``."""
