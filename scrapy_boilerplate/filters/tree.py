"""DOM-tree precision filter: grandparent grouping (Viveros-Jiménez et al. 2018).

Content blocks are mapped to their *paragraph* (the closest ancestor-or-self element whose tag
is in :data:`PARAGRAPH_TAGS`), paragraphs are grouped by their n-th ancestor, and only the group
holding the most text stays content. Pages whose content spans distant branches (forums,
listings) lose recall under that rule, so groups holding at least ``keep_share`` of the
selected text are kept too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..model import labels as L
from ..model.document import Element, TextDocument
from ..page.segmentation import compiled_twin

__all__ = [
    "PARAGRAPH_TAGS",
    "AncestorGroupingFilter",
    "paragraph_of",
    "nth_ancestor",
    "group_keys",
    "group_keys_pure",
    "climb",
    "climb_pure",
    "ACCELERATED",
]

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


def group_keys(elements: Sequence[Element | None], depth: int) -> list[Element | None]:
    """Per element, the ``depth``-th ancestor of its paragraph (None for None): the key blocks
    are grouped by (:func:`group_keys_pure`, by the compiled twin in ``_tree`` when built)."""
    if _tree is not None:
        keys: list[Element | None] = _tree.group_keys(list(elements), depth)
        return keys
    return group_keys_pure(elements, depth)


def group_keys_pure(elements: Sequence[Element | None], depth: int) -> list[Element | None]:
    """:func:`group_keys` in pure Python (the reference of the compiled twin)."""
    return [None if e is None else nth_ancestor(paragraph_of(e), depth) for e in elements]


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

    def __call__(self, doc: TextDocument) -> bool:
        content = [block for block in doc.blocks if block.is_content]
        keys = group_keys([block.element for block in content], self.depth)
        selected = list(zip(content, keys, strict=True))
        group_text: dict[Element | None, int] = {}
        for block, key in selected:
            group_text[key] = group_text.get(key, 0) + len(block.text)
        if len(group_text) < 2:
            return False
        winner = max(group_text, key=group_text.__getitem__)
        inside: set[Element | None] = {None}  # blocks without elements won: only they stay
        if winner is not None:
            keyed = [(key, len(block.text)) for block, key in selected if key is not None]
            reached, position = climb(winner, keyed, self.min_share * sum(group_text.values()))
            inside = {key for key, steps in position.items() if steps <= reached}
        changed = False
        for block, key in selected:
            if key in inside:
                continue
            block.is_content = False
            block.labels.add(L.OUTSIDE_MAIN_GROUP)
            changed = True
        return changed


def climb(
    start: Element, keyed: Sequence[tuple[Element, float]], needed: float
) -> tuple[int, dict[Element, int]]:
    """:func:`climb_pure`, by the compiled twin in ``_tree`` when it is built."""
    if _tree is not None:
        found: tuple[int, dict[Element, int]] = _tree.climb(start, list(keyed), needed)
        return found
    return climb_pure(start, keyed, needed)


def climb_pure(
    start: Element, keyed: Sequence[tuple[Element, float]], needed: float
) -> tuple[int, dict[Element, int]]:
    """Climb from ``start`` to the first of it and its ancestors whose subtree holds ``needed``
    of the mass of ``keyed`` (element, mass) pairs (the root when none does).

    Returns how many steps up that is, and per key element how many steps up from ``start``
    its nearest ancestor-or-self on that path is (the path's length when the key is not under
    ``start``'s root): a key is under the reached element iff its value is at most the steps.
    Masses are summed in the order of ``keyed``, per element of the path.
    """
    path = [start, *start.iterancestors()]
    on_path = {node: steps for steps, node in enumerate(path)}
    position: dict[Element, int] = {}
    for key, _ in keyed:
        if key in position:
            continue
        node: Element | None = key
        steps = len(path)
        while node is not None:
            found = on_path.get(node)
            if found is not None:
                steps = found
                break
            node = node.getparent()
        position[key] = steps
    sums: list[float] = [0] * len(path)
    for key, mass in keyed:
        for steps in range(position[key], len(path)):
            sums[steps] += mass
    reached = next((steps for steps, total in enumerate(sums) if total >= needed), len(path) - 1)
    return reached, position


_tree = compiled_twin(f"{__package__}._tree")
#: True when :func:`group_keys` runs its compiled twin.
ACCELERATED: Final = _tree is not None
