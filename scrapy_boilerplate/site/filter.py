"""Site templates in an extractor's chain: blocks inside template nodes are not content."""

from __future__ import annotations

from dataclasses import dataclass

from ..model import labels as L
from ..model.document import Element, TextDocument
from .hashing import hash_tree
from .sitelevel import COVER, mark_templates

__all__ = ["SiteTemplateFilter", "SiteTemplateElements"]


@dataclass(frozen=True)
class SiteTemplateFilter:
    """Blocks whose elements all lie inside a site template node stop being content.

    Template nodes are those of :func:`~.sitelevel.mark_templates` for ``templates`` (by hash,
    or by cover with ``cover`` of their HTML and ``text_cover`` of their text inside templates:
    the text guard keeps a page body whose short article sits in a large template). Such a
    block gets the ``SITE_TEMPLATE`` and ``STRICTLY_NOT_CONTENT`` labels (gap filling and
    fusion leave it alone), loses its content flag, and its score (if any) drops to 0. Put it
    right after the block classifier, before group selection. Returns True if a block changed.
    """

    templates: frozenset[int]
    cover: float = COVER
    text_cover: float | None = COVER

    def __call__(self, doc: TextDocument) -> bool:
        if doc.root is None or not self.templates:
            return False
        tree = hash_tree(doc.root)
        inside = mark_templates(tree, self.templates, self.cover, self.text_cover).inside
        positions = tree.positions()
        changed = False
        for block in doc.blocks:
            if not block.elements:
                continue
            spots = [positions.get(element) for element in block.elements]
            if not all(spot is not None and inside[spot] for spot in spots):
                continue
            block.labels.update((L.SITE_TEMPLATE, L.STRICTLY_NOT_CONTENT))
            changed = changed or block.is_content or bool(block.score)
            block.is_content = False
            if block.score is not None:
                block.score = 0.0
        return changed


@dataclass(frozen=True)
class SiteTemplateElements:
    """The elements of a page inside a site template node (the nodes
    :class:`SiteTemplateFilter` drops blocks in), as evidence for a node-scoring classifier
    (``page-template`` raises their templateness before smoothing)."""

    templates: frozenset[int]
    cover: float = COVER
    text_cover: float | None = COVER

    def __call__(self, doc: TextDocument) -> set[Element]:
        if doc.root is None or not self.templates:
            return set()
        tree = hash_tree(doc.root)
        inside = mark_templates(tree, self.templates, self.cover, self.text_cover).inside
        return {element for element, spot in tree.positions().items() if inside[spot]}
