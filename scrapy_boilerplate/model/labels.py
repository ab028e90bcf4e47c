"""Block labels: plain strings attached to :class:`~scrapy_boilerplate.model.document.TextBlock`.

The names follow the reference boilerpipe implementation; labels never change the output by
themselves, only filters that read them do.
"""

from __future__ import annotations

from typing import Final

TITLE: Final = "TITLE"
ARTICLE_METADATA: Final = "ARTICLE_METADATA"
INDICATES_END_OF_TEXT: Final = "INDICATES_END_OF_TEXT"
MIGHT_BE_CONTENT: Final = "MIGHT_BE_CONTENT"
VERY_LIKELY_CONTENT: Final = "VERY_LIKELY_CONTENT"
STRICTLY_NOT_CONTENT: Final = "STRICTLY_NOT_CONTENT"
LI: Final = "LI"
HEADING: Final = "HEADING"
H1: Final = "H1"
H2: Final = "H2"
H3: Final = "H3"
#: Set by the segmentation on blocks of text inside a hidden element (``hidden``,
#: ``aria-hidden="true"``, ``display:none``, ``visibility:hidden``).
HIDDEN: Final = "HIDDEN"
#: Set by the grandparent-grouping filter on content blocks outside the kept group(s).
OUTSIDE_MAIN_GROUP: Final = "OUTSIDE_MAIN_GROUP"
#: Victor's segment labels (Marek 2007; set by the ``victor`` extractor): every block of its
#: result carries exactly one. A content block is a segment that starts with a header, a
#: paragraph or a list item (continuation blocks joined to it); a segment that starts with a
#: continuation after noise or at the page's start is a paragraph as well, labelled
#: ``VICTOR_CONTINUATION``. Noise blocks carry ``VICTOR_OTHER``. When a page's blocks carry
#: them, they decide headings and list items in the structured outputs
#: (:mod:`scrapy_boilerplate.output.structure`); otherwise the blocks' DOM elements do.
VICTOR_HEADER: Final = "VICTOR_HEADER"
VICTOR_PARAGRAPH: Final = "VICTOR_PARAGRAPH"
VICTOR_LIST: Final = "VICTOR_LIST"
VICTOR_CONTINUATION: Final = "VICTOR_CONTINUATION"
VICTOR_OTHER: Final = "VICTOR_OTHER"
#: Every Victor label.
VICTOR_LABELS: Final = frozenset(
    {VICTOR_HEADER, VICTOR_PARAGRAPH, VICTOR_LIST, VICTOR_CONTINUATION, VICTOR_OTHER}
)
#: Set by the site-template filter on blocks inside nodes a site repeats on its pages.
SITE_TEMPLATE: Final = "SITE_TEMPLATE"
#: Set by the comment-region filter on blocks inside a reader-comment thread.
COMMENT: Final = "COMMENT"
#: Set by the comment-region filter on the comment blocks that are a comment's text (words,
#: mostly unlinked; not a "Reply" or an author link): the result's comments.
COMMENT_TEXT: Final = "COMMENT_TEXT"
#: Set by the comment-region filter on the first text block of each comment (a new paragraph
#: of the result's comments).
COMMENT_START: Final = "COMMENT_START"
#: Set by the dialog filter on blocks inside a modal dialog (``role="dialog"``,
#: ``role="alertdialog"``, ``aria-modal="true"``: cookie notices, sign-in pop-ups).
DIALOG: Final = "DIALOG"
#: Set by the news-conventions filter on lines around a story that are not the article
#: (advertisement labels, copyright, share and print lines, related-content sections ...).
BOILERPLATE_LINE: Final = "BOILERPLATE_LINE"
