"""Renderers: how the blocks of a processed page become article text, Markdown or clean
main-content HTML (both from :mod:`.structure`), or a copy of the page with its blocks marked."""

from __future__ import annotations

from .highlight import highlight_html
from .html import content_html
from .markdown import content_markdown
from .text import article_text

__all__ = ["article_text", "content_html", "content_markdown", "highlight_html"]
