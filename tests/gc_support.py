"""What a call leaves for the garbage collector: objects only a collection could free."""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import Any


def cyclic_garbage(call: Callable[[], Any]) -> list[Any]:
    """The objects ``call()`` left in reference cycles (freed by a collection, not by reference
    counting); ``call`` should have run once before, so imports and caches are not counted."""
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        call()
        gc.collect()
        return list(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
