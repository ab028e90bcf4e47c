"""A tiny victor model trained on synthetic pages (headings, paragraphs, lists, menus)."""

from __future__ import annotations

from functools import cache

from scrapy_boilerplate.training.victor import VictorPage, labelled_page, train_model


def synthetic_page(number: int) -> tuple[str, list[tuple[str, str]]]:
    """A page with a menu, a heading, two paragraphs (one with bold text), a list and a
    footer, and its gold segments."""
    heading = f"Report number {number} on the harbour"
    first = f"The harbour opened on day {number}. Ships came in from the north and the south."
    bold = "very"
    after = f"busy morning followed, said the harbour master {number}."
    items = [f"First item {number} in the list", f"Second item {number} in the list"]
    html = (
        "<html><body><div class='menu'><a href='/'>Home</a> | <a href='/news'>News</a> | "
        "<a href='/about'>About us</a></div>"
        f"<div class='main'><h1>{heading}</h1><p>{first}</p>"
        f"<p>A <b>{bold}</b> {after}</p>"
        f"<ul><li>{items[0]}</li><li>{items[1]}</li></ul></div>"
        "<div class='footer'><a href='/c'>Copyright 2007</a> <a href='/p'>Privacy</a></div>"
        "</body></html>"
    )
    gold = [("h", heading), ("p", first), ("p", f"A {bold} {after}")]
    gold += [("l", item) for item in items]
    return html, gold


def synthetic_pages(count: int = 6) -> list[VictorPage]:
    pages = []
    for number in range(count):
        html, gold = synthetic_page(number)
        page = labelled_page(str(number), html, f"https://site{number}.example/a", gold)
        assert page is not None
        pages.append(page)
    return pages


@cache
def synthetic_model() -> bytes:
    """A victor model file trained on :func:`synthetic_pages`."""
    return train_model(synthetic_pages(), parameters={"max_iterations": 50})
