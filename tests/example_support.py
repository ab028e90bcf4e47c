"""Shared set-up of the example-project tests: import path and the PostgreSQL test database."""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

EXAMPLE_PROJECT = Path(__file__).resolve().parent.parent / "example_project"
if str(EXAMPLE_PROJECT) not in sys.path:
    sys.path.insert(0, str(EXAMPLE_PROJECT))

#: Environment variables naming a PostgreSQL server the tests may use (first set wins).
POSTGRES_URL_VARIABLES = ("BOILERPLATE_TEST_POSTGRES_URL", "DATABASE_URL")


def postgres_server_url() -> str:
    """The configured PostgreSQL URL, or skip the test saying how to configure one (or that
    psycopg is not installed)."""
    for name in POSTGRES_URL_VARIABLES:
        url = os.environ.get(name, "")
        if url.startswith(("postgresql://", "postgres://")):
            break
    else:
        pytest.skip(
            "no PostgreSQL server configured: set BOILERPLATE_TEST_POSTGRES_URL="
            "postgresql://user:password@host:5432/dbname (CI runs .ci/pg-setup.sh)"
        )
    pytest.importorskip("psycopg", reason='psycopg is not installed: pip install -e ".[postgres]"')
    return url


def postgres_schema_url() -> Iterator[str]:
    """A URL whose connections use a fresh, private schema; the schema is dropped afterwards.

    Skips (never errors) without a configured server or without psycopg.
    """
    url = postgres_server_url()
    import psycopg

    schema = f"newsroom_test_{uuid.uuid4().hex[:12]}"
    # A configured but unreachable server fails the test: CI must not pass by skipping.
    with psycopg.connect(url, autocommit=True, connect_timeout=5) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    separator = "&" if "?" in url else "?"
    try:
        yield f"{url}{separator}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(url, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


def redis_server_or_skip() -> str:
    """The ``redis-server`` binary for the distributed-crawl tests, or skip saying what is
    missing (the binary, or the scrapy-redis/redis packages)."""
    pytest.importorskip(
        "scrapy_redis", reason='scrapy-redis is not installed: pip install -e ".[test]"'
    )
    from newsroom.distributed.redis_server import RedisServerNotFoundError, redis_server_binary

    try:
        return redis_server_binary()
    except RedisServerNotFoundError as exc:
        pytest.skip(str(exc))
