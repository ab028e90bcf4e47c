"""``@boilerplate`` for ``scrapy check``, and ``scrapy parse -o`` (subprocesses in a project)."""

from __future__ import annotations

import json
from pathlib import Path

import integration_support
import pytest
from integration_support import SITE, make_project
from integration_support import run_scrapy as scrapy

from scrapy_boilerplate import extract

site = integration_support.site  # the local fixture site (a pytest fixture)

SPIDERS = '''
import scrapy


class Article(scrapy.Spider):
    name = "article"

    def parse(self, response):
        """
        @url {site}redirect/article.html
        @boilerplate
        @returns items 1 1
        @scrapes url article_text article_title
        """
        yield {{"url": response.url}}


class Pdf(scrapy.Spider):
    name = "pdf"

    def parse(self, response):
        """
        @url {site}document.pdf
        @boilerplate
        @scrapes article_text
        """
        yield {{"url": response.url}}


class Undeclared(scrapy.Spider):
    name = "undeclared"

    def parse(self, response):
        """
        @url {site}article.html
        @scrapes article_text
        """
        yield {{"url": response.url}}
'''


@pytest.fixture(scope="module")
def project(site: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_project(tmp_path_factory.mktemp("contracts"), SPIDERS.format(site=site))


def test_check_passes_with_the_article_fields(project: Path) -> None:
    done = scrapy(project, "check", "article")
    assert done.returncode == 0, done.stderr
    assert "Ran 4 contracts" in done.stderr and "OK" in done.stderr


def test_check_fails_when_the_page_has_no_article(project: Path) -> None:
    done = scrapy(project, "check", "pdf")
    assert done.returncode == 1
    assert "FAIL: [pdf] parse (@boilerplate pre-hook)" in done.stderr
    assert "no article extracted from " in done.stderr
    assert "document.pdf: not HTML (application/pdf)" in done.stderr
    assert "Missing fields: article_text" in done.stderr


def test_without_the_contract_check_never_sees_the_fields(project: Path) -> None:
    done = scrapy(project, "check", "undeclared")
    assert done.returncode == 1
    assert "Missing fields: article_text" in done.stderr


def test_parse_with_an_output_feed_fills_the_items(project: Path, site: str) -> None:
    out = project / "items.jsonl"
    done = scrapy(
        project, "parse", "--spider", "article", "--nocolour", site + "article.html", "-o", str(out)
    )
    assert done.returncode == 0, done.stderr
    expected = extract((SITE / "article.html").read_bytes()).title
    assert f"'article_title': {expected!r}" in done.stdout
    (item,) = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert item["article_title"] == expected and item["article_text"]
