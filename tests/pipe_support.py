"""Test support: run a command whose reader closes standard output after its first bytes, as
``command | head -c 80`` does."""

from __future__ import annotations

import subprocess
from pathlib import Path

#: Paragraphs of :func:`write_long_page`: its text is several times a pipe's buffer (64 KiB),
#: so the command is still writing when the reader goes.
LONG_PAGE_PARAGRAPHS = 3000
#: The extractor that keeps all of them: the learned ``article`` scores the blocks of such a
#: page lower the further they are from its start and keeps about the first 500.
LONG_PAGE_EXTRACTOR = ["--extractor", "article-rules"]


def write_long_page(path: Path) -> Path:
    """A one-article page whose text is far longer than a pipe's buffer."""
    paragraphs = "".join(
        f"<p>Paragraph {number} of the long article, with enough words to be kept as text.</p>"
        for number in range(LONG_PAGE_PARAGRAPHS)
    )
    path.write_text(
        f"<html><head><title>Long</title></head><body><article><h1>Long</h1>{paragraphs}"
        "</article></body></html>",
        encoding="utf-8",
    )
    return path


def first_bytes_then_close(command: list[str], cwd: Path) -> tuple[str, int, str]:
    """The first characters ``command`` prints, its exit status and its stderr, when its
    standard output is closed right after them."""
    process = subprocess.Popen(
        command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert process.stdout is not None and process.stderr is not None
    start = process.stdout.read(80)
    process.stdout.close()
    stderr = process.stderr.read()
    return start, process.wait(timeout=120), stderr
