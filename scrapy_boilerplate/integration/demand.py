"""Which responses to extract as soon as they are downloaded (``BOILERPLATE_EXTRACT = "auto"``).

Extraction on demand costs nothing for pages whose callback never asks for the article (listing
pages), but a page whose callback does ask waits for the callback's first item before its
extraction starts, and Scrapy's handling of that callback's output is suspended meanwhile.
Extracting at download time avoids both, at the price of extracting pages nobody asks for.

:class:`DemandTracker` learns which kind of page a response is from its callback: for each
callback (a Python function, plus the ``CrawlSpider`` rule that made the request) it remembers,
over that callback's last :data:`WINDOW` responses, whether the article was asked for. Responses
of a callback that asked for it on at least :data:`EARLY_SHARE` of them (once
:data:`MIN_SEEN` were seen) are extracted at download time; the others on demand.
"""

from __future__ import annotations

import functools
from collections import OrderedDict, deque
from typing import Any

from scrapy import Request

__all__ = ["EARLY_SHARE", "MAX_KEYS", "MIN_SEEN", "WINDOW", "DemandTracker", "callback_key"]

#: How many of a callback's latest responses count.
WINDOW = 20
#: How many responses of a callback must be seen before any is extracted early.
MIN_SEEN = 3
#: The share of a callback's responses that must have asked for the article.
EARLY_SHARE = 0.5
#: Most callback keys remembered (the least recently seen is forgotten first).
MAX_KEYS = 1000


def callback_key(request: Request) -> str:
    """What identifies the kind of page ``request`` fetches: its callback's qualified name
    (``"parse"`` when it has none; a ``functools.partial`` is named by its function, a callable
    object by its class) and, for ``CrawlSpider`` requests, the rule index in ``meta["rule"]``
    (all its requests share one callback)."""
    callback: Any = request.callback
    if callback is None:
        name = "parse"
    else:
        while isinstance(callback, functools.partial):
            callback = callback.func
        callback = getattr(callback, "__func__", callback)  # a bound method's function
        name = getattr(callback, "__qualname__", None) or type(callback).__qualname__
    rule = request.meta.get("rule")
    return f"{name}#rule{rule}" if isinstance(rule, int) else name


class DemandTracker:
    """Per callback key (at most ``max_keys``), whether its latest responses asked for the
    article."""

    def __init__(
        self,
        window: int = WINDOW,
        min_seen: int = MIN_SEEN,
        early_share: float = EARLY_SHARE,
        max_keys: int = MAX_KEYS,
    ) -> None:
        self.window = window
        self.min_seen = min_seen
        self.early_share = early_share
        self.max_keys = max_keys
        self._asked: OrderedDict[str, deque[bool]] = OrderedDict()

    def record(self, key: str, asked: bool) -> None:
        """One more response of ``key`` finished its callback; ``asked``: it asked for the
        article."""
        history = self._asked.get(key)
        if history is None:
            history = self._asked[key] = deque(maxlen=self.window)
            if len(self._asked) > self.max_keys:
                self._asked.popitem(last=False)
        else:
            self._asked.move_to_end(key)
        history.append(asked)

    def extract_early(self, key: str) -> bool:
        """Whether the next response of ``key`` should be extracted at download time."""
        history = self._asked.get(key)
        if history is None or len(history) < self.min_seen:
            return False
        return sum(history) >= self.early_share * len(history)
