"""SiteLevel(θ) (Chakrabarti et al. 2007, §3 and §5.1): site templates from node counts.

Rules, per site:

* a page counts each distinct canonical hash of its signed elements once
  (:func:`~.hashing.fingerprint_hashes`); ``df(h)`` = pages holding h, N = pages seen;
* **template hashes** I⁺ = {h : df(h) > θ·N and df(h) ≥ ``min_df``}, θ = 0.10 (§5.1 says
  "more than 10 %"). ``min_df = 2`` keeps a node seen once from being a template while N < 10;
* on a page, an element is a template **by hash** when its hash is in I⁺, and **by cover**
  when more than ``cover`` = 85 % of its HTML (:attr:`~.hashing.TreeHashes.sizes`) lies in
  template-by-hash subtrees (§5.1: "DOM nodes with more than 85 % of their HTML content within
  site level templates"). ``text_cover`` (off in the paper) also asks that share of its text
  characters: a page body whose short article sits in a large template is then kept;
* an element lies **inside a template** when it or one of its ancestors is a template; a
  group of elements (a text block's) when it is not empty and each of them does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from ..model.document import Element
from ..page.segmentation import compiled_twin
from .hashing import (
    MAX_FINGERPRINT_HASHES,
    TreeHashes,
    body_of,
    fingerprint_hashes,
    hash_tree,
    hash_tree_pure,
    remember_fingerprint,
)

__all__ = [
    "THETA",
    "MIN_DF",
    "COVER",
    "TemplateMarks",
    "template_hashes",
    "mark_templates",
    "mark_templates_pure",
    "groups_inside_templates",
    "groups_inside_templates_pure",
    "site_level",
]

#: Share of a site's pages a node must be on (strictly more) to be a template (§5.1).
THETA: Final = 0.10
#: Pages a node must be on, at least, to be a template (guards small page counts).
MIN_DF: Final = 2
#: Share of an element's HTML inside templates (strictly more) that makes it a template (§5.1).
COVER: Final = 0.85


def template_hashes(
    df: Mapping[int, int], pages: int, theta: float = THETA, min_df: int = MIN_DF
) -> frozenset[int]:
    """I⁺: the hashes on more than ``theta`` x ``pages`` pages and on at least ``min_df``."""
    floor = theta * pages
    return frozenset(h for h, count in df.items() if count > floor and count >= min_df)


@dataclass(frozen=True, slots=True)
class TemplateMarks:
    """Per element of a :class:`~.hashing.TreeHashes` (same positions): template by hash, by
    cover, and inside a template (itself or an ancestor, either way)."""

    by_hash: list[bool]
    by_cover: list[bool]
    inside: list[bool]


def mark_templates(
    tree: TreeHashes,
    templates: frozenset[int] | set[int],
    cover: float = COVER,
    text_cover: float | None = None,
) -> TemplateMarks:
    """Mark the template elements of one page (see the module rules); by the compiled twin
    when it is built (:func:`mark_templates_pure` is the reference)."""
    if _hashing is not None:
        lists = (tree.hashes, tree.sizes, tree.chars, tree.parents, tree.signed)
        return TemplateMarks(*_hashing.mark_inside(*lists, templates, cover, text_cover))
    return mark_templates_pure(tree, templates, cover, text_cover)


def mark_templates_pure(
    tree: TreeHashes,
    templates: frozenset[int] | set[int],
    cover: float = COVER,
    text_cover: float | None = None,
) -> TemplateMarks:
    """:func:`mark_templates` in pure Python."""
    count = len(tree)
    hashes, sizes, chars, parents = tree.hashes, tree.sizes, tree.chars, tree.parents
    by_hash = [tree.signed[i] and hashes[i] in templates for i in range(count)]
    html_inside = [0] * count
    text_inside = [0] * count
    for index in range(count - 1, -1, -1):  # children (higher positions) first
        if by_hash[index]:
            html_inside[index] = sizes[index]
            text_inside[index] = chars[index]
        parent = parents[index]
        if parent >= 0:
            html_inside[parent] += html_inside[index]
            text_inside[parent] += text_inside[index]
    by_cover = [False] * count
    inside = [False] * count
    for index in range(count):  # parents first
        if not by_hash[index] and sizes[index] and html_inside[index] > cover * sizes[index]:
            by_cover[index] = text_cover is None or (text_inside[index] > text_cover * chars[index])
        parent = parents[index]
        inside[index] = by_hash[index] or by_cover[index] or (parent >= 0 and inside[parent])
    return TemplateMarks(by_hash, by_cover, inside)


def groups_inside_templates(
    root: Element,
    groups: Sequence[Sequence[Element]],
    templates: frozenset[int] | set[int],
    cover: float = COVER,
    text_cover: float | None = None,
) -> list[bool]:
    """Per group of elements of ``root``'s tree: True when it is not empty and each element
    lies inside a template (see the module rules). The compiled twin walks the tree once,
    makes no element object and remembers the page's fingerprint on the way
    (:func:`~.hashing.remember_fingerprint`); :func:`groups_inside_templates_pure` is the
    reference."""
    if _hashing is None:
        return _groups_inside(hash_tree(root), groups, templates, cover, text_cover)
    body = body_of(root)
    if body is None:
        return [False] * len(groups)
    inside: list[bool]
    fingerprint: bytes
    inside, fingerprint = _hashing.groups_inside(
        body, list(groups), templates, cover, text_cover, MAX_FINGERPRINT_HASHES
    )
    remember_fingerprint(root, fingerprint)
    return inside


def groups_inside_templates_pure(
    root: Element,
    groups: Sequence[Sequence[Element]],
    templates: frozenset[int] | set[int],
    cover: float = COVER,
    text_cover: float | None = None,
) -> list[bool]:
    """:func:`groups_inside_templates` in pure Python."""
    return _groups_inside(hash_tree_pure(root), groups, templates, cover, text_cover)


def _groups_inside(
    tree: TreeHashes,
    groups: Sequence[Sequence[Element]],
    templates: frozenset[int] | set[int],
    cover: float,
    text_cover: float | None,
) -> list[bool]:
    inside = mark_templates_pure(tree, templates, cover, text_cover).inside
    positions = tree.positions()
    marks = []
    for group in groups:
        spots = [positions.get(element) for element in group]
        marks.append(bool(spots) and all(spot is not None and inside[spot] for spot in spots))
    return marks


def site_level(
    trees: Iterable[TreeHashes], theta: float = THETA, min_df: int = MIN_DF
) -> frozenset[int]:
    """SiteLevel(θ) over the pages of one site, all at once: their template hashes I⁺."""
    df: Counter[int] = Counter()
    pages = 0
    for tree in trees:
        df.update(fingerprint_hashes(tree))
        pages += 1
    return template_hashes(df, pages, theta, min_df)


_hashing = compiled_twin(f"{__package__}._hashing")
