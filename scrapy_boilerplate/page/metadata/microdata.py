"""The page's microdata items (through extruct), as schema.org objects shaped like JSON-LD.

An item ``{"type": T, "properties": {...}}`` becomes ``{"@type": T, ...}``, nested items
alike. extruct's work grows with the cube of the item nesting depth (200 nested items take
seconds), so a page with more than :data:`MAX_ITEMS` items, or an item nested more than
:data:`MAX_DEPTH` deep, is not read at all.
"""

from __future__ import annotations

from itertools import islice
from typing import Any, Final

from lxml import etree

from ...model.document import Element
from .extruct_support import ExtructExtractors
from .schema import may_be_read

__all__ = ["MAX_DEPTH", "MAX_ITEMS", "readable", "microdata_documents"]

#: Deepest item nesting read (an item inside an item inside an item... counts each level).
MAX_DEPTH: Final = 8
#: Most items (``itemscope`` elements) of a page that is read.
MAX_ITEMS: Final = 500
#: How many ancestors of an item are searched for the item holding it.
_MAX_ANCESTORS: Final = 100

#: The attribute, then its element: libxml2 visits fewer nodes than with ``//*[@itemscope]``.
_ITEMS: Final = etree.XPath("//@itemscope/..")
#: The ``itemtype`` values of the page: a cheaper first look (no element is made) that rules
#: out most pages before the items are looked up.
_ITEM_TYPES: Final = etree.XPath("//@itemtype", smart_strings=False)


def readable(root: Element) -> bool:
    """Whether the page's items are few and shallow enough for extruct (see above)."""
    return _readable(_items(root))


def _items(root: Element) -> list[Any]:
    found = _ITEMS(root)
    return found if isinstance(found, list) else []


def _readable(items: list[Any]) -> bool:
    if len(items) > MAX_ITEMS:
        return False
    depths: dict[Any, int] = {}
    for item in items:
        ancestors = islice(item.iterancestors(), _MAX_ANCESTORS)
        depth = 1 + next((depths[a] for a in ancestors if a in depths), 0)
        if depth > MAX_DEPTH:
            return False
        depths[item] = depth
    return True


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
    root: Element,
    base_url: str | None,
    extruct: ExtructExtractors,
    item_types: list[str] | None = None,
) -> list[Any]:
    """The page's top-level microdata items as schema.org objects (URLs resolved); none (and
    extruct is not called) if no item's ``itemtype`` :func:`~.schema.may_be_read` or the page
    is not :func:`readable`. ``item_types``: the page's ``itemtype`` values when already
    known (:mod:`.tags` gathers them), else they are looked up."""
    if item_types is None:
        found = _ITEM_TYPES(root)
        item_types = [str(kind) for kind in found] if isinstance(found, list) else []
    if not any(may_be_read(kind) for kind in item_types):
        return []
    items = _items(root)
    if not any(may_be_read(item.get("itemtype") or "") for item in items):
        return []
    if not _readable(items):
        return []
    items = extruct.microdata.extract_items(root, base_url)
    return [_as_schema(item, 0) for item in items]
