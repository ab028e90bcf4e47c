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
from ..model.options import COMMON_OPTIONS, Option, validate_options
from ..model.result import ExtractionResult
from ..output.html import render_html
from ..output.markdown import render_markdown
from ..output.structure import content_structure, page_base_url
from ..output.text import article_text, comments_text
from ..page.metadata import read_metadata
from ..page.parsing import parse_html
from ..page.segmentation import document_title, segment
from ..site.filter import dropped_by_templates
from ..site.hashing import page_fingerprint
from ..site.templates import templates_of, wants_fingerprint
from .title import article_title

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

    def with_options(self, **changes: Any) -> Extractor:
        """This extractor with ``changes`` to its options (checked: ``ValueError`` naming a bad
        one), e.g. ``extractor.with_options(include_markdown=True)``."""
        options = validate_options(self.name, self.spec.all_options, {**self.options, **changes})
        return Extractor(self.spec, options)

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
        ``context`` carries per-site data to the chain factory (and may ask for the page's node
        hashes: :func:`~scrapy_boilerplate.site.templates.wants_fingerprint`). Raises
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
            title = article_title(doc)
        except RecursionError as exc:  # a custom filter walking a 10,000-deep tree
            raise ExtractionError(f"extractor {self.name!r} hit the recursion limit") from exc
        except Exception as exc:
            raise ExtractionError(f"extractor {self.name!r} failed: {exc!r}") from exc
        clean_html, markdown = self._structured(doc)
        return ExtractionResult(
            title=title,
            text=article_text(doc.blocks),
            comments=comments_text(doc.blocks),
            page_type=doc.page_type,
            page_type_confidence=doc.page_type_confidence,
            blocks=doc.blocks,
            extractor=self.name,
            options=self.options,
            url=doc.url,
            html=clean_html,
            metadata=self._metadata(doc) if self.options["metadata"] else None,
            markdown=markdown,
            site_fingerprint=page_fingerprint(root) if wants_fingerprint(context) else None,
            site_template_drops=_template_drops(doc, context),
        )

    def _structured(self, doc: TextDocument) -> tuple[str | None, str | None]:
        """The clean HTML and the Markdown of the content, each None unless its option is on
        (nothing is computed when neither is)."""
        want_html, want_markdown = self.options["include_html"], self.options["include_markdown"]
        if not want_html and not want_markdown:
            return None, None
        nodes = content_structure(doc.blocks, page_base_url(doc.root, doc.url))
        return (
            render_html(nodes) if want_html else None,
            render_markdown(nodes) if want_markdown else None,
        )

    @staticmethod
    def _metadata(doc: TextDocument) -> ArticleMetadata:
        """The page's metadata, read from the tree the blocks came from (never raises)."""
        if doc.root is None:
            return ArticleMetadata()
        return read_metadata(doc.root, doc.url, anchor=_first_content_element(doc))


def _first_content_element(doc: TextDocument) -> Element | None:
    return next((b.element for b in doc.blocks if b.is_content and b.element is not None), None)


def _template_drops(doc: TextDocument, context: ExtractionContext | None) -> int:
    """Blocks inside the site templates of ``context`` that are not content (0 without)."""
    if context is None or templates_of(context) is None:
        return 0
    return dropped_by_templates(doc.blocks)
