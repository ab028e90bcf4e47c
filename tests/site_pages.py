"""Pages of a small news site for the site-template tests: a shared menu and a repeated
newsletter promo inside the article container, around a story unique to each page."""

from __future__ import annotations

import random

PROMO = (
    "Subscribe to the Daily Example newsletter for the best of our journalism delivered to "
    "your inbox every single morning, and support independent local reporting today."
)
WORDS = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "zeta",
    "eta",
    "theta",
    "iota",
    "kappa",
    "lambda",
    "mu",
    "nu",
    "xi",
]


def story(number: int, part: int = 0) -> str:
    """60 words, different for every (number, part) even with digits folded to 0."""
    pick = random.Random(number * 10 + part).choice
    return f"Report {chr(65 + number)}{chr(65 + part)}: " + " ".join(pick(WORDS) for _ in range(58))


#: A related-links line inside the article body, the same on every page: the learned
#: ``article`` keeps it (a moderate score) until the site's template drops it.
RELATED = "More from the newsroom: council budget vote delayed again, school buses late again"
_RELATED_HTML = (
    '<p class="more">More from the newsroom: <a href="/a">council budget vote delayed again</a>,'
    ' <a href="/b">school buses late again</a></p>'
)


def related_page(number: int) -> str:
    """A story page with :data:`RELATED` after the story (no promo)."""
    return (
        "<html><head><title>Story</title></head><body>"
        '<div id="nav"><a href="/">Home</a> <a href="/world/">World</a></div>'
        f'<div id="main"><div class="body"><h1>Headline {chr(65 + number)}</h1>'
        f"<p>{story(number)}</p><p>{story(number, 1)}</p>{_RELATED_HTML}</div></div>"
        "</body></html>"
    )


def page(number: int) -> str:
    return (
        "<html><head><title>Story</title></head><body>"
        '<div id="nav"><a href="/">Home</a> <a href="/world/">World</a></div>'
        f'<div id="main"><div class="body"><h1>Headline {chr(65 + number)}</h1>'
        f"<p>{story(number)}</p><p>{story(number, 1)}</p>"
        f'<p class="promo">{PROMO}</p></div></div>'
        "</body></html>"
    )
