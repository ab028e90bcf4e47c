"""The example-project test helpers skip, never error, without PostgreSQL or psycopg."""

from __future__ import annotations

import sys

import pytest
from example_support import postgres_schema_url, postgres_server_url


def test_no_server_configured_skips(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BOILERPLATE_TEST_POSTGRES_URL", raising=False)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    with pytest.raises(pytest.skip.Exception, match="no PostgreSQL server configured"):
        postgres_server_url()


def test_missing_psycopg_skips(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOILERPLATE_TEST_POSTGRES_URL", "postgresql://u:p@127.0.0.1:1/db")
    monkeypatch.setitem(sys.modules, "psycopg", None)  # import psycopg now raises ImportError
    with pytest.raises(pytest.skip.Exception, match="psycopg is not installed"):
        postgres_server_url()
    with pytest.raises(pytest.skip.Exception, match="psycopg is not installed"):
        next(postgres_schema_url())
