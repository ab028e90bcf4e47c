"""Author names: labels, roles, outlets, e-mails and URLs go; several names are split; an
organisation goes when a person is named. Each page shape is one seen on a news site."""

from __future__ import annotations

from pathlib import Path

import pytest

from scrapy_boilerplate import extract
from scrapy_boilerplate.page.metadata import read_metadata
from scrapy_boilerplate.page.metadata.authors import drop_organisations, site_keys, split_names
from scrapy_boilerplate.page.parsing import parse_html


def meta_authors(*values: str) -> tuple[str, ...]:
    head = "".join(f'<meta name="author" content="{value}">' for value in values)
    html = f"<html><head>{head}</head><body><p>Text.</p></body></html>"
    return read_metadata(parse_html(html), use_extruct=False).authors


def jsonld_authors(authors: str) -> tuple[str, ...]:
    script = f'<script type="application/ld+json">{{"@type": "NewsArticle", "author": {authors}}}'
    html = f"<html><head>{script}</script></head><body><p>Text.</p></body></html>"
    return read_metadata(parse_html(html), use_extruct=False).authors


@pytest.mark.parametrize(
    ("value", "names"),
    [
        ("By TOM KRISHER, AP Auto Writer", ["TOM KRISHER"]),
        ("Amy Kuperinsky | NJ Advance Media for NJ.com", ["Amy Kuperinsky"]),
        ("Jill Disis, CNN Business", ["Jill Disis"]),
        ("Текст: Венера Ерофеева", ["Венера Ерофеева"]),
        ("Von Anna Weber und Ben Ode", ["Anna Weber", "Ben Ode"]),
        ("Por María López", ["María López"]),
        ("Par Jean Dupont et Marie Curie", ["Jean Dupont", "Marie Curie"]),
        ("文/张伟", ["张伟"]),
        ("Ana Silva, Staff reporter", ["Ana Silva"]),
        ("Dana Reyes, MS, RD", ["Dana Reyes"]),
        ("Ann Lee, Bo Park, and Cy Diaz", ["Ann Lee", "Bo Park", "Cy Diaz"]),
        ("Jane Doe (jane.doe@news.example)", ["Jane Doe"]),
        ("Jane Doe https://news.example/authors/jane", ["Jane Doe"]),
        ("Photo: John Smith", []),
        ("By Anna Weber, 3 March 2025", ["Anna Weber"]),  # a dateline is no name
        ("jane.doe@news.example", []),
        ("Ana Lima, DVM . Reviewed by Bo Chen", ["Ana Lima"]),  # the reviewer is no author
        ("Ana Lima | Medically reviewed by Bo Chen, MD", ["Ana Lima"]),
        ("Ana Lima, fact-checked by Bo Chen", ["Ana Lima"]),
    ],
)
def test_author_values_are_cleaned_into_names(value: str, names: list[str]) -> None:
    assert split_names(value) == names


def test_an_organisation_goes_only_when_a_person_is_named() -> None:
    assert drop_organisations(["Adam Vidler", "AP"]) == ["Adam Vidler"]
    assert drop_organisations(["Associated Press"]) == ["Associated Press"]
    assert drop_organisations(["Staff", "Ana Silva"]) == ["Ana Silva"]


def test_the_sites_name_after_the_is_an_organisation() -> None:
    sites = site_keys(["Daily Courier"], "https://www.commercialappeal.example/story/1")
    assert drop_organisations(["Ana Lima", "The Commercial Appeal"], sites) == ["Ana Lima"]
    assert drop_organisations(["Ana Lima", "The Daily Courier"], sites) == ["Ana Lima"]
    assert drop_organisations(["Ana Lima", "The Rock"], sites) == ["Ana Lima", "The Rock"]


def test_a_meta_byline_with_a_role() -> None:
    assert meta_authors("By TOM KRISHER, AP Auto Writer") == ("TOM KRISHER",)


def test_a_meta_byline_with_an_outlet_suffix() -> None:
    assert meta_authors("Amy Kuperinsky | NJ Advance Media for NJ.com") == ("Amy Kuperinsky",)


def test_jsonld_authors_with_an_outlet_and_an_organisation() -> None:
    authors = (
        '[{"@type": "Person", "name": "Jill Disis, CNN Business"},'
        ' {"@type": "Organization", "name": "CNN Business"}]'
    )
    assert jsonld_authors(authors) == ("Jill Disis",)


def test_a_label_in_another_language() -> None:
    assert jsonld_authors('"Текст: Венера Ерофеева"') == ("Венера Ерофеева",)


def test_several_names_in_one_value_and_across_values_without_duplicates() -> None:
    assert meta_authors("Von Anna Weber und Ben Ode", "Ben Ode") == ("Anna Weber", "Ben Ode")


def test_an_organisation_alone_stays() -> None:
    assert jsonld_authors('{"@type": "Organization", "name": "Associated Press"}') == (
        "Associated Press",
    )


BYLINE = """<html><head><meta property="og:site_name" content="Valley Courier">
<script type="application/ld+json">{"@type": "NewsArticle", "author": "Valley Courier"}</script>
</head><body><article><h1>Otters return</h1>
<div class="article-byline">By <a rel="author" href="/authors/ana">Ana Silva</a></div>
<p id="first">The otters are back in the river.</p></article></body></html>"""


def test_a_visible_byline_names_the_person_when_the_declared_author_is_the_site() -> None:
    root = parse_html(BYLINE)
    [anchor] = root.xpath("//p[@id='first']")
    assert read_metadata(root, anchor=anchor, use_extruct=False).authors == ("Ana Silva",)


def test_the_authors_of_reader_comments_are_not_the_articles() -> None:
    page = Path(__file__).parent / "fixtures" / "site" / "commented.html"  # four comment authors
    result = extract(page.read_bytes(), metadata=True, content_type="text/html")
    assert result.metadata is not None and result.metadata.authors == ()


@pytest.mark.parametrize(
    ("value", "names"),
    [
        ("By", []),
        ("Written by", []),
        ("Luke Kim December 17, 2025", ["Luke Kim"]),
        ("Craig McCarthy Last updated on 17 December 2025", ["Craig McCarthy"]),
        ("Ana Ruiz » Tue Aug 27, 2019 1:47 am", ["Ana Ruiz"]),
        ("Haley Hoekstra • March 12, 2025", ["Haley Hoekstra"]),
        ("August 28, 2025 • 5 min read", []),
        ("Pippin06", ["Pippin06"]),
        ("Reviewed by Margaret James", []),
        ("More about this author", []),
    ],
)
def test_byline_labels_dates_and_reviewers_are_no_names(value: str, names: list[str]) -> None:
    assert split_names(value) == names


def test_a_label_in_its_own_element_leaves_the_name_beside_it() -> None:
    byline = (
        '<div class="byline"><span class="author-label">By</span> '
        '<a class="author-name" href="/a">Amy Roeder</a></div>'
    )
    html = (
        f"<html><body><article><h1>Otters return</h1>{byline}<p>Text.</p></article></body></html>"
    )
    assert read_metadata(parse_html(html), use_extruct=False).authors == ("Amy Roeder",)


CARD_AUTHOR = """<html><head>
<meta name="author" content="d.weber@news.example">
<meta name="twitter:label1" content="Written by"><meta name="twitter:data1" content="Dana Weber">
<meta name="twitter:label2" content="Est. reading time"><meta name="twitter:data2" content="3 min">
</head><body><p>Text.</p></body></html>"""


def test_the_twitter_cards_written_by_names_the_author_when_meta_author_is_an_e_mail() -> None:
    assert read_metadata(parse_html(CARD_AUTHOR), use_extruct=False).authors == ("Dana Weber",)
    misc = '<meta name="twitter:misc:Written by" content="Dana Weber">'
    html = CARD_AUTHOR.replace('<meta name="twitter:label1" content="Written by">', misc)
    assert read_metadata(parse_html(html), use_extruct=False).authors == ("Dana Weber",)
    unlabelled = CARD_AUTHOR.replace("Written by", "Filed under")
    assert read_metadata(parse_html(unlabelled), use_extruct=False).authors == ()


def page_authors(html: str, anchor_id: str | None = None) -> tuple[str, ...]:
    root = parse_html(html)
    anchor = root.xpath(f"//*[@id='{anchor_id}']")[0] if anchor_id else None
    return read_metadata(root, anchor=anchor, use_extruct=False).authors


QUESTION_AND_ANSWERS = """<html><body><div id="content"><h1>Why is RAID not a backup?</h1>
<div class="question"><div class="post"><p id="first">What makes RAID different?</p>
<div class="signature"><div class="user-details" itemprop="author" itemscope
 itemtype="http://schema.org/Person"><a href="/users/919/jldugger">jldugger</a>
<meta itemprop="name" content="jldugger"></div></div></div></div>
<div class="answers"><div class="answer"><div class="post"><p>A mirror copies mistakes.</p>
<div class="signature"><div class="user-details" itemprop="author" itemscope
 itemtype="http://schema.org/Person"><a href="/users/7/ana">ana</a>
<meta itemprop="name" content="Ana Ruiz"></div></div></div></div>
<div class="answer"><div class="post"><p>Deleted files are gone on both disks.</p>
<div class="signature"><div class="user-details" itemprop="author" itemscope
 itemtype="http://schema.org/Person"><a href="/users/8/bo">bo</a>
<meta itemprop="name" content="Bo Park"></div></div></div></div></div></div></body></html>"""


def test_the_askers_meta_name_is_the_author_not_those_of_the_answers() -> None:
    assert page_authors(QUESTION_AND_ANSWERS, "first") == ("jldugger",)


CO_AUTHORS = """<html><body><article><h1>Otters return</h1>
<p class="byline">By <a rel="author" href="/a/ana">Ana Silva</a> and
<a rel="author" href="/a/bo">Bo Park</a></p><p id="first">The otters are back.</p>
<aside><div><div><div><a rel="author" href="/a/cy">Cy Diaz</a></div></div></div></aside>
</article></body></html>"""


def test_co_authors_in_one_byline_stay_and_a_byline_elsewhere_goes() -> None:
    assert page_authors(CO_AUTHORS, "first") == ("Ana Silva", "Bo Park")


@pytest.mark.parametrize(
    ("byline", "names"),
    [
        ("<p>By <strong>Md Aynal Haque</strong></p>", ("Md Aynal Haque",)),
        ("<p>by: <!-- -->Ziyi Xu<!-- -->, Dec 17, 2025</p>", ("Ziyi Xu",)),
        ('<p>Written by</p><p class="text-grey">Edzel Tabing</p>', ("Edzel Tabing",)),
        ("<p>By clicking Submit, you agree to our terms</p>", ()),
        ("<p>By 2030, most otters will be back</p>", ()),
    ],
)
def test_a_byline_written_as_text_under_the_headline(byline: str, names: tuple[str, ...]) -> None:
    html = (
        f"<html><body><main><div><h1>Otters return</h1>{byline}"
        "<p id='first'>The otters are back in the river after twenty years.</p>"
        "</div></main></body></html>"
    )
    assert page_authors(html, "first") == names


FORUM_THREAD = """<html><body><h2>ISO size keeps growing</h2>
<div class="post"><dl class="postprofile"><dt><a class="username" href="/u/421">b.scherer</a></dt>
</dl><div class="content"><p id="first">Why did the ISO size grow so fast?</p></div></div>
<div class="post"><dl class="postprofile"><dt><a class="username" href="/u/77">galitsyn</a></dt>
</dl><div class="content"><p>Firmware, mostly.</p></div></div></body></html>"""


def test_a_forum_threads_first_username_is_its_author() -> None:
    """The thread starter's ``class="username"`` (phpBB, XenForo); the replies' do not join."""
    assert page_authors(FORUM_THREAD, "first") == ("b.scherer",)


def test_a_papers_citation_authors_are_its_authors() -> None:
    head = "".join(
        f'<meta name="citation_author" content="{name}">' for name in ("Md Hossain", "Jae Lee")
    )
    html = f"<html><head>{head}</head><body><p>Text.</p></body></html>"
    assert read_metadata(parse_html(html), use_extruct=False).authors == ("Md Hossain", "Jae Lee")


LINKED_BYLINE = """<html><body><div class="container"><h1>Motor controllers for robots</h1>
<p>By<!-- author --> <a href="/contributor/aj-neal">A. J. Neal</a> &nbsp;
View In Digital Edition</p>
<p id="first">A mobile robot needs a motor controller that matches its motors.</p>
</div></body></html>"""


def test_the_link_after_a_byline_label_is_the_name_and_the_text_after_it_is_not() -> None:
    root = parse_html(LINKED_BYLINE)
    [anchor] = root.xpath("//p[@id='first']")
    assert read_metadata(root, anchor=anchor, use_extruct=False).authors == ("A. J. Neal",)
    unlinked = LINKED_BYLINE.replace("<!-- author --> ", "<!-- author --> the ")
    root = parse_html(unlinked)
    [anchor] = root.xpath("//p[@id='first']")
    assert read_metadata(root, anchor=anchor, use_extruct=False).authors == ()


BANNER_HEADLINE = """<html><body><div class="site"><header class="site-header"><nav>
<h1 class="global-logo"><a href="/">Bayou Magazine</a></h1><a href="/news">News</a></nav>
</header><main><article class="story"><header class="story-header"><h2>Cycling the bayou</h2>
<p><span>By <a href="/producers/dana-reyes">Dana Reyes</a></span> <span>April 12, 2024</span></p>
</header><section class="story-main"><div class="body"><figure><figcaption><div><p id="first">
Riders on the trail at dawn, before the heat of the day sets in.</p></div></figcaption></figure>
</div></section></article></main></div></body></html>"""


@pytest.mark.parametrize(
    "banner",
    [
        '<h1 class="global-logo"><a href="/">Bayou Magazine</a></h1>',
        '<h1><a href="https://bayou.example/">Bayou Magazine</a></h1>',
        '<a href="/"><div><h1>Bayou Magazine</h1></div></a>',
    ],
)
def test_the_sites_name_in_an_h1_is_no_headline_and_the_article_holds_the_byline(
    banner: str,
) -> None:
    html = BANNER_HEADLINE.replace(
        '<h1 class="global-logo"><a href="/">Bayou Magazine</a></h1>', banner
    )
    root = parse_html(html)
    [anchor] = root.xpath("//p[@id='first']")
    found = read_metadata(root, anchor=anchor, use_extruct=False)
    assert (found.authors, found.published) == (("Dana Reyes",), "2024-04-12")


HERO_HEADLINE = """<html><body><section class="hero"><div><h1>Marathon plan for beginners</h1>
</div></section><section class="content"><div><div class="card"><p>Written by</p>
<p>Matteo Laratta</p></div><div class="rich-text"><p id="first">Ten weeks take a runner from
the couch to the finish line, one long run a week.</p></div></div></section></body></html>"""


def test_the_byline_by_the_articles_start_when_the_headline_stands_apart() -> None:
    root = parse_html(HERO_HEADLINE)
    [anchor] = root.xpath("//p[@id='first']")
    assert read_metadata(root, anchor=anchor, use_extruct=False).authors == ("Matteo Laratta",)


def test_a_dateline_with_a_label_word_names_no_one() -> None:
    html = HERO_HEADLINE.replace(
        "<p>Written by</p>\n<p>Matteo Laratta</p>",
        "<p>Von Montag, den 1. Mai bis Sonntag, den 7. Mai 2023</p>",
    )
    root = parse_html(html)
    [anchor] = root.xpath("//p[@id='first']")
    assert read_metadata(root, anchor=anchor, use_extruct=False).authors == ()


@pytest.mark.parametrize(
    ("value", "names"),
    [
        ("Rachel MacDonald Writer", ["Rachel MacDonald"]),
        ("Keith Barry Senior Autos Reporter", ["Keith Barry"]),
        ("Matt Check, Co-Founder", ["Matt Check"]),
        ("Liza Burke, Marketing Director", ["Liza Burke"]),
        ("Mateusz Haberny, Founder at Oakywood", ["Mateusz Haberny"]),
        ("Ann Lee and Bo Park, Extension horticulture educators", ["Ann Lee", "Bo Park"]),
        ("Emily Post", ["Emily Post"]),  # one word before the role word: a surname
        ("The Diggs Team", ["The Diggs Team"]),  # an organisation's role word stays
        ("British Heart Foundation", ["British Heart Foundation"]),
        ("View more posts", []),
        ("Sign In", []),
        ("Name *", []),
    ],
)
def test_roles_after_names_and_account_or_form_labels_are_no_names(
    value: str, names: list[str]
) -> None:
    assert split_names(value) == names


@pytest.mark.parametrize(
    ("value", "names"),
    [
        ("Recipe by PJ Hamel", ["PJ Hamel"]),  # any one word before "by" labels the byline
        ("Photo by Jane Roe", []),
        ("By Ana Silva | Photos by Jane Roe", ["Ana Silva"]),
        ("Sat, 20 Dec, 2025 - 06:36", []),  # a weekday left of a date is no name
    ],
)
def test_labels_credits_and_date_words_around_bylines(value: str, names: list[str]) -> None:
    assert split_names(value) == names


AUTHOR_BOX_UNDER_HEADLINE = """<html><body><div class="page">
<section class="hero"><div><div><div><div><h1>Pros and cons of consulting</h1>
</div></div></div></div></section>
<section class="meta"><div><div><div class="author-box"><img src="/liz.jpg" alt="">
<h4 class="author-box__name">Liz Kenny</h4></div></div></div></section>
<section class="body"><div><div><div><div><p id="first">Consulting pays well and teaches
a lot, but the hours are long.</p></div></div></div></div></section>
<section class="more"><div class="author">Cy Diaz</div></section></div></body></html>"""


def test_an_author_box_between_the_headlines_block_and_the_articles_names_the_author() -> None:
    assert page_authors(AUTHOR_BOX_UNDER_HEADLINE, "first") == ("Liz Kenny",)


def test_an_author_box_far_below_the_headline_is_not_read() -> None:
    filler = "".join(f"<p>Line {number}.</p>" for number in range(80))
    html = AUTHOR_BOX_UNDER_HEADLINE.replace(
        '<section class="meta">', f'<div>{filler}</div><section class="meta">'
    )
    assert page_authors(html, "first") == ()


JOB_TITLE_BYLINE = """<html><body><article><h1>Top e-learning companies</h1>
<div class="post-author"><div class="author-name"><span>By </span><a href="/a/sofia">Sofia
Kondrat</a></div><div class="author-title">EdTech Content writer</div></div>
<p id="first">These companies build the tools schools use every day.</p></article>
</body></html>"""


def test_the_authors_job_title_beside_the_name_is_no_name() -> None:
    assert page_authors(JOB_TITLE_BYLINE, "first") == ("Sofia Kondrat",)


def test_an_author_meta_with_a_vendors_prefix() -> None:
    html = (
        '<html><head><meta property="cXenseParse:author" content="Harry Rabinowitz">'
        "</head><body><p>Text.</p></body></html>"
    )
    assert read_metadata(parse_html(html), use_extruct=False).authors == ("Harry Rabinowitz",)


PUNBB_THREAD = """<html><body><h1>Boards</h1><div class="blockpost"><h2>#1 2025-11-01</h2>
<div class="postleft"><dl><dt><strong>k.mori</strong></dt><dd>Member</dd></dl></div>
<div class="postright"><p id="first">Why did the image grow from 800 MB to 1.4 GB?</p></div>
</div><div class="blockpost"><div class="postleft"><dl><dt><strong>tlee</strong></dt></dl>
</div><div class="postright"><p>Firmware.</p></div></div></body></html>"""
FLARUM_THREAD = """<html><body><div class="container"><h1>Threads as a discussion engine</h1>
<div><article><div class="PostUser"><h3 class="PostUser-name">oskar_v</h3></div>
<div class="Post-body"><p id="first">Could threads have types, like questions?</p></div>
</article><article><div class="PostUser"><h3 class="PostUser-name">mira</h3></div>
<div class="Post-body"><p>Tags do that.</p></div></article></div></div></body></html>"""
SMF_THREAD = """<html><body><div id="display_head"><h2>AI in forums</h2></div>
<div class="post_wrapper"><div class="poster"><h4><span class="off" title="Offline"></span>
<a href="/profile/7">Green Labs</a></h4></div><div class="postarea"><p id="first">How do you
use it?</p></div></div><div class="post_wrapper"><div class="poster"><h4><a href="/profile/9">
dana</a></h4></div><div class="postarea"><p>We do not.</p></div></div></body></html>"""


@pytest.mark.parametrize(
    ("html", "starter"),
    [(PUNBB_THREAD, "k.mori"), (FLARUM_THREAD, "oskar_v"), (SMF_THREAD, "Green Labs")],
)
def test_a_forum_threads_first_poster_without_a_username_class(html: str, starter: str) -> None:
    """punBB and FluxBB, Flarum's page for crawlers, SMF: the first post's author only."""
    assert page_authors(html, "first") == (starter,)


def test_a_definition_list_outside_a_posts_profile_names_no_one() -> None:
    html = PUNBB_THREAD.replace('class="postleft"', 'class="glossary"')
    assert page_authors(html, "first") == ()


@pytest.mark.parametrize(
    ("byline", "names"),
    [
        ("<p><strong>By:</strong> Ana Lima | March 3</p>", ("Ana Lima",)),
        ("<div><strong>Written by</strong> <br><strong><a>Bo Chen</a></strong></div>",
         ("Bo Chen",)),
        ("<div><span>Written by:</span><picture><img src='a.jpg'></picture><span>Cy Diaz</span>"
         "</div>", ("Cy Diaz",)),
        ("<p><b>By</b><br>Dee Ng</p>", ("Dee Ng",)),
        ("<pre><span>BY</span><span> </span><span>DEFAULT</span></pre>", ()),
    ],
)  # fmt: skip
def test_the_name_after_a_label_alone(byline: str, names: tuple[str, ...]) -> None:
    """The label's own tail, else the next element's text, line breaks and pictures passed
    over; a space between two words of code is no name's place."""
    html = (
        f"<html><body><main><div><h1>Otters return</h1>{byline}"
        "<p id='first'>The otters are back in the river after twenty years.</p>"
        "</div></main></body></html>"
    )
    assert page_authors(html, "first") == names


def login_page(login: str, byline: str) -> str:
    return (
        f'<html><head><meta name="author" content="{login}"></head><body><main><div>'
        f"<h1>Otters return</h1>{byline}<p id='first'>The otters are back in the river after"
        " twenty years.</p></div></main></body></html>"
    )


@pytest.mark.parametrize("login", ["andrew.keaveney", "ana_lima", "KatieS"])
def test_a_publishing_systems_user_name_yields_to_the_byline_naming_a_person(login: str) -> None:
    html = login_page(login, "<p class='byline'>By Denise Everheart</p>")
    assert page_authors(html, "first") == ("Denise Everheart",)


@pytest.mark.parametrize(
    ("login", "byline"),
    [
        ("andrew.keaveney", ""),  # nothing else: the user name stays
        ("hayley.p", "<p class='username'>alison100</p>"),  # a forum's users: no person
        ("Anna Weber", "<p class='byline'>By Denise Everheart</p>"),  # a name, not a login
    ],
)
def test_a_user_name_or_a_name_stays_without_a_persons_byline_after_it(
    login: str, byline: str
) -> None:
    assert page_authors(login_page(login, byline), "first") == (login,)


AUTHOR_PAGE_LINK = """<html><body><section class="hero"><div><h1>Mesh Wi-Fi explained</h1>
</div></section><div class="meta"><img src="/a.png"><a href="{href}">{name}</a></div>
<section class="content"><div><div class="rich-text"><p id="first">A mesh network spreads
one Wi-Fi network over several access points around the home.</p></div></div></section>
</body></html>"""


@pytest.mark.parametrize(
    ("href", "name", "names"),
    [
        ("https://news.example/hub/author/ana-lima/", "Ana Lima", ("Ana Lima",)),
        ("/blog/authors/bo-chen?ref=byline#top", "Bo Chen", ("Bo Chen",)),
        ("/author/ana-lima/", "see all posts", ()),  # no name in its text
        ("/authors/", "Ana Lima", ()),  # the list of authors, not one's page
        ("/topics/ana-lima/", "Ana Lima", ()),
    ],
)
def test_a_link_to_the_authors_page_under_the_headline_names_the_author(
    href: str, name: str, names: tuple[str, ...]
) -> None:
    """A byline with no class nor ``rel`` naming it: the link to the author's page
    (``/author/<name>/``) is the name."""
    assert page_authors(AUTHOR_PAGE_LINK.format(href=href, name=name), "first") == names
