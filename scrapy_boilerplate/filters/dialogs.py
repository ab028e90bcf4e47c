"""Modal dialogs out of the text: cookie notices, sign-in and newsletter pop-ups.

Rules: an element is a *dialog* when its ``role`` is ``dialog`` or ``alertdialog`` or it has
``aria-modal="true"`` (ARIA's markup of a modal window, :func:`~..page.tags.is_dialog`). A
block lies inside a dialog when each of its elements does.
:class:`DialogFilter` takes such blocks out of the content, unless they hold every content
block of the page (a page that shows its article in a dialog keeps it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..model import labels as L
from ..model.document import TextBlock, TextDocument
from ..page.declarations import document_declarations

__all__ = ["DialogFilter", "dialog_blocks"]


def dialog_blocks(doc: TextDocument) -> list[int]:
    """The indices of ``doc``'s blocks that lie inside a dialog (none without a tree); the
    dialogs are those the page's declarations found (:mod:`~..page.declarations`)."""
    declared = document_declarations(doc)
    dialogs = declared.dialogs if declared is not None else ()
    if not dialogs:  # most pages
        return []
    inside = {id(node) for dialog in dialogs for node in dialog.iter()}
    return [
        index
        for index, block in enumerate(doc.blocks)
        if block.elements and all(id(element) in inside for element in block.elements)
    ]


@dataclass(frozen=True)
class DialogFilter:
    """Blocks inside a dialog (:func:`dialog_blocks`; or those at ``indices``, found before, as
    for a document rebuilt without its tree) lose ``is_content`` and their score (0) and get the
    ``DIALOG`` and ``STRICTLY_NOT_CONTENT`` labels, unless they hold every content block. Put it
    after the block classifier and gap filling, before the main-region rule: a cookie notice
    longer than the story then never wins the region. Returns True if a content block left."""

    def __call__(self, doc: TextDocument, indices: Sequence[int] | None = None) -> bool:
        found = [doc.blocks[i] for i in (dialog_blocks(doc) if indices is None else indices)]
        if not found:
            return False
        inside = {id(block) for block in found}
        if all(id(block) in inside for block in doc.blocks if block.is_content):
            return False
        changed = any(block.is_content for block in found)
        for block in found:
            _drop(block)
        return changed


def _drop(block: TextBlock) -> None:
    block.labels.update((L.DIALOG, L.STRICTLY_NOT_CONTENT))
    block.is_content = False
    if block.score is not None:
        block.score = 0.0
