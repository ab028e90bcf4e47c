"""Site templates in an extractor's chain: blocks inside template nodes are not content."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..model import labels as L
from ..model.document import Element, TextBlock, TextDocument
from .hashing import hash_tree
from .sitelevel import COVER, groups_inside_templates, mark_templates

__all__ = ["SiteTemplateFilter", "SiteTemplateElements", "dropped_by_templates", "template_blocks"]


@dataclass(frozen=True)
class SiteTemplateFilter:
    """Blocks whose elements all lie inside a site template node lose content evidence.

    Template nodes are those of :func:`~.sitelevel.mark_templates` for ``templates`` (by hash,
    or by cover with ``cover`` of their HTML and ``text_cover`` of their text inside templates:
    the text guard keeps a page body whose short article sits in a large template). Every such
    block gets the ``SITE_TEMPLATE`` label. Rules, per block:

    * a block with a score (a learned classifier ran before) whose score minus ``penalty``
      (0-1) still reaches ``threshold`` is left as the model decided, score unchanged (the
      model is sure: a recurring lead or standfirst format);
    * a block ``exempt(doc)`` names is left as the model decided (``article`` names the
      story's lead under the headline, which a site repeats the container of);
    * any other block is dropped: all of them without scores, or with ``penalty`` = 1.

    A dropped block loses its content flag, its score (if any) becomes 0 and it gets the
    ``STRICTLY_NOT_CONTENT`` label (gap filling and fusion leave it alone). Put it right after
    the block classifier, before group selection. Returns True if a block changed.
    """

    templates: frozenset[int]
    cover: float = COVER
    text_cover: float | None = COVER
    penalty: float = 1.0
    threshold: float = 0.5
    exempt: Callable[[TextDocument], Iterable[TextBlock]] | None = None

    def __call__(self, doc: TextDocument) -> bool:
        changed = False
        inside = template_blocks(doc, self.templates, self.cover, self.text_cover)
        exempt = {id(block) for block in self.exempt(doc)} if inside and self.exempt else set()
        for block in inside:
            block.labels.add(L.SITE_TEMPLATE)
            if self._sure(block.score) or id(block) in exempt:
                continue
            block.labels.add(L.STRICTLY_NOT_CONTENT)
            changed = changed or block.is_content or bool(block.score)
            block.is_content = False
            if block.score is not None:
                block.score = 0.0
        return changed

    def _sure(self, score: float | None) -> bool:
        return score is not None and self.penalty < 1.0 and score - self.penalty >= self.threshold


def dropped_by_templates(blocks: Iterable[TextBlock]) -> int:
    """How many of ``blocks`` site templates left out of the content (``SITE_TEMPLATE`` and
    not content)."""
    return sum(1 for block in blocks if not block.is_content and L.SITE_TEMPLATE in block.labels)


def template_blocks(
    doc: TextDocument,
    templates: frozenset[int],
    cover: float = COVER,
    text_cover: float | None = COVER,
) -> list[TextBlock]:
    """The blocks of ``doc`` whose elements all lie inside a template node (none without a
    tree or templates)."""
    if doc.root is None or not templates:
        return []
    groups = [block.elements for block in doc.blocks]
    inside = groups_inside_templates(doc.root, groups, templates, cover, text_cover)
    return [block for block, is_inside in zip(doc.blocks, inside, strict=True) if is_inside]


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
