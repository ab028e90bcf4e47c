"""The demo news sites: enough varied pages, a truth that is on the page, a host-routing server."""

from __future__ import annotations

import json
import urllib.request
from collections import Counter
from pathlib import Path

from example_support import EXAMPLE_PROJECT  # noqa: F401 - puts example_project on sys.path

# isort: split

from demo_site.generator import SITES, build_pages, generate
from demo_site.server import DemoSiteServer
from lxml import etree, html
from newsroom.scoring import token_f1, tokens


def test_sites_have_three_layouts_and_at_least_60_articles() -> None:
    pages, articles = build_pages()
    kinds = Counter(page.kind for page in pages)
    assert len({site.layout for site in SITES}) >= 3
    assert kinds["article"] == len(articles) >= 60
    assert kinds["listing"] >= 3 * len(SITES) and kinds["feed"] == kinds["robots"] == len(SITES)
    assert len({article.url for article in articles}) == len(articles)


def test_generation_is_deterministic() -> None:
    first, _ = build_pages(seed=3)
    second, _ = build_pages(seed=3)
    other, _ = build_pages(seed=4)
    assert [p.body for p in first] == [p.body for p in second]
    assert [p.body for p in first] != [p.body for p in other]


def test_truth_is_on_the_page_with_boilerplate_around_it() -> None:
    pages, articles = build_pages()
    by_url = {f"http://{p.host}{p.path}": p for p in pages}
    for article in articles:
        page = by_url[article.url]
        text = " ".join(html.fromstring(page.body).itertext())
        scores = token_f1(text, article.truth_text)
        assert scores.recall == 1.0  # every true token is on the page
        assert scores.precision < 0.7  # ...and plenty of boilerplate besides
        assert all(comment.text.split()[0] in text for comment in article.comments)


def test_feeds_and_sitemaps_list_the_articles() -> None:
    pages, articles = build_pages()
    urls = {a.url for a in articles}
    in_sitemaps: set[str] = set()
    for page in pages:
        if page.kind == "sitemap":
            root = etree.fromstring(page.body)
            in_sitemaps |= {loc.text for loc in root.iter("{*}loc")}
        if page.kind == "feed":
            links = etree.fromstring(page.body).xpath("//item/link/text()")
            assert links and all("utm_source=rss" in link for link in links)
    assert urls <= in_sitemaps


def test_server_routes_by_host_and_proxy_request(tmp_path: Path) -> None:
    generate(tmp_path)
    truth = json.loads((tmp_path / "truth.json").read_text())
    url = next(iter(truth))
    with DemoSiteServer(tmp_path) as server:
        proxy = urllib.request.ProxyHandler({"http": server.proxy_url})
        body = urllib.request.build_opener(proxy).open(url, timeout=5).read()
        host = url.split("/")[2]
        path = url.split(host, 1)[1]
        request = urllib.request.Request(
            f"http://127.0.0.1:{server.port}{path}", headers={"Host": host}
        )
        assert urllib.request.urlopen(request, timeout=5).read() == body
        try:
            urllib.request.build_opener(proxy).open(f"http://{host}/no-such-page", timeout=5)
        except urllib.error.HTTPError as error:
            assert error.code == 404
        else:
            raise AssertionError("expected a 404")
        assert server.hits == {"article": 2, "missing": 1}
    assert set(tokens(truth[url]["title"])) <= set(tokens(body.decode("latin-1")))
