"""The scrapy-boilerplate command line."""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

import pytest
from pipe_support import LONG_PAGE_EXTRACTOR, first_bytes_then_close, write_long_page

from scrapy_boilerplate.cli import main
from scrapy_boilerplate.output.stdout import CLOSED_PIPE_STATUS

ARTICLE = Path(__file__).parent / "fixtures" / "pages" / "article.html"
LISTS = Path(__file__).parent / "fixtures" / "structure" / "nested-lists.html"


def test_extract_prints_title_then_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["extract", str(ARTICLE)]) == 0
    out = capsys.readouterr().out
    title, _, text = out.partition("\n\n")
    assert title == "Harbour bridge reopens after repairs"
    assert "harbour bridge reopened" in text


def test_extract_prints_metadata_after_the_title_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "page.html"
    page.write_text(
        '<html lang="en"><head><title>Otters</title><meta name="author" content="Anna Weber">'
        '<meta name="author" content="Ben Ode"></head><body><p>Text.</p></body></html>',
        encoding="utf-8",
    )
    assert main(["extract", "--metadata", str(page)]) == 0
    head, _, _ = capsys.readouterr().out.partition("\n\n")
    assert head.splitlines() == ["Otters", "authors: Anna Weber; Ben Ode", "language: en"]
    assert main(["extract", "--json", "--no-blocks", str(page)]) == 0
    assert json.loads(capsys.readouterr().out)["metadata"]["authors"] == ["Anna Weber", "Ben Ode"]


def test_extract_json_leaves_missing_metadata_fields_out_as_items_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "page.html"
    page.write_text(
        '<html lang="en"><head><title>Otters</title><meta name="author" content="Anna Weber">'
        "</head><body><p>Text.</p></body></html>",
        encoding="utf-8",
    )
    assert main(["extract", "--json", "--no-blocks", str(page)]) == 0
    metadata = json.loads(capsys.readouterr().out)["metadata"]
    assert metadata == {"authors": ["Anna Weber"], "language": "en"}  # no "modified": null


def test_extract_json_has_blocks(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "extract",
                "--json",
                "--extractor",
                "article-rules",
                "-o",
                "ancestor_depth=3",
                str(ARTICLE),
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["options"]["ancestor_depth"] == 3 and data["blocks"]


def test_bad_option_exits_2_with_message(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["extract", "--extractor", "article-rules", "-o", "ancestor_depth=7", str(ARTICLE)])
        == 2
    )
    assert "ancestor_depth" in capsys.readouterr().err


def test_unreadable_page_is_reported_not_raised(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty.html"
    empty.write_bytes(b"")
    assert main(["extract", str(empty), str(ARTICLE)]) == 1
    captured = capsys.readouterr()
    assert "empty document" in captured.err and "harbour bridge" in captured.out


def test_extract_dir_writes_article_benchmark_predictions(tmp_path: Path) -> None:
    html_dir = tmp_path / "html"
    html_dir.mkdir()
    (html_dir / "a1.html.gz").write_bytes(gzip.compress(ARTICLE.read_bytes()))
    (html_dir / "a2.html").write_bytes(b"")
    out = tmp_path / "pred.json"
    assert main(["extract-dir", str(tmp_path), "--out", str(out), "--quiet"]) == 0
    predictions = json.loads(out.read_text())
    assert set(predictions) == {"a1", "a2"}
    assert predictions["a1"]["headline"] == "Harbour bridge reopens after repairs"
    assert "harbour bridge reopened" in predictions["a1"]["articleBody"]
    assert predictions["a2"]["articleBody"] == "" and "error" in predictions["a2"]


def test_extract_dir_with_jobs(tmp_path: Path) -> None:
    html_dir = tmp_path / "html"
    html_dir.mkdir()
    for n in range(3):
        (html_dir / f"p{n}.html").write_bytes(ARTICLE.read_bytes())
    out = tmp_path / "pred.json"
    assert main(["extract-dir", str(tmp_path), "--out", str(out), "--jobs", "2", "--quiet"]) == 0
    assert len(json.loads(out.read_text())) == 3


def test_extract_markdown_puts_the_title_heading_first_once(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["extract", "--format", "markdown", str(LISTS)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Packing for a week of hiking\n\nA week on the trail")
    assert out.count("# Packing for a week of hiking") == 1  # the page's own <h1>
    assert "\n  1. two bottles of one litre each" in out
    assert (
        main(["extract", "--format", "markdown", "--extractor", "article-learned", str(LISTS)]) == 0
    )
    assert capsys.readouterr().out.startswith("# Packing for a week of hiking\n\n")


def test_extract_markdown_metadata_is_front_matter(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "page.html"
    page.write_text(
        '<html lang="en"><head><title>Otters "at" play</title>'
        '<meta name="author" content="Anna Weber"></head><body><p>Text.</p></body></html>',
        encoding="utf-8",
    )
    assert (
        main(
            ["extract", "--format", "markdown", "--metadata", "--url", "https://e.com/o", str(page)]
        )
        == 0
    )
    assert capsys.readouterr().out.split("\n")[:6] == [
        "---",
        'title: "Otters \\"at\\" play"',
        'url: "https://e.com/o"',
        'authors: ["Anna Weber"]',
        'language: "en"',
        "---",
    ]


def test_extract_html_is_a_clean_page(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["extract", "--format", "html", str(LISTS)]) == 0
    out = capsys.readouterr().out
    assert out.startswith('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n')
    assert "<title>Packing for a week of hiking</title>" in out
    assert "<article>\n<h1>Packing for a week of hiking</h1>\n<p>A week" in out
    assert "<ol>\n<li>two bottles" in out and "<nav" not in out


def test_json_is_an_alias_of_format_json_and_they_must_agree(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["extract", "--format", "json", "--no-blocks", str(ARTICLE)]) == 0
    by_format = json.loads(capsys.readouterr().out)
    assert main(["extract", "--json", "--no-blocks", str(ARTICLE)]) == 0
    assert json.loads(capsys.readouterr().out) == by_format
    assert main(["extract", "--json", "--format", "markdown", str(ARTICLE)]) == 2
    assert "--json contradicts --format markdown" in capsys.readouterr().err


def test_extract_dir_writes_the_body_in_the_format_asked(tmp_path: Path) -> None:
    html_dir = tmp_path / "html"
    html_dir.mkdir()
    (html_dir / "l1.html").write_bytes(LISTS.read_bytes())
    out = tmp_path / "pred.json"
    assert main(["extract-dir", str(tmp_path), "--out", str(out), "--format", "markdown"]) == 0
    body = json.loads(out.read_text())["l1"]["articleBody"]
    assert "\n- Shelter, which matters most" in body and "\n  - a light tent" in body


@pytest.mark.parametrize("output", ["text", "markdown", "html", "json"])
def test_a_reader_closing_the_pipe_ends_the_command_without_a_traceback(
    tmp_path: Path, output: str
) -> None:
    page = write_long_page(tmp_path / "long.html")
    command = [sys.executable, "-m", "scrapy_boilerplate.cli", "extract", str(page)]
    command += LONG_PAGE_EXTRACTOR
    start, status, stderr = first_bytes_then_close([*command, "--format", output], tmp_path)
    assert start.strip() and stderr == ""
    assert status == CLOSED_PIPE_STATUS
