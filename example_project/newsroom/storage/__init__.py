"""Article storage: SQLite or PostgreSQL stores, the retrying writer and the JSON-lines spool."""

from .backends import (
    ADDED_COLUMNS,
    ArticleStore,
    Outcome,
    PostgresStore,
    SQLiteStore,
    StoredArticle,
    StoreError,
    open_store,
)
from .records import ArticleRecord, content_hash
from .spool import ReplayReport, Spool, replay_spool
from .writer import SPOOLED, ResilientWriter

__all__ = [
    "ADDED_COLUMNS",
    "ArticleRecord",
    "ArticleStore",
    "Outcome",
    "PostgresStore",
    "ReplayReport",
    "ResilientWriter",
    "SPOOLED",
    "SQLiteStore",
    "Spool",
    "StoreError",
    "StoredArticle",
    "content_hash",
    "open_store",
    "replay_spool",
]
