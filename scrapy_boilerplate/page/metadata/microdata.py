"""The page's microdata items (through extruct), as schema.org objects shaped like JSON-LD.

An item ``{"type": T, "properties": {...}}`` becomes ``{"@type": T, ...}``, nested items
alike, at most :data:`MAX_DEPTH` items deep (deeper ones are left out).
"""

from __future__ import annotations

from typing import Any, Final

from ...model.document import Element
from .extruct_support import ExtructExtractors

__all__ = ["MAX_DEPTH", "microdata_documents"]

#: Deepest nested item converted.
MAX_DEPTH: Final = 8


def _as_schema(value: Any, depth: int) -> Any:
    if isinstance(value, list):
        return [_as_schema(member, depth) for member in value]
    if not isinstance(value, dict) or "properties" not in value:
        return value
    if depth >= MAX_DEPTH:
        return None
    properties = value.get("properties")
    node = {
        key: _as_schema(member, depth + 1)
        for key, member in (properties.items() if isinstance(properties, dict) else ())
    }
    node["@type"] = value.get("type")
    return node


def microdata_documents(
    root: Element, base_url: str | None, extruct: ExtructExtractors
) -> list[Any]:
    """The page's top-level microdata items as schema.org objects (URLs resolved)."""
    items = extruct.microdata.extract_items(root, base_url)
    return [_as_schema(item, 0) for item in items]
