"""``scrapy boilerplate`` and a CrawlerProcess crawl on Scrapy's default (asyncio) reactor.

Both run in subprocesses: the command through the ``scrapy.commands`` entry point, the crawl
because a CrawlerProcess owns its reactor.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import integration_support
import pytest
from integration_support import SITE

from scrapy_boilerplate import extract

site = integration_support.site  # the local fixture site (a pytest fixture)
SCRAPY = [sys.executable, "-m", "scrapy"]


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*SCRAPY, *args], cwd=cwd, capture_output=True, text=True, timeout=120, check=False
    )


def test_command_prints_title_and_text(tmp_path: Path) -> None:
    page = SITE / "article.html"
    done = run("boilerplate", str(page), "--extractor", "numwords", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    api = extract(page.read_bytes(), extractor="numwords")
    assert done.stdout.startswith(f"Title: {api.title}\n")
    assert api.text in done.stdout


def test_command_json_and_highlight(tmp_path: Path) -> None:
    page = SITE / "article.html"
    out = tmp_path / "marked.html"
    done = run(
        "boilerplate",
        str(page),
        "--extractor",
        "numwords",
        "--json",
        "--highlight",
        str(out),
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    api = extract(page.read_bytes(), extractor="numwords")
    assert data["text"] == api.text
    assert data["extractor"] == "numwords"
    assert [b["is_content"] for b in data["blocks"]] == [b.is_content for b in api.blocks]
    assert all(isinstance(b["labels"], list) for b in data["blocks"])
    marked = out.read_text(encoding="utf-8")
    content_marks = marked.count("boilerplate-content")
    assert content_marks >= 1
    assert marked.count("boilerplate-noise") >= 1
    assert content_marks <= len(api.content_blocks) + 1  # one per element, plus the <style> rule


def test_command_fetches_a_url(site: str, tmp_path: Path) -> None:
    done = run(
        "boilerplate", site + "gzip/legacy-cp1251.html", "--extractor", "numwords", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert "Title: Письмо от газеты-партнёра" in done.stdout
    assert "на реке снова появились выдры" in done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--extractor", "no-such"], "unknown extractor"),
        (["-s", "BOILERPLATE_EXTRACTOR=no-such"], "BOILERPLATE_EXTRACTOR"),
    ],
)
def test_command_rejects_bad_configuration(tmp_path: Path, args: list[str], message: str) -> None:
    done = run("boilerplate", str(SITE / "article.html"), *args, cwd=tmp_path)
    assert done.returncode != 0
    assert message in done.stderr


def test_crawler_process_with_default_reactor_and_threads(site: str, tmp_path: Path) -> None:
    script = tmp_path / "crawl.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import json
            import scrapy
            from scrapy.crawler import CrawlerProcess
            from scrapy_boilerplate import article_of

            class Spider(scrapy.Spider):
                name = "s"
                start_urls = [{site + "article.html"!r}, {site + "gzip/broken.html"!r},
                              {site + "document.pdf"!r}]

                def parse(self, response):
                    yield {{"url": response.url, "has_article": article_of(response) is not None}}

            process = CrawlerProcess({{
                "ADDONS": {{"scrapy_boilerplate.Addon": 300}},
                "BOILERPLATE_EXTRACTOR": "numwords",
                "BOILERPLATE_THREADS": 2,
                "LOG_LEVEL": "ERROR",
                "TELNETCONSOLE_ENABLED": False,
            }})
            crawler = process.create_crawler(Spider)
            items = []

            def keep(item):
                items.append(item)

            crawler.signals.connect(keep, signal=scrapy.signals.item_scraped)
            process.crawl(crawler)
            process.start()
            from twisted.internet import reactor
            stats = crawler.stats.get_stats()
            print(json.dumps({{
                "reactor": type(reactor).__name__,
                "items": items,
                "stats": {{k: v for k, v in stats.items() if k.startswith("boilerplate/")
                           and "time" not in k}},
            }}))
            """
        ),
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["reactor"] == "AsyncioSelectorReactor"
    by_url = {item["url"]: item for item in report["items"]}
    assert len(by_url) == 3
    assert (
        by_url[site + "article.html"]["article_text"]
        == extract((SITE / "article.html").read_bytes(), extractor="numwords").text
    )
    assert by_url[site + "gzip/broken.html"]["has_article"] is True
    assert "article_text" not in by_url[site + "document.pdf"]
    assert report["stats"]["boilerplate/responses/processed"] == 2
    assert report["stats"]["boilerplate/responses/skipped/non_html"] == 1
    assert report["stats"]["boilerplate/items/enriched"] == 2
