"""Times the stages of one extraction, one call at a time (for the speed scripts)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


class StageClock:
    """``clock(name, step)`` runs ``step()``, records its seconds under ``name`` in ``times``
    and returns its value."""

    def __init__(self) -> None:
        self.times: dict[str, float] = {}

    def __call__(self, name: str, step: Callable[[], Any]) -> Any:
        start = time.perf_counter()
        value = step()
        self.times[name] = time.perf_counter() - start
        return value
