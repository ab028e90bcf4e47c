"""``scrapy boilerplate`` and a CrawlerProcess crawl on Scrapy's default (asyncio) reactor.

Both run in subprocesses: the command through the ``scrapy.commands`` entry point, the crawl
because a CrawlerProcess owns its reactor.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import integration_support
import pytest
from integration_support import SITE, make_project
from pipe_support import LONG_PAGE_EXTRACTOR, first_bytes_then_close, write_long_page

from scrapy_boilerplate import extract
from scrapy_boilerplate.output.stdout import CLOSED_PIPE_STATUS

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


def test_command_prints_markdown_or_clean_html(tmp_path: Path) -> None:
    page = Path(__file__).parent / "fixtures" / "structure" / "table.html"
    done = run("boilerplate", str(page), "--format", "markdown", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("# Ferry timetable changes\n\nThe ferry company")
    assert "\n| Saturday | 05:50 | 20:30 |\n" in done.stdout
    done = run("boilerplate", str(page), "--format", "html", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "<tr><td>Saturday</td><td>05:50</td><td>20:30</td></tr>" in done.stdout
    done = run("boilerplate", str(page), "--format", "html", "--json", cwd=tmp_path)
    assert done.returncode == 2 and "--json contradicts --format html" in done.stderr


def test_command_fetches_a_url(site: str, tmp_path: Path) -> None:
    done = run(
        "boilerplate", site + "gzip/legacy-cp1251.html", "--extractor", "numwords", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert "Title: Письмо от газеты-партнёра" in done.stdout
    assert "на реке снова появились выдры" in done.stdout


def test_command_follows_redirects_and_shows_status_and_chain(site: str, tmp_path: Path) -> None:
    start = site + "redirect/redirect/article.html"
    done = run("boilerplate", start, "--extractor", "numwords", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1] == f"Extractor: numwords  URL: {site}article.html"
    assert lines[2] == (
        f"Status: 200 (redirected from {start} (301) -> {site}redirect/article.html (301))"
    )
    assert extract((SITE / "article.html").read_bytes(), extractor="numwords").text in done.stdout


def test_command_json_reports_the_response(site: str, tmp_path: Path) -> None:
    done = run("boilerplate", site + "redirect/article.html", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    response = json.loads(done.stdout)["response"]
    assert response == {
        "url": site + "article.html",
        "status": 200,
        "redirects": [{"url": site + "redirect/article.html", "status": 301}],
    }


def test_command_stops_at_redirects_when_the_project_disables_them(
    site: str, tmp_path: Path
) -> None:
    done = run(
        "boilerplate", site + "redirect/article.html", "-s", "REDIRECT_ENABLED=0", cwd=tmp_path
    )
    assert done.returncode == 1
    assert f"error: HTTP status 301 (a redirect not followed) from {site}redirect/" in done.stderr


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


@pytest.mark.parametrize(
    ("path", "args", "message"),
    [
        ("redirect/missing.html", [], "error: HTTP status 404 from {site}missing.html (redirected"),
        ("document.pdf", [], "error: {site}document.pdf is not HTML (application/pdf)"),
        ("plain-html.txt", [], "is not HTML (text/plain)"),
        (
            "article.html",
            ["-s", "BOILERPLATE_MAX_BODY_SIZE=1000"],
            "over BOILERPLATE_MAX_BODY_SIZE=1000",
        ),
        ("article.html", ["-s", "DOWNLOAD_MAXSIZE=1000"], "larger than download max size (1000)"),
    ],
)
def test_command_fails_where_a_crawl_would_not_extract(
    site: str, tmp_path: Path, path: str, args: list[str], message: str
) -> None:
    done = run("boilerplate", site + path, *args, cwd=tmp_path)
    assert done.returncode == 1
    assert message.format(site=site) in done.stderr
    assert done.stdout == ""


def test_command_sniffs_text_like_the_crawl(site: str, tmp_path: Path) -> None:
    done = run(
        "boilerplate", site + "plain-html.txt", "-s", "BOILERPLATE_SNIFF_TEXT=1", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr


def test_command_reports_a_download_failure_in_one_line(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}/page.html"
    done = run("boilerplate", url, "-s", "RETRY_ENABLED=0", cwd=tmp_path)
    assert done.returncode == 1
    (line,) = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert line.startswith(f"error: could not download {url}: ")
    assert "ConnectionRefusedError: " in line  # Download... in Scrapy 2.19, Twisted's before


def test_a_refused_connection_with_robots_txt_obeyed_shows_no_traceback(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}/page.html"
    done = run("boilerplate", url, "-s", "RETRY_ENABLED=0", "-s", "ROBOTSTXT_OBEY=1", cwd=tmp_path)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1].startswith(f"error: could not download {url}: ")


def test_command_rejects_a_file_that_is_not_html(tmp_path: Path) -> None:
    script = tmp_path / "spider.py"
    script.write_text("import scrapy\n\nprint('<p>not a page</p>')\n", encoding="utf-8")
    done = run("boilerplate", str(script), cwd=tmp_path)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        f"error: {script} is not HTML (no .html name, and no <html>, <head> or <body> in its"
        " first KiB)\n"
    )
    fragment = tmp_path / "fragment.html"
    fragment.write_text("<p>" + "A sentence of a paragraph. " * 10 + "</p>", encoding="utf-8")
    assert run("boilerplate", str(fragment), cwd=tmp_path).returncode == 0


SPIDERS = """
import scrapy


class Forum(scrapy.Spider):
    name = "forum"
    custom_settings = {"BOILERPLATE_EXTRACTOR": "keep-everything"}

    def __init__(self, section="all", **kwargs):
        super().__init__(**kwargs)
        self.section = section


class Patterned(scrapy.Spider):
    name = "patterned"

    @classmethod
    def update_settings(cls, settings):
        super().update_settings(settings)
        settings.set("BOILERPLATE_DOMAIN_OVERRIDES", {"127.0.0.1/gzip/": "density"}, "spider")
"""


@pytest.mark.parametrize(
    ("spider", "path", "extractor"),
    [
        ([], "article.html", "numwords"),
        (["--spider", "forum", "-a", "section=news"], "article.html", "keep-everything"),
        (["--spider", "patterned"], "gzip/article.html", "density"),
        (["--spider", "patterned"], "article.html", "numwords"),
    ],
)
def test_command_uses_the_spiders_settings(
    site: str, tmp_path: Path, spider: list[str], path: str, extractor: str
) -> None:
    project = make_project(tmp_path, SPIDERS, 'BOILERPLATE_EXTRACTOR = "numwords"\n')
    done = run("boilerplate", site + path, *spider, cwd=project)
    assert done.returncode == 0, done.stderr
    assert f"Extractor: {extractor}  URL: {site}{path}" in done.stdout


def test_command_rejects_an_unknown_spider(tmp_path: Path) -> None:
    project = make_project(tmp_path, SPIDERS)
    done = run("boilerplate", str(SITE / "article.html"), "--spider", "nope", cwd=project)
    assert done.returncode == 2
    assert "no spider named 'nope'" in done.stderr


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


def test_a_mistyped_extractor_is_one_line_naming_the_option_given(tmp_path: Path) -> None:
    done = run("boilerplate", str(SITE / "article.html"), "--extractor", "artcle", cwd=tmp_path)
    assert done.returncode == 2
    [line] = done.stderr.splitlines()
    assert line.startswith(
        "error: --extractor: unknown extractor 'artcle' (did you mean 'article'?"
    )
    assert "meta[" not in line


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


@pytest.mark.parametrize("output", ["text", "html"])
def test_command_output_piped_to_a_reader_that_stops_early(tmp_path: Path, output: str) -> None:
    page = write_long_page(tmp_path / "long.html")
    command = [*SCRAPY, "boilerplate", str(page), "--format", output, *LONG_PAGE_EXTRACTOR]
    start, status, stderr = first_bytes_then_close(command, tmp_path)
    assert start.strip() and "Traceback" not in stderr and "BrokenPipeError" not in stderr
    assert status == CLOSED_PIPE_STATUS
