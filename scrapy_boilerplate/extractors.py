"""Named extractors: a segmentation, a chain of filters and a title finder.

``get_extractor(name, **options)`` returns a ready :class:`Extractor`; users add their own
chains with :func:`register_extractor`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .document import TextDocument
from .errors import ExtractionError
from .filters import Filter
from .options import COMMON_OPTIONS, Option, validate_options
from .parsing import parse_html
from .result import ExtractionResult
from .segmentation import segment
from .title import find_title

__all__ = [
    "Extractor",
    "ExtractorSpec",
    "ChainFactory",
    "register_extractor",
    "get_extractor",
    "available_extractors",
]

#: Builds an extractor's filter chain from its validated options.
ChainFactory = Callable[[Mapping[str, Any]], Sequence[Filter]]


@dataclass(frozen=True)
class ExtractorSpec:
    """A registered extractor: its chain factory, its own options and a one-line description."""

    name: str
    build_chain: ChainFactory
    options: tuple[Option, ...] = ()
    description: str = ""
    strict_reference: bool = False

    @property
    def all_options(self) -> tuple[Option, ...]:
        """The extractor's own options plus :data:`COMMON_OPTIONS`."""
        common = tuple(
            Option(o.name, o.type, self.strict_reference, o.help)
            if o.name == "strict_reference"
            else o
            for o in COMMON_OPTIONS
        )
        return self.options + common


_REGISTRY: dict[str, ExtractorSpec] = {}


def register_extractor(
    name: str,
    build_chain: ChainFactory,
    *,
    options: Sequence[Option] = (),
    description: str = "",
    strict_reference: bool = False,
    replace: bool = False,
) -> None:
    """Register a named chain; ``build_chain(options)`` returns its filters.

    Raises ``ValueError`` if ``name`` is taken, unless ``replace`` is set.
    """
    if name in _REGISTRY and not replace:
        raise ValueError(f"extractor {name!r} is already registered")
    _REGISTRY[name] = ExtractorSpec(
        name, build_chain, tuple(options), description, strict_reference
    )


def available_extractors() -> list[str]:
    """Names of the registered extractors, sorted."""
    _load_builtins()
    return sorted(_REGISTRY)


def get_spec(name: str) -> ExtractorSpec:
    """The registered spec of ``name``; ``ValueError`` listing the known names if unknown."""
    _load_builtins()
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise ValueError(f"unknown extractor {name!r} (known: {known})") from None


@dataclass(eq=False)
class Extractor:
    """A configured extractor; reusable and thread-safe (each call builds its own chain)."""

    spec: ExtractorSpec
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.spec.name

    def process(self, doc: TextDocument) -> TextDocument:
        """Run the filter chain over ``doc`` (in place) and return it."""
        for step in self.spec.build_chain(self.options):
            step(doc)
        return doc

    def extract(
        self, html: str | bytes, url: str | None = None, *, content_type: str | None = None
    ) -> ExtractionResult:
        """Parse, segment, run the chain and build the result.

        Raises :class:`~scrapy_boilerplate.errors.InvalidInputError` for input that is not an
        HTML page and :class:`~scrapy_boilerplate.errors.ExtractionError` if a filter fails.
        """
        root = parse_html(html, content_type)
        doc = segment(root, url=url, strict_reference=self.options["strict_reference"])
        try:
            self.process(doc)
            title = find_title(doc)
        except RecursionError as exc:  # a custom filter walking a 10,000-deep tree
            raise ExtractionError(f"extractor {self.name!r} hit the recursion limit") from exc
        except Exception as exc:
            raise ExtractionError(f"extractor {self.name!r} failed: {exc!r}") from exc
        return ExtractionResult.from_document(
            doc,
            title=title,
            extractor=self.name,
            options=self.options,
            include_html=self.options["include_html"],
        )


def get_extractor(name: str = "article", **options: Any) -> Extractor:
    """Return the extractor ``name`` configured with ``options``.

    Raises ``ValueError`` naming the extractor or option if either is unknown or bad.
    """
    spec = get_spec(name)
    return Extractor(spec, validate_options(name, spec.all_options, options))


def _load_builtins() -> None:
    from . import chains  # noqa: F401 - registers the built-in extractors on import
