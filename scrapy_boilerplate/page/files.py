"""Pages on disk: reading an HTML file (gzip or not) and listing the pages of a folder."""

from __future__ import annotations

import gzip
from pathlib import Path

__all__ = ["read_html", "html_files", "HTML_SUFFIXES"]

#: File name endings of HTML pages, longest first; what precedes one is the page id.
HTML_SUFFIXES = (".html.gz", ".htm.gz", ".html", ".htm")


def read_html(path: Path) -> bytes:
    """Bytes of an HTML file; a ``.gz`` file is decompressed."""
    if path.suffix == ".gz":
        with gzip.open(path, "rb") as handle:
            return handle.read()
    return path.read_bytes()


def html_files(root: Path) -> dict[str, Path]:
    """Map page id -> html file (``<id>.html[.gz]``) of ``root/html``, or of ``root`` itself
    when it has no ``html`` folder; ids in sorted order."""
    html_dir = root / "html" if (root / "html").is_dir() else root
    files: dict[str, Path] = {}
    for path in sorted(html_dir.iterdir()):
        name = path.name
        for suffix in HTML_SUFFIXES:
            if name.endswith(suffix):
                files[name[: -len(suffix)]] = path
                break
    return files
