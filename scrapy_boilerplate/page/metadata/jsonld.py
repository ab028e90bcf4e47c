"""The page's JSON-LD documents, parsed by :mod:`json`, and by extruct when that fails.

Rules: the JSON-LD scripts found by :mod:`.tags`, at most :data:`MAX_SCRIPTS`, each at most
:data:`MAX_SCRIPT_CHARS` long; a script that does not parse (malformed, or nested too deep) is
skipped, the others are still read. A script wrapped in ``<!-- -->`` or ``<![CDATA[ ]]>`` is
unwrapped and control characters in strings are allowed; when :mod:`json` cannot parse a script
and extruct is installed, extruct's JSON-LD extractor tries it (it also reads JavaScript
comments) if it is at most :data:`MAX_EXTRUCT_SCRIPT_CHARS` long.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

from ...model.document import Element
from .extruct_support import ExtructExtractors

__all__ = ["MAX_SCRIPTS", "MAX_SCRIPT_CHARS", "MAX_EXTRUCT_SCRIPT_CHARS", "jsonld_documents"]

#: Most JSON-LD scripts read per page.
MAX_SCRIPTS: Final = 50
#: Longest JSON-LD script read (characters); a longer one is skipped.
MAX_SCRIPT_CHARS: Final = 1_000_000
#: Longest script handed to extruct when :mod:`json` fails (its comment stripper is slow).
MAX_EXTRUCT_SCRIPT_CHARS: Final = 100_000

_WRAPPER_START: Final = re.compile(r"^\s*(?://\s*)?(?:<!--|<!\[CDATA\[)")
_WRAPPER_END: Final = re.compile(r"(?://\s*)?(?:-->|\]\]>)\s*$")


def _loads(text: str) -> Any:
    """A script's JSON, unwrapped from a comment or CDATA section."""
    text = text.strip()
    if text[:1] in ("<", "/"):  # the patterns would scan the whole script otherwise
        text = _WRAPPER_START.sub("", text)
    if text.endswith(">"):
        text = _WRAPPER_END.sub("", text)
    return json.loads(text, strict=False)


def jsonld_documents(scripts: list[Element], extruct: ExtructExtractors | None) -> list[Any]:
    """The parsed JSON of each readable one of ``scripts``, in document order."""
    documents: list[Any] = []
    for script in scripts[:MAX_SCRIPTS]:
        text = script.text or ""
        if not text.strip() or len(text) > MAX_SCRIPT_CHARS:
            continue
        try:
            documents.append(_parse(script, text, extruct))
        except Exception:  # malformed JSON (or a bug of extruct's): skip this script
            continue
    return documents


def _parse(script: Element, text: str, extruct: ExtructExtractors | None) -> Any:
    """The script's JSON by :func:`_loads`, else by extruct (which strips JavaScript comments)."""
    try:
        return _loads(text)
    except ValueError:
        if extruct is None or len(text) > MAX_EXTRUCT_SCRIPT_CHARS:
            raise
    return list(extruct.jsonld.extract_items(script))
