"""What a page declares about itself, found in one walk of its tree.

The headline finder and the learned scorer's metadata features read a page's ``<h1>`` headings,
its ``<meta>`` tags and its JSON-LD scripts; the comment rule of the ``article`` text reads the
elements whose ``class`` or ``id`` may name a reader comment (:func:`may_name_comment`); the
dialog filter reads the modal dialogs (:func:`~.tags.is_dialog`). Each used to walk the whole
tree for its own elements (an XPath ``//meta[…]`` costs about as much as a walk);
:func:`declarations` collects all five in one walk of the tree, in document order
(by the compiled twin in ``_speedups`` when it is built), and :func:`document_declarations`
keeps the answer with the document. A
document segmented by the compiled walk already holds the elements (found on that walk's way,
``segmentation.DECLARED_ELEMENTS``): then no walk is made here at all.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import Final, cast

from lxml import etree

from ..model.document import Element, TextDocument
from .segmentation import DECLARED_ELEMENTS, compiled_twin
from .tags import is_dialog

__all__ = [
    "Declarations",
    "declarations",
    "declared_elements_pure",
    "document_declarations",
    "may_name_comment",
    "in_comment",
    "is_comment_name",
    "COMMENT_WORDS",
    "COMMENT_STATE_WORDS",
    "COMMENT_STEMS",
]

#: ``type`` of the ``<script>`` elements that hold JSON-LD.
JSON_LD_TYPE: Final = "application/ld+json"
#: Stems one of which every comment name holds (:data:`COMMENT_WORDS`); the
#: compiled twin has the same list.
COMMENT_STEMS: Final = (
    "comment", "disqus", "repl", "kommentar", "comentario", "komentarz", "reacties", "talkback",
)  # fmt: skip
_COMMENT_STEM: Final = re.compile("|".join(COMMENT_STEMS), re.IGNORECASE | re.ASCII)
#: Words of a class or id that name a reader comment or a comment thread (after splitting on
#: ``-``, ``_`` and camelCase, case ignored), in the languages seen on news sites.
COMMENT_WORDS: Final = frozenset(
    {
        "comment", "comments", "commentlist", "commentbody", "disqus", "reply", "replies",
        "kommentar", "kommentare", "commentaire", "commentaires", "comentario", "comentarios",
        "commento", "commenti", "komentarze", "reacties", "talkback",
    }
)  # fmt: skip
#: Words that make a name describe comments rather than hold them: a state (``comments-open``,
#: ``has-comments``), a count, a control or a taxonomy (``tag-comments``).
COMMENT_STATE_WORDS: Final = frozenset(
    {
        "open", "opened", "closed", "count", "counter", "has", "no", "enabled", "disabled",
        "allowed", "tag", "category", "link", "links", "button", "btn", "icon", "trigger",
        "number", "num", "toggle", "status", "off", "none", "form", "respond",
    }
)  # fmt: skip
_NAME_PARTS: Final = re.compile(r"[-_]+|(?<=[a-z])(?=[A-Z])")


@functools.lru_cache(maxsize=4096)
def is_comment_name(names: str) -> bool:
    """Whether one of the whitespace-separated ``names`` (classes, id) holds a word of
    :data:`COMMENT_WORDS` and none of :data:`COMMENT_STATE_WORDS` (``comment-body``,
    ``commentList``, ``disqus_thread``; not ``commentary``, ``comments-open``)."""
    for name in names.split():
        words = {word.lower() for word in _NAME_PARTS.split(name) if word}
        if words & COMMENT_WORDS and not words & COMMENT_STATE_WORDS:
            return True
    return False


@dataclass(frozen=True)
class Declarations:
    """A page's ``<h1>`` elements, ``<meta>`` elements, JSON-LD ``<script>`` elements and
    elements that may name a comment (:func:`may_name_comment`), each in document order."""

    headings: tuple[Element, ...]
    meta: tuple[Element, ...]
    json_ld: tuple[Element, ...]
    #: ``(property, name, content)`` attributes of each element of ``meta``, read once.
    meta_attributes: tuple[tuple[str | None, str | None, str | None], ...]
    #: The elements whose ``class`` or ``id`` may name a comment.
    comment_named: tuple[Element, ...] = ()
    #: The modal dialogs (:func:`~.tags.is_dialog`: cookie notices, sign-in pop-ups).
    dialogs: tuple[Element, ...] = ()

    def meta_contents(
        self,
        properties: Collection[str] = (),
        names: Collection[str] = (),
        within: Element | None = None,
    ) -> list[str]:
        """The ``content`` of every ``<meta>`` (that has one) whose ``property`` is one of
        ``properties`` or whose ``name`` is one of ``names``, in document order; only those
        inside ``within`` when it is given. Values are compared exactly, as XPath's ``=``."""
        contents = []
        for meta, (property_, name, content) in zip(self.meta, self.meta_attributes, strict=True):
            if content is None or (property_ not in properties and name not in names):
                continue
            if within is not None and not any(a is within for a in meta.iterancestors()):
                continue
            contents.append(content)
        return contents


def declarations(root: Element) -> Declarations:
    """The :class:`Declarations` of the tree under ``root`` (``root`` itself included); the
    elements are found by the compiled twin of :func:`declared_elements_pure` when built."""
    found = _speedups.declared_elements(root) if _speedups is not None else None
    return _declarations_of(*(found if found is not None else declared_elements_pure(root)))


def _declarations_of(
    headings: list[Element],
    meta: list[Element],
    scripts: list[Element],
    named: list[Element],
    with_role: list[Element],
) -> Declarations:
    """The :class:`Declarations` of the found ``<h1>``, ``<meta>``, ``<script>``,
    comment-named elements and elements with a ``role`` or ``aria-modal`` attribute."""
    json_ld = tuple(script for script in scripts if script.get("type") == JSON_LD_TYPE)
    attributes = tuple((m.get("property"), m.get("name"), m.get("content")) for m in meta)
    dialogs = tuple(element for element in with_role if is_dialog(element))
    return Declarations(tuple(headings), tuple(meta), json_ld, attributes, tuple(named), dialogs)


def in_comment(element: Element) -> bool:
    """Whether ``element`` or one of its ancestors below ``<body>`` has a comment name
    (:func:`is_comment_name`)."""
    node: Element | None = element
    while node is not None and node.tag not in ("body", "html"):
        names = f"{node.get('class') or ''} {node.get('id') or ''}"
        if may_name_comment(node) and is_comment_name(names):
            return True
        node = node.getparent()
    return False


def may_name_comment(element: Element) -> bool:
    """Whether the ``class`` or the ``id`` of ``element`` holds one of :data:`COMMENT_STEMS`
    (ASCII letters' case ignored)."""
    return any(
        value and _COMMENT_STEM.search(value) for value in (element.get("class"), element.get("id"))
    )


#: The elements with a ``class`` or an ``id``.
_NAMED: Final = etree.XPath("descendant-or-self::*[@class or @id]")
#: The elements with a ``role`` or an ``aria-modal`` attribute.
_WITH_ROLE: Final = etree.XPath("descendant-or-self::*[@role or @aria-modal]")


def declared_elements_pure(
    root: Element,
) -> tuple[list[Element], list[Element], list[Element], list[Element], list[Element]]:
    """The ``<h1>``, ``<meta>`` and ``<script>`` elements of the tree under ``root`` (``root``
    included), the elements that :func:`may_name_comment` and those with a ``role`` or
    ``aria-modal`` attribute, each list in document order."""
    found: dict[str, list[Element]] = {"h1": [], "meta": [], "script": []}
    for element in root.iter("h1", "meta", "script"):
        found[element.tag].append(element)
    candidates = cast(list[Element], _NAMED(root))
    named = [element for element in candidates if may_name_comment(element)]
    with_role = cast(list[Element], _WITH_ROLE(root))
    return found["h1"], found["meta"], found["script"], named, with_role


def document_declarations(doc: TextDocument) -> Declarations | None:
    """The :class:`Declarations` of ``doc.root`` (None without a tree), computed once per
    document (kept in ``doc.memo`` with the root it came from)."""
    if doc.root is None:
        return None
    memo = doc.memo.get("declarations")
    if memo is not None and memo[0] is doc.root:
        found: Declarations = memo[1]
        return found
    walked = doc.memo.get(DECLARED_ELEMENTS)
    if walked is not None and walked[0] is doc.root:  # found by the segmentation walk
        found = _declarations_of(*walked[1])
    else:
        found = declarations(doc.root)
    doc.memo["declarations"] = (doc.root, found)
    return found


_speedups = compiled_twin(f"{__package__}._speedups")
