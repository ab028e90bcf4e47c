"""DOM-tree precision filter: grandparent grouping (Viveros-Jiménez et al. 2018).

Content blocks are mapped to their *paragraph* (the closest ancestor-or-self element whose tag
is in :data:`PARAGRAPH_TAGS`), paragraphs are grouped by their n-th ancestor, and only the group
holding the most text stays content. Pages whose content spans distant branches (forums,
listings) lose recall under that rule, so groups holding at least ``keep_share`` of the
selected text are kept too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..model import labels as L
from ..model.document import Element, TextBlock, TextDocument

__all__ = ["PARAGRAPH_TAGS", "AncestorGroupingFilter", "paragraph_of", "nth_ancestor", "is_under"]

#: Tags treated as paragraphs by the grouping (the paper's list).
PARAGRAPH_TAGS: Final = frozenset(
    {"div", "table", "ul", "ol", "p", "section", "article", "header", "body"}
    | {f"h{level}" for level in range(1, 7)}
)


def paragraph_of(element: Element) -> Element:
    """The closest ancestor-or-self of ``element`` with a paragraph tag (else the root)."""
    node: Element | None = element
    last = element
    while node is not None:
        if node.tag in PARAGRAPH_TAGS:
            return node
        last = node
        node = node.getparent()
    return last


def nth_ancestor(element: Element, depth: int) -> Element:
    """The ``depth``-th ancestor of ``element`` (1 = parent); the root if the tree is shallower."""
    node = element
    for _ in range(depth):
        parent = node.getparent()
        if parent is None:
            break
        node = parent
    return node


@dataclass(frozen=True)
class AncestorGroupingFilter:
    """Keep the content blocks under the n-th ancestor holding the most text.

    Rule: text amount is block text length in characters. Content blocks are grouped by the
    ``depth``-th ancestor of their paragraph (1 = parent, 2 = grandparent, the paper's best);
    the group with the most text wins. If the winner holds less than ``min_share`` (0–1) of all
    selected text, the winner is widened to its parent, grandparent ... until the subtree holds
    ``min_share``: content spread over sibling sections (listings, forums, long guides) is kept,
    while isolated boilerplate elsewhere in the page still goes. ``min_share = 0`` is the paper's
    plain rule. Dropped blocks get the ``OUTSIDE_MAIN_GROUP`` label.
    """

    depth: int = 2
    min_share: float = 0.0

    def group_key(self, block: TextBlock) -> Element | None:
        """The ancestor a block is grouped under (None for a block without element)."""
        element = block.element
        return None if element is None else nth_ancestor(paragraph_of(element), self.depth)

    def __call__(self, doc: TextDocument) -> bool:
        selected = [(block, self.group_key(block)) for block in doc.blocks if block.is_content]
        group_text: dict[Element | None, int] = {}
        for block, key in selected:
            group_text[key] = group_text.get(key, 0) + len(block.text)
        if len(group_text) < 2:
            return False
        winner = max(group_text, key=group_text.__getitem__)
        if winner is not None and self.min_share > 0:
            winner = self._widen(winner, selected, self.min_share * sum(group_text.values()))
        changed = False
        for block, key in selected:
            if key is winner or (key is not None and winner is not None and is_under(key, winner)):
                continue
            block.is_content = False
            block.labels.add(L.OUTSIDE_MAIN_GROUP)
            changed = True
        return changed

    @staticmethod
    def _widen(
        winner: Element, selected: list[tuple[TextBlock, Element | None]], needed: float
    ) -> Element:
        """Climb from ``winner`` until its subtree holds ``needed`` characters of selected text."""
        subtree_text: dict[Element, int] = {}
        for block, key in selected:
            if key is None:
                continue
            size = len(block.text)
            subtree_text[key] = subtree_text.get(key, 0) + size
            for ancestor in key.iterancestors():
                subtree_text[ancestor] = subtree_text.get(ancestor, 0) + size
        node = winner
        while subtree_text.get(node, 0) < needed:
            parent = node.getparent()
            if parent is None:
                break
            node = parent
        return node


def is_under(element: Element, ancestor: Element) -> bool:
    """True if ``ancestor`` is ``element`` or one of its ancestors."""
    return element is ancestor or any(node is ancestor for node in element.iterancestors())
