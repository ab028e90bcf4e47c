"""News conventions: boilerplate lines around a story leave the text, the story stays."""

from __future__ import annotations

import pytest

from scrapy_boilerplate.filters.conventions import NewsConventionsFilter, boilerplate_line
from scrapy_boilerplate.model import labels as L
from scrapy_boilerplate.model.document import TextBlock, TextDocument
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import segment


def block(text: str) -> TextBlock:
    return TextBlock(text=text, num_words=len(text.split()))


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("ADVERTISEMENT", "advertisement"),
        ("Anzeige", "advertisement"),
        ("Copyright 2024 Valley Tribune. All rights reserved.", "copyright"),
        ("© 2025 Example Media", "copyright"),
        ("Alle Rechte vorbehalten.", "copyright"),
        ("Printer-friendly version | E-mail this story", "share"),
        ("Share Tweet Email", "share"),
        ("Reader comments (4)", "comment prompt"),
        ("Add your comment", "comment prompt"),
        ("Sign up for our free morning briefing: the stories you need", "newsletter"),
        ("The new building will replace the warehouses. (Tribune photo)", "photo credit"),
        ("Residents at the meeting. (AP Photo/Jane Doe)", "photo credit"),
        ("Foto: dpa", "photo credit"),
        ("Image 3 of 8", "photo credit"),
        ("By ANNA WEBER, Science reporter | Posted: 05/30/2024 11:00 AM", "byline"),
        ("Other stories in Local", "related"),
        ("You may also like", "related"),
        ("Lesen Sie auch", "related"),
        ("Advertisement 2", "advertisement"),
        ("Sign up to our free breaking news emails", "newsletter"),
        ("REGISTER / SIGN IN TO UNLOCK MORE ARTICLES", "paywall"),
        ("Subscribe now to read the latest news in your city.", "paywall"),
        ("THIS CONTENT IS RESERVED FOR SUBSCRIBERS ONLY", "paywall"),
        ("Externer Inhalt nicht verfügbar", "embedded content"),
        ("Ein Klick für den Datenschutz", "embedded content"),
        ("Legende: Der Platz in Sweidah am Abend. SRF", "photo credit"),
        ("© climatereanalyzer.org I Tagesspiegel/Rita Böttcher", "photo credit"),
        ("Quelle: AFP", "photo credit"),
        ("시민들이 광장에 모였다. [사진 출처 = 연합뉴스]", "photo credit"),
        ("Auf Facebook teilen", "share"),
        ("Link kopieren", "share"),
        ("Box aufklappen Box zuklappen", "control"),
        ("Vis mer Vis mindre", "control"),
        ("Reklam", "advertisement"),
        ("Story continues below advertisement", "paywall"),
        ("This article is free to read Register to unlock.", "paywall"),
        ("Následuje obsah vložený z jiného webu. Zde jej můžete přeskočit.", "embedded content"),
        ("Auch interessant", "related"),
        ("Czytaj więcej", "related"),
    ],
)
def test_boilerplate_lines_are_named(text: str, rule: str) -> None:
    assert boilerplate_line(block(text)) == rule


@pytest.mark.parametrize(
    "text",
    [
        "Copyright law changed in many ways over the last decade.",  # about copyright
        "Copyright license",
        "See also",  # documentation pages keep their see-also headings
        "Credit: The Spruce Eats",  # credit lines some golds keep
        "By the time the council voted, most residents had left the hall.",
        "The photo shows the mayor at the opening of the new bridge on Monday.",
        "Advertising revenue fell by a third in the second quarter, the company said.",
    ],
)
def test_story_sentences_are_not_boilerplate_lines(text: str) -> None:
    assert boilerplate_line(block(text)) is None


@pytest.mark.parametrize(
    "text",
    [
        "Les også: Tone Damli ofret musikkarrieren for barna",
        "MORE: Marvel at a Tour de France legend",
        "Read more: The ultimate guide to tax brackets",
    ],
)
def test_a_linked_read_more_line_is_related_content(text: str) -> None:
    linked = block(text)
    linked.num_linked_words = linked.num_words - 1
    assert boilerplate_line(linked) == "related link"
    assert boilerplate_line(block(text)) is None  # unlinked: a sentence of the story


@pytest.mark.parametrize(
    "text",
    [
        "Watch: the mayor said the bridge would open in May.",
        "Source: the city's budget office, which published the figures on Monday night.",
        "Subscribers to the plan pay less, the company said.",
        "The show is more than a story about external content moderation.",
    ],
)
def test_story_sentences_near_the_new_rules_stay(text: str) -> None:
    assert boilerplate_line(block(text)) is None


def test_credits_are_left_to_the_caption_option() -> None:
    credit = block("Residents at the meeting. (AP Photo/Jane Doe)")
    assert boilerplate_line(credit, credits=False) is None


STORY = b"""<html><body><div class="story">
<p>The council approved the tram line on Tuesday after ten years of debate.</p>
<table class="ad"><tr><td>ADVERTISEMENT</td></tr></table>
<p>Construction starts next spring and the first trams run in four years.</p>
<p>Copyright 2024 Valley Tribune. All rights reserved.</p>
<b>Other stories in Local</b><ul>
<li><a href="/a">Library closure plan shaken</a> - residents react</li>
<li><a href="/b">Why the ward review matters</a> - a guide</li></ul>
<p>A final paragraph after the related box is the reader's note.</p>
</div></body></html>"""


def content(doc: TextDocument) -> list[str]:
    return [b.text for b in doc.blocks if b.is_content]


def test_the_filter_drops_the_lines_and_the_related_run_and_keeps_the_story() -> None:
    doc = segment(parse_html(STORY))
    for each in doc.blocks:
        each.is_content = True
    assert NewsConventionsFilter()(doc) is True
    assert content(doc) == [
        "The council approved the tram line on Tuesday after ten years of debate.",
        "Construction starts next spring and the first trams run in four years.",
        "A final paragraph after the related box is the reader's note.",
    ]
    dropped = [b for b in doc.blocks if not b.is_content]
    assert len(dropped) == 5 and all(L.BOILERPLATE_LINE in b.labels for b in dropped)


def test_blocks_that_are_not_content_are_left_alone() -> None:
    doc = segment(parse_html(STORY))
    assert NewsConventionsFilter()(doc) is False
    assert not any(L.BOILERPLATE_LINE in b.labels for b in doc.blocks)
