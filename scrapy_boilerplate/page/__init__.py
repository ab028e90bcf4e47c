"""From page bytes to blocks: decoding and parsing, tokens and word counts, segmentation.

:func:`~.parsing.parse_html` turns bytes or text into an lxml tree;
:func:`~.segmentation.segment` walks the tree into a
:class:`~scrapy_boilerplate.model.document.TextDocument` of atomic text blocks, counting words
with :mod:`.tokens`. The walk and the word counts have a compiled twin (``_speedups``); the
pure-Python code is the reference. Imports only :mod:`scrapy_boilerplate.model` and
:mod:`scrapy_boilerplate.errors`.
"""

from __future__ import annotations

from .parsing import parse_html
from .segmentation import ACCELERATED, segment

__all__ = ["parse_html", "segment", "ACCELERATED"]
