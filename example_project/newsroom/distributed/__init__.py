"""Distributed crawls on scrapy-redis: the leased scheduler, the Redis spider, the runner.

Needs ``pip install -e ".[distributed]"`` (scrapy-redis, redis); nothing in the rest of the
project imports this package.
"""
