# ruff: noqa: E501 - prose and HTML templates read best unwrapped
"""HTML templates of the three demo site layouts.

* ``ledger``: a classic newspaper (masthead, ticker, two columns, inline ads, related stories
  with snippets, a comment thread, newsletter box, fat footer, cookie banner on top).
* ``courier``: a modern magazine built by a JavaScript framework (hashed class names,
  ``<main>``/``<article>``, body split over several rich-text blocks, pull quote, inline
  newsletter box, author card, "more stories" cards, a discussion, consent overlay at the end).
* ``tribune``: an old table layout (``<font>``, ``<br><br>`` paragraphs, left navigation,
  right column of ads and polls, comments in a table, ISO-8859-1 encoded).

The templates never mark the article for the extractor's benefit: they look like the sites
they imitate.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape
from urllib.parse import quote

from .model import Article, Site

__all__ = ["SiteContext", "Listing", "LAYOUTS"]


@dataclass
class Listing:
    """A listing page: a heading, an intro line, teasers and pagination links."""

    heading: str
    intro: str
    articles: Sequence[Article]
    url: str
    prev_url: str | None = None
    next_url: str | None = None


@dataclass
class SiteContext:
    """What a template needs besides the page itself: the site, its articles and labels."""

    site: Site
    articles: Sequence[Article]
    section_labels: dict[str, str]
    cookie_text: str
    footer_text: str
    newsletter_text: str
    static_pages: dict[str, str]  # path -> title

    def latest(self, count: int, exclude: Article | None = None) -> list[Article]:
        ranked = sorted(self.articles, key=lambda a: a.published, reverse=True)
        return [a for a in ranked if a is not exclude][:count]

    def related(self, article: Article, count: int) -> list[Article]:
        same = [a for a in self.articles if a.section == article.section and a is not article]
        start = (article.article_id * 7) % max(len(same), 1)
        return (same[start:] + same[:start])[:count]

    def most_read(self, count: int, exclude: Article | None = None) -> list[Article]:
        ranked = sorted(self.articles, key=lambda a: (a.article_id * 37) % 101)
        return [a for a in ranked if a is not exclude][:count]

    def author_url(self, name: str) -> str:
        return self.site.url(f"/authors/{name.lower().replace(' ', '-')}/")


def _e(text: str) -> str:
    return escape(text, quote=True)


def _share_links(url: str, title: str) -> list[tuple[str, str]]:
    return [
        ("Share on X", f"https://twitter.com/intent/tweet?url={quote(url)}&text={quote(title)}"),
        ("Facebook", f"https://www.facebook.com/sharer/sharer.php?u={quote(url)}"),
        ("LinkedIn", f"https://www.linkedin.com/sharing/share-offsite/?url={quote(url)}"),
        ("Email", f"mailto:?subject={quote(title)}&body={quote(url)}"),
    ]


def _date_long(article: Article) -> str:
    return article.published.strftime("%A %d %B %Y, %H:%M")


# --------------------------------------------------------------------------------- ledger ---


def _ledger_head(ctx: SiteContext, title: str, canonical: str) -> str:
    return f"""<!DOCTYPE html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_e(title)} | {_e(ctx.site.name)}</title>
<link rel="canonical" href="{canonical}">
<link rel="alternate" type="application/rss+xml" title="{_e(ctx.site.name)}" href="{ctx.site.feed_path}">
<link rel="stylesheet" href="/static/ledger.css?v=41">
<script>window.dataLayer = window.dataLayer || []; dataLayer.push({{"page": "{_e(canonical)}"}});</script>
</head>
<body>
<div id="cookie-consent" class="cookie-banner" role="dialog">
  <p>{_e(ctx.cookie_text)}</p>
  <button class="btn accept">Accept all</button> <button class="btn manage">Manage choices</button>
</div>
<header class="masthead">
  <div class="top-bar"><span class="today">Friday 31 May 2024</span>
    <a href="/subscribe/">Subscribe</a> <a href="/about/">About us</a></div>
  <a class="logo" href="/"><img src="/static/logo.svg" alt="{_e(ctx.site.name)}"></a>
  <nav class="main-nav"><ul>
    <li><a href="/">Home</a></li>
    {"".join(f'<li><a href="{ctx.site.section_url(s)}">{_e(ctx.section_labels[s])}</a></li>' for s in ctx.site.sections)}
  </ul></nav>
  <div class="ticker"><strong>Latest:</strong>
    {" &middot; ".join(f'<a href="{a.url}">{_e(a.headline)}</a>' for a in ctx.latest(3))}
  </div>
</header>
<div class="ad ad-leaderboard"><span class="ad-label">Advertisement</span>
  <a href="https://ads.example.net/click?c=8812" rel="sponsored"><img src="/static/ad-970x90.png" alt="Spring sale: up to 40% off sofas"></a></div>
"""


def _ledger_sidebar(ctx: SiteContext, exclude: Article | None) -> str:
    most = "".join(
        f'<li><a href="{a.url}">{_e(a.headline)}</a></li>' for a in ctx.most_read(5, exclude)
    )
    return f"""<aside class="col-side">
  <div class="ad ad-mpu"><span class="ad-label">Advertisement</span>
    <a href="https://ads.example.net/click?c=1290" rel="sponsored"><img src="/static/ad-300x250.png" alt="Compare energy tariffs in two minutes"></a></div>
  <div class="most-read"><h3>Most read</h3><ol>{most}</ol></div>
  <div class="newsletter"><h3>The Morning Ledger</h3><p>{_e(ctx.newsletter_text)}</p>
    <form action="/newsletter/" method="post"><input type="email" name="email" placeholder="Your email address"><button>Sign up</button></form></div>
</aside>
"""


def _ledger_footer(ctx: SiteContext) -> str:
    sections = " ".join(
        f'<a href="{ctx.site.section_url(s)}">{_e(ctx.section_labels[s])}</a>'
        for s in ctx.site.sections
    )
    statics = " ".join(
        f'<a href="{path}">{_e(title)}</a>' for path, title in ctx.static_pages.items()
    )
    return f"""<footer class="site-footer">
  <div class="footer-sections">{sections}</div>
  <div class="footer-links">{statics} <a href="{ctx.site.feed_path}">RSS</a></div>
  <p class="legal">{_e(ctx.footer_text)}</p>
</footer>
</body>
</html>
"""


def _ledger_article(article: Article, ctx: SiteContext) -> str:
    site = article.site
    body: list[str] = []
    paragraphs_seen = 0
    read_more = ctx.related(article, 5)[-1]
    for part in article.body:
        if part.kind == "h2":
            body.append(f"<h2>{_e(part.text)}</h2>")
            continue
        body.append(f"<p>{_e(part.text)}</p>")
        paragraphs_seen += 1
        if paragraphs_seen == 3:
            body.append(
                '<div class="ad ad-inline"><span class="ad-label">Advertisement</span>'
                '<div id="div-gpt-ad-inline-1"></div></div>'
            )
        if paragraphs_seen == 5:
            body.append(
                f'<div class="also-read"><strong>Read more:</strong> '
                f'<a href="{read_more.url}">{_e(read_more.headline)}</a></div>'
            )
    related = "".join(
        f'<li class="teaser"><a href="{a.url}"><h4>{_e(a.headline)}</h4></a><p>{_e(a.snippet)}</p></li>'
        for a in ctx.related(article, 4)
    )
    comments = "".join(
        f'<li class="comment"><div class="comment-meta"><span class="author">{_e(c.author)}</span> '
        f'<span class="time">{_e(c.when)}</span></div><p>{_e(c.text)}</p>'
        f'<div class="comment-actions"><a href="#reply">Reply</a> <a href="#report">Report</a></div></li>'
        for c in article.comments
    )
    share = " ".join(
        f'<a class="share" href="{_e(href)}">{label}</a>'
        for label, href in _share_links(article.url, article.headline)
    )
    tags = ", ".join(
        f'<a href="{site.section_url(article.section)}">{_e(t)}</a>' for t in article.tags
    )
    return (
        _ledger_head(ctx, article.headline, article.url)
        + f"""<div id="wrapper" class="article-page">
<div class="col-main">
  <div class="breadcrumbs"><a href="/">Home</a> &rsaquo; <a href="{site.section_url(article.section)}">{_e(ctx.section_labels[article.section])}</a></div>
  <h1 class="headline">{_e(article.headline)}</h1>
  <p class="standfirst">{_e(article.standfirst)}</p>
  <div class="byline">By <a href="{ctx.author_url(article.author)}">{_e(article.author)}</a>, {_e(article.author_role)}<br>
    <time datetime="{article.published.isoformat()}">{_date_long(article)}</time></div>
  <div class="share-tools">{share} <button class="copy-link">Copy link</button></div>
  <figure class="lead-image"><img src="/img/{article.article_id}.jpg" alt="">
    <figcaption>{_e(article.image_caption)} Photograph: {_e(article.author)}/{_e(site.name)}</figcaption></figure>
  <div class="story-body">
{chr(10).join(body)}
  </div>
  <div class="tags">Topics: {tags}</div>
  <section class="related"><h3>Related stories</h3><ul>{related}</ul></section>
  <section id="comments"><h3>Comments ({len(article.comments)})</h3>
    <ol class="comment-list">{comments}</ol>
    <form class="comment-form"><textarea name="comment" placeholder="Join the conversation"></textarea><button>Post</button></form>
  </section>
</div>
{_ledger_sidebar(ctx, article)}</div>
"""
        + _ledger_footer(ctx)
    )


def _ledger_listing(listing: Listing, ctx: SiteContext) -> str:
    items = "".join(
        f'<article class="teaser"><a href="{a.url}"><img src="/img/{a.article_id}-thumb.jpg" alt=""></a>'
        f'<h2><a href="{a.url}">{_e(a.headline)}</a></h2><p>{_e(a.snippet)}</p>'
        f'<span class="meta">{_e(a.author)} &middot; {a.published:%d %b %Y}</span></article>'
        for a in listing.articles
    )
    pager = "".join(
        f'<a class="{cls}" href="{url}">{label}</a>'
        for cls, url, label in (
            ("prev", listing.prev_url, "&laquo; Newer"),
            ("next", listing.next_url, "Older &raquo;"),
        )
        if url
    )
    return (
        _ledger_head(ctx, listing.heading, listing.url)
        + f"""<div id="wrapper" class="listing-page"><div class="col-main">
  <h1 class="section-title">{_e(listing.heading)}</h1><p class="section-intro">{_e(listing.intro)}</p>
  <div class="teaser-list">{items}</div>
  <div class="pager">{pager}</div>
</div>
{_ledger_sidebar(ctx, None)}</div>
"""
        + _ledger_footer(ctx)
    )


def _ledger_static(title: str, paragraphs: Sequence[str], url: str, ctx: SiteContext) -> str:
    text = "".join(f"<p>{_e(p)}</p>" for p in paragraphs)
    return (
        _ledger_head(ctx, title, url)
        + f'<div id="wrapper" class="static-page"><div class="col-main"><h1>{_e(title)}</h1>{text}</div>'
        + _ledger_sidebar(ctx, None)
        + "</div>\n"
        + _ledger_footer(ctx)
    )


# -------------------------------------------------------------------------------- courier ---


def _courier_head(ctx: SiteContext, title: str, canonical: str, description: str) -> str:
    nav = "".join(
        f'<li class="Nav_item__q1"><a class="Nav_link__z8" href="{ctx.site.section_url(s)}">{_e(ctx.section_labels[s])}</a></li>'
        for s in ctx.site.sections
    )
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{_e(title)} — {_e(ctx.site.name)}</title>
<meta name="description" content="{_e(description)}">
<meta property="og:title" content="{_e(title)}">
<meta property="og:url" content="{canonical}">
<link rel="canonical" href="{canonical}">
<link rel="preload" href="/_next/static/css/7f3a91.css" as="style">
<script id="__NEXT_DATA__" type="application/json">{{"props":{{"pageProps":{{"url":"{_e(canonical)}"}}}},"buildId":"k2LxQ"}}</script>
</head>
<body>
<div id="__next"><div class="Layout_root__x7Pq1">
<header class="SiteHeader_header__a1B2c">
  <a class="SiteHeader_logo__Rr5" href="/" aria-label="{_e(ctx.site.name)} home"><svg viewBox="0 0 120 24"><title>{_e(ctx.site.name)}</title></svg></a>
  <nav class="Nav_root__w3" aria-label="Topics"><ul class="Nav_list__p0">{nav}<li class="Nav_item__q1"><a class="Nav_link__z8" href="/latest/">Latest</a></li></ul></nav>
  <form class="Search_form__s9" action="/search/"><input name="q" placeholder="Search the Courier"></form>
  <a class="Button_primary__b7" href="/subscribe/">Support us</a>
</header>
"""


def _courier_tail(ctx: SiteContext) -> str:
    statics = "".join(f'<li><a href="{p}">{_e(t)}</a></li>' for p, t in ctx.static_pages.items())
    return f"""<footer class="SiteFooter_footer__Lk2">
  <div class="SiteFooter_brand__9a"><p>{_e(ctx.site.name)}</p></div>
  <ul class="SiteFooter_links__mm1">{statics}<li><a href="{ctx.site.feed_path}">Feed</a></li></ul>
  <p class="SiteFooter_small__Xy">{_e(ctx.footer_text)}</p>
</footer>
<div class="ConsentOverlay_root__Qq" role="dialog" aria-modal="true"><div class="ConsentOverlay_panel__Zr">
  <h2>Your privacy matters</h2><p>{_e(ctx.cookie_text)}</p>
  <button class="Button_primary__b7">Agree and continue</button> <button class="Button_ghost__b8">Reject non-essential</button>
</div></div>
</div></div>
<script src="/_next/static/chunks/main-3fa9.js" async></script>
</body>
</html>
"""


def _courier_card(article: Article, ctx: SiteContext) -> str:
    minutes = 3 + len(article.paragraphs) // 2
    return (
        f'<div class="Card_root__c1"><a class="Card_link__c2" href="{article.url}">'
        f'<span class="Card_kicker__c3">{_e(ctx.section_labels[article.section])}</span>'
        f'<h3 class="Card_title__c4">{_e(article.headline)}</h3><p class="Card_dek__c5">{_e(article.snippet)}</p>'
        f'<span class="Card_meta__c6">{minutes} min read</span></a></div>'
    )


def _courier_article(article: Article, ctx: SiteContext) -> str:
    chunks: list[str] = []
    current: list[str] = []
    paragraphs = article.paragraphs
    quote_text = paragraphs[1].split(". ")[0].rstrip(".") + "."
    for index, part in enumerate(article.body):
        tag = "h2" if part.kind == "h2" else "p"
        current.append(f"<{tag}>{_e(part.text)}</{tag}>")
        if len(current) >= 3 and index < len(article.body) - 2:
            chunks.append(f'<div class="RichText_root__rt1">{"".join(current)}</div>')
            current = []
            if len(chunks) == 1:
                chunks.append(
                    f'<aside class="PullQuote_root__pq"><blockquote>{_e(quote_text)}</blockquote></aside>'
                )
            elif len(chunks) == 3:
                chunks.append(
                    f'<div class="InlineNewsletter_root__in"><p>{_e(ctx.newsletter_text)}</p>'
                    f'<a class="Button_primary__b7" href="/newsletters/">Sign me up</a></div>'
                )
    if current:
        chunks.append(f'<div class="RichText_root__rt1">{"".join(current)}</div>')
    minutes = 3 + len(paragraphs) // 2
    tags = "".join(
        f'<li><a href="{ctx.site.section_url(article.section)}">#{_e(t)}</a></li>'
        for t in article.tags
    )
    share = "".join(
        f'<a class="ShareBar_button__sb" href="{_e(href)}" aria-label="{label}"><svg></svg></a>'
        for label, href in _share_links(article.url, article.headline)
    )
    comments = "".join(
        f'<div class="Comment_root__cm"><header><b>{_e(c.author)}</b> <time>{_e(c.when)}</time></header>'
        f'<div class="Comment_body__cb"><p>{_e(c.text)}</p></div>'
        f"<footer>{(len(c.text) * 7) % 40} likes · <button>Reply</button></footer></div>"
        for c in article.comments
    )
    more = "".join(_courier_card(a, ctx) for a in ctx.related(article, 6))
    first = article.author.split()[0]
    return (
        _courier_head(ctx, article.headline, article.url, article.standfirst)
        + f"""<main class="Layout_main__k2Zz">
<article class="ArticlePage_article__9fW">
  <header class="ArticleHeader_root__ah">
    <a class="ArticleHeader_kicker__k" href="{ctx.site.section_url(article.section)}">{_e(ctx.section_labels[article.section])}</a>
    <h1 class="ArticleHeader_title__t">{_e(article.headline)}</h1>
    <p class="ArticleHeader_dek__d">{_e(article.standfirst)}</p>
    <div class="Byline_root__by">Words by <a href="{ctx.author_url(article.author)}">{_e(article.author)}</a> ·
      <time datetime="{article.published.isoformat()}">{article.published:%B %d, %Y}</time> · {minutes} min read</div>
  </header>
  <figure class="ArticleImage_root__ai"><picture><img src="/images/{article.article_id}/hero.webp" alt=""></picture>
    <figcaption>{_e(article.image_caption)} <span class="ArticleImage_credit__cr">Photo: {_e(article.author)}</span></figcaption></figure>
  <div class="ArticleBody_body__3xQ">
{chr(10).join(chunks)}
  </div>
  <footer class="ArticleFooter_root__af">
    <ul class="TagList_root__tl">{tags}</ul>
    <div class="ShareBar_root__sr">{share}</div>
    <div class="AuthorCard_root__ac"><img src="/images/authors/{first.lower()}.jpg" alt="">
      <p><strong>{_e(article.author)}</strong> is the Courier's {_e(article.author_role.lower())}. {first} previously reported on local
      government and the environment for regional papers, and writes a monthly column on the history of the northern towns.</p></div>
  </footer>
</article>
<section class="MoreStories_root__ms"><h2>More from {_e(ctx.section_labels[article.section])}</h2>{more}</section>
<section class="Discussion_root__ds" id="discussion"><h2>Join the discussion ({len(article.comments)})</h2>{comments}
  <p class="Discussion_rules__dr">Please keep comments respectful and on topic. Read our <a href="/about/">community guidelines</a>.</p></section>
</main>
"""
        + _courier_tail(ctx)
    )


def _courier_listing(listing: Listing, ctx: SiteContext) -> str:
    cards = "".join(_courier_card(a, ctx) for a in listing.articles)
    pager = "".join(
        f'<a class="Pager_link__pl" href="{url}">{label}</a>'
        for url, label in ((listing.prev_url, "Previous"), (listing.next_url, "Load more stories"))
        if url
    )
    return (
        _courier_head(ctx, listing.heading, listing.url, listing.intro)
        + f"""<main class="Layout_main__k2Zz"><section class="TopicPage_root__tp">
<h1 class="TopicPage_title__tt">{_e(listing.heading)}</h1><p class="TopicPage_intro__ti">{_e(listing.intro)}</p>
<div class="TopicPage_grid__tg">{cards}</div><nav class="Pager_root__pr">{pager}</nav></section></main>
"""
        + _courier_tail(ctx)
    )


def _courier_static(title: str, paragraphs: Sequence[str], url: str, ctx: SiteContext) -> str:
    text = "".join(f"<p>{_e(p)}</p>" for p in paragraphs)
    return (
        _courier_head(ctx, title, url, paragraphs[0])
        + f'<main class="Layout_main__k2Zz"><div class="Page_root__pg"><h1>{_e(title)}</h1>'
        + f'<div class="RichText_root__rt1">{text}</div></div></main>\n'
        + _courier_tail(ctx)
    )


# -------------------------------------------------------------------------------- tribune ---


def _tribune_top(ctx: SiteContext, title: str, canonical: str) -> str:
    site = ctx.site
    topnav = " | ".join(
        ['<a href="/">Home</a>']
        + [
            f'<a href="{site.section_url(s)}">{_e(ctx.section_labels[s])}</a>'
            for s in site.sections
        ]
        + ['<a href="/contact/">Contact</a>']
    )
    leftnav = "".join(
        f'<tr><td class="navitem"><a href="{site.section_url(s)}">{_e(ctx.section_labels[s])} News</a></td></tr>'
        for s in site.sections
    )
    return f"""<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">
<html>
<head>
<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">
<title>Valley Tribune Online - {_e(title)}</title>
<link rel="canonical" href="{canonical}">
<link rel="alternate" type="application/rss+xml" href="{site.feed_path}">
<script language="JavaScript" src="/js/popup.js"></script>
</head>
<body bgcolor="#FFFFFF" topmargin="0" leftmargin="0">
<table width="980" border="0" cellpadding="0" cellspacing="0" align="center">
<tr><td colspan="3" class="banner"><a href="/"><img src="/images/tribune_logo.gif" alt="Valley Tribune Online" border="0"></a>
  <font size="1" face="Verdana">Serving the valley since 1921 &nbsp; | &nbsp; <a href="/subscribe/">Home delivery</a></font></td></tr>
<tr><td colspan="3" class="topnav" bgcolor="#003366"><font color="#FFFFFF" size="2" face="Arial">{topnav}</font></td></tr>
<tr>
<td width="160" valign="top" class="leftnav" bgcolor="#EEEEEE">
  <table width="100%" cellpadding="3"><tr><td><b>Sections</b></td></tr>{leftnav}
  <tr><td class="navitem"><a href="/about/">About the Tribune</a></td></tr></table>
  <br><font size="2"><b>Weather</b><br>Partly cloudy, 17&deg;C<br>Tomorrow: showers</font>
  <br><br><font size="2"><b>Classifieds</b><br><a href="/subscribe/">Jobs</a><br><a href="/subscribe/">Homes</a><br><a href="/subscribe/">Cars</a></font>
</td>
"""


def _tribune_right_and_bottom(ctx: SiteContext, exclude: Article | None) -> str:
    popular = "".join(
        f'<li><a href="{a.url}">{_e(a.headline)}</a></li>' for a in ctx.most_read(6, exclude)
    )
    statics = " | ".join(f'<a href="{p}">{_e(t)}</a>' for p, t in ctx.static_pages.items())
    return f"""<td width="180" valign="top" class="rightcol">
  <table class="ad" width="160"><tr><td align="center"><font size="1">ADVERTISEMENT</font><br>
    <a href="http://ads.example.net/click?zone=12"><img src="/ads/160x600_dealer.gif" alt="Valley Motors: 0% finance on all used cars" border="0"></a></td></tr></table>
  <br><b>Most Popular</b><ol>{popular}</ol>
  <br><table class="poll" width="160"><tr><td><b>Reader poll</b><br>Should the valley get a second bridge?<br>
    <input type="radio" name="v">Yes<br><input type="radio" name="v">No<br><input type="radio" name="v">Not sure<br><input type="submit" value="Vote"></td></tr></table>
</td>
</tr>
<tr><td colspan="3" class="footer" align="center"><font size="1">{statics} | <a href="{ctx.site.feed_path}">RSS</a><br>{_e(ctx.footer_text)}</font></td></tr>
</table>
<div id="cookieNotice" style="position:fixed;bottom:0;width:100%;background:#ffc">{_e(ctx.cookie_text)} <a href="#" onclick="hideNotice()">OK</a></div>
</body>
</html>
"""


def _tribune_article(article: Article, ctx: SiteContext) -> str:
    site = article.site
    parts: list[str] = []
    for index, part in enumerate(article.body):
        parts.append(f"<b>{_e(part.text)}</b>" if part.kind == "h2" else _e(part.text))
        if index == 4:
            parts.append(
                '<table class="ad" align="center"><tr><td><font size="1">ADVERTISEMENT</font><br>'
                '<a href="http://ads.example.net/click?zone=7"><img src="/ads/468x60_bank.gif" '
                'alt="First Valley Bank: mortgages made simple" border="0"></a></td></tr></table>'
            )
    body = "<br><br>\n".join(parts)
    comments = "".join(
        f'<tr><td class="comment"><font size="2"><b>{_e(c.author)}</b> wrote on {_e(c.when)}:<br>{_e(c.text)}</font></td></tr>'
        for c in article.comments
    )
    others = "".join(
        f'<li><a href="{a.url}&amp;ref=related">{_e(a.headline)}</a> - {_e(a.snippet)}</li>'
        for a in ctx.related(article, 4)
    )
    label = ctx.section_labels[article.section]
    return (
        _tribune_top(ctx, article.headline, article.url)
        + f"""<td valign="top" class="content">
<font face="Arial" size="1"><a href="/">Home</a> &gt; <a href="{site.section_url(article.section)}">{_e(label)}</a></font><br>
<font face="Georgia" size="5"><b>{_e(article.headline)}</b></font><br>
<font size="3"><i>{_e(article.standfirst)}</i></font><br><br>
<font size="1">By <a href="{ctx.author_url(article.author)}">{_e(article.author.upper())}</a>, {_e(article.author_role)} | Posted: {article.published:%m/%d/%Y %I:%M %p}</font><br>
<font size="1"><a href="{article.url}&amp;print=1">Printer-friendly version</a> | <a href="mailto:?subject={quote(article.headline)}">E-mail this story</a></font><br><br>
<table align="right" width="250" cellpadding="4"><tr><td><img src="/photos/{article.article_id}.jpg" width="240" alt=""></td></tr>
<tr><td><font size="1">{_e(article.image_caption)} (Tribune photo)</font></td></tr></table>
<font face="Times New Roman" size="3">
{body}
</font>
<br><br><font size="1">Copyright 2024 Valley Tribune. All rights reserved. This material may not be published, broadcast, rewritten or redistributed.</font>
<hr>
<b>Reader comments ({len(article.comments)})</b><br>
<table class="comments" width="100%" cellpadding="4">{comments}</table>
<font size="1"><a href="/contact/">Add your comment</a></font>
<br><br><b>Other stories in {_e(label)}</b><ul>{others}</ul>
</td>
"""
        + _tribune_right_and_bottom(ctx, article)
    )


def _tribune_listing(listing: Listing, ctx: SiteContext) -> str:
    rows = "".join(
        f'<tr><td><font size="3"><b><a href="{a.url}&amp;ref=home">{_e(a.headline)}</a></b></font><br>'
        f'<font size="2">{_e(a.snippet)}</font><br><font size="1">{a.published:%m/%d/%Y}</font></td></tr>'
        for a in listing.articles
    )
    pager = " | ".join(
        f'<a href="{url}">{label}</a>'
        for url, label in (
            (listing.prev_url, "&lt; Previous"),
            (listing.next_url, "More stories &gt;"),
        )
        if url
    )
    return (
        _tribune_top(ctx, listing.heading, listing.url)
        + f"""<td valign="top" class="content"><font face="Georgia" size="4"><b>{_e(listing.heading)}</b></font><br>
<font size="2">{_e(listing.intro)}</font><table width="100%" cellpadding="6">{rows}</table><font size="2">{pager}</font></td>
"""
        + _tribune_right_and_bottom(ctx, None)
    )


def _tribune_static(title: str, paragraphs: Sequence[str], url: str, ctx: SiteContext) -> str:
    text = "<br><br>".join(_e(p) for p in paragraphs)
    return (
        _tribune_top(ctx, title, url)
        + f'<td valign="top" class="content"><font size="4"><b>{_e(title)}</b></font><br><br><font size="3">{text}</font></td>\n'
        + _tribune_right_and_bottom(ctx, None)
    )


@dataclass(frozen=True)
class Layout:
    """The three page templates of one layout."""

    article: Callable[[Article, SiteContext], str]
    listing: Callable[[Listing, SiteContext], str]
    static: Callable[[str, Sequence[str], str, SiteContext], str]


LAYOUTS: dict[str, Layout] = {
    "ledger": Layout(_ledger_article, _ledger_listing, _ledger_static),
    "courier": Layout(_courier_article, _courier_listing, _courier_static),
    "tribune": Layout(_tribune_article, _tribune_listing, _tribune_static),
}
