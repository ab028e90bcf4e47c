"""Article storage: SQLite or PostgreSQL stores, the retrying writer and the JSON-lines spool."""

from .backends import ArticleStore, Outcome, PostgresStore, SQLiteStore, StoreError, open_store
from .records import ArticleRecord, content_hash
from .spool import ReplayReport, Spool, replay_spool
from .writer import SPOOLED, ResilientWriter

__all__ = [
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
    "content_hash",
    "open_store",
    "replay_spool",
]
