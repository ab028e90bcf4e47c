"""The registry of named extractors: the built-in ones and those users add.

``get_extractor(name, **options)`` returns a ready :class:`~.base.Extractor`; users add their
own chains with :func:`register_extractor`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..model.context import NO_CONTEXT
from ..model.options import Option, did_you_mean, validate_options
from .base import ChainFactory, Extractor, ExtractorSpec
from .builtin import BUILTIN_EXTRACTORS

__all__ = ["register_extractor", "get_spec", "get_extractor", "available_extractors"]

_REGISTRY: dict[str, ExtractorSpec] = {spec.name: spec for spec in BUILTIN_EXTRACTORS}


def register_extractor(
    name: str,
    build_chain: ChainFactory,
    *,
    options: Sequence[Option] = (),
    description: str = "",
    strict_reference: bool = False,
    replace: bool = False,
) -> None:
    """Register a named chain; ``build_chain(options, context)`` returns its filters.

    ``options`` maps each declared option's name to its validated value;
    ``context`` is the page's :class:`~scrapy_boilerplate.model.context.ExtractionContext`.
    Raises ``ValueError`` if ``name`` is taken, unless ``replace`` is set.
    """
    if name in _REGISTRY and not replace:
        raise ValueError(f"extractor {name!r} is already registered")
    _REGISTRY[name] = ExtractorSpec(
        name, build_chain, tuple(options), description, strict_reference
    )


def available_extractors() -> list[str]:
    """Names of the registered extractors, sorted."""
    return sorted(_REGISTRY)


def get_spec(name: str) -> ExtractorSpec:
    """The registered spec of ``name``; ``ValueError`` listing the known names if unknown."""
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        hint = did_you_mean(name, _REGISTRY)
        raise ValueError(f"unknown extractor {name!r} ({hint}known: {known})") from None


def get_extractor(name: str = "article", **options: Any) -> Extractor:
    """Return the extractor ``name`` configured with ``options``.

    Raises ``ValueError`` naming the extractor or option if either is unknown or bad; the chain
    is built once here, so that a missing or unreadable model file fails now, not per page.
    """
    spec = get_spec(name)
    values = validate_options(name, spec.all_options, options)
    try:
        spec.build_chain(values, NO_CONTEXT)
    except (OSError, ValueError) as exc:
        raise ValueError(f"extractor {name!r} cannot be built: {exc}") from exc
    return Extractor(spec, values)
