"""The result of an extraction: title, article text, blocks and options of one page."""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .document import TextBlock, blocks_from_rows, blocks_to_rows
from .metadata import ArticleMetadata

__all__ = ["ExtractionResult"]

# Where a pickled result keeps its blocks until they are first read.
_PACKED_BLOCKS = "_packed_blocks"


@dataclass(eq=False)
class ExtractionResult:
    """What an extractor found on one page.

    ``text`` holds the article text (paragraphs separated by blank lines, headings on their own
    lines); ``blocks`` all blocks with their features and labels; ``html`` the main content as
    clean HTML when asked for (``include_html=True``), else None; ``markdown`` the main content
    as Markdown when asked for (``include_markdown=True``), else None (both are rendered during
    the extraction, from the DOM, so they survive pickling); ``metadata`` the article's dates,
    authors, language, canonical URL, description and image (None when not read:
    ``metadata=False``); ``comments`` the reader comments the extractor found (one comment per
    paragraph, in page order; "" when none, or when the extractor does not look for them).
    ``site_fingerprint`` holds the page's node hashes (8 bytes each, see
    :mod:`scrapy_boilerplate.site.hashing`) when the extraction context asked for them (a crawl
    that learns site templates), else None; ``site_template_drops`` counts the blocks inside
    the site templates the context carried that are not content.

    A pickled result carries its blocks as one opaque blob that is unpickled on first use of
    ``blocks``: a result sent back by a worker process costs the receiver little unless the
    blocks are read. Pickling drops the blocks' DOM references (``block.elements``).
    """

    title: str | None
    text: str
    blocks: list[TextBlock]
    extractor: str
    options: dict[str, Any] = field(default_factory=dict)
    url: str | None = None
    html: str | None = None
    metadata: ArticleMetadata | None = None
    markdown: str | None = None
    site_fingerprint: bytes | None = None
    comments: str = ""
    #: The page's kind (``article``, ``listing``, ``forum``, ``product``, ``collection``,
    #: ``documentation``, ``service``) and the classifier's confidence (0-1); None when the
    #: extractor has no page-type classifier.
    page_type: str | None = None
    page_type_confidence: float | None = None
    site_template_drops: int = 0

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        if "blocks" in state:
            rows = blocks_to_rows(state.pop("blocks"))
            state[_PACKED_BLOCKS] = pickle.dumps(rows, pickle.HIGHEST_PROTOCOL)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    if not TYPE_CHECKING:  # keeps attribute typos visible to type checkers

        def __getattr__(self, name: str) -> Any:
            """Unpickle the blocks of an unpickled result on first access."""
            if name == "blocks" and _PACKED_BLOCKS in self.__dict__:
                self.blocks = blocks_from_rows(pickle.loads(self.__dict__.pop(_PACKED_BLOCKS)))
                return self.blocks
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @property
    def content_blocks(self) -> list[TextBlock]:
        """The blocks kept as content."""
        return [block for block in self.blocks if block.is_content]

    def to_dict(self, *, include_blocks: bool = True) -> dict[str, Any]:
        """A JSON-serialisable view: title, text, comments, page type and its confidence (None
        when the extractor has no classifier), extractor, options, url, metadata (a dict, or
        None when not read), html and markdown (when asked for), blocks."""
        data: dict[str, Any] = {
            "url": self.url,
            "title": self.title,
            "text": self.text,
            "comments": self.comments,
            "page_type": self.page_type,
            "page_type_confidence": self.page_type_confidence,
            "extractor": self.extractor,
            "options": dict(self.options),
            "metadata": None if self.metadata is None else self.metadata.to_dict(),
        }
        if self.html is not None:
            data["html"] = self.html
        if self.markdown is not None:
            data["markdown"] = self.markdown
        if include_blocks:
            data["blocks"] = [block.to_dict() for block in self.blocks]
        return data
