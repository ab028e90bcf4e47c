"""Writing an extraction result into an item of any kind ItemAdapter supports."""

from __future__ import annotations

import dataclasses
from collections.abc import Sized
from dataclasses import dataclass, field
from typing import Any

from itemadapter import ItemAdapter

from ..model.result import ExtractionResult
from .runtime import Runtime

__all__ = ["FillReport", "fill_item", "is_empty", "enrich"]


@dataclass
class FillReport:
    """Which fields were written, kept (already had a value) or missing from the item class,
    and the item to pass on (``item``: the same object, or a filled copy of a frozen dataclass).
    """

    item: Any = None
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
    class does not declare is reported as missing, never raised. A frozen dataclass cannot be
    changed: ``report.item`` is then a copy made with :func:`dataclasses.replace`.
    """
    report = FillReport(item=item)
    frozen = _frozen_fields(item)
    adapter = ItemAdapter(item if frozen is None else frozen)
    values = ((text_field, result.text), (title_field, result.title))
    for name, value in values:
        if name is None or value is None:
            continue
        if not overwrite and not is_empty(adapter.get(name)):
            report.kept.append(name)
            continue
        if frozen is not None and name not in frozen:
            report.missing.append(name)
            continue
        try:
            adapter[name] = value
        except (KeyError, AttributeError, TypeError):
            report.missing.append(name)
        else:
            report.written.append(name)
    if frozen is not None and report.written:
        report.item = dataclasses.replace(item, **{name: frozen[name] for name in report.written})
    return report


def _frozen_fields(item: Any) -> dict[str, Any] | None:
    """The init fields of a frozen dataclass instance (a dict to fill), else None."""
    if not dataclasses.is_dataclass(item) or isinstance(item, type):
        return None
    if not item.__dataclass_params__.frozen:  # type: ignore[attr-defined]
        return None
    return {f.name: getattr(item, f.name) for f in dataclasses.fields(item) if f.init}


def enrich(runtime: Runtime, item: Any, result: ExtractionResult) -> Any:
    """Fill ``item`` from ``result``; count enriched, kept-existing and field-missing items.

    Returns the item to pass on (a copy for a frozen dataclass). Never raises: an item that
    rejects the values is passed on as is (``items/errors``).
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
        return item
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
    return report.item
