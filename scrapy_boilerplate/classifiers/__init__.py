"""Block classifiers: filters that set each block's ``is_content`` (and, for learned models,
its ``score``).

:mod:`.rules` holds the paper's decision trees and the reference's rule classifiers; learned
models will sit beside them, with their model files as package data.
"""

from __future__ import annotations

from . import rules
from .rules import *  # noqa: F403 - the stage's public names are those of .rules

__all__: list[str] = []
__all__ += rules.__all__
