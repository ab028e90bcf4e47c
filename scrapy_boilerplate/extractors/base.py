"""An extractor: a segmentation, a chain of filters and a title finder, and its options.

An :class:`ExtractorSpec` describes a named extractor (its chain factory and options); an
:class:`Extractor` is a spec with validated option values, ready to run on pages.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import ExtractionError
from ..filters import Filter
from ..model.context import NO_CONTEXT, ExtractionContext
from ..model.document import Element, TextDocument
from ..model.metadata import ArticleMetadata
from ..model.options import COMMON_OPTIONS, Option
from ..model.result import ExtractionResult
from ..output.html import content_html
from ..output.text import article_text
from ..page.metadata import read_metadata
from ..page.parsing import parse_html
from ..page.segmentation import document_title, segment
from .title import find_title

__all__ = ["Extractor", "ExtractorSpec", "ChainFactory"]

#: Builds an extractor's filter chain from its validated options and the page's context.
ChainFactory = Callable[[Mapping[str, Any], ExtractionContext], Sequence[Filter]]


@dataclass(frozen=True)
class ExtractorSpec:
    """A registered extractor: its chain factory, its own options and a one-line description."""

    name: str
    build_chain: ChainFactory
    options: tuple[Option, ...] = ()
    description: str = ""
    strict_reference: bool = False
    #: The chain replaces ``doc.blocks`` with blocks of its own (``victor``): unless
    #: ``strict_reference`` is set, the page is not segmented and the chain starts from a
    #: document with the page's title and no blocks.
    own_blocks: bool = False

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


@dataclass(eq=False)
class Extractor:
    """A configured extractor; reusable and thread-safe (each call builds its own chain)."""

    spec: ExtractorSpec
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.spec.name

    def process(self, doc: TextDocument, context: ExtractionContext | None = None) -> TextDocument:
        """Run the filter chain over ``doc`` (in place) and return it."""
        for step in self.spec.build_chain(self.options, context or NO_CONTEXT):
            step(doc)
        return doc

    def extract(
        self,
        html: str | bytes,
        url: str | None = None,
        *,
        content_type: str | None = None,
        context: ExtractionContext | None = None,
    ) -> ExtractionResult:
        """Parse, segment, run the chain, read the metadata and build the result.

        ``content_type`` is the HTTP ``Content-Type`` of bytes (its charset decodes them);
        ``context`` carries per-site data to the chain factory. Raises
        :class:`~scrapy_boilerplate.errors.InvalidInputError` for input that is not an HTML
        page and :class:`~scrapy_boilerplate.errors.ExtractionError` if a filter fails.
        """
        root = parse_html(html, content_type)
        strict = self.options["strict_reference"]
        if self.spec.own_blocks and not strict:
            doc = TextDocument([], title=document_title(root), root=root, url=url)
        else:
            doc = segment(root, url=url, strict_reference=strict)
        try:
            self.process(doc, context)
            title = find_title(doc)
        except RecursionError as exc:  # a custom filter walking a 10,000-deep tree
            raise ExtractionError(f"extractor {self.name!r} hit the recursion limit") from exc
        except Exception as exc:
            raise ExtractionError(f"extractor {self.name!r} failed: {exc!r}") from exc
        return ExtractionResult(
            title=title,
            text=article_text(doc.blocks),
            blocks=doc.blocks,
            extractor=self.name,
            options=self.options,
            url=doc.url,
            html=content_html(doc.blocks) if self.options["include_html"] else None,
            metadata=self._metadata(doc) if self.options["metadata"] else None,
        )

    @staticmethod
    def _metadata(doc: TextDocument) -> ArticleMetadata:
        """The page's metadata, read from the tree the blocks came from (never raises)."""
        if doc.root is None:
            return ArticleMetadata()
        return read_metadata(doc.root, doc.url, anchor=_first_content_element(doc))


def _first_content_element(doc: TextDocument) -> Element | None:
    return next((b.element for b in doc.blocks if b.is_content and b.element is not None), None)
