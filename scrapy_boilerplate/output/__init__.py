"""Renderers: how the blocks of a processed page become article text, main-content HTML, or a
copy of the page with its blocks marked."""

from __future__ import annotations

from .highlight import highlight_html
from .html import content_html
from .text import article_text

__all__ = ["article_text", "content_html", "highlight_html"]
