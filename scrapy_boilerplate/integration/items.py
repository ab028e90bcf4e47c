"""Writing an extraction result into an item of any kind ItemAdapter supports."""

from __future__ import annotations

from collections.abc import Sized
from dataclasses import dataclass, field
from typing import Any

from itemadapter import ItemAdapter

from ..model.result import ExtractionResult
from .runtime import Runtime

__all__ = ["FillReport", "fill_item", "is_empty", "enrich"]


@dataclass
class FillReport:
    """Which fields were written, kept (already had a value) or missing from the item class."""

    written: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


def is_empty(value: Any) -> bool:
    """None, an empty string and empty containers count as empty; 0 and False do not."""
    return value is None or (isinstance(value, Sized) and len(value) == 0)


def fill_item(
    item: Any,
    result: ExtractionResult,
    *,
    text_field: str | None,
    title_field: str | None,
    overwrite: bool,
) -> FillReport:
    """Set the text and title fields of ``item`` (a missing title is left unset).

    A field that already holds a non-empty value is kept unless ``overwrite``; a field the item
    class does not declare is reported as missing, never raised.
    """
    report = FillReport()
    adapter = ItemAdapter(item)
    values = ((text_field, result.text), (title_field, result.title))
    for name, value in values:
        if name is None or value is None:
            continue
        if not overwrite and not is_empty(adapter.get(name)):
            report.kept.append(name)
            continue
        try:
            adapter[name] = value
        except (KeyError, AttributeError, TypeError):
            report.missing.append(name)
        else:
            report.written.append(name)
    return report


def enrich(runtime: Runtime, item: Any, result: ExtractionResult) -> None:
    """Fill ``item`` from ``result``; count enriched, kept-existing and field-missing items.

    Never raises: an item that rejects the values is passed on as is (``items/errors``).
    """
    config = runtime.config
    try:
        report = fill_item(
            item,
            result,
            text_field=config.text_field,
            title_field=config.title_field,
            overwrite=config.overwrite,
        )
    except Exception as exc:  # e.g. a validating item class rejecting the value
        runtime.inc("items/errors")
        runtime.warn_once(
            ("fill_error", type(item).__qualname__, type(exc).__name__),
            "Could not store the article of %s in a %s item: %r",
            result.url,
            type(item).__qualname__,
            exc,
        )
        return
    if report.written:
        runtime.inc("items/enriched")
    if report.kept:
        runtime.inc("items/kept_existing")
    if report.missing:
        runtime.inc("items/field_missing")
        item_class = type(item).__qualname__
        for name in report.missing:
            runtime.warn_once(
                ("field_missing", item_class, name),
                "Item class %s has no field %r: the article data is not stored in it; "
                "declare the field or change BOILERPLATE_TEXT_FIELD/BOILERPLATE_TITLE_FIELD",
                item_class,
                name,
            )
