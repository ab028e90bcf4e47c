"""News conventions of the ``article`` text: lines that a news page puts around its story and a
reader never counts as the article, whatever score a block classifier gave them.

Rules (a content block stops being content and gets the ``BOILERPLATE_LINE`` label when its
text matches, within a word limit):

* an advertisement label alone (``Advertisement``, ``Anzeige``, ``Publicité`` ..., 3 words);
* a copyright line: starts with ``Copyright``/``©``/``(c)`` and a year or "by", or says "all
  rights reserved" in one of several languages (40 words);
* a share, print or e-mail line (``Printer-friendly version | E-mail this story``, 12 words);
* a comment prompt or count (``Reader comments (4)``, ``Add your comment``, 8 words);
* a newsletter prompt (``Sign up for our newsletter``, ``... morning briefing``, 30 words);
* a photo credit: a trailing ``(Tribune photo)``/``(AP Photo/...)``/``(AFP)``, a leading
  ``Photo:``/``Foto:``/``Legende:``/``©``, a short ``Quelle: AFP``, ``Image 3 of 8``,
  ``Caption``, ``Close`` (40 words);
* a subscription or sign-in prompt (``Subscribe now``, ``Sign in to unlock more articles``,
  30 words), the placeholder of a blocked embed (``Externer Inhalt nicht verfügbar``, 40 words)
  and a show/hide control (``Box aufklappen``, ``Vis mer Vis mindre``, 6 words);
* a linked "read more" line (``Read more: …``, ``Les også: …``, ``MORE: …``; link density at
  least :data:`RELATED_LINE_LINK_DENSITY`, 30 words);
* a dateline byline with a label (``By ANNA WEBER | Posted: 05/30/2024``, 25 words);
* a related-content heading (``Related stories``, ``Other stories in Local``, ``You may
  like``, ``Lesen Sie auch``, 8 words) and the run of link-dense blocks (link density at least
  :data:`RELATED_LINK_DENSITY`) right after it.

Each rule was kept only where, on the shippable datasets' article pages, it removes far more
boilerplate words than gold words (``docs/extractors.md``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..model import labels as L
from ..model.document import TextBlock, TextDocument
from ..page.segmentation import compiled_twin

__all__ = ["NewsConventionsFilter", "boilerplate_line", "word_masks_pure", "RELATED_LINK_DENSITY"]

#: Least link density of a block that continues a related-content section.
RELATED_LINK_DENSITY: Final = 0.3
#: Least link density of a "Read more: ..." line (its words mostly a link).
RELATED_LINE_LINK_DENSITY: Final = 0.5

_AD_LABEL: Final = re.compile(
    r"^\W*(advertisement|advertising|advertisment|anzeige|werbung|publicit[ée]|publicidad|"
    r"pubblicit[àa]|reklame?|annonce|sponsored( content)?|paid (post|content)|ads?)( \d+)?\W*$",
    re.I,
)
_COPYRIGHT: Final = re.compile(
    r"^\W*(copyright\s*(©|\(c\))?|©|\(c\))\s*(\d{4}|by\b)|all rights reserved|"
    r"alle rechte vorbehalten|tous droits réservés|todos los derechos reservados|"
    r"tutti i diritti riservati|版权所有",
    re.I,
)
_SHARE: Final = re.compile(
    r"printer[- ]friendly|print this (article|story|page)|e-?mail this (article|story|page)|"
    r"share this (article|story)|share on (facebook|twitter|x|linkedin|whatsapp)|"
    r"^\W*(auf|bei|per|via) (facebook|twitter|x|linkedin|whatsapp|e-?mail) teilen\W*$|"
    r"^\W*(copy link|link kopieren|lien copié|copier le lien)\W*$|"
    r"^\W*(share|print|email|e-mail|tweet)(\W+(share|print|email|e-mail|tweet|facebook|twitter|"
    r"linkedin|whatsapp|reddit|pinterest|copy link|save))*\W*$",
    re.I,
)
_COMMENT_PROMPT: Final = re.compile(
    r"^\W*((reader|user|\d+) comments?( \(\d+\))?|comments? \(\d+\)|add (your|a) comment|"
    r"leave a (comment|reply)|post a comment|share your thoughts( and join the conversation"
    r".{0,40})?|join the (conversation|discussion)|show comments|view comments|"
    r"kommentare( \(\d+\))?|commentaires?)\W*$",
    re.I,
)
_NEWSLETTER: Final = re.compile(
    r"(sign up|subscribe) (for|to) (our|the) .{0,30}(newsletter|briefing|bulletin|digest|"
    r"e-?mails|alerts)|"
    r"get (our|the) .{0,30}(newsletter|briefing)|newsletter abonnieren|^\W*sign me up\W*$",
    re.I,
)
_PHOTO_CREDIT: Final = re.compile(
    r"\((\w+ )*(photo|photograph|picture|image|file photo|foto|bild)s?( ?/ ?[^)]{0,40})?\)\W*$|"
    r"^\W*(photo|photograph|foto|fotos|bild)\s*:|^\W*image \d+ (of|/) \d+\W*$|"
    r"^\W*(caption|close|enlarge|fullscreen)\W*$|"
    r"\((ap|afp|reuters|getty images|dpa|epa)( photo)?(/[^)]*)?\)\W*$|"
    r"^\W*(legende|bildlegende|bildunterschrift)\s*:|^\W*©|"
    r"^\W*(quelle|source|fuente|fonte)\s*:\s*\S+(\s+\S+){0,3}\s*$|\[사진[^\]]{0,40}\]\W*$",
    re.I,
)
_CONTROL: Final = re.compile(
    r"^\W*((box )?(aufklappen|zuklappen)|vis (mer|mindre)|visa (mer|mindre)|show (more|less)|"
    r"read less|mehr anzeigen|weniger anzeigen|zobrazit vše|afficher (plus|moins)|"
    r"이미지 확대보기|article content|author of the article:?)(\W+(box )?(aufklappen|zuklappen|"
    r"vis (mer|mindre)|visa (mer|mindre)|show (more|less)))*\W*$",
    re.I,
)
_PAYWALL: Final = re.compile(
    r"subscribe now|sign in to (unlock|continue|read)|unlock (more|this|the full) (articles?|"
    r"stor(y|ies))|(create|register) an account|sign in or (create|register)|"
    r"(reserved|exclusive) for (our )?subscribers|already (a subscriber|have an account)|"
    r"(continue|keep) reading with|jetzt (abonnieren|weiterlesen|freischalten)|"
    r"register to unlock|remove ads|story continues below advertisement|"
    r"abonnez-vous|d[ée]j[àa] abonn[ée]|suscr[íi]bete|abbonati ora|この記事は(会員|有料会員)限定",
    re.I,
)
_EMBED_PLACEHOLDER: Final = re.compile(
    r"obsah vložený z jiného webu|"
    r"^\W*(externer inhalt|external content|contenu externe|contenido externo|"
    r"contenuto esterno)\b.{0,40}$|einen externen inhalt|ein klick für den datenschutz|"
    r"empfohlener redaktioneller inhalt|zum youtube-inhalt|privatsphäre-einstellungen verhindern",
    re.I,
)
_RELATED_LINE: Final = re.compile(
    r"^\W*(les også|læs også|läs även|lees ook|lesen sie auch|lies auch|lire aussi|"
    r"leggi anche|lea también|read (more|also)|see also|more|watch)\s*[:|]",
    re.I,
)
_LABELLED_BYLINE: Final = re.compile(
    r"^\W*(by|von|por|par)\s+[^»]{1,120}\b(posted|updated|published|veröffentlicht|"
    r"aktualisiert|publié|publicado)\s*:",
    re.I,
)
_RELATED_HEADING: Final = re.compile(
    r"^\W*(related( (stories|articles|news|content|links|coverage|topics))?|"
    r"other stories( in .{1,30})?|more (stories|news|from .{1,40}|on this (story|topic))|"
    r"you (may|might) (also )?like|recommended( for you| stories| articles)?|read (also|next)|"
    r"most (read|popular|viewed|shared)|trending( now)?|popular (stories|now)|"
    r"also in .{1,30}|weitere artikel|mehr zum thema|lesen sie auch|auch interessant|"
    r"czytaj (więcej|też|także)|up next|"
    r"das könnte sie auch interessieren|à lire aussi|lire aussi|sur le même sujet|"
    r"te puede interesar|noticias relacionadas|leggi anche|potrebbe interessarti|"
    r"相关(新闻|文章|阅读)|推荐阅读|延伸阅读)\W*$",
    re.I,
)
_CREDIT_WORDS: Final = (
    "photo", "foto", "bild", "picture", "image", "caption", "close", "enlarge", "fullscreen",
    "(ap", "(afp", "reuters", "getty", "(dpa", "(epa", "legende", "bildunterschrift", "©",
    "quelle", "source", "fuente", "fonte", "사진",
)  # fmt: skip
#: (name, pattern, most words of a matching block, words one of which the lower-cased text
#: must hold before the pattern is tried; empty: the pattern is anchored and cheap)
_LINE_RULES: Final = (
    ("advertisement", _AD_LABEL, 3, ()),
    (
        "copyright",
        _COPYRIGHT,
        40,
        ("copyright", "©", "(c)", "reserv", "rechte vorbehalten", "版权所有"),
    ),
    ("share", _SHARE, 12, ("print", "mail", "share", "tweet", "teilen", "link", "lien")),
    ("control", _CONTROL, 6, ()),
    ("comment prompt", _COMMENT_PROMPT, 8, ()),
    (
        "newsletter",
        _NEWSLETTER,
        30,
        ("newsletter", "briefing", "bulletin", "digest", "sign me", "mail", "alert"),
    ),
    (
        "photo credit",
        _PHOTO_CREDIT,
        40,
        _CREDIT_WORDS,
    ),
    (
        "paywall",
        _PAYWALL,
        30,
        (
            "subscri",
            "sign in",
            "unlock",
            "account",
            "jetzt",
            "abonn",
            "suscr",
            "会員",
            "ads",
            "advert",
        ),
    ),
    (
        "embedded content",
        _EMBED_PLACEHOLDER,
        40,
        ("extern", "datenschutz", "inhalt", "privatsph", "vložený"),
    ),
    ("related link", _RELATED_LINE, 30, ()),
    ("byline", _LABELLED_BYLINE, 25, ()),
    ("related", _RELATED_HEADING, 8, ()),
)
_MOST_WORDS: Final = max(rule[2] for rule in _LINE_RULES)
#: Matches a text when one of the rules without words does (their patterns all begin with
#: ``^\W*``: one search from the start instead of one per rule, for a block that holds none of
#: the rules' words).
_ANCHORED_RULES: Final = re.compile(
    r"^\W*(?:"
    + "|".join(pattern.pattern.removeprefix(r"^\W*") for _, pattern, _, w in _LINE_RULES if not w)
    + ")",
    re.I,
)
_lines = compiled_twin(f"{__package__}._lines")
#: The compiled word test of the rules (``None``: each block tests its words in Python).
_RULE_WORD_MASKS: Final = None if _lines is None else _lines.WordMasks([r[3] for r in _LINE_RULES])


def boilerplate_line(block: TextBlock, *, credits: bool = True) -> str | None:
    """The name of the first line rule ``block`` matches (None: none); ``credits=False``
    leaves photo credits alone."""
    return _line_rule(block, credits, None)


def _line_rule(block: TextBlock, credits: bool, word_mask: int | None) -> str | None:
    """:func:`boilerplate_line`; ``word_mask``: bit ``r`` set when the block's lower-cased text
    holds one of the words of rule ``r`` (:func:`word_masks_pure`; None: tested here)."""
    count = block.num_words
    if count > _MOST_WORDS:
        return None
    text = block.text
    if word_mask == 0 and not _ANCHORED_RULES.search(text):
        return None
    lower = None
    for bit, (name, pattern, most_words, words) in enumerate(_LINE_RULES):
        if count > most_words or (name == "photo credit" and not credits):
            continue
        if name == "related link" and block.link_density < RELATED_LINE_LINK_DENSITY:
            continue
        if words:  # substring tests: cheaper than the pattern or a regex of the words
            if word_mask is not None:
                if not word_mask >> bit & 1:
                    continue
            else:
                if lower is None:
                    lower = text.lower()
                if not _holds_any(lower, words):
                    continue
        if pattern.search(text):
            return name
    return None


def word_masks_pure(texts: Sequence[str], groups: Sequence[Sequence[str]]) -> list[int]:
    """For each text, the mask whose bit ``g`` is set when the lower-cased text holds one of
    the words of ``groups[g]`` (the reference of the compiled ``_lines.WordMasks``)."""
    masks = []
    for text in texts:
        lower = text.lower()
        mask = 0
        for bit, words in enumerate(groups):
            if _holds_any(lower, words):
                mask |= 1 << bit
        masks.append(mask)
    return masks


def _holds_any(text: str, words: Sequence[str]) -> bool:
    for word in words:  # noqa: SIM110 (any() over a generator costs twice as much here)
        if word in text:
            return True
    return False


def _rule_word_masks(blocks: Sequence[TextBlock]) -> dict[int, int]:
    """The rules' word masks of the blocks :func:`_line_rule` reads (content, at most
    :data:`_MOST_WORDS` words), by index; empty when the compiled twin is not built (or a text
    is not a ``str``): then each block tests its words."""
    if _RULE_WORD_MASKS is None:
        return {}
    read = [
        index
        for index, block in enumerate(blocks)
        if block.is_content and block.num_words <= _MOST_WORDS
    ]
    try:
        masks = _RULE_WORD_MASKS([blocks[index].text for index in read])
    except TypeError:
        return {}
    return dict(zip(read, masks, strict=True))


def _related_run(blocks: Sequence[TextBlock], start: int) -> int:
    """The index after the run of link-dense blocks that follows a related heading at
    ``start``."""
    end = start + 1
    while (
        end < len(blocks)
        and blocks[end].num_words
        and blocks[end].link_density >= RELATED_LINK_DENSITY
    ):
        end += 1
    return end


@dataclass(frozen=True)
class NewsConventionsFilter:
    """Content blocks that are news boilerplate lines (:func:`boilerplate_line`), and the
    link-dense runs after a content block that is a related-content heading, stop being content
    (label ``BOILERPLATE_LINE``). ``keep_captions`` leaves photo credits to the caption
    option."""

    keep_captions: bool = False

    def __call__(self, doc: TextDocument) -> bool:
        blocks = doc.blocks
        word_masks = _rule_word_masks(blocks)
        changed = False
        index = 0
        while index < len(blocks):
            block = blocks[index]
            rule = None
            if block.is_content and block.num_words <= _MOST_WORDS:  # _line_rule passes them
                rule = _line_rule(block, not self.keep_captions, word_masks.get(index))
            end = _related_run(blocks, index) if rule == "related" else index + 1
            if rule is not None:
                for dropped in blocks[index:end]:
                    changed |= dropped.is_content
                    dropped.is_content = False
                    dropped.labels.add(L.BOILERPLATE_LINE)
            index = end
        return changed
