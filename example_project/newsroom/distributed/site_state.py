"""The seam for shared per-site state (reserved for site-template learning; not used yet).

A later version will teach the add-on which blocks repeat on every page of a site (its template).
What it learns per site must then be shared by every process of a distributed crawl. This
module fixes only the interface and where the state lives:

* :class:`SiteStateStore`: ``get(site)`` returns the mapping stored for a site (empty if
  none); ``update(site, values)`` merges ``values`` (JSON-serialisable) into it, atomically per
  key. Nothing else: no locking across keys, no history.
* :func:`open_site_state` maps the setting ``BOILERPLATE_SITE_STATE_URL`` to a store: empty
  or ``memory:`` gives a per-process dict (single-process crawls); ``redis://...`` gives a
  Redis hash per site (``boilerplate:site:<site>``), shared by all processes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Protocol

__all__ = ["MemorySiteState", "RedisSiteState", "SiteStateStore", "open_site_state"]

KEY_PREFIX = "boilerplate:site:"


class SiteStateStore(Protocol):
    def get(self, site: str) -> dict[str, Any]: ...

    def update(self, site: str, values: Mapping[str, Any]) -> None: ...


class MemorySiteState:
    """Per-process site state (a dict of dicts)."""

    def __init__(self) -> None:
        self._sites: dict[str, dict[str, Any]] = {}

    def get(self, site: str) -> dict[str, Any]:
        return dict(self._sites.get(site, {}))

    def update(self, site: str, values: Mapping[str, Any]) -> None:
        self._sites.setdefault(site, {}).update(values)


class RedisSiteState:
    """Site state in Redis: one hash per site, one JSON value per key."""

    def __init__(self, url: str) -> None:
        from redis import Redis

        self.server = Redis.from_url(url)

    def get(self, site: str) -> dict[str, Any]:
        stored = self.server.hgetall(KEY_PREFIX + site)
        return {key.decode(): json.loads(value) for key, value in stored.items()}

    def update(self, site: str, values: Mapping[str, Any]) -> None:
        if values:
            encoded = {key: json.dumps(value) for key, value in values.items()}
            self.server.hset(KEY_PREFIX + site, mapping=encoded)


def open_site_state(url: str | None) -> SiteStateStore:
    """The store named by ``BOILERPLATE_SITE_STATE_URL`` (see the module docstring)."""
    if not url or url == "memory:":
        return MemorySiteState()
    if url.startswith(("redis://", "rediss://", "unix://")):
        return RedisSiteState(url)
    raise ValueError(f"unsupported site state URL {url!r} (use redis://... or memory:)")
