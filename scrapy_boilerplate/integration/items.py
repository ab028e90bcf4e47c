"""Writing an extraction result (and, optionally, what made it) into an item of any kind
ItemAdapter supports."""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import importlib.metadata
import json
from collections.abc import Mapping, Sized
from dataclasses import dataclass, field
from typing import Any

from itemadapter import ItemAdapter

from ..model.metadata import ArticleMetadata
from ..model.result import ExtractionResult
from .articles import NO_ORIGIN, Origin
from .runtime import Runtime
from .settings import is_zyte_item_class

__all__ = [
    "FillReport",
    "fill_item",
    "is_empty",
    "enrich",
    "metadata_values",
    "takes_an_article_field",
    "provenance",
    "options_digest",
]


@dataclass
class FillReport:
    """Which fields were written, kept (already had a value) or missing from the item class,
    and the item to pass on (``item``: the same object, or a filled copy of a frozen dataclass).
    ``metadata_missing``: the metadata fields missing, apart because they are optional.
    """

    item: Any = None
    written: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    metadata_missing: list[str] = field(default_factory=list)


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
    metadata_fields: Mapping[str, str] | None = None,
    zyte_shapes: bool = False,
    text_format: str = "text",
    markdown_field: str | None = None,
    html_field: str | None = None,
    provenance_field: str | None = None,
    provenance_value: Mapping[str, Any] | None = None,
    comments_field: str | None = None,
    page_type_field: str | None = None,
) -> FillReport:
    """Set the text and title fields of ``item`` (a missing title is left unset), the
    ``markdown_field`` and ``html_field`` (when the result has Markdown, clean HTML), the
    ``provenance_field`` (to ``provenance_value``, when given), the ``comments_field`` (when
    the page has reader comments), the ``page_type_field`` (the page type's name, when the
    extractor gave one), and the metadata fields named by ``metadata_fields`` (see
    :func:`metadata_values`). The text field gets the text, the Markdown or the clean HTML by
    ``text_format``.

    A field that already holds a non-empty value is kept unless ``overwrite``; a field the item
    class does not declare is reported as missing, never raised. A frozen dataclass cannot be
    changed: ``report.item`` is then a copy made with :func:`dataclasses.replace`.
    """
    report = FillReport(item=item)
    frozen = _frozen_fields(item)
    adapter = ItemAdapter(item if frozen is None else frozen)
    values = (
        (text_field, _in_format(result, text_format)),
        (title_field, result.title),
        (markdown_field, result.markdown),
        (html_field, result.html),
        (provenance_field, provenance_value),
        (comments_field, result.comments or None),
        (page_type_field, result.page_type),
    )
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
    if metadata_fields and result.metadata is not None:
        metadata = metadata_values(result.metadata, metadata_fields, zyte_shapes)
        if zyte_shapes and is_zyte_item_class(type(item)):
            metadata = _zyte_objects(metadata)
        _fill_metadata(adapter, frozen, metadata, overwrite, report)
    if frozen is not None and report.written:
        report.item = dataclasses.replace(item, **{name: frozen[name] for name in report.written})
    return report


def options_digest(options: Mapping[str, Any]) -> str:
    """A short digest (16 hex digits of SHA-256) of extractor options: equal options, equal
    digest, whatever their order."""
    canonical = json.dumps(dict(options), sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]


@functools.cache
def _package_version() -> str:
    try:
        return importlib.metadata.version("scrapy-boilerplate")
    except importlib.metadata.PackageNotFoundError:  # run from a source tree that is not installed
        return "unknown"


def provenance(result: ExtractionResult, override: str | None, by_meta: bool) -> dict[str, Any]:
    """What made ``result``: the extractor's name, the digest of its options, the package
    version, the ``BOILERPLATE_DOMAIN_OVERRIDES`` key that matched the URL (None: the default)
    and whether request meta keys changed the choice."""
    return {
        "extractor": result.extractor,
        "options_digest": options_digest(result.options),
        "version": _package_version(),
        "override": override,
        "by_meta": by_meta,
    }


def takes_an_article_field(item_class: type, fields: frozenset[str]) -> bool:
    """Whether an ``item_class`` item can hold one of ``fields``: a class that declares its fields
    (``scrapy.Item``, dataclass, attrs, pydantic) must declare one; a dict takes any."""
    declared = ItemAdapter.get_field_names_from_class(item_class)
    return declared is None or not fields.isdisjoint(declared)


def _in_format(result: ExtractionResult, text_format: str) -> str | None:
    """The article as ``text``, ``markdown`` or ``html`` (None when not rendered)."""
    if text_format == "markdown":
        return result.markdown
    if text_format == "html":
        return result.html
    return result.text


def metadata_values(
    metadata: ArticleMetadata, names: Mapping[str, str], zyte_shapes: bool
) -> dict[str, Any]:
    """Item field -> value for each metadata field in ``names`` that has a value (None and no
    authors are not written). With ``zyte_shapes``, authors are ``[{"name": ...}]`` and the
    image is ``{"url": ...}``, as in zyte-common-items' ``Article``; else a list of names and
    a URL."""
    values: dict[str, Any] = {}
    for key, name in names.items():
        value: Any = getattr(metadata, key)
        if is_empty(value):
            continue
        if key == "authors":
            value = [{"name": author} for author in value] if zyte_shapes else list(value)
        elif key == "image" and zyte_shapes:
            value = {"url": value}
        values[name] = value
    return values


def _zyte_objects(values: dict[str, Any]) -> dict[str, Any]:
    """Metadata values in zyte-common-items shapes as that package's objects (``Author``,
    ``Image``), for its item classes."""
    from zyte_common_items import Author, Image

    objects = dict(values)
    if "authors" in objects:
        objects["authors"] = [Author(name=author["name"]) for author in objects["authors"]]
    if "mainImage" in objects:
        objects["mainImage"] = Image(url=objects["mainImage"]["url"])
    return objects


def _fill_metadata(
    adapter: ItemAdapter,
    frozen: dict[str, Any] | None,
    values: Mapping[str, Any],
    overwrite: bool,
    report: FillReport,
) -> None:
    """Write ``values`` like the text and title, a missing field going to ``metadata_missing``."""
    for name, value in values.items():
        if not overwrite and not is_empty(adapter.get(name)):
            report.kept.append(name)
            continue
        if frozen is not None and name not in frozen:
            report.metadata_missing.append(name)
            continue
        try:
            adapter[name] = value
        except (KeyError, AttributeError, TypeError):
            report.metadata_missing.append(name)
        else:
            report.written.append(name)


def _frozen_fields(item: Any) -> dict[str, Any] | None:
    """The init fields of a frozen dataclass instance (a dict to fill), else None."""
    if not dataclasses.is_dataclass(item) or isinstance(item, type):
        return None
    if not item.__dataclass_params__.frozen:  # type: ignore[attr-defined]
        return None
    return {f.name: getattr(item, f.name) for f in dataclasses.fields(item) if f.init}


def enrich(
    runtime: Runtime, item: Any, result: ExtractionResult, origin: Origin = NO_ORIGIN
) -> Any:
    """Fill ``item`` from ``result``; count enriched, kept-existing and field-missing items.
    ``origin`` (the override key that chose the extractor, whether meta changed it) goes into
    the :func:`provenance` field, when the crawl fills one.

    A missing text or title field is logged (once per item class and field); a missing metadata
    field is only counted (``items/metadata_field_missing``): item classes often declare just
    the metadata they want.

    Returns the item to pass on (a copy for a frozen dataclass). Never raises: an item that
    rejects the values is passed on as is (``items/errors``).
    """
    config = runtime.config
    fields = config.fields_for(type(item))
    try:
        report = fill_item(
            item,
            result,
            text_field=fields.text,
            title_field=fields.title,
            overwrite=config.overwrite,
            metadata_fields=fields.metadata,
            zyte_shapes=fields.zyte_shapes,
            text_format=config.text_format,
            markdown_field=fields.markdown,
            html_field=fields.html,
            provenance_field=fields.provenance,
            provenance_value=provenance(result, *origin) if fields.provenance else None,
            comments_field=fields.comments,
            page_type_field=fields.page_type,
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
    if report.metadata_missing:
        runtime.inc("items/metadata_field_missing")
    if report.missing:
        runtime.inc("items/field_missing")
        item_class = type(item).__qualname__
        for name in report.missing:
            runtime.warn_once(
                ("field_missing", item_class, name),
                "Item class %s has no field %r: the article data is not stored in it; "
                "declare the field or change BOILERPLATE_TEXT_FIELD/BOILERPLATE_TITLE_FIELD"
                " (or BOILERPLATE_MARKDOWN_FIELD/BOILERPLATE_ARTICLE_HTML_FIELD)",
                item_class,
                name,
            )
    return report.item
