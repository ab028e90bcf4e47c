"""A new user's first hour, scripted: ``scrapy startproject``, the README's one ``ADDONS`` line,
a crawl of local pages into a feed (``-O``), the ``scrapy boilerplate`` command, a mistyped
setting name, a bad setting value with and without ``--nolog``: the exit statuses and the exact
lines a user reads. Subprocesses, as a user runs them; the pages come from the local site."""

from __future__ import annotations

import json
from pathlib import Path

import integration_support
import pytest
from integration_support import SITE
from integration_support import run_scrapy as scrapy

from scrapy_boilerplate import extract
from scrapy_boilerplate.extractors.builtin import BUILTIN_EXTRACTORS

site = integration_support.site  # the local fixture site (a pytest fixture)

PAGES = ("article.html", "structured.html")
SPIDER = """
import scrapy


class ArticlesSpider(scrapy.Spider):
    name = "articles"
    start_urls = {urls!r}

    def parse(self, response):
        yield {{"url": response.url}}
"""
#: Scrapy's project template asks for a second between requests; the test does not wait.
NO_DELAY = ("-s", "DOWNLOAD_DELAY=0")
#: The extractors a fresh ``scrapy`` process knows (other tests register more in this one).
KNOWN = ", ".join(sorted(spec.name for spec in BUILTIN_EXTRACTORS))


@pytest.fixture(scope="module")
def project(site: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``scrapy startproject news`` with the README's line and a spider of the local pages."""
    root = tmp_path_factory.mktemp("first-hour")
    done = scrapy(root, "startproject", "news")
    assert done.returncode == 0, done.stderr
    project = root / "news"
    with (project / "news" / "settings.py").open("a", encoding="utf-8") as settings:
        settings.write('\nADDONS = {"scrapy_boilerplate.Addon": 300}\n')
    urls = [site + page for page in PAGES]
    spider = SPIDER.format(urls=urls)
    (project / "news" / "spiders" / "articles.py").write_text(spider, encoding="utf-8")
    return project


def test_a_crawl_into_a_feed_has_the_article_fields(project: Path, site: str) -> None:
    done = scrapy(project, "crawl", "articles", "-O", "articles.jsonl", *NO_DELAY)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "] ERROR:" not in done.stderr
    assert "[scrapy_boilerplate] INFO: scrapy-boilerplate: extractor 'article'" in done.stderr
    lines = (project / "articles.jsonl").read_text(encoding="utf-8").splitlines()
    items = {item["url"]: item for item in map(json.loads, lines)}
    assert sorted(items) == sorted(site + page for page in PAGES)
    for page in PAGES:
        expected = extract((SITE / page).read_bytes(), site + page, metadata=True)
        assert items[site + page]["article_text"] == expected.text and expected.text
        assert items[site + page]["article_title"] == expected.title


def test_the_command_shows_the_page_a_crawl_stores(project: Path, site: str) -> None:
    done = scrapy(project, "boilerplate", site + "article.html")
    assert (done.returncode, done.stderr) == (0, "")
    expected = extract((SITE / "article.html").read_bytes(), site + "article.html", metadata=True)
    assert done.stdout.startswith(f"Title: {expected.title}\nExtractor: article  URL: {site}")
    assert expected.text in done.stdout


def test_a_mistyped_extractor_in_the_command_is_one_line(project: Path, site: str) -> None:
    done = scrapy(project, "boilerplate", site + "article.html", "--extractor", "artcle")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        f"error: --extractor: unknown extractor 'artcle' (did you mean 'article'? known: {KNOWN})\n"
    )


def test_a_mistyped_setting_name_is_warned_about_once(project: Path) -> None:
    args = ("-s", "BOILERPLATE_EXTRACTER=numwords", "-O", "typo.jsonl", *NO_DELAY)
    done = scrapy(project, "crawl", "articles", *args)
    assert done.returncode == 0, done.stderr
    warnings = [line for line in done.stderr.splitlines() if "BOILERPLATE_EXTRACTER" in line]
    assert len(warnings) == 1
    assert warnings[0].endswith(
        " [scrapy_boilerplate] WARNING: Unknown setting BOILERPLATE_EXTRACTER is ignored"
        " (did you mean BOILERPLATE_EXTRACTOR?)"
    )


@pytest.mark.parametrize("nolog", [False, True], ids=["logging", "nolog"])
def test_a_bad_setting_value_is_one_line_on_stderr(project: Path, nolog: bool) -> None:
    args = ["-s", "BOILERPLATE_EXTRACTOR=artcle", *(["--nolog"] if nolog else [])]
    done = scrapy(project, "crawl", "articles", *args)
    assert done.returncode == 1
    line = (
        "scrapy-boilerplate: error: BOILERPLATE_EXTRACTOR/BOILERPLATE_OPTIONS: unknown extractor"
        f" 'artcle' (did you mean 'article'? known: {KNOWN})"
    )
    if nolog:
        assert done.stderr == line + "\n"
    else:
        assert line in done.stderr.splitlines() and "Traceback" not in done.stderr


def test_a_quiet_crawl_prints_nothing(project: Path) -> None:
    done = scrapy(project, "crawl", "articles", "--nolog", "-O", "quiet.jsonl", *NO_DELAY)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert len((project / "quiet.jsonl").read_text(encoding="utf-8").splitlines()) == len(PAGES)
