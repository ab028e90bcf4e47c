"""Java's idea of whitespace, which the reference's segmentation and word counts follow.

The reference boilerpipe is written in Java: ``Character.isWhitespace`` is not Python's
``str.isspace`` (see ``docs/reference-quirks.md``, Q7). Both the pure-Python segmentation and its
compiled twin use these definitions.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["COMMON_WHITESPACE", "JAVA_WHITESPACE", "NON_JAVA_SPACES"]

#: The whitespace usually found between tags (a quick test before the full rule).
COMMON_WHITESPACE: Final = " \t\n\r\x0c"
#: Java whitespace other than the space: ``str.isspace()`` minus U+00A0, U+2007, U+202F, U+0085.
JAVA_WHITESPACE: Final = re.compile(
    "[\t\n\x0b\x0c\r\x1c-\x1f\u1680\u2000-\u2006\u2008-\u200a\u2028\u2029\u205f\u3000]"
)
#: Characters ``str.isspace()`` takes as whitespace and Java does not: they stay in block text.
NON_JAVA_SPACES: Final = "\xa0\u2007\u202f\x85"
