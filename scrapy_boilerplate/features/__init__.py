"""Features: the numbers learned classifiers read.

:mod:`.blocks` holds the shallow text features of text blocks (the paper's P/C/N sets); features
of DOM nodes will sit beside it. Imports the model and the page stage only.
"""

from __future__ import annotations

from . import blocks
from .blocks import *  # noqa: F403 - the stage's public names are those of .blocks

__all__: list[str] = []
__all__ += blocks.__all__
