"""Whole documents of one result, as the command lines print them: Markdown with the title as
its first heading (and the metadata as front matter), or a standalone HTML page.

Both need the result's ``markdown`` or ``html``: extract with the options of
:data:`FORMAT_OPTIONS`.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any, Final

from ..model.result import ExtractionResult
from .markdown import escape_markdown

__all__ = ["OUTPUT_FORMATS", "FORMAT_OPTIONS", "markdown_document", "html_document"]

#: The output formats of the command lines.
OUTPUT_FORMATS: Final = ("text", "markdown", "html", "json")
#: The extractor options each format needs.
FORMAT_OPTIONS: Final[dict[str, dict[str, Any]]] = {
    "text": {},
    "markdown": {"include_markdown": True},
    "html": {"include_html": True},
    "json": {},
}


def markdown_document(result: ExtractionResult, *, front_matter: bool = False) -> str:
    """The result's Markdown under a ``# title`` heading, unless it starts with that heading
    already. With ``front_matter``, a YAML block before it holds the title and each metadata
    field that has a value (strings quoted as JSON, which YAML reads alike)."""
    body = result.markdown or ""
    heading = "# " + escape_markdown(" ".join((result.title or "").split()))
    if result.title and body.split("\n", 1)[0] != heading:
        body = f"{heading}\n\n{body}" if body else heading
    if not front_matter:
        return body
    fields = {"title": result.title, "url": result.url}
    fields.update(result.metadata.to_dict() if result.metadata else {})
    lines = [
        f"{name}: {json.dumps(value, ensure_ascii=False)}"
        for name, value in fields.items()
        if value
    ]
    return "\n".join(["---", *lines, "---", "", body])


def html_document(result: ExtractionResult) -> str:
    """A standalone page: ``<title>``, the page's language when known, and the result's clean
    HTML with an ``<h1>`` of the title first unless it starts with one."""
    article = result.html or "<article>\n</article>"
    title = escape(result.title or "", quote=False)
    if result.title and not article.startswith(f"<article>\n<h1>{title}</h1>"):
        article = article.replace("<article>\n", f"<article>\n<h1>{title}</h1>\n", 1)
    language = result.metadata.language if result.metadata else None
    lang = f' lang="{escape(language)}"' if language else ""
    return (
        f'<!DOCTYPE html>\n<html{lang}>\n<head>\n<meta charset="utf-8">\n<title>{title}</title>\n'
        f"</head>\n<body>\n{article}\n</body>\n</html>"
    )
