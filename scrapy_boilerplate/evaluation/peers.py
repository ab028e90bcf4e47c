"""Extractors to evaluate: this project's registered ones and the peer libraries a user would
pick instead, all behind one signature ``extract(html: str, url: str | None) -> str``.

A spec names one extractor: a registered name with optional options
(``article``, ``article:ancestor_depth=0``) or a peer name (:data:`PEERS`). Peers are optional
(``pip install scrapy-boilerplate[peers]``); :func:`resolve_extractor` raises
:class:`PeerUnavailableError` when a peer's package is missing.
"""

from __future__ import annotations

import json
import logging
import warnings
from collections.abc import Callable
from typing import Any

from ..extractors import get_extractor

__all__ = [
    "TextExtractor",
    "PeerUnavailableError",
    "PEERS",
    "parse_spec",
    "resolve_extractor",
]

#: ``extract(html, url) -> text``; html is the decoded page.
TextExtractor = Callable[[str, "str | None"], str]


class PeerUnavailableError(ImportError):
    """A peer library is not installed (or fails to import)."""


def _html_fragment_text(fragment: str) -> str:
    """Visible text of an HTML fragment, one line per block element (for HTML-returning peers)."""
    import html_text

    return str(html_text.extract_text(fragment))


def _trafilatura() -> TextExtractor:
    import trafilatura

    def extract(html: str, url: str | None) -> str:
        return trafilatura.extract(html, url=url) or ""

    return extract


def _boilerpy3(kind: str) -> TextExtractor:
    from boilerpy3 import extractors

    # boilerpy3 logs a traceback for every page its parser trips on; the page then scores as
    # whatever it returned (often empty), so the log adds nothing to an evaluation.
    logging.getLogger("boilerpy3").setLevel(logging.CRITICAL)
    extractor = getattr(extractors, kind)(raise_on_failure=False)

    def extract(html: str, url: str | None) -> str:
        return str(extractor.get_content(html) or "")

    return extract


def _justext() -> TextExtractor:
    import justext

    stoplist = justext.get_stoplist("English")

    def extract(html: str, url: str | None) -> str:
        paragraphs = justext.justext(html, stoplist)
        return "\n\n".join(p.text for p in paragraphs if not p.is_boilerplate)

    return extract


def _readability() -> TextExtractor:
    from readability import Document

    _html_fragment_text("<p></p>")  # html-text is needed to turn the summary into text

    def extract(html: str, url: str | None) -> str:
        return _html_fragment_text(Document(html, url=url).summary(html_partial=True))

    return extract


def _newspaper() -> TextExtractor:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from newspaper import Article

    def extract(html: str, url: str | None) -> str:
        article = Article(url or "http://example.com/", fetch_images=False)
        article.download(input_html=html)
        article.parse()
        return str(article.text or "")

    return extract


def _goose3() -> TextExtractor:
    from goose3 import Goose

    goose = Goose({"enable_image_fetching": False})

    def extract(html: str, url: str | None) -> str:
        return str(goose.extract(raw_html=html).cleaned_text or "")

    return extract


def _resiliparse() -> TextExtractor:
    from resiliparse.extract.html2text import extract_plain_text

    def extract(html: str, url: str | None) -> str:
        return str(extract_plain_text(html, main_content=True, preserve_formatting=True))

    return extract


def _html_text() -> TextExtractor:
    import html_text

    def extract(html: str, url: str | None) -> str:
        return str(html_text.extract_text(html))

    return extract


#: Peer name -> factory of its adapter (imports the library when called).
PEERS: dict[str, Callable[[], TextExtractor]] = {
    "trafilatura": _trafilatura,
    "boilerpy3-article": lambda: _boilerpy3("ArticleExtractor"),
    "boilerpy3-default": lambda: _boilerpy3("DefaultExtractor"),
    "justext": _justext,
    "readability": _readability,
    "newspaper4k": _newspaper,
    "goose3": _goose3,
    "resiliparse": _resiliparse,
    "html-text": _html_text,
}


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``name:opt=value,opt=value`` into the name and its options (values read as JSON,
    else kept as strings)."""
    name, _, rest = spec.partition(":")
    options: dict[str, Any] = {}
    for item in filter(None, rest.split(",")):
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(
                f"bad option {item!r} in extractor spec {spec!r} (expected NAME=VALUE)"
            )
        try:
            options[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            options[key.strip()] = value
    return name.strip(), options


def resolve_extractor(spec: str) -> TextExtractor:
    """The extractor named by ``spec`` (see the module docstring).

    Raises ``ValueError`` for an unknown name or bad option and :class:`PeerUnavailableError` when a
    peer's library cannot be imported.
    """
    name, options = parse_spec(spec)
    if name in PEERS:
        if options:
            raise ValueError(f"peer {name!r} takes no options")
        try:
            return PEERS[name]()
        except ImportError as exc:
            raise PeerUnavailableError(f"peer {name!r} is not available: {exc}") from exc
    extractor = get_extractor(name, **options)

    def extract(html: str, url: str | None) -> str:
        return extractor.extract(html, url).text

    return extract
