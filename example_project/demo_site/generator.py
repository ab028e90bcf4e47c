# ruff: noqa: E501 - prose and HTML templates read best unwrapped
"""Generate the demo news sites into a directory: pages, feeds, sitemaps and the truth file.

``generate(out_dir, seed=7, edition=1)`` writes ``manifest.json`` (host -> path -> file and
content type, read by :mod:`demo_site.server`), ``truth.json`` (article URL -> site, title and
true article text) and the page files. The same seed always gives the same sites; edition 2
revises some articles (a correction and an update paragraph) to show re-crawl updates.

Scale: ``sites`` and ``articles_per_site`` (keywords of :func:`build_pages` and
:func:`generate`) make a larger news network for load tests. Sites beyond the three demo sites
are copies of their layouts under numbered host names (``www.harbourledger-2.test``,
``northsidecourier-2.test``...), each with its own articles; the defaults (3 sites, 22
articles each) give exactly the demo's pages.

Run ``python -m demo_site.generator OUT_DIR`` to look at the pages.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path
from xml.sax.saxutils import escape as xml_escape

from .layouts import LAYOUTS, Listing, SiteContext
from .model import Article, BodyPart, Comment, Site
from .prose import LEXICONS, Writer

__all__ = ["SITES", "ARTICLES_PER_SITE", "Page", "generate", "build_pages", "network_sites"]

ARTICLES_PER_SITE = 22
LISTING_PAGE_SIZE = 8
FEED_SIZE = 15

SITES: tuple[Site, ...] = (
    Site(
        key="ledger",
        name="The Harbour Ledger",
        host="www.harbourledger.test",
        layout="ledger",
        sections=("politics", "business", "sport", "culture"),
        article_path="/{section}/{y}/{m}/{d}/{slug}.html",
        section_path="/{section}/",
        section_page_path="/{section}/page/{page}/",
        feed_path="/feeds/all.rss",
        sitemap_path="/sitemap_index.xml",
    ),
    Site(
        key="courier",
        name="Northside Courier",
        host="northsidecourier.test",
        layout="courier",
        sections=("science", "culture", "business"),
        article_path="/articles/{slug}-{id}/",
        section_path="/topics/{section}/",
        section_page_path="/topics/{section}/?page={page}",
        feed_path="/feed/",
        sitemap_path="/sitemap.xml",
    ),
    Site(
        key="tribune",
        name="Valley Tribune Online",
        host="www.valleytribune.test",
        layout="tribune",
        sections=("local", "business", "sports"),
        article_path="/story.php?id={id}",
        section_path="/index.php?sec={section}",
        section_page_path="/index.php?sec={section}&start={offset}",
        feed_path="/rss.php",
        sitemap_path="/sitemap.xml",
        encoding="iso-8859-1",
    ),
)

_SECTION_LEXICON = {"local": "politics", "sports": "sport"}
_SECTION_LABELS = {
    "politics": "Politics",
    "business": "Business",
    "sport": "Sport",
    "culture": "Culture",
    "science": "Science",
    "local": "Local",
    "sports": "Sports",
}
_ROLES = (
    "Political correspondent",
    "Business editor",
    "Senior reporter",
    "Staff writer",
    "Science reporter",
    "Arts critic",
    "Sports reporter",
    "Community reporter",
)
_CAPTIONS = (
    "Residents gathered outside the town hall on Tuesday evening.",
    "The site as it looked earlier this month.",
    "Volunteers at work on the quayside.",
    "A view across the valley from the ridge path.",
    "Members of the committee during the debate.",
    "The new building will replace the warehouses on the left.",
)
_STATIC_PAGES = {
    "/about/": "About us",
    "/contact/": "Contact",
    "/privacy/": "Privacy policy",
    "/subscribe/": "Subscribe",
}
_COOKIE_TEXT = (
    "We and our partners use cookies and similar technologies to keep this site working, "
    "remember your preferences, measure how our journalism is read and show you advertising "
    "that may interest you. You can change your choices at any time from the privacy link at "
    "the bottom of every page."
)
_NEWSLETTER_TEXT = (
    "Sign up for our free morning briefing: the stories you need to know, picked by our "
    "editors and delivered to your inbox before eight o'clock every weekday."
)


def _footer_text(site: Site) -> str:
    return (
        f"© 2024 {site.name}. All rights reserved. {site.name} is published by Valley & Harbour Media "
        "Group, registered in Port Averley, company number 04418230. Reproduction of any material "
        "without written permission is prohibited. We are regulated by the independent press "
        "standards body; see our editorial code and complaints procedure."
    )


@dataclass(frozen=True)
class Page:
    """One served resource: host, path (with query), content type and body bytes."""

    host: str
    path: str
    content_type: str
    body: bytes
    kind: str  # article, listing, static, feed, sitemap, robots


def _slugify(text: str) -> str:
    words = "".join(c.lower() if c.isalnum() else " " for c in text).split()
    return "-".join(words[:8])


def _make_article(
    site: Site, index: int, writer: Writer, rng: random.Random, edition: int
) -> Article:
    section = site.sections[index % len(site.sections)]
    lex = LEXICONS[_SECTION_LEXICON.get(section, section)]
    headline = writer.headline(lex)
    body: list[BodyPart] = []
    for number in range(rng.randint(6, 11)):
        if number in (3, 7) and rng.random() < 0.6:
            body.append(BodyPart("h2", writer.subhead(lex)))
        if rng.random() < 0.15:
            body.append(BodyPart("p", writer.short_paragraph(lex)))
        else:
            body.append(BodyPart("p", writer.paragraph(lex)))
    published = datetime(2024, 5, 30, 18, 0) - timedelta(hours=index * 9 + rng.randint(0, 8))
    updated = None
    if edition >= 2 and index % 7 == 3:
        updated = published + timedelta(days=2)
        # Its own generator: the revision must not shift what the seed gives every other page.
        reviser = Writer(random.Random(f"revision-{site.key}-{index}"))
        body.append(BodyPart("p", "Update: " + reviser.paragraph(lex, sentences=2)))
        body.insert(
            0,
            BodyPart(
                "p",
                "Correction: an earlier version of this article gave the wrong date "
                "for the meeting, which takes place next week.",
            ),
        )
    comments = [
        Comment(
            writer.person()
            if rng.random() < 0.5
            else f"{rng.choice(('valley', 'harbour', 'north'))}_"
            f"{rng.choice(('reader', 'local', 'watcher'))}{rng.randint(1, 99)}",
            f"{rng.randint(1, 23)} hours ago",
            writer.comment(lex),
        )
        for _ in range(rng.randint(2, 9))
    ]
    return Article(
        site=site,
        article_id=40000 + index * 1000 + rng.randint(0, 999),
        section=section,
        slug=_slugify(headline),
        headline=headline,
        standfirst=writer.standfirst(lex),
        body=body,
        author=writer.person(),
        author_role=rng.choice(_ROLES),
        published=published,
        updated=updated,
        image_caption=rng.choice(_CAPTIONS),
        comments=comments,
        tags=sorted({rng.choice(lex.things) for _ in range(3)}),
    )


def _chunks(items: Sequence[Article], size: int) -> Iterator[Sequence[Article]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _rss(site: Site, articles: Sequence[Article]) -> bytes:
    items = "".join(
        f"<item><title>{xml_escape(a.headline)}</title><link>{xml_escape(a.url)}"
        f"{'&amp;' if '?' in a.url else '?'}utm_source=rss&amp;utm_medium=feed</link>"
        f'<guid isPermaLink="false">{site.key}-{a.article_id}</guid>'
        f"<description>{xml_escape(a.standfirst)}</description>"
        f"<pubDate>{a.published:%a, %d %b %Y %H:%M:%S} +0000</pubDate></item>"
        for a in articles
    )
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>{xml_escape(site.name)}'
        f"</title><link>{site.base_url}/</link><description>Latest news</description>{items}</channel></rss>\n"
    ).encode()


def _urlset(entries: Sequence[tuple[str, str]]) -> bytes:
    urls = "".join(
        f"<url><loc>{xml_escape(loc)}</loc><lastmod>{lastmod}</lastmod></url>"
        for loc, lastmod in entries
    )
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        f"{urls}</urlset>\n"
    ).encode()


def _lastmod(article: Article) -> str:
    return (article.updated or article.published).strftime("%Y-%m-%dT%H:%M:%SZ")


def _site_pages(site: Site, articles: list[Article], writer: Writer) -> Iterator[Page]:
    ctx = SiteContext(
        site=site,
        articles=articles,
        section_labels=_SECTION_LABELS,
        cookie_text=_COOKIE_TEXT,
        footer_text=_footer_text(site),
        newsletter_text=_NEWSLETTER_TEXT,
        static_pages=_STATIC_PAGES,
    )
    layout = LAYOUTS[site.layout]
    html = f"text/html; charset={site.encoding}"

    def page(url: str, text: str, kind: str) -> Page:
        path = url.removeprefix(site.base_url)
        return Page(site.host, path, html, text.encode(site.encoding, "xmlcharrefreplace"), kind)

    for article in articles:
        yield page(article.url, layout.article(article, ctx), "article")
    latest = ctx.latest(len(articles))
    home = Listing(site.name, "The latest news from our reporters.", latest[:12], site.url("/"))
    yield page(home.url, layout.listing(home, ctx), "listing")
    if site.layout == "courier":
        every = Listing(
            "Latest stories", "Everything we published this week.", latest, site.url("/latest/")
        )
        yield page(every.url, layout.listing(every, ctx), "listing")
    lex = LEXICONS["politics"]
    for section in site.sections:
        in_section = [a for a in latest if a.section == section]
        pages = list(_chunks(in_section, LISTING_PAGE_SIZE))
        for number, chunk in enumerate(pages, start=1):
            listing = Listing(
                _SECTION_LABELS[section],
                f"All the latest {_SECTION_LABELS[section].lower()} news and analysis.",
                chunk,
                site.section_url(section, number),
                site.section_url(section, number - 1) if number > 1 else None,
                site.section_url(section, number + 1) if number < len(pages) else None,
            )
            yield page(listing.url, layout.listing(listing, ctx), "listing")
    for author in sorted({a.author for a in articles}):
        mine = [a for a in latest if a.author == author]
        listing = Listing(author, f"Stories by {author}.", mine, ctx.author_url(author))
        yield page(listing.url, layout.listing(listing, ctx), "listing")
    for path, title in _STATIC_PAGES.items():
        paragraphs = [writer.paragraph(lex) for _ in range(3)]
        yield page(site.url(path), layout.static(title, paragraphs, site.url(path), ctx), "static")
    yield Page(
        site.host, site.feed_path, "application/rss+xml", _rss(site, latest[:FEED_SIZE]), "feed"
    )
    article_entries = [(a.url, _lastmod(a)) for a in latest]
    if site.layout == "ledger":  # a sitemap index with one news sitemap per section
        index_entries = []
        for section in site.sections:
            path = f"/sitemaps/news-{section}.xml"
            entries = [(a.url, _lastmod(a)) for a in latest if a.section == section]
            yield Page(site.host, path, "application/xml", _urlset(entries), "sitemap")
            index_entries.append(f"<sitemap><loc>{site.url(path)}</loc></sitemap>")
        body = (
            '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/'
            f'sitemap/0.9">{"".join(index_entries)}</sitemapindex>\n'
        )
        yield Page(site.host, site.sitemap_path, "application/xml", body.encode(), "sitemap")
    else:  # one sitemap with articles and section pages mixed
        sections = [(site.section_url(s), "2024-05-30T00:00:00Z") for s in site.sections]
        yield Page(
            site.host,
            site.sitemap_path,
            "application/xml",
            _urlset(article_entries + sections),
            "sitemap",
        )
    robots = f"User-agent: *\nDisallow: /search/\nDisallow: /newsletter/\n\nSitemap: {site.url(site.sitemap_path)}\n"
    yield Page(site.host, "/robots.txt", "text/plain", robots.encode(), "robots")


def network_sites(count: int = len(SITES)) -> tuple[Site, ...]:
    """``count`` sites: the demo sites, then copies of their layouts under numbered hosts.

    Site ``n`` (0-based) from the fourth on copies ``SITES[n % 3]`` as copy number
    ``n // 3 + 1``: key ``ledger2``, name ``The Harbour Ledger 2``, host
    ``www.harbourledger-2.test``. The first ``min(count, 3)`` sites are the demo's own.
    """
    if count < 1:
        raise ValueError("a news network needs at least one site")
    sites = list(SITES[:count])
    for number in range(len(SITES), count):
        base, copy = SITES[number % len(SITES)], number // len(SITES) + 1
        stem, _, tld = base.host.rpartition(".")
        sites.append(
            replace(
                base,
                key=f"{base.key}{copy}",
                name=f"{base.name} {copy}",
                host=f"{stem}-{copy}.{tld}",
            )
        )
    return tuple(sites)


def build_pages(
    seed: int = 7,
    edition: int = 1,
    *,
    sites: int = len(SITES),
    articles_per_site: int = ARTICLES_PER_SITE,
) -> tuple[list[Page], list[Article]]:
    """All pages of ``sites`` sites (:func:`network_sites`) and their articles.

    Each site's pages depend only on the seed, the edition, its position and
    ``articles_per_site``: adding sites never changes the pages of the first ones.
    """
    pages: list[Page] = []
    all_articles: list[Article] = []
    for number, site in enumerate(network_sites(sites)):
        rng = random.Random(f"{seed}-{number}")
        writer = Writer(rng)
        articles: list[Article] = []
        for index in range(articles_per_site):
            article = _make_article(site, index, writer, rng, edition)
            if any(a.url == article.url for a in articles):
                article.slug += f"-{index}"
            articles.append(article)
        pages.extend(_site_pages(site, articles, writer))
        all_articles.extend(articles)
    return pages, all_articles


def _file_name(page: Page) -> str:
    name = page.path.strip("/").replace("/", "__").replace("?", "~").replace("&", "+") or "index"
    return f"{page.host}/{name}"


def generate(
    out_dir: str | Path,
    seed: int = 7,
    edition: int = 1,
    *,
    sites: int = len(SITES),
    articles_per_site: int = ARTICLES_PER_SITE,
) -> Path:
    """Write the sites under ``out_dir``; return the path of ``manifest.json``.

    ``sites`` and ``articles_per_site`` scale the network (see :func:`build_pages`).
    """
    out = Path(out_dir)
    pages, articles = build_pages(seed, edition, sites=sites, articles_per_site=articles_per_site)
    manifest: dict[str, dict[str, dict[str, str]]] = {}
    for page in pages:
        name = _file_name(page)
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(page.body)
        manifest.setdefault(page.host, {})[page.path] = {
            "file": name,
            "type": page.content_type,
            "kind": page.kind,
        }
    truth = {
        a.url: {
            "site": a.site.key,
            "host": a.site.host,
            "section": a.section,
            "title": a.headline,
            "text": a.truth_text,
            "updated": a.updated is not None,
        }
        for a in articles
    }
    (out / "truth.json").write_text(
        json.dumps(truth, indent=1, ensure_ascii=False), encoding="utf-8"
    )
    manifest_path = out / "manifest.json"
    manifest_path.write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return manifest_path


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--edition", type=int, default=1)
    parser.add_argument("--sites", type=int, default=len(SITES), help="number of sites")
    parser.add_argument(
        "--articles-per-site", type=int, default=ARTICLES_PER_SITE, help="articles on each site"
    )
    args = parser.parse_args(argv)
    print(
        generate(
            args.out_dir,
            args.seed,
            args.edition,
            sites=args.sites,
            articles_per_site=args.articles_per_site,
        )
    )


if __name__ == "__main__":
    main()
